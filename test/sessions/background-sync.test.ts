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
import { syncedFirst } from "../../src/sessions/synced-first.ts";
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
  // the answer's first words: their sync asked while the step's still runs (this disk never ends it), queued behind it,
  // never on hey's thread; the run's end waits for its own
  expect(waited).toBe(1);
  w.close();
  expect(texts(w.path)).toEqual(["run the tool", "", "t done {}", "done"]);
});

/** a provider that counts the requests that went out, wrapped as agent.ts wraps every provider */
function counted() {
  const sent = { count: 0 };
  const provider = syncedFirst({
    protocol: "openai",
    model: "m",
    async *stream() {
      sent.count++;
      yield* []; // no events: only whether the request went out counts
    },
  });
  const request = async (signal = new AbortController().signal) => {
    for await (const _ of provider.stream({} as never, signal));
  };
  return { sent, request };
}
/** every callback already due has run: a turn of the event loop, not a wait on the clock */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

test("steps faster than the disk: hey's thread never blocks on an fsync; a step's sync starts when the running one ends and its request waits for that, so a power cut loses one step at most", async () => {
  const { w } = writer();
  const { sent, request } = counted();
  w.emit({ type: "message", message: userMessage("go") });
  w.emit({ type: "message", message: answer("step 2") });
  w.emit({ type: "turn_start", turn: 2 });
  await request();
  expect(sent.count).toBe(1); // the disk keeps up: the request goes out while the sync runs
  for (let turn = 3; turn <= 6; turn++) {
    w.emit({ type: "message", message: answer(`step ${turn}`) });
    w.emit({ type: "turn_start", turn });
  }
  expect(waited).toBe(0); // old code: 4 fsyncs on hey's thread (Ctrl-C, Esc, the spinner frozen meanwhile)
  expect(running).toHaveLength(1); // step 2's, still running
  const next = request();
  await settled();
  expect(sent.count).toBe(1); // held until step 2's sync ended
  running.shift()!.done(null);
  await next;
  expect(sent.count).toBe(2);
  expect(running).toHaveLength(1); // steps 3 to 6 in one fsync, started as step 2's ended
  running.shift()!.done(null);
  await request();
  expect([sent.count, running.length]).toEqual([3, 0]); // nothing running: not held
  w.close();
});

test("a request held behind a slow fsync goes at once when the user interrupts (Ctrl-C)", async () => {
  const { w } = writer();
  const { sent, request } = counted();
  w.emit({ type: "message", message: userMessage("go") });
  for (const turn of [2, 3]) {
    w.emit({ type: "message", message: answer(`step ${turn}`) });
    w.emit({ type: "turn_start", turn });
  }
  const stop = new AbortController();
  const next = request(stop.signal);
  await settled();
  expect(sent.count).toBe(0);
  stop.abort();
  await next;
  expect(sent.count).toBe(1); // the provider sees the abort and ends the turn
  w.close();
});

test("a file closed while its step's sync waits behind another is never fsynced after: the number may be another file's", () => {
  const { w } = writer();
  w.emit({ type: "message", message: userMessage("go") });
  for (const turn of [2, 3]) {
    w.emit({ type: "message", message: answer(`step ${turn}`) });
    w.emit({ type: "turn_start", turn });
  }
  w.close(); // waits for its own sync
  running.shift()!.done(null);
  expect(running).toHaveLength(0);
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

test("one provider is one synced provider, and a synced one given again is kept: an agent given back its own provider (/reload, a return to a model) still knows it", () => {
  const provider: Provider = { protocol: "openai", model: "m", async *stream() {} };
  const synced = syncedFirst(provider);
  expect(syncedFirst(provider)).toBe(synced);
  expect(syncedFirst(synced)).toBe(synced);
  expect(synced).toMatchObject({ protocol: "openai", model: "m" });
});
