// A local server that exits and leaves a process of its own running (`cmd &` in a wrapper script,
// an npx whose child outlives it): the call it was answering fails at once with why, not at
// timeout_ms (the leftover holds its stdout open), and what it left in its process group is ended
// with it (src/mcp/stdio.ts), as it is when hey closes a server (/reload, exit).
import { afterAll, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { childEnv, StdioTransport } from "../../src/mcp/stdio.ts";
import { tempDir } from "../helpers/e2e.ts";
import { until } from "../helpers/wait.ts";
import { alive } from "../helpers/processes.ts";

const dir = tempDir("hey-leftovers-");
afterAll(() => dir.remove());

test("a server that exits before answering, leaving a process on its stdout: closed at once, its leftover ended", async () => {
  const server = join(dir.path, "server.sh");
  const pidFile = join(dir.path, "leftover.pid");
  // reads the request, starts a process that keeps stdout open, exits without answering
  writeFileSync(server, `#!/bin/sh\nread line\nsleep 300 &\necho $! > '${pidFile}'\nexit 3\n`);
  chmodSync(server, 0o755);
  const t = new StdioTransport({ command: server, args: [], env: {} }, childEnv(process.env, {}));
  let closed = false;
  t.onclose = () => void (closed = true);
  await t.start();
  await t.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
  await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"), "the leftover's pid");
  const leftover = Number(readFileSync(pidFile, "utf8"));
  try {
    await until(() => closed, "the transport to close after the server's exit", 10_000);
    expect(t.exitReason).toBe("exited with code 3");
    // hey drops a connection whose server exited without closing it: its leftovers end with it
    await until(() => !alive(leftover), "the leftover to be ended", 10_000);
  } finally {
    if (alive(leftover)) process.kill(leftover, "SIGKILL");
  }
});

test("closing a server ends what it started in its group, also what outlives its SIGTERM", async () => {
  const server = join(dir.path, "stubborn.sh");
  const pidFile = join(dir.path, "stubborn.pid");
  // a child that ignores SIGTERM, while the server itself ends on it
  writeFileSync(server, `#!/bin/sh\nsh -c 'trap "" TERM; echo $$ > "${pidFile}"; while :; do sleep 1; done' &\nwait\n`);
  chmodSync(server, 0o755);
  const t = new StdioTransport({ command: server, args: [], env: {} }, childEnv(process.env, {}));
  await t.start();
  await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"), "the child's pid");
  const child = Number(readFileSync(pidFile, "utf8"));
  try {
    await t.close();
    await until(() => !alive(child), "the child to be ended", 10_000);
  } finally {
    if (alive(child)) process.kill(child, "SIGKILL");
  }
});
