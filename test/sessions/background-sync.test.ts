// The session file's fsync at a step's end runs while the next request goes out (x119 #3: on a
// disk with 50 ms fsyncs every step waited 50 ms more), and what the writer promises stays true:
// every line is in the file before the request, the file is synced before a run ends, a full disk
// that refuses the sync holds the lines after it and writes them once there is space.
import { afterAll, afterEach, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { fstatSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage, newId, textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import { runLoop } from "../../src/kernel/loop.ts";
import type { Provider } from "../../src/kernel/provider.ts";
import { fileSync, syncsDone } from "../../src/sessions/background-sync.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { loopDeps, sleepTool } from "../helpers/loop-deps.ts";

/** background fsyncs started and not finished yet: a disk that takes its time */
const running: { fd: number; done: (e: NodeJS.ErrnoException | null) => void }[] = [];
const realRun = fileSync.run;
fileSync.run = (fd, done) => void running.push({ fd, done });
/** fsyncs of a session file the run waited for (a new file's directory is synced too: not counted) */
const realFsync = fs.fsyncSync;
let waited = 0;
const waiting = spyOn(fs, "fsyncSync").mockImplementation((fd: number) => {
  if (fstatSync(fd).isFile()) waited++;
  realFsync(fd);
});

const temps: string[] = [];
afterEach(() => {
  while (running.length > 0) running.shift()!.done(null);
  waited = 0;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  fileSync.run = realRun;
  waiting.mockRestore();
});

function writer() {
  const dir = mkdtempSync(join(tmpdir(), "hey-background-sync-"));
  temps.push(dir);
  const warnings: string[] = [];
  const w = createSessionWriter({ dir, id: newId(), cwd: "/home/u/p", version: "1", warn: (m) => warnings.push(m) });
  return { w, warnings };
}

const answer = (text: string): Message => ({ id: newId(), role: "assistant", content: [{ type: "text", text }] });
const texts = (path: string) => loadSession(path).messages.map(textOf);
/** the message lines in the file now */
const saved = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.startsWith('{"type":"message"')).length;

test("a step's request goes out while the session file's fsync is still running; the lines are in the file, and the run's end syncs it", async () => {
  const { w } = writer();
  const seen: { syncing: number; saved: number }[] = []; // at each request: fsyncs still running, messages in the file
  let asked = 0;
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream() {
      seen.push({ syncing: running.length, saved: saved(w.path) });
      if (++asked === 1) {
        const call = { id: "call_1", name: "t", arguments: "{}" };
        yield { type: "tool_call", call };
        yield { type: "done", message: { id: "a1", role: "assistant", content: [], toolCalls: [call] }, usage: emptyUsage(), stop: "tool_calls" };
        return;
      }
      yield { type: "text", delta: "done" };
      yield { type: "done", message: answer("done"), usage: emptyUsage(), stop: "stop" };
    },
  };
  const question = userMessage("run the tool");
  w.emit({ type: "message", message: question });
  const result = await runLoop([question], loopDeps(provider, { tools: [sleepTool("t", 1)], output: w }));
  expect(result.stop).toBe("end");
  // the second request went out with the first step's fsync running, its call and result written
  expect(seen).toEqual([
    { syncing: 0, saved: 1 },
    { syncing: 1, saved: 3 },
  ]);
  // the answer's first words, their sync asked while the step's still runs (this disk never ends it), and the run's end:
  // each waited for, so nothing of them is left to a power cut
  expect(waited).toBe(2);
  w.close();
  expect(texts(w.path)).toEqual(["run the tool", "", "t done {}", "done"]);
});

test("steps faster than the disk: one fsync in the background, and a step that ends while it runs waits for its own, so a power cut loses one step at most", () => {
  const { w } = writer();
  w.emit({ type: "message", message: userMessage("go") });
  for (let turn = 2; turn <= 6; turn++) {
    w.emit({ type: "message", message: answer(`step ${turn}`) });
    w.emit({ type: "turn_start", turn });
  }
  expect(running).toHaveLength(1); // step 2's, still running
  expect(waited).toBe(4); // steps 3 to 6: each synced before its request
  running.shift()!.done(null);
  expect(running).toHaveLength(0);
  w.emit({ type: "message", message: answer("step 7") });
  w.emit({ type: "turn_start", turn: 7 });
  expect(running).toHaveLength(1); // the disk keeps up again: in the background
  expect(waited).toBe(4);
  w.close();
});

test("a background fsync the full disk refuses: said once, the lines after it held, and written with the saving said again at the turn's end", () => {
  const { w, warnings } = writer();
  w.emit({ type: "message", message: userMessage("question") });
  w.emit({ type: "message", message: answer("first step") });
  w.emit({ type: "turn_start", turn: 2 });
  running.shift()!.done(Object.assign(new Error("ENOSPC: no space left on device, fsync"), { code: "ENOSPC", errno: -28, syscall: "fsync" }));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toStartWith(`session not saved: cannot write ${w.path}: its disk is full (ENOSPC)`);
  w.emit({ type: "message", message: answer("second step") });
  expect(texts(w.path)).toEqual(["question", "first step"]); // held while the disk is full
  w.emit({ type: "done", stop_reason: "end", turns: 2, usage: emptyUsage() as never });
  expect(warnings).toHaveLength(2);
  expect(warnings[1]).toContain("saved again");
  expect(waited).toBe(1);
  w.close();
  expect(texts(w.path)).toEqual(["question", "first step", "second step"]);
  expect(warnings).toHaveLength(2);
});

test("closed while its fsync runs: the file stays open until the fsync ends, never an fsync of a number another file took", () => {
  const { w, warnings } = writer();
  w.emit({ type: "message", message: userMessage("question") });
  w.emit({ type: "message", message: answer("step") });
  w.emit({ type: "turn_start", turn: 2 });
  const sync = running.shift()!;
  w.close();
  expect(fstatSync(sync.fd).size).toBeGreaterThan(0); // still this session's file
  sync.done(null);
  expect(() => fstatSync(sync.fd)).toThrow(); // closed now
  expect(warnings).toEqual([]);
  expect(texts(w.path)).toEqual(["question", "step"]);
});

const failure = (code: string, errno: number) => Object.assign(new Error(`${code}: fsync`), { code, errno, syscall: "fsync" }) as NodeJS.ErrnoException;

// Linux tells a failed writeback once, to the first fsync after it: when the running background one
// takes it, the waited one at the run's end and at close finds nothing wrong (x126 #3)
for (const [code, errno, said] of [
  ["ENOSPC", -28, "its disk is full (ENOSPC)"],
  ["EIO", -5, "EIO"],
] as const)
  test(`a background fsync that fails (${code}) after the run ended and the writer closed is said, not dropped`, () => {
    const { w, warnings } = writer();
    w.emit({ type: "message", message: userMessage("question") });
    w.emit({ type: "message", message: answer("step") });
    w.emit({ type: "turn_start", turn: 2 });
    w.emit({ type: "message", message: answer("answer") });
    w.emit({ type: "done", stop_reason: "end", turns: 2, usage: emptyUsage() as never });
    w.close();
    expect(warnings).toEqual([]);
    running.shift()!.done(failure(code, errno));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith(`session may not be saved: the disk failed to make ${w.path} durable: `);
    expect(warnings[0]).toContain(said);
    expect(warnings[0]).toContain("may lose its last steps");
  });

test("hey's exit waits for a background fsync still running, so a failure it ends with is said before hey leaves", async () => {
  const { w, warnings } = writer();
  w.emit({ type: "message", message: userMessage("question") });
  w.emit({ type: "message", message: answer("step") });
  w.emit({ type: "turn_start", turn: 2 });
  w.close();
  let left = false;
  const leaving = syncsDone().then(() => (left = true));
  await Promise.resolve();
  expect(left).toBe(false);
  running.shift()!.done(failure("EIO", -5));
  await leaving;
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("EIO");
});
