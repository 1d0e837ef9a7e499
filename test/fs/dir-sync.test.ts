// A new name in a directory (a file created, renamed or linked) survives a power cut only once the
// directory itself is fsynced. A test cannot cut the power: it checks, through the one seam every
// caller goes through, that the directory is synced where a name was made, and only there.
import { afterEach, beforeEach, expect, spyOn, test } from "bun:test";
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/fs/atomic.ts";
import { dirSync } from "../../src/fs/dir-sync.ts";
import { newId, userMessage } from "../../src/kernel/ir.ts";
import { loadSession, resumeSession } from "../../src/sessions/reader.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { tempDir } from "../helpers/e2e.ts";

let root: ReturnType<typeof tempDir>;
let synced: string[];
let spy: ReturnType<typeof spyOn>;
beforeEach(() => {
  root = tempDir("hey-dir-sync-");
  synced = [];
  const real = dirSync.run;
  spy = spyOn(dirSync, "run").mockImplementation((dir: string) => {
    synced.push(dir);
    real(dir); // the real call too: it must not throw
  });
});
afterEach(() => {
  spy.mockRestore();
  root.remove();
});

test("a new session file's directory is synced once, when the file is made — not for each line written", () => {
  const dir = join(root.path, "sessions");
  const w = createSessionWriter({ dir, id: newId(), cwd: "/here", version: "1.2.3", warn: (m) => synced.push(`warned: ${m}`) });
  w.emit({ type: "message", message: userMessage("one") });
  expect(synced).toEqual([root.path, dir]); // the directory's own name too: hey made it
  for (let i = 0; i < 5; i++) w.emit({ type: "message", message: userMessage(`more ${i}`) });
  w.sync();
  w.close();
  expect(synced).toEqual([root.path, dir]);
  synced = [];
  const next = createSessionWriter({ dir, id: newId(), cwd: "/here", version: "1.2.3", warn: () => {} });
  next.emit({ type: "message", message: userMessage("two") });
  next.close();
  expect(synced).toEqual([dir]); // the directory was there: only the new file's name
});

test("the first session ever: every directory hey makes on the way ($XDG_STATE_HOME/hey/sessions) has its name synced in its parent", () => {
  const state = join(root.path, "state");
  const dir = join(state, "hey", "sessions");
  const w = createSessionWriter({ dir, id: newId(), cwd: "/here", version: "1.2.3", warn: (m) => synced.push(`warned: ${m}`) });
  w.emit({ type: "message", message: userMessage("one") });
  w.close();
  expect(synced.toSorted()).toEqual([root.path, state, join(state, "hey"), dir]);
});

test("a header repaired by a copy renamed over the file, and a session written back after it was deleted, each sync the directory", () => {
  const dir = join(root.path, "sessions");
  const id = newId();
  const w = createSessionWriter({ dir, id, cwd: "/here", version: "1.2.3", warn: () => {} });
  w.emit({ type: "message", message: userMessage("remember 42") });
  w.close();
  const file = join(dir, `${id}.jsonl`);
  const text = readFileSync(file, "utf8");
  writeFileSync(file, `{"type":"hea${text.slice(text.indexOf("\n"))}`); // too short for the header: repaired by a copy
  synced = [];
  const loaded = resumeSession(file, "/here");
  expect(loaded.warnings[0]).toContain("repaired");
  expect(synced).toEqual([dir]);

  synced = [];
  const again = createSessionWriter({ dir, id, cwd: "/here", version: "1.2.3", warn: () => {}, existing: true });
  again.emit({ type: "message", message: userMessage("which number?") });
  unlinkSync(file); // deleted while hey writes it: written back at the turn's end
  again.sync();
  again.close();
  expect(synced).toEqual([dir]);
  expect(loadSession(file).messages.filter((m) => m.role === "user")).toHaveLength(2); // nothing lost (the last, unanswered, is marked so)
});

test("a file replaced atomically syncs its directory after the rename", async () => {
  const file = join(root.path, "conf", "approvals.json");
  await writeFileAtomic(file, "{}", { private: true });
  expect(synced).toEqual([join(root.path, "conf")]);
});

test("syncing a directory that is gone, or is a file, throws nothing: the write it follows is done", () => {
  const file = join(root.path, "f");
  writeFileSync(file, "");
  expect(() => dirSync.run(join(root.path, "missing"))).not.toThrow();
  expect(() => dirSync.run(file)).not.toThrow();
});
