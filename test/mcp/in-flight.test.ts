// Which requests to a local server wait for their answer: while one does, the server holds the
// program open (src/mcp/stdio.ts), between them it does not. The transport itself, in a program
// with nothing else to wait for (no SDK and its request timers): it stays for the answer, then exits.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { spawnChild } from "../../src/mcp/child.ts";
import { inFlight } from "../../src/mcp/in-flight.ts";
import { childEnv } from "../../src/mcp/stdio.ts";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";

const dir = tempDir("hey-in-flight-");
afterAll(() => dir.remove());

test("held from the first request sent until the last is answered or given up; notifications and server requests hold nothing", () => {
  const changes: boolean[] = [];
  const f = inFlight((waiting) => void changes.push(waiting));
  f.sent({ jsonrpc: "2.0", method: "notifications/initialized" });
  f.sent({ jsonrpc: "2.0", id: 1, method: "tools/call" });
  f.sent({ jsonrpc: "2.0", id: "b", method: "tools/list" });
  f.received({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1 } });
  f.received({ jsonrpc: "2.0", id: 9, method: "ping" }); // the server's own request
  f.received({ jsonrpc: "2.0", id: 1, result: {} });
  expect(changes).toEqual([true]);
  f.sent({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "b", reason: "timed out" } });
  expect(changes).toEqual([true, false]);
  f.sent({ jsonrpc: "2.0", id: 9, result: {} }); // hey's answer to the server's ping
  expect(changes).toEqual([true, false]);
});

test("a program with nothing but a request to a server waits for its answer, then exits without closing the server", async () => {
  const program = join(dir.path, "transport.ts");
  await Bun.write(
    program,
    `import { childEnv, StdioTransport } from ${JSON.stringify(join(import.meta.dir, "../../src/mcp/stdio.ts"))};
const t = new StdioTransport({ command: ${JSON.stringify(BUN)}, args: [${JSON.stringify(FAKE_SERVER)}, "sleepy"], env: {} }, childEnv(process.env, {}));
t.onmessage = (m) => console.log(JSON.stringify(m));
await t.start();
await t.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "nap", arguments: { ms: 300 } } });
`,
  );
  const run = Bun.spawn([BUN, program], { stdout: "pipe", stderr: "pipe" });
  try {
    expect(await run.exited).toBe(0);
    // an unheld child let the program end before the answer came: no output
    expect(await new Response(run.stdout).text()).toBe('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"rested"}]}}\n');
  } finally {
    run.kill("SIGKILL");
  }
});

test("Windows' spawn (Bun.spawn, which runs npx's .cmd shim; it does not let go of the program): a server answers, its exit is told", async () => {
  const child = await spawnChild({ exe: BUN, args: [FAKE_SERVER, "ok"], env: childEnv(process.env, {}), cwd: undefined }, "win32");
  try {
    await child.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })}\n`);
    const reader = child.stdout[Symbol.asyncIterator]();
    const first = new TextDecoder().decode((await reader.next()).value);
    expect(JSON.parse(first)).toMatchObject({ id: 1, result: { tools: [{ name: "echo" }] } });
    child.end(); // its stdin closed, it ends
    expect(await child.exited).toBe("exited with code 0");
    expect(child.running()).toBe(false);
  } finally {
    child.signal("SIGKILL");
  }
});
