// Whether the directory hey started in is still that directory (src/fs/work-dir.ts, x136): a project
// moved, renamed or deleted while hey runs is found out before a write makes a ghost of it at the
// old path. hey never changes its own working directory, so Linux's /proc/self/cwd says where the
// project went: these tests start "hey" in the directory they move.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, realpathSync, renameSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { movedFrom, movedLine, rememberWorkDir } from "../../src/fs/work-dir.ts";
import { tempDir } from "../helpers/e2e.ts";
import { commandContext } from "../../src/command-context.ts";
import type { Places } from "../../src/fs/places.ts";
import type { Runtime } from "../../src/runtime.ts";
import { cannotRun, runShellCommand } from "../../src/ui/shell-command.ts";
import { systemShell } from "../../src/tools/bash.ts";

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

test("deleted while hey ran: gone", () => {
  const { dir } = started();
  rmdirSync(dir);
  expect(movedFrom(dir)).toBe(`the project is gone: ${dir} was deleted while hey ran — restart hey in a directory that exists`);
});

test.each([
  ["gone", "/w/p6b", "the project moved: /w/p6 no longer exists (now /w/p6b?) — restart hey there"],
  ["gone", undefined, "the project moved: /w/p6 no longer exists — restart hey where it is now"],
  ["gone", "deleted", "the project is gone: /w/p6 was deleted while hey ran — restart hey in a directory that exists"],
  ["other", "/w/p6b", "the project moved: /w/p6 is not the directory hey started in (that one is now /w/p6b?) — restart hey in the one you mean"],
  ["other", undefined, "the project moved: /w/p6 is not the directory hey started in — restart hey in the one you mean"],
  ["other", "deleted", "the project was replaced: /w/p6 is a new directory since hey started (the old one was deleted) — restart hey to work in it"],
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
