// Issue 13 row 5: `kill -TERM` or a closed terminal (SIGHUP) during a tool call ends a one-shot
// run like Ctrl-C — the turn aborted, the command's whole process group killed, the session
// flushed — and hey exits 143 / 129. Through the compiled binary against a local mock model.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SIGNAL_REASON } from "../../src/ui/signals.ts";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { killMarked, marker, processes, waitForGroup } from "../helpers/processes.ts";

let server: ModelServer;
let root: ReturnType<typeof tempDir>;
let command = "";
const leftovers: string[] = [];
beforeAll(() => {
  server = startModelServer(() => ({ calls: [["bash", { command }]] }));
  root = tempDir("hey-signals-");
});
afterEach(() => killMarked(leftovers.splice(0)));
afterAll(() => {
  server.stop();
  root.remove();
});

test.each([
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const)(
  "%s during a tool call: the tool's process group is killed, the session saved, exit %d",
  async (signal, code) => {
    const m = marker();
    leftovers.push(m);
    command = `sleep ${m} & sleep ${m}; echo never`; // a background child in the group, and the shell waiting
    const state = join(root.path, signal);
    const hey = Bun.spawn([await ensureBinary(), "--base-url", server.baseUrl, "-m", "m", "-p", "build it"], {
      cwd: root.path,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root.path, XDG_STATE_HOME: state, XDG_CACHE_HOME: join(root.path, "cache"), NO_COLOR: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      timeout: 20_000,
    });
    const pgid = await waitForGroup(m, 10_000);
    expect(processes().filter((p) => p.pgid === pgid).length).toBeGreaterThanOrEqual(2);
    const sent = performance.now();
    hey.kill(signal);
    expect(await hey.exited).toBe(code);
    const stderr = await hey.stderr.text();
    expect(stderr.split("\n")).toContain(SIGNAL_REASON[signal]); // what happened, on its own line: not an error
    expect(stderr).not.toContain("error:");
    expect(performance.now() - sent).toBeLessThan(3000);
    expect(processes().filter((p) => p.pgid === pgid)).toEqual([]);
    const dir = join(state, "hey", "sessions");
    const session = readFileSync(join(dir, readdirSync(dir)[0]!), "utf8");
    expect(session).toContain('"role":"tool"');
    expect(session).toContain(`[${SIGNAL_REASON[signal]}; the process group was killed]`); // not "interrupted by user"
    expect(session).not.toContain("interrupted by user");
  },
  30_000,
);
