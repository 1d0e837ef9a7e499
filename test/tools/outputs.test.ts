// pruneOutputs: by age, then oldest first down to the size cap; the running session untouched.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keepUnderCeiling, pruneOutputs, removeSessionOutputs, whileWritten } from "../../src/tools/outputs.ts";
import { tempDir } from "../helpers/e2e.ts";

let root: ReturnType<typeof tempDir>;
beforeEach(() => (root = tempDir("hey-prune-")));
afterEach(() => root.remove());
const now = Date.now();

function put(session: string, name: string, bytes: number, ageHours: number): string {
  const path = join(root.path, session, name);
  mkdirSync(join(root.path, session), { recursive: true });
  writeFileSync(path, "x".repeat(bytes));
  const t = (now - ageHours * 3_600_000) / 1000;
  utimesSync(path, t, t);
  return path;
}

test("files older than the age limit go, and folders they leave empty", async () => {
  const old = put("s1", "a.log", 10, 24 * 8);
  const young = put("s2", "b.log", 10, 24 * 6);
  expect(await pruneOutputs(root.path, { current: "now", now })).toEqual({ deleted: 1 });
  expect(existsSync(old)).toBe(false);
  expect(existsSync(join(root.path, "s1"))).toBe(false);
  expect(existsSync(young)).toBe(true);
});

test("over the size cap the oldest go first, until the rest fit", async () => {
  const files = [1, 2, 3, 4, 5].map((h) => put(`s${h}`, "o.log", 400, h)); // s1 newest
  await pruneOutputs(root.path, { current: "now", now, maxBytes: 1000 });
  expect(files.map((f) => existsSync(f))).toEqual([true, true, false, false, false]);
});

test("the running session's outputs are never pruned", async () => {
  const mine = put("current", "big.log", 5000, 24 * 30);
  await pruneOutputs(root.path, { current: "current", now, maxBytes: 100 });
  expect(existsSync(mine)).toBe(true);
});

test("a missing root is nothing to prune; removeSessionOutputs takes ids, never paths", async () => {
  expect(await pruneOutputs(join(root.path, "none"), { current: "x" })).toEqual({ deleted: 0 });
  const kept = put("s1", "a.log", 1, 0);
  removeSessionOutputs(root.path, "../" + root.path.split("/").at(-1));
  expect(existsSync(kept)).toBe(true);
  removeSessionOutputs(root.path, "s1");
  expect(existsSync(kept)).toBe(false);
});

test("a session that saves past the ceiling deletes the oldest outputs, other sessions' first, and keeps its newest", async () => {
  const others = [put("old1", "a.log", 300, 5), put("old2", "b.log", 300, 4)];
  const mine: string[] = [];
  for (let i = 0; i < 8; i++) {
    const path = put("current", `call${i}.log`, 300, 3 - i * 0.1);
    mine.push(path);
    await keepUnderCeiling(path, 300, 1000);
    const left = [...others, ...mine].filter((f) => existsSync(f));
    expect(left.length * 300).toBeLessThanOrEqual(1000);
    expect(existsSync(path)).toBe(true);
  }
  expect(others.map((f) => existsSync(f))).toEqual([false, false]);
  expect(mine.map((f) => existsSync(f))).toEqual([false, false, false, false, false, true, true, true]);
});

test("one output bigger than the ceiling stays, alone", async () => {
  const other = put("s1", "a.log", 10, 1);
  const big = put("now", "big.log", 5000, 0);
  expect(await keepUnderCeiling(big, 5000, 1000)).toEqual({ deleted: 1 });
  expect([existsSync(other), existsSync(big)]).toEqual([false, true]);
});

test("the ceiling never deletes the running session's /undo copies or job logs", async () => {
  const undo = [put("current", "undo.jsonl", 300, 5), put("current", "0abc.t1.copy", 300, 5), put("current", "0old.job.log", 300, 5)];
  const older = put("current", "0old.log", 300, 4);
  const latest = put("current", "0new.log", 300, 0);
  await keepUnderCeiling(latest, 300, 500);
  expect(undo.map((f) => existsSync(f))).toEqual([true, true, true]);
  expect([existsSync(older), existsSync(latest)]).toEqual([false, true]);
});

test("a session's outputs removed by /sessions prune no longer count toward the ceiling", async () => {
  put("gone", "a.log", 800, 5);
  const first = put("now", "first.log", 100, 1);
  await keepUnderCeiling(first, 100, 1000);
  removeSessionOutputs(root.path, "gone");
  const second = put("now", "second.log", 200, 0);
  expect(await keepUnderCeiling(second, 200, 1000)).toEqual({ deleted: 0 }); // else 1100 bytes counted, one file "deleted"
  expect(existsSync(first)).toBe(true);
});

test("the ceiling never deletes another session's /undo copies or job logs, only full outputs", async () => {
  const kept = [put("other", "undo.jsonl", 300, 5), put("other", "undo-t1-1", 300, 5), put("other", "0job.job.log", 300, 5)];
  const output = put("other", "0out.log", 300, 5);
  const latest = put("current", "0new.log", 300, 0);
  await keepUnderCeiling(latest, 300, 500);
  expect(kept.map((f) => existsSync(f))).toEqual([true, true, true]); // old code: the first two went
  expect([existsSync(output), existsSync(latest)]).toEqual([false, true]);
});

test("spill files and files already gone do not count: this session's outputs stay while the folder is under the ceiling", async () => {
  const first = put("current", "first.log", 300, 2);
  const spill = put("current", "0call.stdout", 5000, 1); // a command's stream while it runs, gone after
  await keepUnderCeiling(first, 300, 1000);
  rmSync(spill);
  const other = put("other", "o.log", 300, 1);
  await keepUnderCeiling(put("current", "second.log", 300, 1), 300, 1000);
  rmSync(other); // another hey deleted it
  const third = put("current", "third.log", 300, 0);
  expect(await keepUnderCeiling(third, 300, 1000)).toEqual({ deleted: 0 }); // 900 bytes on disk; old code counted the spill
  expect(existsSync(first)).toBe(true);
});

test("another hey's saves are seen once the running total passes the ceiling", async () => {
  const first = put("current", "first.log", 100, 3);
  await keepUnderCeiling(first, 100, 1000);
  const theirs = put("other", "theirs.log", 600, 2); // saved by another hey after this one read the folder
  const second = put("current", "second.log", 950, 0);
  await keepUnderCeiling(second, 950, 1000);
  expect([existsSync(theirs), existsSync(second)]).toEqual([false, true]); // old code: only `first` deleted, 1550 bytes left
});

test("files the ceiling may not delete do not count: another session's /undo copies and job logs never make a save delete this session's outputs", async () => {
  const theirs = [put("old", "undo-t1-1", 600, 24 * 3), put("old", "0job.job.log", 360, 24 * 3)];
  const first = put("current", "a.log", 30, 1);
  await keepUnderCeiling(first, 30, 1000);
  const second = put("current", "b.log", 30, 0);
  expect(await keepUnderCeiling(second, 30, 1000)).toEqual({ deleted: 0 });
  expect([existsSync(first), existsSync(second)]).toEqual([true, true]); // old code: a.log deleted, 60 bytes of outputs over a 1000-byte ceiling
  expect(theirs.map((f) => existsSync(f))).toEqual([true, true]); // start-up pruning takes them, by age and size
});

test("parallel saves past the ceiling never delete each other's files: the newest stays whatever order the checks run in", async () => {
  const a = put("current", "a.log", 600, 0.2);
  const b = put("current", "b.log", 600, 0.1); // two calls saved together, both named in their results
  const done = await Promise.all([keepUnderCeiling(a, 600, 1000), keepUnderCeiling(b, 600, 1000)]);
  expect(existsSync(b)).toBe(true); // old code: a's check deleted b.log, then b's deleted a.log: both results named files gone
  expect(existsSync(a)).toBe(false); // the older, once its own check had run: the folder stays under the ceiling
  expect(done.reduce((n, d) => n + d.deleted, 0)).toBe(1);
});

test("a save being written is never deleted by another call's clean-up", async () => {
  const writing = join(root.path, "current", "0slow.log");
  const done = put("current", "0new.log", 900, 0);
  await whileWritten(writing, async () => {
    put("current", "0slow.log", 200, 1); // its command started first; not through yet, so no check asked for it
    expect(await keepUnderCeiling(done, 900, 1000)).toEqual({ deleted: 0 });
    expect(existsSync(writing)).toBe(true); // old code: deleted as the oldest output, mid-write
  });
});
