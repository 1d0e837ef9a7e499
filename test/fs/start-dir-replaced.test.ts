// The directory hey started in, deleted and made again at its path (src/fs/work-dir.ts, x146): only a
// real directory of this user's is taken for the project. A link a checkout put there (a branch that
// tracks `app` as a link to `..` or ~/.ssh) would take every later write and command out of the
// project while each path still reads as inside it; another user's directory is not the user's tree.
import { afterEach, expect, spyOn, test } from "bun:test";
import { mkdirSync, readdirSync, realpathSync, rmdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { type Found, movedFrom, notTakenLine, rememberWorkDir } from "../../src/fs/work-dir.ts";
import { createBashTool, systemShell } from "../../src/tools/bash.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { tempDir } from "../helpers/e2e.ts";

const startDir = process.cwd();
const made: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  process.chdir(startDir);
  for (const d of made.splice(0)) d.remove();
});

/** A fresh directory hey "started in" (this process's working directory, remembered as here.ts does), then deleted. */
function startedThenDeleted(): { base: string; dir: string } {
  const d = tempDir("hey-start-dir-");
  made.push(d);
  const base = realpathSync(d.path);
  const dir = join(base, "app");
  mkdirSync(dir);
  process.chdir(dir);
  rememberWorkDir(dir);
  rmdirSync(dir);
  return { base, dir };
}

test("a link put where the start directory was is refused, and no write or command lands where it points", async () => {
  const { base, dir } = startedThenDeleted();
  const elsewhere = join(base, "elsewhere");
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, dir);
  const line = `the project was replaced: ${dir} is now a link to ${elsewhere} — hey does not follow it; restart hey in the directory you mean`;
  const told: string[] = [];
  expect(movedFrom(dir, (l) => told.push(l))).toBe(line); // old code: undefined, "…made again…: hey works in the new one"
  expect(told).toEqual([]);
  const ctx = { signal: new AbortController().signal, cwd: dir };
  const write = await createWriteFileTool().run({ path: "made.txt", content: "hi\n" }, ctx);
  expect(write.isError).toBe(true);
  expect(write.output).toContain(line);
  const bash = await createBashTool({ shell: systemShell(), timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(base, "out") }).run(
    { command: "touch ran.txt" },
    ctx,
  );
  expect(bash.output).toContain(line);
  expect(readdirSync(elsewhere)).toEqual([]);
  expect(movedFrom(dir)).toBe(line); // and every later look
});

test("a directory another user made at the path is refused; owners are not compared without uids (Windows)", () => {
  const { dir } = startedThenDeleted();
  mkdirSync(dir);
  const uid = spyOn(process, "getuid").mockReturnValue(4242_4242);
  try {
    expect(movedFrom(dir)).toMatch(new RegExp(`^the project was replaced: ${dir} was made again by another user \\(uid \\d+\\) — `));
  } finally {
    uid.mockRestore();
  }
  expect(movedFrom(dir)).toBeUndefined(); // the user's own: taken
  expect(process.cwd()).toBe(dir);
});

test("made again but hey cannot enter it: every look says why, until it can", () => {
  const { dir } = startedThenDeleted();
  mkdirSync(dir);
  const chdir = spyOn(process, "chdir").mockImplementation(() => {
    throw Object.assign(new Error("permission denied"), { code: "EACCES" });
  });
  const line = `the project was made again at ${dir}, but hey cannot enter it (EACCES) — give your user access to it or restart hey in the directory you mean`;
  const told: string[] = [];
  try {
    expect(movedFrom(dir, (l) => told.push(l))).toBe(line);
    expect(movedFrom(dir, (l) => told.push(l))).toBe(line); // old code: undefined, with no line at all
  } finally {
    chdir.mockRestore();
  }
  expect(told).toEqual([]);
  expect(movedFrom(dir, (l) => told.push(l))).toBeUndefined();
  expect(told).toEqual([`${dir} was deleted and made again while hey ran (a checkout, a stash, a scaffolder): hey works in the new one`]);
  expect(process.cwd()).toBe(dir);
});

const real: Found = { id: "7:99", link: false, uid: 1000, parentDev: "7" };
test.each([
  ["a real directory of the user's on the same file system", real, undefined],
  ["one made by mkdir on its parent's file system (the first was a mount)", { ...real, id: "8:5", parentDev: "8" }, undefined],
  [
    "a link",
    { ...real, link: true, target: ".." },
    "the project was replaced: /w/app is now a link to .. — hey does not follow it; restart hey in the directory you mean",
  ],
  [
    "another user's",
    { ...real, uid: 0 },
    "the project was replaced: /w/app was made again by another user (uid 0) — hey does not work in it; restart hey in the directory you mean",
  ],
  [
    "on another file system than the first and its parent",
    { ...real, id: "9:5" },
    "the project was replaced: /w/app is now on another file system (mounted there?) — restart hey in the directory you mean",
  ],
] as const)("notTakenLine: %s", (_, found, want) => {
  expect(notTakenLine("/w/app", found, "7", 1000)).toBe(want);
});

test("notTakenLine: no uids (Windows), another owner's uid is not compared", () => {
  expect(notTakenLine("/w/app", { ...real, uid: 0 }, "7", undefined)).toBeUndefined();
});
