// The directory hey started in, deleted and made again at its path (src/fs/work-dir.ts, x146): only a
// real directory of this user's is taken for the project. A link a checkout put there (a branch that
// tracks `app` as a link to `..` or ~/.ssh, or `pkg` above it as a link) would take every later write
// and command out of the project while each path still reads as inside it; another user's directory
// is not the user's tree, but one of the first one's owner is, whoever hey runs as (x149).
import { afterEach, expect, spyOn, test } from "bun:test";
import { chownSync, mkdirSync, readdirSync, realpathSync, rmSync, rmdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { type Found, movedFrom, notTakenLine, rememberWorkDir, type StartedDir } from "../../src/fs/work-dir.ts";
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

const asRoot = process.getuid?.() === 0;

// x149 #3: root in a container on a bind-mounted checkout, `sudo -s` in the user's repo: the project's
// owner re-made it (a checkout on the host side), and hey refused it as "another user's"
test("hey run as another user than the project's owner: a directory the owner made again is taken; a third user's is refused", () => {
  const { dir } = startedThenDeleted();
  mkdirSync(dir); // by the first one's owner: this process
  const uid = spyOn(process, "getuid").mockReturnValue(4242_4242);
  const told: string[] = [];
  try {
    expect(movedFrom(dir, (l) => told.push(l))).toBeUndefined(); // old code: "… was made again by another user (uid 0) — hey does not work in it; …"
  } finally {
    uid.mockRestore();
  }
  expect(told).toEqual([`${dir} was deleted and made again while hey ran (a checkout, a stash, a scaffolder): hey works in the new one`]);
  expect(process.cwd()).toBe(dir);
  if (!asRoot) return; // only root can make a directory another user's
  rmdirSync(dir);
  mkdirSync(dir);
  chownSync(dir, 4343_4343, 4343_4343);
  expect(movedFrom(dir)).toBe(
    `the project was replaced: ${dir} was made again by another user (uid 43434343) — hey does not work in it; restart hey in the directory you mean`,
  );
});

// x149 #1: a branch that tracks `pkg` as a link, hey started in pkg/app: the link above the start directory
// passed every check made of app itself, and the write and the command landed where pkg points
test("a link put above the start directory is refused too, naming where the path leads, and nothing lands there", async () => {
  const d = tempDir("hey-start-dir-");
  made.push(d);
  const base = realpathSync(d.path);
  const dir = join(base, "repo", "pkg", "app");
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(base, "outside", "app"), { recursive: true });
  process.chdir(dir);
  rememberWorkDir(dir);
  rmSync(join(base, "repo", "pkg"), { recursive: true });
  symlinkSync("../outside", join(base, "repo", "pkg"));
  const line = `the project was replaced: ${dir} now leads through a link to ${join(base, "outside", "app")} — hey does not follow it; restart hey in the directory you mean`;
  const told: string[] = [];
  expect(movedFrom(dir, (l) => told.push(l))).toBe(line); // old code: undefined, "…made again…: hey works in the new one"
  expect(told).toEqual([]);
  const ctx = { signal: new AbortController().signal, cwd: dir };
  const write = await createWriteFileTool().run({ path: "made.txt", content: "hi\n" }, ctx);
  expect(write.output).toContain(line);
  const bash = await createBashTool({ shell: systemShell(), timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(base, "out") }).run(
    { command: "touch ran.txt" },
    ctx,
  );
  expect(bash.output).toContain(line);
  expect(readdirSync(join(base, "outside", "app"))).toEqual([]);
});

// x149 #4: a branch that tracks `app -> app-v2` before app-v2 is made: a link stands at the path, nothing to restore
test("a link to nothing (yet) put where the start directory was is named as a link, not as a deletion to restore", () => {
  const { dir } = startedThenDeleted();
  symlinkSync("app-v2", dir);
  const line = `the project was replaced: ${dir} is now a link to app-v2 — hey does not follow it; restart hey in the directory you mean`;
  expect(movedFrom(dir)).toBe(line); // old code: "the project is gone: … was deleted while hey ran — restore it (a checkout back) …"
  mkdirSync(join(dir, "..", "app-v2"));
  expect(movedFrom(dir)).toBe(line);
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

const first: StartedDir = { id: "7:42", uid: 1000, real: "/w/app" };
const real: Found = { id: "7:99", link: false, uid: 1000, parentDev: "7", real: "/w/app" };
test.each([
  ["a real directory of the user's on the same file system", real, 1000, undefined],
  ["the first one's owner's, hey running as another user (root)", real, 0, undefined],
  ["hey's own user's, the first one another's", { ...real, uid: 0 }, 0, undefined],
  ["one made by mkdir on its parent's file system (the first was a mount)", { ...real, id: "8:5", parentDev: "8" }, 1000, undefined],
  [
    "a link",
    { ...real, link: true, target: "..", real: undefined },
    1000,
    "the project was replaced: /w/app is now a link to .. — hey does not follow it; restart hey in the directory you mean",
  ],
  [
    "a directory a link above it leads to",
    { ...real, real: "/elsewhere/app" },
    1000,
    "the project was replaced: /w/app now leads through a link to /elsewhere/app — hey does not follow it; restart hey in the directory you mean",
  ],
  [
    "neither hey's user's nor the first one's owner's",
    { ...real, uid: 0 },
    1000,
    "the project was replaced: /w/app was made again by another user (uid 0) — hey does not work in it; restart hey in the directory you mean",
  ],
  [
    "on another file system than the first and its parent",
    { ...real, id: "9:5" },
    1000,
    "the project was replaced: /w/app is now on another file system (mounted there?) — restart hey in the directory you mean",
  ],
] as const)("notTakenLine: %s", (_, found, uid, want) => {
  expect(notTakenLine("/w/app", found, first, uid)).toBe(want);
});

test("notTakenLine: no uids (Windows), another owner's uid is not compared", () => {
  expect(notTakenLine("/w/app", { ...real, uid: 0 }, first, undefined)).toBeUndefined();
});
