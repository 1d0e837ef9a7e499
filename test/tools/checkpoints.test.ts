// `/undo`'s checkpoints (x57): the real edit and write_file tools wrapped as wire.ts wraps them, in
// a temp project; what a turn changed comes back, what was changed since is left.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { CHECKPOINT_MAX_BYTES, type Checkpoints, checkpointsIn, withCheckpoints } from "../../src/tools/checkpoints.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { notUndoneText, undoNote, undoText } from "../../src/ui/undo-report.ts";
import { RECORD_FILE } from "../../src/tools/undo-record.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

function project() {
  const work = tempDir("hey-undo-");
  const outputs = tempDir("hey-undo-out-");
  dirs.push(work, outputs);
  const seen = new Map();
  const wrap = (t: Tool) => withCheckpoints(t, outputs.path, work.path, seen);
  const tools = {
    read: wrap(createReadFileTool({ home: work.path, seen })),
    edit: wrap(createEditTool({ home: work.path, seen })),
    write: wrap(createWriteFileTool({ home: work.path, seen })),
  };
  const ctx = { signal: new AbortController().signal, cwd: work.path };
  const call = async (tool: Tool, args: Record<string, unknown>) => {
    const r = await tool.run(args, ctx);
    expect(r.isError ? r.output : "").toBe("");
    return r;
  };
  return { work: work.path, outputs: outputs.path, tools, call, store: checkpointsIn(outputs.path), file: (n: string) => join(work.path, n) };
}

/** `/undo`'s report, or undefined when it undid nothing. */
async function undone(store: Checkpoints) {
  const outcome = await store.undo();
  return outcome.kind === "undone" ? outcome.report : undefined;
}

test("/undo puts back the bytes and mode of an edited file, removes a created one, and keeps no copy after", async () => {
  const p = project();
  writeFileSync(p.file("app.txt"), "a = 1\nb = 2\nc = 3  # the user's unsaved line\n");
  chmodSync(p.file("app.txt"), 0o640);
  p.store.beginTurn();
  await p.call(p.tools.read, { path: "app.txt" });
  await p.call(p.tools.edit, { path: "app.txt", old_string: "b = 2", new_string: "b = 20" });
  await p.call(p.tools.edit, { path: "app.txt", old_string: "a = 1", new_string: "a = 10" });
  await p.call(p.tools.write, { path: "new/made.txt", content: "fresh\n" });
  const report = await undone(p.store);
  expect(report).toEqual({
    restored: [p.file("app.txt")],
    removed: [p.file("new/made.txt")],
    changed: [],
    skipped: [],
    ranBash: false,
    later: { turns: 0, ranBash: 0 },
    older: false,
  });
  expect(readFileSync(p.file("app.txt"), "utf8")).toBe("a = 1\nb = 2\nc = 3  # the user's unsaved line\n");
  expect(statSync(p.file("app.txt")).mode & 0o777).toBe(0o640);
  expect(existsSync(p.file("new/made.txt"))).toBe(false);
  expect(readdirSync(p.outputs)).toEqual([RECORD_FILE]); // no copy; the record stays, saying the turn was undone
  expect(undoText(report!, p.work)).toContain("  restored app.txt\n");
  expect(undoNote(report!, p.work)).toContain("app.txt");
});

test("after /undo the agent's edits of a restored file carry no note that someone changed it, and write_file still refuses to overwrite lines it has not seen", async () => {
  const p = project();
  writeFileSync(p.file("notes.md"), "line1\nline2\n");
  writeFileSync(p.file("read.md"), "r1\nr2\n");
  p.store.beginTurn();
  await p.call(p.tools.read, { path: "read.md" }); // read before the turn that changes it
  p.store.beginTurn();
  await p.call(p.tools.edit, { path: "notes.md", old_string: "line1", new_string: "A1" });
  await p.call(p.tools.edit, { path: "read.md", old_string: "r1", new_string: "R1" });
  p.store.beginTurn();
  await p.call(p.tools.edit, { path: "notes.md", old_string: "A1", new_string: "A2" });
  expect((await undone(p.store))?.restored).toEqual([p.file("notes.md")]);
  p.store.beginTurn();
  // x58: each of these said "notes.md had changed since you last read it (by a command, the user or another program)"
  for (const [from, to] of [
    ["A1", "A3"],
    ["A3", "A4"],
  ])
    expect((await p.call(p.tools.edit, { path: "notes.md", old_string: from, new_string: to })).output).not.toContain("note:");
  // the agent saw only the line it wrote: line2 stays safe from a write from memory
  expect((await p.tools.write.run({ path: "notes.md", content: "A5\n" }, { signal: new AbortController().signal, cwd: p.work })).isError).toBe(true);
  expect(readFileSync(p.file("notes.md"), "utf8")).toBe("A4\nline2\n");
  expect((await undone(p.store))?.restored).toEqual([p.file("notes.md")]);
  expect((await undone(p.store))?.restored).toEqual([p.file("notes.md"), p.file("read.md")]);
  // read.md is again what the agent read before that turn: its edit and a whole write go through with nothing to say
  expect((await p.call(p.tools.edit, { path: "read.md", old_string: "r2", new_string: "R2" })).output).not.toContain("note:");
  expect((await p.call(p.tools.write, { path: "read.md", content: "r1\nR2\nr3\n" })).output).toBe("overwrote read.md (3 lines, 9 bytes)");
  // notes.md was not read before: as for any file not read, a whole write is refused until it is
  expect((await p.tools.write.run({ path: "notes.md", content: "x\n" }, { signal: new AbortController().signal, cwd: p.work })).output).toContain(
    "has not been read or written in this run",
  );
});

test("a file changed after the agent's edit is left and named; repeated /undo goes one turn further back; a turn without changes is passed over", async () => {
  const p = project();
  writeFileSync(p.file("a.txt"), "one\n");
  writeFileSync(p.file("b.txt"), "two\n");
  p.store.beginTurn();
  await p.call(p.tools.read, { path: "a.txt" });
  await p.call(p.tools.edit, { path: "a.txt", old_string: "one", new_string: "ONE" });
  p.store.beginTurn();
  await p.call(p.tools.read, { path: "b.txt" });
  await p.call(p.tools.edit, { path: "b.txt", old_string: "two", new_string: "TWO" });
  p.store.beginTurn(); // a turn that only answered
  writeFileSync(p.file("b.txt"), "TWO\nthe user's line\n");
  const last = await undone(p.store);
  expect(last).toMatchObject({ restored: [], changed: [p.file("b.txt")] });
  expect(readFileSync(p.file("b.txt"), "utf8")).toBe("TWO\nthe user's line\n");
  expect(undoText(last!, p.work)).toContain("left b.txt: it changed after the agent's edit");
  expect(undoText(last!, p.work)).toContain("/undo again goes one turn further back"); // a.txt's turn is left
  const first = await undone(p.store);
  expect(first).toMatchObject({ restored: [p.file("a.txt")], older: false });
  expect(undoText(first!, p.work)).not.toContain("/undo again"); // no turn left to go back to
  expect(readFileSync(p.file("a.txt"), "utf8")).toBe("one\n");
  const none = await p.store.undo();
  expect(none).toEqual({ kind: "none", later: { turns: 0, ranBash: 0 }, undone: 2 });
  expect(none.kind === "none" && notUndoneText(none, p.work)).toBe("nothing more to undo: the 2 turns that changed files are all undone already");
});

test("outside a turn (a one-shot run) nothing is kept; a failed edit is no change; a huge file gets no copy and is said", async () => {
  const p = project();
  writeFileSync(p.file("a.txt"), "one\n");
  await p.call(p.tools.read, { path: "a.txt" });
  await p.call(p.tools.edit, { path: "a.txt", old_string: "one", new_string: "ONE" });
  expect(await undone(p.store)).toBeUndefined();
  p.store.beginTurn();
  expect(
    (await p.tools.edit.run({ path: "a.txt", old_string: "absent", new_string: "x" }, { signal: new AbortController().signal, cwd: p.work })).isError,
  ).toBe(true);
  expect(await undone(p.store)).toBeUndefined();
  expect(readdirSync(p.outputs)).toEqual([RECORD_FILE]); // the failed edit's copy went with its turn
  writeFileSync(p.file("big.txt"), `head\n${"x".repeat(99)}\n`.repeat(Math.ceil(CHECKPOINT_MAX_BYTES / 105) + 1));
  p.store.beginTurn();
  await p.call(p.tools.read, { path: "big.txt", limit: 1 });
  await p.call(p.tools.edit, { path: "big.txt", old_string: "head", new_string: "HEAD", replace_all: true });
  const report = await undone(p.store);
  expect(report?.skipped).toEqual([{ path: p.file("big.txt"), why: "over 10 MB, no copy kept" }]);
  expect(readFileSync(p.file("big.txt"), "utf8").startsWith("HEAD\n")).toBe(true);
});

test("a turn that ran bash says its commands' changes are not undone", async () => {
  const p = project();
  const bash = withCheckpoints({ name: "bash", description: "", parameters: {}, run: async () => ({ output: "" }) }, p.outputs, p.work);
  p.store.beginTurn();
  await bash.run({ command: "true" }, { signal: new AbortController().signal, cwd: p.work });
  await p.call(p.tools.write, { path: "n.txt", content: "x\n" });
  const report = await undone(p.store);
  expect(report?.ranBash).toBe(true);
  expect(undoText(report!, p.work)).toContain("also ran bash commands: what they changed is not undone");
});

/** A bash tool wrapped as wire.ts wraps it, whose command here is to write `file`'s `text` (as `sed -i` would). */
function bashIn(p: ReturnType<typeof project>) {
  const bash = withCheckpoints(
    { name: "bash", description: "", parameters: {}, run: async (args) => (writeFileSync(p.file(String(args.file)), String(args.text)), { output: "" }) },
    p.outputs,
    p.work,
  );
  return (file: string, text: string) => bash.run({ file, text }, { signal: new AbortController().signal, cwd: p.work });
}

test("after a turn that changed files only with bash, /undo first says so and undoes nothing; /undo again undoes the turn before it", async () => {
  const p = project();
  const sed = bashIn(p);
  writeFileSync(p.file("b.txt"), "B original\n");
  p.store.beginTurn();
  await p.call(p.tools.write, { path: "a.txt", content: "A by turn 1\n" });
  p.store.beginTurn();
  await sed("b.txt", "B by turn 2\n");
  const first = await p.store.undo();
  expect(first).toEqual({ kind: "waiting", later: { turns: 1, ranBash: 1 }, files: [p.file("a.txt")] });
  expect(readFileSync(p.file("a.txt"), "utf8")).toBe("A by turn 1\n");
  if (first.kind !== "waiting") throw new Error("unreachable");
  expect(notUndoneText(first, p.work)).toBe(
    "nothing undone yet: the last turn ran bash commands, whose changes /undo cannot put back\n" +
      "/undo again undoes the turn before it anyway (its changes to a.txt); what the commands changed stays",
  );
  const report = await undone(p.store);
  expect(report).toMatchObject({ removed: [p.file("a.txt")], later: { turns: 1, ranBash: 1 } });
  expect(existsSync(p.file("a.txt"))).toBe(false);
  expect(readFileSync(p.file("b.txt"), "utf8")).toBe("B by turn 2\n");
  expect(undoText(report!, p.work).split("\n").slice(0, 2)).toEqual([
    "passed over newer turns: the last turn ran bash commands, whose changes stay",
    "undid the file changes of the turn before it:",
  ]);
  expect(undoNote(report!, p.work)).toContain("what your bash commands changed in the later turn stays as it is");
});

test("a message between the two /undo asks again; a turn that only answered is counted among those passed over", async () => {
  const p = project();
  const sed = bashIn(p);
  p.store.beginTurn();
  await p.call(p.tools.write, { path: "a.txt", content: "A\n" });
  p.store.beginTurn();
  await sed("b.txt", "B\n");
  expect((await p.store.undo()).kind).toBe("waiting");
  p.store.beginTurn(); // the user wrote again; the model only answered
  const again = await p.store.undo();
  expect(again).toMatchObject({ kind: "waiting", later: { turns: 2, ranBash: 1 } });
  if (again.kind !== "waiting") throw new Error("unreachable");
  expect(notUndoneText(again, p.work)).toStartWith("nothing undone yet: 1 of the last 2 turns ran bash commands");
  expect(notUndoneText(again, p.work)).toContain("/undo again undoes the turn before them anyway");
  expect(await undone(p.store)).toMatchObject({ removed: [p.file("a.txt")] });
});

test("turns that only ran bash, with no edit before them: nothing to undo, and said why", async () => {
  const p = project();
  const sed = bashIn(p);
  p.store.beginTurn();
  await sed("b.txt", "B\n");
  p.store.beginTurn();
  await sed("c.txt", "C\n");
  const outcome = await p.store.undo();
  expect(outcome).toEqual({ kind: "none", later: { turns: 2, ranBash: 2 } });
  if (outcome.kind !== "none") throw new Error("unreachable");
  expect(notUndoneText(outcome, p.work)).toBe(
    "nothing to undo: the last 2 turns ran bash commands, whose changes /undo cannot put back, and no turn before changed a file with edit or write_file",
  );
  expect(await p.store.undo()).toEqual({ kind: "none", later: { turns: 0, ranBash: 0 } });
});

test("the folders write_file made for new files go with them, deepest first; one that was there before, or that holds anything else, stays without a word", async () => {
  const p = project();
  mkdirSync(p.file("there"));
  p.store.beginTurn();
  await p.call(p.tools.write, { path: "a/b/c/one.txt", content: "1\n" });
  await p.call(p.tools.write, { path: "a/b/two.txt", content: "2\n" });
  await p.call(p.tools.write, { path: "there/new/three.txt", content: "3\n" });
  await p.call(p.tools.write, { path: "kept/mine/four.txt", content: "4\n" });
  writeFileSync(p.file("kept/yours.txt"), "the user's\n"); // put in a folder the turn made, after it
  writeFileSync(p.file("kept/mine/four.txt"), "4, changed by the user\n");
  const report = await undone(p.store);
  expect(report?.removed.sort()).toEqual([p.file("a/b/c/one.txt"), p.file("a/b/two.txt"), p.file("there/new/three.txt")]);
  expect(report?.changed).toEqual([p.file("kept/mine/four.txt")]);
  expect(report?.skipped).toEqual([]);
  expect(readdirSync(p.work).sort()).toEqual(["kept", "there"]);
  expect(readdirSync(p.file("there"))).toEqual([]);
  expect(readdirSync(p.file("kept")).sort()).toEqual(["mine", "yours.txt"]);
  expect(undoText(report!, p.work)).not.toContain("folder");
});

test("a second /undo after the session's only turn that changed files says it is undone already, not that no turn changed a file (x128)", async () => {
  const p = project();
  p.store.beginTurn();
  await p.call(p.tools.write, { path: "notes.md", content: "# Notes\n" });
  const report = await undone(p.store);
  expect(undoText(report!, p.work)).toBe(
    "undid the file changes of the agent's last turn that changed files:\n  removed notes.md (that turn created it)\nthe model is told with your next message",
  );
  const again = await p.store.undo();
  expect(again.kind === "none" && notUndoneText(again, p.work)).toBe("nothing more to undo: the only turn that changed files is undone already");
});
