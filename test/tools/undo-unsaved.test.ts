// When `/undo`'s copy of a file or a step of its record cannot be saved (a full disk, `ulimit -f`,
// a cache that is no folder), the user hears it the moment it happens, once a turn, and `/undo` says
// "nothing undone" rather than "undid" (x117: the edit showed ✓ and /undo later said "undid").
import { afterEach, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { checkpointsIn, withCheckpoints } from "../../src/tools/checkpoints.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { undoNote, undoText } from "../../src/ui/undo-report.ts";
import { RECORD_FILE, replayRecords } from "../../src/tools/undo-record.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** A project whose outputs folder lies under `blocked`, a plain file for now: nothing can be saved there. */
function blockedProject() {
  const work = tempDir("hey-unsaved-");
  dirs.push(work);
  const blocked = join(work.path, ".cache-blocked");
  writeFileSync(blocked, "a file where the cache folder should be\n");
  const outputs = join(blocked, "outputs");
  const notices: string[] = [];
  const seen = new Map();
  const edit = withCheckpoints(createEditTool({ home: work.path, seen }), outputs, work.path, seen, (line) => notices.push(line));
  const ctx = { signal: new AbortController().signal, cwd: work.path };
  const call = async (tool: Tool, args: Record<string, unknown>) => expect((await tool.run(args, ctx)).isError ?? false).toBe(false);
  const file = (n: string) => join(work.path, n);
  return { work: work.path, blocked, outputs, notices, edit, call, file, store: checkpointsIn(outputs) };
}

test("a copy that cannot be saved is said at once, naming the file and why, once a turn; /undo then says nothing was undone", async () => {
  const p = blockedProject();
  writeFileSync(p.file("e.txt"), "original content\n");
  writeFileSync(p.file("f.txt"), "other\n");
  p.store.beginTurn();
  await p.call(p.edit, { path: "e.txt", old_string: "original", new_string: "EDITED" });
  expect(p.notices).toEqual([
    `hey: /undo will not be able to restore e.txt: its copy could not be saved in ${p.outputs}: ENOTDIR: not a directory, mkdir '${p.outputs}'`,
  ]);
  await p.call(p.edit, { path: "f.txt", old_string: "other", new_string: "changed" });
  expect(p.notices).toHaveLength(1); // once a turn, not once a file
  p.store.beginTurn();
  await p.call(p.edit, { path: "e.txt", old_string: "EDITED", new_string: "AGAIN" });
  expect(p.notices).toHaveLength(2); // a new turn: said again
  const outcome = await p.store.undo();
  if (outcome.kind !== "undone") throw new Error(`undone expected, got ${outcome.kind}`);
  const text = undoText(outcome.report, p.work);
  expect(text.split("\n")[0]).toBe("nothing undone: no file change of the agent's last turn that changed files could be put back:");
  expect(text).toContain("  left e.txt: no copy could be kept:");
  expect(text).not.toContain("undid");
  expect(undoNote(outcome.report, p.work)).toContain("none of your file changes of an earlier turn could be undone");
  expect(readFileSync(p.file("e.txt"), "utf8")).toBe("AGAIN content\n");
});

test("record steps a full cache kept out are written with the next one once there is room: a later hey rebuilds the whole turn", async () => {
  const p = blockedProject();
  writeFileSync(p.file("a.txt"), "a\n");
  writeFileSync(p.file("b.txt"), "b\n");
  p.store.beginTurn();
  await p.call(p.edit, { path: "a.txt", old_string: "a", new_string: "A" });
  rmSync(p.blocked); // space again
  mkdirSync(p.blocked);
  await p.call(p.edit, { path: "b.txt", old_string: "b", new_string: "B" });
  const { turns } = replayRecords(readFileSync(join(p.outputs, RECORD_FILE), "utf8"));
  expect(turns).toHaveLength(1);
  expect([...turns[0]!.files.keys()]).toEqual([p.file("a.txt"), p.file("b.txt")]); // a.txt's steps were not lost
  expect(turns[0]!.files.get(p.file("a.txt"))?.after).toBeDefined();
});

test("a copy cut short by the file size limit (as by a full disk) is removed, and said", () => {
  const work = tempDir("hey-unsaved-limit-");
  dirs.push(work);
  const outputs = join(work.path, "outputs");
  writeFileSync(join(work.path, "big.txt"), `${"x".repeat(8191)}\n`);
  const script = `
    const { withCheckpoints, checkpointsIn } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/checkpoints.ts"))});
    const said = [];
    const edit = { name: "edit", description: "", parameters: {}, run: async () => ({ output: "ok" }) }; // changes nothing: only the copy is big
    const tool = withCheckpoints(edit, ${JSON.stringify(outputs)}, ${JSON.stringify(work.path)}, undefined, (l) => said.push(l));
    checkpointsIn(${JSON.stringify(outputs)}).beginTurn();
    await tool.run({ path: "big.txt" }, { signal: new AbortController().signal, cwd: ${JSON.stringify(work.path)} });
    console.log(JSON.stringify(said));`;
  const run = Bun.spawnSync(["sh", "-c", `ulimit -f 4 && exec "$0" -e "$1"`, process.execPath, script], { cwd: work.path });
  expect(run.stderr.toString()).toBe("");
  const said = JSON.parse(run.stdout.toString()) as string[];
  expect(said).toEqual([
    expect.stringMatching(
      /^hey: \/undo will not be able to restore big\.txt: its copy could not be saved in .*: the file would be larger than this process may write \(EFBIG/,
    ),
  ]);
  expect(readdirSync(outputs).filter((f) => f.startsWith("undo-") && f !== RECORD_FILE)).toEqual([]); // no partial copy left
});

test("a call that fails anyway is not said, a folder write_file cannot read neither: the turn's one notice is left for a real failure", async () => {
  const p = blockedProject();
  const write = withCheckpoints(createWriteFileTool({ home: p.work }), p.outputs, p.work, undefined, (line) => p.notices.push(line));
  const ctx = { signal: new AbortController().signal, cwd: p.work };
  mkdirSync(p.file("src"));
  writeFileSync(p.file("e.txt"), "original content\n");
  writeFileSync(p.file("f.txt"), "other\n");
  p.store.beginTurn();
  expect((await write.run({ path: "src", content: "x" }, ctx)).isError).toBe(true); // EISDIR: nothing changed, no copy needed
  expect((await p.edit.run({ path: "e.txt", old_string: "not there", new_string: "y" }, ctx)).isError).toBe(true);
  expect(p.notices).toEqual([]);
  await p.call(p.edit, { path: "f.txt", old_string: "other", new_string: "changed" });
  expect(p.notices).toEqual([
    `hey: /undo will not be able to restore f.txt: its copy could not be saved in ${p.outputs}: ENOTDIR: not a directory, mkdir '${p.outputs}'`,
  ]);
});

test("a record step a full disk cut short is cut off the file: once there is room every step is there once, with no broken line", () => {
  const work = tempDir("hey-unsaved-cut-");
  dirs.push(work);
  const outputs = join(work.path, "outputs");
  for (const n of ["a", "b", "c", "d"]) writeFileSync(join(work.path, `${n}.txt`), `${n}\n`);
  // the limit is set on the process itself (prlimit): the record cannot grow past it, then may again, as a disk fills and frees
  const script = `
    const { withCheckpoints, checkpointsIn } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/checkpoints.ts"))});
    const { readFileSync, statSync } = await import("node:fs");
    const limit = (bytes) => {
      const set = Bun.spawnSync(["prlimit", "--pid", String(process.pid), "--fsize=" + bytes + ":unlimited"]);
      if (set.exitCode !== 0) throw new Error(set.stderr.toString());
    };
    const said = [];
    const edit = { name: "edit", description: "", parameters: {}, run: async () => ({ output: "ok" }) };
    const tool = withCheckpoints(edit, ${JSON.stringify(outputs)}, ${JSON.stringify(work.path)}, undefined, (l) => said.push(l));
    const ctx = { signal: new AbortController().signal, cwd: ${JSON.stringify(work.path)} };
    checkpointsIn(${JSON.stringify(outputs)}).beginTurn();
    const record = ${JSON.stringify(join(outputs, RECORD_FILE))};
    await tool.run({ path: "a.txt" }, ctx);
    limit(statSync(record).size + 300); // room for a line and a half
    await tool.run({ path: "b.txt" }, ctx);
    await tool.run({ path: "c.txt" }, ctx);
    limit("unlimited");
    await tool.run({ path: "d.txt" }, ctx);
    console.log(JSON.stringify({ said, record: readFileSync(record, "utf8") }));`;
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: work.path });
  expect(run.stderr.toString()).toBe("");
  const { said, record } = JSON.parse(run.stdout.toString()) as { said: string[]; record: string };
  expect(said).toEqual([expect.stringMatching(/^hey: \/undo's record of this turn could not be saved in .*\(EFBIG/)]);
  const lines = record.split("\n").filter(Boolean);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow(); // no fragment of a line
  expect(new Set(lines).size).toBe(lines.length); // none twice
  expect(lines.map((l) => JSON.parse(l).type)).toEqual(["turn", "before", "after", "before", "after", "before", "after", "before", "after"]);
  const { turns } = replayRecords(record);
  expect([...turns[0]!.files.keys()]).toEqual(["a", "b", "c", "d"].map((n) => join(work.path, `${n}.txt`)));
});

test("write_file replacing a file hey cannot read (mode 0200) says at once that /undo cannot restore it (x127)", () => {
  const work = tempDir("hey-unsaved-unread-");
  dirs.push(work);
  chmodSync(work.path, 0o777); // written by nobody where the tests run as root
  const script = `
    const { withCheckpoints, checkpointsIn } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/checkpoints.ts"))});
    const { createWriteFileTool } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/write-file.ts"))});
    const { writeFileSync, readFileSync } = await import("node:fs");
    const work = ${JSON.stringify(work.path)};
    writeFileSync(work + "/secret.txt", "the only copy\\n", { mode: 0o200 });
    const said = [];
    const write = withCheckpoints(createWriteFileTool({ home: work }), work + "/outputs", work, undefined, (l) => said.push(l));
    checkpointsIn(work + "/outputs").beginTurn();
    const result = await write.run({ path: "secret.txt", content: "new\\n" }, { signal: new AbortController().signal, cwd: work });
    console.log(JSON.stringify({ failed: result.isError ?? false, said }));`;
  // root reads any file: the tool runs as nobody there (setpriv, util-linux)
  const as = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
  const run = Bun.spawnSync([...as, process.execPath, "-e", script], { cwd: work.path, env: { ...process.env, HOME: work.path } });
  expect(run.stderr.toString()).toBe("");
  const { failed, said } = JSON.parse(run.stdout.toString());
  expect(failed).toBe(false);
  expect(said).toHaveLength(1);
  expect(said[0]).toStartWith("hey: /undo will not be able to restore secret.txt: hey could not read it to keep a copy: EACCES");
});
