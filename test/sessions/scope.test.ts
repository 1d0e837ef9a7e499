// Which sessions `-c`, `--sessions`, `/sessions` and `/resume` offer (sessions/scope.ts): the
// launch directory's, and where it has none its project's — started at the project root or below
// it, in no project of their own.
import { describe, expect, test } from "bun:test";
import { projectRoot } from "../../src/fs/places.ts";
import type { SessionInfo } from "../../src/sessions/format.ts";
import { sameDir, sessionsHere } from "../../src/sessions/scope.ts";

/** /w/shop is a git repository; /w/shop/vendor/lib a nested one; /w/shop/docs/site has a .hey/ of its own (with skills); /w/notes is no project. */
const projectOf = (dir: string) =>
  projectRoot(dir, "/h", {
    isDir: (p) => p === "/w/shop/docs/site/.hey" || p === "/w/shop/docs/site/.hey/skills",
    exists: (p) => ["/w/shop/.git", "/w/shop/vendor/lib/.git", "/w/shop/docs/site/.hey"].includes(p),
  });

/** Sessions most recently used first, as listSessions gives them: named by their directory. */
const sessions = (...dirs: string[]): SessionInfo[] =>
  dirs.map((cwd, i) => ({ id: `s${i}`, path: `/state/s${i}.jsonl`, cwd, created: "", modified: 1000 - i, size: 1, firstPrompt: "" }));
const cwds = (found: SessionInfo[]) => found.map((s) => s.cwd);

describe("sessionsHere", () => {
  test.each([
    [
      "this directory's own come first, even when the project's are newer",
      "/w/shop/api",
      ["/w/shop", "/w/shop/api", "/w/shop/api"],
      ["/w/shop/api", "/w/shop/api"],
      false,
    ],
    [
      "a subdirectory with none: the project's, root and siblings, newest first",
      "/w/shop/api",
      ["/w/shop/web", "/elsewhere", "/w/shop"],
      ["/w/shop/web", "/w/shop"],
      true,
    ],
    ["the root with none of its own: its subdirectories'", "/w/shop", ["/w/shop/api/src", "/w/other"], ["/w/shop/api/src"], true],
    ["a nested repository's sessions are its project's, not this one's", "/w/shop/api", ["/w/shop/vendor/lib", "/w/shop"], ["/w/shop"], true],
    ["a directory with a .hey/ of its own too", "/w/shop/api", ["/w/shop/docs/site", "/w/shop/docs"], ["/w/shop/docs"], true],
    [
      "from inside the nested repository, the outer project's are not offered",
      "/w/shop/vendor/lib/src",
      ["/w/shop", "/w/shop/vendor/lib"],
      ["/w/shop/vendor/lib"],
      true,
    ],
    ["no project: a plain directory's subdirectories are projects of their own", "/w/notes", ["/w/notes/2024", "/w/notes-old"], [], true],
    ["a sibling whose name starts like the root is not below it", "/w/shop/api", ["/w/shopping", "/w/shop-old"], [], true],
    ["nothing anywhere", "/w/shop/api", [], [], true],
  ])("%s", (_name, cwd, dirs, expected, project) => {
    const found = sessionsHere(sessions(...dirs), { cwd, root: projectOf(cwd) }, projectOf);
    expect(cwds(found.sessions)).toEqual(expected);
    expect(found.project).toBe(project);
  });

  test("the session in use is never offered: with it left out, a directory whose only session it is offers its project's", () => {
    const all = sessions("/w/shop/api", "/w/shop");
    const found = sessionsHere(all, { cwd: "/w/shop/api", root: "/w/shop" }, projectOf, all[0]!.path);
    expect(found).toEqual({ sessions: [all[1]!], project: true });
  });

  test("each directory's project is looked up once", () => {
    const asked: string[] = [];
    sessionsHere(sessions("/w/shop/web", "/w/shop/web", "/w/shop", "/elsewhere"), { cwd: "/w/shop/api", root: "/w/shop" }, (dir) => {
      asked.push(dir);
      return projectOf(dir);
    });
    expect(asked).toEqual(["/w/shop/web", "/w/shop"]); // /elsewhere is not below the root: not looked up
  });
});

// Windows' file systems ignore case, and `cd \WORK\PROJ` keeps the case typed: a session recorded
// from that launch (before hey spelled the directory as stored) is the directory's all the same
test.each([
  ["Windows: another case is the same directory", "Z:\\WORK\\proj", "Z:\\work\\proj", true, true],
  ["Windows: another directory is not", "Z:\\work\\proj2", "Z:\\work\\proj", true, false],
  ["elsewhere case counts", "/w/Shop", "/w/shop", false, false],
  ["elsewhere the same spelling", "/w/shop", "/w/shop", false, true],
])("sameDir: %s", (_why, a, b, windows, same) => {
  expect(sameDir(a, b, windows)).toBe(same);
});
