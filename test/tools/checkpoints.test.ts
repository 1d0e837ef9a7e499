// `/undo`'s checkpoints (x57): the real edit and write_file tools wrapped as wire.ts wraps them, in
// a temp project; what a turn changed comes back, what was changed since is left.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { CHECKPOINT_MAX_BYTES, checkpointsIn, withCheckpoints } from "../../src/tools/checkpoints.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { undoNote, undoText } from "../../src/ui/undo-report.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

function project() {
  const work = tempDir("hey-undo-");
  const outputs = tempDir("hey-undo-out-");
  dirs.push(work, outputs);
  const seen = new Map();
  const wrap = (t: Tool) => withCheckpoints(t, outputs.path, work.path);
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

test("/undo puts back the bytes and mode of an edited file, removes a created one, and keeps no copy after", async () => {
  const p = project();
  writeFileSync(p.file("app.txt"), "a = 1\nb = 2\nc = 3  # the user's unsaved line\n");
  chmodSync(p.file("app.txt"), 0o640);
  p.store.beginTurn();
  await p.call(p.tools.read, { path: "app.txt" });
  await p.call(p.tools.edit, { path: "app.txt", old_string: "b = 2", new_string: "b = 20" });
  await p.call(p.tools.edit, { path: "app.txt", old_string: "a = 1", new_string: "a = 10" });
  await p.call(p.tools.write, { path: "new/made.txt", content: "fresh\n" });
  const report = await p.store.undo();
  expect(report).toEqual({ restored: [p.file("app.txt")], removed: [p.file("new/made.txt")], changed: [], skipped: [], ranBash: false });
  expect(readFileSync(p.file("app.txt"), "utf8")).toBe("a = 1\nb = 2\nc = 3  # the user's unsaved line\n");
  expect(statSync(p.file("app.txt")).mode & 0o777).toBe(0o640);
  expect(existsSync(p.file("new/made.txt"))).toBe(false);
  expect(readdirSync(p.outputs)).toEqual([]);
  expect(undoText(report!, p.work)).toContain("  restored app.txt\n");
  expect(undoNote(report!, p.work)).toContain("app.txt");
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
  const last = await p.store.undo();
  expect(last).toMatchObject({ restored: [], changed: [p.file("b.txt")] });
  expect(readFileSync(p.file("b.txt"), "utf8")).toBe("TWO\nthe user's line\n");
  expect(undoText(last!, p.work)).toContain("left b.txt: it changed after the agent's edit");
  expect(await p.store.undo()).toMatchObject({ restored: [p.file("a.txt")] });
  expect(readFileSync(p.file("a.txt"), "utf8")).toBe("one\n");
  expect(await p.store.undo()).toBeUndefined();
});

test("outside a turn (a one-shot run) nothing is kept; a failed edit is no change; a huge file gets no copy and is said", async () => {
  const p = project();
  writeFileSync(p.file("a.txt"), "one\n");
  await p.call(p.tools.read, { path: "a.txt" });
  await p.call(p.tools.edit, { path: "a.txt", old_string: "one", new_string: "ONE" });
  expect(await p.store.undo()).toBeUndefined();
  p.store.beginTurn();
  expect(
    (await p.tools.edit.run({ path: "a.txt", old_string: "absent", new_string: "x" }, { signal: new AbortController().signal, cwd: p.work })).isError,
  ).toBe(true);
  expect(await p.store.undo()).toBeUndefined();
  expect(readdirSync(p.outputs)).toEqual([]); // the failed edit's copy went with its turn
  writeFileSync(p.file("big.txt"), `head\n${"x".repeat(99)}\n`.repeat(Math.ceil(CHECKPOINT_MAX_BYTES / 105) + 1));
  p.store.beginTurn();
  await p.call(p.tools.read, { path: "big.txt", limit: 1 });
  await p.call(p.tools.edit, { path: "big.txt", old_string: "head", new_string: "HEAD", replace_all: true });
  const report = await p.store.undo();
  expect(report?.skipped).toEqual([{ path: p.file("big.txt"), why: "over 10 MB, no copy kept" }]);
  expect(readFileSync(p.file("big.txt"), "utf8").startsWith("HEAD\n")).toBe(true);
});

test("a turn that ran bash says its commands' changes are not undone", async () => {
  const p = project();
  const bash = withCheckpoints({ name: "bash", description: "", parameters: {}, run: async () => ({ output: "" }) }, p.outputs, p.work);
  p.store.beginTurn();
  await bash.run({ command: "true" }, { signal: new AbortController().signal, cwd: p.work });
  await p.call(p.tools.write, { path: "n.txt", content: "x\n" });
  const report = await p.store.undo();
  expect(report?.ranBash).toBe(true);
  expect(undoText(report!, p.work)).toContain("also ran bash commands: what they changed is not undone");
});
