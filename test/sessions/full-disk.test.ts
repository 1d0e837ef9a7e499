// The session writer on a disk that fills and frees (SPEC §19; src/sessions/backlog.ts): the disk
// is a write that takes only the bytes still free, then fails with ENOSPC, as a real full disk cuts
// a line short; freeing space lets the next turn end write what was held.
import { afterAll, afterEach, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { newId, textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { BACKLOG_MAX_BYTES, emptyBacklog, hold } from "../../src/sessions/backlog.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import * as fdBytes from "../../src/fs/fd-bytes.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";

const realWriteAll = fdBytes.writeAll;
/** bytes the disk still takes (Infinity: not full) */
let free = Number.POSITIVE_INFINITY;
const disk = spyOn(fdBytes, "writeAll").mockImplementation((fd: number, bytes: Uint8Array) => {
  const take = Math.min(free, bytes.length);
  realWriteAll(fd, bytes.subarray(0, take));
  free -= take;
  if (take < bytes.length) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
});

/** fsyncs the disk fails next with ENOSPC (a file system that says so only at the sync: NFS, a thin volume) */
let syncsFailing = 0;
const realFsync = fs.fsyncSync;
const syncs = spyOn(fs, "fsyncSync").mockImplementation((fd: number) => {
  if (syncsFailing-- > 0) throw Object.assign(new Error("ENOSPC: no space left on device, fsync"), { code: "ENOSPC", errno: -28, syscall: "fsync" });
  realFsync(fd);
});

const temps: string[] = [];
afterEach(() => {
  free = Number.POSITIVE_INFINITY;
  syncsFailing = 0;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  disk.mockRestore();
  syncs.mockRestore();
});

function setup(existing?: boolean) {
  const dir = mkdtempSync(join(tmpdir(), "hey-full-disk-"));
  temps.push(dir);
  const warnings: string[] = [];
  const id = newId();
  const w = createSessionWriter({ dir, id, cwd: "/home/u/p", version: "1", warn: (m) => warnings.push(m), existing });
  return { dir, w, warnings };
}

const assistant = (text: string): Message => ({ id: newId(), role: "assistant", content: [{ type: "text", text }] });
const usage: AgentEvent = {
  type: "usage",
  input_tokens: 10,
  output_tokens: 5,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  cache_hit_share: 0,
};
/** one turn: a prompt, its answer and usage, then the turn's end */
function turn(w: ReturnType<typeof createSessionWriter>, n: number): Message[] {
  const asked = userMessage(`question ${n}`);
  const answered = assistant(`answer ${n}`);
  w.emit({ type: "message", message: asked });
  w.emit({ type: "message", message: answered });
  w.emit(usage);
  w.emit({ type: "done", stop_reason: "end", turns: 1, usage: usage as never });
  return [asked, answered];
}
/** every line of the file parses (none torn), and no entry is there twice */
function wholeLines(path: string): Record<string, unknown>[] {
  const text = readFileSync(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  const entries = text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const ids = entries.map((e) => (e.type === "message" ? (e.message as { id: string }).id : e.id));
  expect(new Set(ids).size).toBe(ids.length);
  return entries;
}
const texts = (messages: Message[]) => messages.map(textOf);

test("a disk that fills mid-session and frees: the held lines are written at the next turn end, in order, none torn or twice, and both said once", () => {
  const { w, warnings } = setup();
  w.model("p", "m");
  const sent = turn(w, 1);
  free = 40; // the next line is cut after 40 bytes
  for (let n = 2; n <= 4; n++) sent.push(...turn(w, n)); // three turn ends on a full disk
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toBe(
    `session not saved: cannot write ${w.path}: its disk is full (ENOSPC); free some space — what was saved before stays; hey holds what it could not write (up to 32.0 MB) and writes it at the end of a turn once there is space`,
  );
  expect(texts(loadSession(w.path).messages)).toEqual(["question 1", "answer 1"]); // no torn line left by the cut write
  wholeLines(w.path);
  free = Number.POSITIVE_INFINITY; // a build directory deleted
  sent.push(...turn(w, 5));
  expect(warnings.slice(1)).toEqual([
    `session saved again: ${w.path} takes writes again; wrote the 8 messages and 4 other entries held since the disk was full`,
  ]);
  w.close();
  expect(wholeLines(w.path).filter((e) => e.type === "usage")).toHaveLength(5);
  const loaded = loadSession(w.path);
  expect(texts(loaded.messages)).toEqual(texts(sent));
  expect(loaded.warnings).toEqual([]);
  expect(loaded.model).toEqual({ provider: "p", model: "m" });
});

test("full again after saving again: said again, and what each time held is written", () => {
  const { w, warnings } = setup();
  const sent = turn(w, 1);
  for (let round = 0; round < 2; round++) {
    free = 0;
    sent.push(...turn(w, 2 + round * 2));
    free = Number.POSITIVE_INFINITY;
    sent.push(...turn(w, 3 + round * 2));
  }
  w.close();
  expect(warnings.map((m) => m.split(":")[0])).toEqual(["session not saved", "session saved again", "session not saved", "session saved again"]);
  expect(texts(loadSession(w.path).messages)).toEqual(texts(sent));
  wholeLines(w.path);
});

test("a new session whose header the full disk cut: no file left while full; the whole conversation once there is space", () => {
  const { dir, w, warnings } = setup();
  free = 30; // the header is cut
  const first = turn(w, 1);
  expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toEqual([]); // no file that is not a session
  free = Number.POSITIVE_INFINITY;
  const second = turn(w, 2);
  w.close();
  expect(warnings).toHaveLength(2);
  const entries = wholeLines(w.path);
  expect(entries[0]).toMatchObject({ type: "header", cwd: "/home/u/p" });
  expect(texts(loadSession(w.path).messages)).toEqual(texts([...first, ...second]));
});

/** bytes of a new session's header and of its first model line (ids and the date have fixed lengths) */
const headerBytes = `${JSON.stringify({ type: "header", id: newId(), cwd: "/home/u/p", created: new Date().toISOString(), version: "1" })}\n`.length;
const modelBytes = `${JSON.stringify({ type: "model", id: newId(), provider: "p", model: "m" })}\n`.length;

test("a new session whose first message the full disk cut after its model line: the model is written again with it, so `hey -c` resumes with it", () => {
  const { w, warnings } = setup();
  w.model("p", "m");
  free = headerBytes + modelBytes + 10; // the first message is cut; the file, holding no message, is removed
  const sent = turn(w, 1);
  free = Number.POSITIVE_INFINITY;
  sent.push(...turn(w, 2));
  w.close();
  expect(warnings[1]).toEndWith("wrote the 4 messages and 3 other entries held since the disk was full");
  const loaded = loadSession(w.path);
  expect(loaded.model).toEqual({ provider: "p", model: "m" });
  expect(texts(loaded.messages)).toEqual(texts(sent));
  wholeLines(w.path);
});

test("the held lines cut again after the model's line of a new file: the model is held again, counted once", () => {
  const { w, warnings } = setup();
  w.model("p", "m");
  free = 0;
  const sent = turn(w, 1);
  free = headerBytes + modelBytes + 10; // the next turn's end writes the header and the model, then the disk is full again
  sent.push(...turn(w, 2));
  free = Number.POSITIVE_INFINITY;
  sent.push(...turn(w, 3));
  w.close();
  expect(warnings).toHaveLength(2);
  expect(warnings[1]).toEndWith("wrote the 6 messages and 4 other entries held since the disk was full");
  const loaded = loadSession(w.path);
  expect(loaded.model).toEqual({ provider: "p", model: "m" });
  expect(texts(loaded.messages)).toEqual(texts(sent));
  wholeLines(w.path);
});

test("closed while the disk is still full: what it held is said lost, the file ends whole at what was saved, the lock is gone", () => {
  const { w, warnings } = setup();
  const saved = turn(w, 1);
  free = 10;
  turn(w, 2);
  w.close();
  expect(warnings[1]).toBe(
    `${w.path} still cannot be written as hey ends: the 2 messages and 1 other entry (${warnings[1]!.match(/\((\d+ B)\)/)![1]}) held since the disk was full are lost; \`hey -c\` goes on from what was saved before the disk was full`,
  );
  expect(warnings).toHaveLength(2);
  wholeLines(w.path);
  expect(texts(loadSession(w.path).messages)).toEqual(texts(saved));
  expect(existsSync(`${w.path}.lock`)).toBe(false);
});

test("closed twice (the REPL's close, then the run's): what it held is said lost once", () => {
  const { w, warnings } = setup();
  turn(w, 1);
  free = 10;
  turn(w, 2);
  w.close();
  w.close();
  expect(warnings.filter((m) => m.includes("are lost"))).toHaveLength(1);
});

test("a session left (/clear, /resume) while the disk is full keeps what it holds: tried at each sync, written once there is space, nothing said lost", () => {
  const { w, warnings } = setup();
  const sent = turn(w, 1);
  free = 10;
  sent.push(...turn(w, 2));
  w.leave();
  expect(w.holding()).toMatch(/^has 2 messages and 1 other entry \(\d+ B\) not yet written \(the disk is full\); hey keeps trying/);
  w.sync(); // a later turn's end, the disk still full
  expect(w.holding()).toBeDefined();
  free = Number.POSITIVE_INFINITY;
  w.sync();
  expect(w.holding()).toBeUndefined();
  w.close();
  expect(warnings.slice(1)).toEqual([`session saved again: ${w.path} takes writes again; wrote the 2 messages and 1 other entry held since the disk was full`]);
  expect(texts(loadSession(w.path).messages)).toEqual(texts(sent));
  wholeLines(w.path);
  expect(existsSync(`${w.path}.lock`)).toBe(false);
});

test("a session left while the disk is full, still full as hey ends: said lost once, naming `hey --resume` (`hey -c` goes on with the newer one)", () => {
  const { w, warnings } = setup();
  turn(w, 1);
  free = 10;
  turn(w, 2);
  w.leave();
  w.close();
  w.close();
  const id = basename(w.path, ".jsonl");
  expect(warnings.slice(1)).toEqual([expect.stringContaining(`are lost; \`hey --resume ${id}\` goes on from what was saved before the disk was full`)]);
  expect(w.holding()).toBeUndefined();
});

test("a session left with nothing held is closed at once: its lock is gone", () => {
  const { w, warnings } = setup();
  turn(w, 1);
  w.leave();
  expect(w.holding()).toBeUndefined();
  expect(existsSync(`${w.path}.lock`)).toBe(false);
  expect(warnings).toEqual([]);
});

test("a new session closed with the disk still full says nothing of it was saved, and leaves no file", () => {
  const { dir, w, warnings } = setup();
  free = 0;
  turn(w, 1);
  w.close();
  expect(warnings[1]).toContain("held since the disk was full are lost; nothing of this conversation was saved");
  expect(readdirSync(dir)).toEqual([]);
});

test(`what is held stays within ${BACKLOG_MAX_BYTES / 1024 / 1024} MB: the newest is kept, and saving again says what was lost`, () => {
  const { w, warnings } = setup();
  turn(w, 1);
  free = 0;
  const big = Array.from({ length: 36 }, (_, i) => userMessage(`${i} `.padEnd(1024 * 1024, "x")));
  for (const message of big) w.emit({ type: "message", message });
  free = Number.POSITIVE_INFINITY;
  w.sync();
  w.close();
  expect(warnings[1]).toMatch(
    /^session saved again: .* takes writes again; wrote the 31 messages held since the disk was full; the 5 messages before them \(5\.0 MB\) went past the 32\.0 MB hey holds and are lost, so the session has a gap there$/,
  );
  const lines = wholeLines(w.path).filter((e) => e.type === "message");
  expect(lines.map((e) => (e.message as Message).id)).toEqual([...lines.slice(0, 2).map((e) => (e.message as Message).id), ...big.slice(5).map((m) => m.id)]);
});

test("the session file deleted on a full disk (space being freed): one warning while it cannot be written back, then written back whole", () => {
  const { w, warnings } = setup();
  const sent = turn(w, 1);
  unlinkSync(w.path);
  free = 0;
  for (let n = 2; n <= 3; n++) sent.push(...turn(w, n));
  expect(warnings).toHaveLength(1);
  expect(existsSync(w.path)).toBe(false);
  free = Number.POSITIVE_INFINITY;
  sent.push(...turn(w, 4));
  w.close();
  expect(warnings.slice(1).map((m) => m.split(";")[0])).toEqual([
    `${w.path} was deleted while hey was writing it`,
    "session saved again: " + `${w.path} takes writes again`,
  ]);
  expect(texts(loadSession(w.path).messages)).toEqual(texts(sent));
  wholeLines(w.path);
});

test("the session file deleted and the disk still full as hey ends: said lost, all of it, not that `hey -c` goes on from it", () => {
  const { w, warnings } = setup();
  turn(w, 1);
  unlinkSync(w.path);
  free = 0;
  turn(w, 2);
  w.close();
  expect(warnings.slice(1)).toEqual([
    `${w.path} was deleted while hey was writing it, and the disk still takes no copy of it as hey ends: this conversation, and the 2 messages and 1 other entry (${warnings[1]!.match(/\((\d+ B)\)/)![1]}) held since the disk was full, is lost`,
  ]);
  expect(existsSync(w.path)).toBe(false);
});

test("the session file deleted, this run's lines taken by the disk but no copy of the file: hey ends saying the conversation is lost", () => {
  const { w, warnings } = setup();
  turn(w, 1);
  unlinkSync(w.path);
  free = 400; // the next turn's lines fit, the file written back whole does not
  turn(w, 2);
  free = 0;
  w.close();
  expect(warnings).toHaveLength(2);
  expect(warnings[1]).toBe(`${w.path} was deleted while hey was writing it, and the disk still takes no copy of it as hey ends: this conversation is lost`);
});

test("the session file replaced while the disk takes no copy of it: no lock is left for each name tried, and the conversation goes on under one", () => {
  const { dir, w, warnings } = setup();
  const sent = turn(w, 1);
  const was = w.path;
  writeFileSync(`${was}.other`, "someone else's\n");
  renameSync(`${was}.other`, was);
  for (let n = 2; n <= 4; n++) {
    free = 450; // the turn's lines fit, the copy under a new name does not
    sent.push(...turn(w, n));
  }
  free = Number.POSITIVE_INFINITY;
  sent.push(...turn(w, 5));
  expect(w.path).not.toBe(was);
  expect(readdirSync(dir).filter((f) => f.endsWith(".lock"))).toEqual([`${w.path.split("/").at(-1)}.lock`]);
  w.close();
  expect(readdirSync(dir).filter((f) => f.endsWith(".lock"))).toEqual([]);
  expect(warnings.map((m) => m.split(" ")[0])).toEqual(["session", was, "session"]);
  expect(texts(loadSession(w.path).messages)).toEqual(texts(sent));
});

test("a file cut under hey, written back, then a sync the full disk fails: a later write the disk cuts is taken off where it began, tearing no line written back", () => {
  const { w, warnings } = setup();
  const sent = turn(w, 1);
  truncateSync(w.path, readFileSync(w.path, "utf8").indexOf("\n") + 11); // cut 10 bytes into the first message
  syncsFailing = 1;
  sent.push(...turn(w, 2)); // the lines written back, the turn's own lines, then the sync fails
  free = 30;
  sent.push(...turn(w, 3)); // cut 30 bytes in
  free = Number.POSITIVE_INFINITY;
  sent.push(...turn(w, 4));
  w.close();
  expect(warnings[0]).toStartWith(`${w.path} was cut to`);
  const loaded = loadSession(w.path);
  expect(loaded.warnings).toEqual([]);
  expect(texts(loaded.messages)).toEqual(texts(sent));
});

test("hold drops the oldest past its bound, never the newest line", () => {
  const b = emptyBacklog();
  hold(b, "a", 6, true, 10);
  hold(b, "b", 3, false, 10);
  hold(b, "c", 5, true, 10);
  expect(b.lines.map((l) => l.text)).toEqual(["b", "c"]);
  expect(b.dropped).toEqual({ lines: 1, bytes: 6, messages: 1 });
  hold(b, "huge", 50, true, 10);
  expect(b.lines.map((l) => l.text)).toEqual(["huge"]);
  expect(b.bytes).toBe(50);
});
