// A long MCP call that reports progress (SPEC §14): each notice gives it timeout_ms more, up to
// max_timeout_ms in all, and the user sees how far it has come. server-everything's long-running
// operation (a notice per step) and the fake server's `busy` (notices without a total, for ever).
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { progressNote } from "../../src/mcp/progress.ts";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, EVERYTHING_SERVER, FAKE_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";

setDefaultTimeout(60_000);

let dir: ReturnType<typeof tempDir>;
const managers: TestManager[] = [];
beforeEach(() => {
  dir = tempDir("hey-mcp-progress-");
});
afterEach(async () => {
  for (const m of managers.splice(0)) await m.manager.close();
  dir.remove();
});

function open(settings: ReturnType<typeof serverSettings>): TestManager {
  const m = testManager([settings], { cacheDir: join(dir.path, "cache") });
  managers.push(m);
  return m;
}

/** Runs `name` as the loop does, with the notes it reports. */
async function run(m: TestManager, name: string, args: Record<string, unknown>) {
  const tool = (await m.tools()).find((t) => t.name === name)!;
  const notes: string[] = [];
  const result = await tool.run(args, { signal: new AbortController().signal, cwd: dir.path, progress: (n) => void notes.push(n) });
  return { result, notes };
}

test("a call that reports progress outlives timeout_ms, and each step is shown", async () => {
  // 12 steps of 0.5 s: three times timeout_ms in all, never more than a quarter of it without a word.
  // timeout_ms also bounds the server's start (node loading server-everything: up to 0.8 s measured
  // on a loaded 2-CPU machine), so it is 2 s, not 1 s.
  const m = open(serverSettings("ev", { command: "node", args: [EVERYTHING_SERVER, "stdio"], timeoutMs: 2_000 }));
  const { result, notes } = await run(m, "trigger-long-running-operation", { duration: 6, steps: 12 });
  expect(result).toEqual({ output: "Long running operation completed. Duration: 6 seconds, Steps: 12." });
  expect(notes.slice(0, 11)).toEqual(Array.from({ length: 11 }, (_, i) => `${i + 1}/12`)); // the last may come after the answer
});

test("progress extends a call only up to max_timeout_ms in all, and the timeout says which limit it hit", async () => {
  const m = open(serverSettings("busy", { command: BUN, args: [FAKE_SERVER, "sleepy"], timeoutMs: 300, maxTimeoutMs: 1_500 }));
  const { result, notes } = await run(m, "busy", { ms: 60_000, every: 100 });
  expect(result).toEqual({
    output: "busy timed out after 1.5 s in all ([mcp.busy] max_timeout_ms); the server is still running and may finish it in the background",
    isError: true,
  });
  expect(notes.length).toBeGreaterThan(3); // well past timeout_ms, on progress alone
  expect(notes[0]).toBe("still busy"); // no total: the server's message only
});

test("a call that waits for its server to start says so while it waits", async () => {
  const slow = serverSettings("slow", { command: BUN, args: [FAKE_SERVER, "slow-start", "1000"] });
  const first = open(slow);
  expect((await first.tools()).map((t) => t.name)).toEqual(["echo"]); // its list is cached
  await first.manager.close();
  // the next run offers the cached tool at once; the call waits for the server's start
  const next = testManager([slow], { cacheDir: join(dir.path, "cache"), startupWaitMs: 0 });
  managers.push(next);
  const { result, notes } = await run(next, "echo", { text: "late" });
  expect(result).toEqual({ output: "slow: late" });
  expect(notes).toEqual(["waiting for MCP server slow to start"]);
});

test("a progress notice reads as a step count, a percentage or the server's own words", () => {
  expect(progressNote({ progress: 2, total: 5 })).toBe("2/5");
  expect(progressNote({ progress: 42.4, total: 100, message: "indexing  src/\n" })).toBe("42% indexing src/");
  expect(progressNote({ progress: 7 })).toBe("7");
  expect(progressNote({ progress: 7, message: "still busy" })).toBe("still busy");
});
