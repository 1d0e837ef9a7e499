// Whether the directory hey started in is still that directory (src/fs/work-dir.ts, x136): a project
// moved, renamed or deleted while hey runs is found out before a write makes a ghost of it at the
// old path. hey never changes its own working directory, so Linux's /proc/self/cwd says where the
// project went: these tests start "hey" in the directory they move.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, realpathSync, renameSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { changedDir, movedFrom, movedLine, rememberWorkDir } from "../../src/fs/work-dir.ts";
import { tempDir } from "../helpers/e2e.ts";
import { commandContext } from "../../src/command-context.ts";
import type { Places } from "../../src/fs/places.ts";
import type { Runtime } from "../../src/runtime.ts";
import { cannotRun, runShellCommand } from "../../src/ui/shell-command.ts";
import { createBashTool, systemShell } from "../../src/tools/bash.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";

const startDir = process.cwd();
const made: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  process.chdir(startDir);
  for (const d of made.splice(0)) d.remove();
});

/** A fresh directory hey "started in": this process's working directory, remembered as here.ts does. */
function started(): { base: string; dir: string } {
  const d = tempDir("hey-work-dir-");
  made.push(d);
  const base = realpathSync(d.path);
  const dir = join(base, "p6");
  mkdirSync(dir);
  process.chdir(dir);
  rememberWorkDir(dir);
  return { base, dir };
}

test("the directory hey started in, still there: nothing to say", () => {
  const { dir } = started();
  expect(movedFrom(dir)).toBeUndefined();
});

test("a directory hey did not start in (an embedder's) is never refused", () => {
  expect(movedFrom(join(startDir, "never-remembered"))).toBeUndefined();
});

test("moved: where it went; another made at the old path since: not the one hey started in", () => {
  const { base, dir } = started();
  renameSync(dir, join(base, "p6b"));
  expect(movedFrom(dir)).toBe(`the project moved: ${dir} no longer exists (now ${join(base, "p6b")}?) — restart hey there`);
  mkdirSync(dir); // a ghost, made by anything else
  expect(movedFrom(dir)).toBe(
    `the project moved: ${dir} is not the directory hey started in (that one is now ${join(base, "p6b")}?) — restart hey in the one you mean`,
  );
});

test("deleted while hey ran: gone, until it is restored", () => {
  const { dir } = started();
  rmdirSync(dir);
  expect(movedFrom(dir)).toBe(`the project is gone: ${dir} was deleted while hey ran — restore it (a checkout back) or restart hey in a directory that exists`);
});

// x142: `git checkout main && git checkout feat` with hey started in a directory only feat has, `git stash -u` and
// `pop`, a scaffolder's `rm -rf app && mkdir app`: the user's real tree stands at the path, no ghost
test("deleted and made again at its path while hey ran: the new one is the project, said once, and hey follows it from then on", () => {
  const { base, dir } = started();
  rmdirSync(dir);
  mkdirSync(dir);
  const told: string[] = [];
  expect(movedFrom(dir, (line) => told.push(line))).toBeUndefined(); // old code: "the project was replaced: … — restart hey to work in it"
  expect(movedFrom(dir, (line) => told.push(line))).toBeUndefined();
  expect(told).toEqual([`${dir} was deleted and made again while hey ran (a checkout, a stash, a scaffolder): hey works in the new one`]);
  expect(process.cwd()).toBe(dir);
  // the new one moved in turn: hey's own directory went with it, so the line says where
  renameSync(dir, join(base, "p6c"));
  expect(movedFrom(dir)).toBe(`the project moved: ${dir} no longer exists (now ${join(base, "p6c")}?) — restart hey there`);
});

test("made again at its path: the tools write and run there, their result led by the line once", async () => {
  const { dir } = started();
  rmdirSync(dir);
  mkdirSync(dir);
  const ctx = { signal: new AbortController().signal, cwd: dir };
  const write = await createWriteFileTool().run({ path: "made.txt", content: "hi\n" }, ctx);
  expect(write.isError).toBeFalsy();
  expect(write.output).toStartWith(`[hey: ${dir} was deleted and made again while hey ran (a checkout, a stash, a scaffolder): hey works in the new one]\n`);
  const bash = await createBashTool({ shell: systemShell(), timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(dir, "..", "out") }).run(
    { command: "cat made.txt" },
    ctx,
  );
  expect(bash.output).toStartWith("hi\n"); // the line was told once, with the write
});

test.each([
  ["hey's own directory still named so (sshfs numbered it afresh)", "1:2", "/w/p6", "same"],
  ["deleted, another made at the path", "1:2", "deleted", "adopt"],
  ["no /proc (macOS), a directory at the path", "1:2", undefined, "adopt"],
  ["no /proc, nothing at the path", undefined, undefined, { refuse: "the project moved: /w/p6 no longer exists — restart hey where it is now, or restore it" }],
  [
    "moved, another at the path",
    "1:2",
    "/w/p6b",
    { refuse: "the project moved: /w/p6 is not the directory hey started in (that one is now /w/p6b?) — restart hey in the one you mean" },
  ],
] as const)("changedDir: %s", (_, now, where, want) => {
  expect(changedDir("/w/p6", now, where)).toEqual(want);
});

test.each([
  ["gone", "/w/p6b", "the project moved: /w/p6 no longer exists (now /w/p6b?) — restart hey there"],
  ["gone", undefined, "the project moved: /w/p6 no longer exists — restart hey where it is now, or restore it"],
  ["gone", "deleted", "the project is gone: /w/p6 was deleted while hey ran — restore it (a checkout back) or restart hey in a directory that exists"],
  ["other", "/w/p6b", "the project moved: /w/p6 is not the directory hey started in (that one is now /w/p6b?) — restart hey in the one you mean"],
  ["other", undefined, "the project moved: /w/p6 is not the directory hey started in — restart hey in the one you mean"],
] as const)("movedLine: %s, now %s", (look, now, want) => {
  expect(movedLine("/w/p6", look, now)).toBe(want);
});

test("/reload in a project moved since hey started changes nothing and says why: what it would read and trust at the old path is a ghost's", async () => {
  const { base, dir } = started();
  const runtime = { reload: async () => ({ ok: true, changes: ["+ skill wtskill"], errors: [], warnings: [] }) } as unknown as Runtime;
  const ctx = commandContext(runtime, { cwd: dir } as Places, new AbortController().signal, () => {});
  expect((await ctx.reload()).ok).toBe(true);
  renameSync(dir, join(base, "p6b"));
  mkdirSync(join(dir, ".hey", "skills", "wtskill"), { recursive: true });
  expect(await ctx.reload()).toEqual({
    ok: false,
    changes: [],
    errors: [`the project moved: ${dir} is not the directory hey started in (that one is now ${join(base, "p6b")}?) — restart hey in the one you mean`],
    warnings: [],
  });
});

test("!COMMAND in a project moved since hey started is not run: the line says where it went", async () => {
  const { base, dir } = started();
  renameSync(dir, join(base, "p6b"));
  const run = runShellCommand("touch made", { shell: systemShell(), env: process.env, cwd: dir, signal: new AbortController().signal, show: () => {} });
  const line = `the project moved: ${dir} no longer exists (now ${join(base, "p6b")}?) — restart hey there`;
  await expect(run).rejects.toThrow(line);
  expect(cannotRun("sh", dir, new Error("spawn failed"))).toBe(`hey: ${line}`);
  expect(readdirSync(join(base, "p6b"))).toEqual([]);
});

test("made again at its path: `!COMMAND` runs there and shows the line first; /reload applies and warns with it", async () => {
  const { dir } = started();
  rmdirSync(dir);
  mkdirSync(dir);
  const shown: string[] = [];
  const run = await runShellCommand("pwd", {
    shell: systemShell(),
    env: process.env,
    cwd: dir,
    signal: new AbortController().signal,
    show: (t) => shown.push(t),
  });
  expect(run.code).toBe(0);
  const line = `${dir} was deleted and made again while hey ran (a checkout, a stash, a scaffolder): hey works in the new one`;
  expect(shown.join("")).toBe(`hey: ${line}\n${dir}\n`);
  rmdirSync(dir);
  mkdirSync(dir); // and again
  const runtime = { reload: async () => ({ ok: true, changes: [], errors: [], warnings: [] }) } as unknown as Runtime;
  const report = await commandContext(runtime, { cwd: dir } as Places, new AbortController().signal, () => {}).reload();
  expect(report).toEqual({ ok: true, changes: [], errors: [], warnings: [line] });
});
