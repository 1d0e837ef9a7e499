// `/undo` in a hey started again on a session (`hey -c`, `/resume`): its checkpoints are rebuilt
// from the record in the session's outputs folder (before: a restart started with none), under the
// same rules. A hey started again is a store that has never seen the folder: the folder is copied
// where none has been opened, as the next hey finds it on disk.
import { afterEach, expect, test } from "bun:test";
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { type Checkpoints, checkpointsIn, withCheckpoints } from "../../src/tools/checkpoints.ts";
import { RECORD_FILE } from "../../src/tools/undo-record.ts";
import { oneShotTurns } from "../../src/tools/one-shot-turn.ts";
import type { Message } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { NOTHING_TO_UNDO, notUndoneText, undoText } from "../../src/ui/undo-report.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/**
 * A project, and `hey(history, root)`: one run of hey on the session (in the project `root`, the
 * project's own unless given), its tools and checkpoints; each run after the first finds the folder
 * the last one left. `oneShot`: a `hey -c -p` run, whose tools keep no copies.
 */
function session() {
  const work = tempDir("hey-undo-");
  dirs.push(work);
  let outputs: string | undefined;
  const hey = (history: Message[] = [], root = work.path, oneShot = false) => {
    const dir = tempDir("hey-undo-out-");
    dirs.push(dir);
    if (outputs && existsSync(outputs)) cpSync(outputs, dir.path, { recursive: true });
    outputs = dir.path;
    const seen = new Map();
    const keeping = oneShot ? oneShotTurns(root) : withCheckpoints;
    const wrap = (t: Tool) => keeping(t, dir.path, work.path, seen);
    const tools = {
      read: wrap(createReadFileTool({ home: work.path, seen })),
      edit: wrap(createEditTool({ home: work.path, seen })),
      write: wrap(createWriteFileTool({ home: work.path, seen })),
    };
    const bash = keeping(
      { name: "bash", description: "", parameters: {}, run: async (args) => (writeFileSync(file(String(args.file)), String(args.text)), { output: "" }) },
      dir.path,
      work.path,
    );
    const ctx = { signal: new AbortController().signal, cwd: work.path };
    const call = async (tool: Tool, args: Record<string, unknown>) => {
      const r = await tool.run(args, ctx);
      expect(r.isError ? r.output : "").toBe("");
      return r;
    };
    /** the model's edit of a file that is there: read first (as write_file and edit ask), then written whole */
    const rewrite = async (path: string, content: string) => {
      await call(tools.read, { path });
      return call(tools.write, { path, content });
    };
    /** the model's edit of one string in a file it reads first */
    const revise = async (path: string, from: string, to: string) => {
      await call(tools.read, { path });
      return call(tools.edit, { path, old_string: from, new_string: to });
    };
    return {
      outputs: dir.path,
      tools,
      call,
      rewrite,
      revise,
      ctx,
      sed: (f: string, text: string) => bash.run({ file: f, text }, ctx),
      store: oneShot ? undefined! : checkpointsIn(dir.path, { seen, history, root }),
    };
  };
  const file = (n: string) => join(work.path, n);
  const read = (n: string) => readFileSync(file(n), "utf8");
  return { work: work.path, hey, file, read };
}

async function undone(store: Checkpoints) {
  const outcome = await store.undo();
  return outcome.kind === "undone" ? outcome.report : undefined;
}

test("a hey started again undoes the earlier hey's turns, one turn each, after its own: files back, a created file and its folders removed, no copy left", async () => {
  const s = session();
  writeFileSync(s.file("app.txt"), "v0\n");
  const first = s.hey();
  first.store.beginTurn();
  await first.revise("app.txt", "v0", "v1");
  await first.call(first.tools.write, { path: "new/deep/x.txt", content: "x\n" });
  first.store.beginTurn();
  await first.call(first.tools.edit, { path: "app.txt", old_string: "v1", new_string: "v2" });

  const next = s.hey(); // hey quit; `hey -c`
  next.store.beginTurn();
  await next.revise("app.txt", "v2", "v3");
  expect(await undone(next.store)).toMatchObject({ restored: [s.file("app.txt")] });
  expect(s.read("app.txt")).toBe("v2\n");
  expect(await undone(next.store)).toMatchObject({ restored: [s.file("app.txt")] });
  expect(s.read("app.txt")).toBe("v1\n");
  const report = await undone(next.store);
  expect(report).toMatchObject({ restored: [s.file("app.txt")], removed: [s.file("new/deep/x.txt")], changed: [], skipped: [] });
  expect(s.read("app.txt")).toBe("v0\n");
  expect(existsSync(s.file("new"))).toBe(false);
  expect(await next.store.undo()).toEqual({ kind: "none", later: { turns: 0, ranBash: 0 }, undone: 3 });
  expect(readdirSync(next.outputs)).toEqual([RECORD_FILE]);
  // and a third hey, the session's edits in its history, has the same nothing more to undo: not that no turn changed a file
  const edited: Message[] = [{ id: "m", role: "tool", toolName: "edit", toolCallId: "c", content: [] }];
  const third = await s.hey(edited).store.undo();
  expect(third).toEqual({ kind: "none", later: { turns: 0, ranBash: 0 }, undone: 3 });
  expect(third.kind === "none" && notUndoneText(third, s.work)).toBe("nothing more to undo: the 3 turns that changed files are all undone already");
});

test("after a restart, what /undo says is left counts the turns an earlier hey undid too", async () => {
  const s = session();
  writeFileSync(s.file("a.txt"), "a\n");
  const first = s.hey();
  first.store.beginTurn();
  await first.rewrite("a.txt", "A\n");
  first.store.beginTurn();
  await first.revise("a.txt", "A", "AA");
  expect(await undone(first.store)).toMatchObject({ restored: [s.file("a.txt")], older: true });

  const next = s.hey(); // `hey -c`: one turn left to undo, one undone already
  expect(await undone(next.store)).toMatchObject({ restored: [s.file("a.txt")], older: false });
  expect(s.read("a.txt")).toBe("a\n");
  const none = await next.store.undo();
  expect(none.kind === "none" && notUndoneText(none, s.work)).toBe("nothing more to undo: the 2 turns that changed files are all undone already");
});

test("after a restart the rules hold: a file changed since is left, a later turn's bash asks first, a file put back must be read before write_file replaces it", async () => {
  const s = session();
  writeFileSync(s.file("a.txt"), "a\n");
  writeFileSync(s.file("c.txt"), "c\n");
  const first = s.hey();
  first.store.beginTurn();
  await first.call(first.tools.read, { path: "a.txt" }); // read first, as write_file asks of a file that is there
  await first.call(first.tools.write, { path: "a.txt", content: "A\n" });
  await first.rewrite("c.txt", "C\n");
  first.store.beginTurn();
  await first.sed("b.txt", "B\n");
  writeFileSync(s.file("c.txt"), "C and the user's line\n"); // while hey was closed

  const next = s.hey();
  await next.call(next.tools.read, { path: "a.txt" }); // the model reads it again in the new hey
  expect(await next.store.undo()).toEqual({ kind: "waiting", later: { turns: 1, ranBash: 1 }, files: [s.file("a.txt"), s.file("c.txt")] });
  const report = await undone(next.store);
  expect(report).toMatchObject({ restored: [s.file("a.txt")], changed: [s.file("c.txt")], later: { turns: 1, ranBash: 1 } });
  expect([s.read("a.txt"), s.read("b.txt"), s.read("c.txt")]).toEqual(["a\n", "B\n", "C and the user's line\n"]);
  expect(undoText(report!, s.work)).toContain("left c.txt: it changed after the agent's edit");
  // what it read was the agent's version: a.txt counts as not read
  expect((await next.tools.write.run({ path: "a.txt", content: "x\n" }, next.ctx)).output).toContain("has not been read or written in this run");
});

test("a hey killed mid-line loses that step only: the next hey's steps start on a line of their own, and both heys' turns undo", async () => {
  const s = session();
  writeFileSync(s.file("a.txt"), "a\n");
  writeFileSync(s.file("b.txt"), "b\n");
  const first = s.hey();
  first.store.beginTurn();
  await first.rewrite("a.txt", "A\n");
  first.store.beginTurn();
  appendFileSync(join(first.outputs, RECORD_FILE), '{"type":"turn","tu'); // killed while it wrote the next turn's first step

  const second = s.hey();
  second.store.beginTurn();
  await second.rewrite("b.txt", "B\n");

  const third = s.hey();
  expect(await undone(third.store)).toMatchObject({ restored: [s.file("b.txt")] });
  expect(await undone(third.store)).toMatchObject({ restored: [s.file("a.txt")] });
  expect([s.read("a.txt"), s.read("b.txt")]).toEqual(["a\n", "b\n"]);
});

test("copies pruned or damaged since are said, and the files left as the agent left them; a session whose record is gone says its copies are", async () => {
  const s = session();
  writeFileSync(s.file("a.txt"), "a\n");
  writeFileSync(s.file("b.txt"), "b\n");
  const first = s.hey();
  first.store.beginTurn();
  await first.rewrite("a.txt", "A\n");
  await first.rewrite("b.txt", "B\n");
  const [copyA, copyB] = readdirSync(first.outputs)
    .filter((n) => n.startsWith("undo-"))
    .sort((x, y) => Number(x.split("-").at(-1)) - Number(y.split("-").at(-1)));
  rmSync(join(first.outputs, copyA!)); // hey's pruning of old outputs
  writeFileSync(join(first.outputs, copyB!), "");

  const next = s.hey();
  const report = await undone(next.store);
  expect(report?.skipped).toEqual([
    {
      path: s.file("a.txt"),
      why: "its copy from before that turn is gone (hey prunes saved outputs older than 7 days, and the oldest past 500 MB); not touched",
    },
    { path: s.file("b.txt"), why: "its copy from before that turn is damaged; not touched" },
  ]);
  expect([s.read("a.txt"), s.read("b.txt")]).toEqual(["A\n", "B\n"]);

  rmSync(next.outputs, { recursive: true }); // the whole folder, record and all
  const edited: Message[] = [{ id: "m", role: "tool", toolName: "write_file", toolCallId: "c", content: [] }];
  const outcome = await s.hey(edited).store.undo();
  expect(outcome.kind === "none" && notUndoneText(outcome, s.work)).toBe(
    "nothing to undo: no copies are kept of this session's earlier turns that changed files (hey prunes saved outputs older than 7 days, and the oldest past 500 MB; a run with -p keeps none)",
  );
  const quiet = await s.hey().store.undo(); // a session whose turns changed no file
  expect(quiet.kind === "none" && notUndoneText(quiet, s.work)).toBe(NOTHING_TO_UNDO);
});

test("a session whose record was lost says so in every later hey, after the turns recorded since are undone", async () => {
  const s = session();
  const edited: Message[] = [{ id: "m", role: "tool", toolName: "edit", toolCallId: "c", content: [] }];
  const first = s.hey(edited); // its outputs folder pruned whole before this hey
  first.store.beginTurn();
  await first.call(first.tools.write, { path: "n.txt", content: "n\n" });
  const next = s.hey([...edited, ...edited]);
  expect(await undone(next.store)).toMatchObject({ removed: [s.file("n.txt")] });
  const outcome = await next.store.undo();
  expect(outcome).toMatchObject({ kind: "none", gone: expect.stringContaining("hey prunes saved outputs") });
});

test("a session resumed in another project: /undo touches nothing and says where the turn was made; from there it undoes it", async () => {
  const s = session();
  writeFileSync(s.file("app.txt"), "v0\n");
  const first = s.hey();
  first.store.beginTurn();
  await first.revise("app.txt", "v0", "v1");
  const elsewhere = tempDir("hey-undo-elsewhere-");
  dirs.push(elsewhere);
  const away = s.hey([], elsewhere.path); // `hey --resume ID` from another directory
  const outcome = await away.store.undo();
  expect(outcome).toEqual({ kind: "elsewhere", root: s.work, files: [s.file("app.txt")] });
  expect(outcome.kind === "elsewhere" && notUndoneText(outcome, elsewhere.path)).toBe(
    `nothing undone: the last turn that changed files (1 file) was made in ${s.work}, not in this project\n/undo undoes it from there: cd ${s.work}, then hey --resume this session`,
  );
  expect(s.read("app.txt")).toBe("v1\n");
  expect(await undone(s.hey().store)).toMatchObject({ restored: [s.file("app.txt")] });
  expect(s.read("app.txt")).toBe("v0\n");
});

test("after a restart, a file outside the turn's project is named, not touched; a folder line for anything but a created file's folders removes nothing", async () => {
  const s = session();
  const project = s.file("proj");
  mkdirSync(join(project, "kept"), { recursive: true });
  writeFileSync(s.file("outside.txt"), "o0\n");
  const first = s.hey([], project);
  first.store.beginTurn();
  await first.call(first.tools.read, { path: "outside.txt" });
  await first.call(first.tools.write, { path: "outside.txt", content: "o1\n" }); // allowed then, by the user: outside the project
  await first.call(first.tools.write, { path: "proj/new/x.txt", content: "x\n" });
  // a stale or crafted line: an empty folder of the user's that no file of the turn lies below
  appendFileSync(join(first.outputs, RECORD_FILE), `${JSON.stringify({ type: "folder", turn: turnOf(first.outputs), path: join(project, "kept") })}\n`);
  const report = await undone(s.hey([], project).store);
  expect(report).toMatchObject({ removed: [join(project, "new/x.txt")], restored: [] });
  expect(report?.skipped).toEqual([
    { path: s.file("outside.txt"), why: `outside this project (${project}), which /undo of an earlier hey's turn does not reach; not touched` },
  ]);
  expect(s.read("outside.txt")).toBe("o1\n");
  expect(existsSync(join(project, "new"))).toBe(false); // the folder write_file made for x.txt
  expect(existsSync(join(project, "kept"))).toBe(true);
});

test("a `hey -c -p` turn is on the stack after a restart: its bash commands are said before an older turn is undone, its edits named as kept by no copy", async () => {
  const s = session();
  writeFileSync(s.file("schema.ts"), "s0\n");
  writeFileSync(s.file("b.ts"), "b0\n");
  const first = s.hey();
  first.store.beginTurn();
  await first.revise("schema.ts", "s0", "s1");
  const codegen = s.hey([], s.work, true); // hey -c -p "run npm run codegen"
  await codegen.sed("gen.ts", "generated\n");
  const next = s.hey();
  expect(await next.store.undo()).toEqual({ kind: "waiting", later: { turns: 1, ranBash: 1 }, files: [s.file("schema.ts")] });
  expect(s.read("schema.ts")).toBe("s1\n");

  const update = s.hey([], s.work, true); // hey -c -p "update b.ts"
  await update.revise("b.ts", "b0", "b1");
  const last = s.hey();
  expect(await undone(last.store)).toMatchObject({ restored: [], skipped: [{ path: s.file("b.ts"), why: "a run with -p keeps no copies; not touched" }] });
  expect(s.read("b.ts")).toBe("b1\n");
  expect(await last.store.undo()).toMatchObject({ kind: "waiting", later: { turns: 1, ranBash: 1 } }); // the codegen turn, still
  expect(await undone(last.store)).toMatchObject({ restored: [s.file("schema.ts")] });
});

/** The id of the first turn in the record of `outputs`. */
const turnOf = (outputs: string) => JSON.parse(readFileSync(join(outputs, RECORD_FILE), "utf8").split("\n")[0]!).turn as string;

// x100 #5: a -p turn records the file's real path, and /undo compared it with the project as hey
// was started in it: in a project reached through a link it said "outside this project".
test("in a project reached through a link, a `hey -c -p` turn's edit is named as kept by no copy, not as outside the project", async () => {
  const s = session();
  const link = tempDir("hey-undo-link-");
  dirs.push(link);
  const alias = join(link.path, "project");
  symlinkSync(s.work, alias);
  writeFileSync(s.file("a.ts"), "a0\n");
  writeFileSync(s.file("b.ts"), "b0\n");
  const first = s.hey([], alias);
  first.store.beginTurn();
  await first.revise("a.ts", "a0", "a1");
  const update = s.hey([], alias, true); // hey -c -p "update b.ts", in the linked folder
  await update.revise("b.ts", "b0", "b1");
  // started in the folder the link leads to: the same project, not another
  const real = s.hey([], s.work);
  expect(await undone(real.store)).toMatchObject({ skipped: [{ path: s.file("b.ts"), why: "a run with -p keeps no copies; not touched" }] });
  expect(await undone(s.hey([], alias).store)).toMatchObject({ restored: [s.file("a.ts")], skipped: [] });
  expect(s.read("a.ts")).toBe("a0\n");
  expect(s.read("b.ts")).toBe("b1\n");
});
