// The ignore files besides .gitignore that git and ripgrep honour, honoured by grep whichever search
// runs: `.git/info/exclude` (a worktree's in its main repository), git's global excludes file,
// `.ignore` and `.rgignore`, with ripgrep's precedence; a `path` naming what they leave out is
// searched all the same.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Tool } from "../../src/kernel/tool.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { callTool } from "../helpers/call-tool.ts";
import { findRg, NO_RG } from "../helpers/find-rg.ts";

const dir = mkdtempSync(join(tmpdir(), "hey-grep-ignore-files-"));
const rg = await findRg();

const write = (base: string, files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
};

beforeAll(() => {
  write(join(dir, "home"), { ".config/git/ignore": "scratch/\n/src/a.tmp\n" }); // a leading / is where grep runs
  write(join(dir, "home2"), { ".gitconfig": '[core]\n\texcludesFile = "~/my-excludes"\n', "my-excludes": "*.tmp\n", ".config/git/ignore": "scratch/\n" });
  // as dotfiles often keep it: in a machine-local file ~/.gitconfig includes, a path with a space, the first value overridden
  write(join(dir, "home3"), {
    ".gitconfig": "[core]\n\texcludesFile = ~/.config/git/ignore\n[include]\n\tpath = .gitconfig.local\n",
    ".gitconfig.local": '[Core]\n\texcludesfile = "~/my excludes"\n',
    "my excludes": "*.tmp\n",
    ".config/git/ignore": "scratch/\n",
  });
  write(join(dir, "repo"), {
    ".git/info/exclude": "localdata/\n",
    ".gitignore": "build/\nnotes.txt\n",
    ".ignore": "gen/\nlogs/\n*.snap\n!notes.txt\n",
    ".rgignore": "!logs/\n",
    "src/a.ts": "TODO_MARKER\n",
    "src/a.tmp": "TODO_MARKER\n",
    "localdata/l1.txt": "TODO_MARKER\n",
    "scratch/s1.txt": "TODO_MARKER\n",
    "build/out.js": "TODO_MARKER\n",
    "gen/api.ts": "TODO_MARKER\n",
    "logs/today.log": "TODO_MARKER\n",
    "notes.txt": "TODO_MARKER\n",
    "sub/.gitignore": "!*.snap\n",
    "sub/x.snap": "TODO_MARKER\n",
  });
  // a worktree: `.git` is a file naming its git directory, whose commondir is the main repository's
  write(join(dir, "main.git"), { "info/exclude": "localdata/\n", "worktrees/wt/commondir": "../..\n" });
  write(join(dir, "wt"), { ".git": `gitdir: ${join(dir, "main.git", "worktrees", "wt")}\n`, "src/a.ts": "TODO_MARKER\n", "localdata/l1.txt": "TODO_MARKER\n" });
  symlinkSync(join(dir, "repo"), join(dir, "repo-link"));
  // no repository: only .ignore counts
  write(join(dir, "plain"), {
    ".ignore": "gen/\n",
    ".gitignore": "build/\n",
    "gen/g.ts": "TODO_MARKER\n",
    "build/b.ts": "TODO_MARKER\n",
    "a.ts": "TODO_MARKER\n",
    "c.tmp": "TODO_MARKER\n",
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built-in search and ripgrep, each with HOME (and so the global excludes file) at `home`. */
const greps = (home: string): [string, Tool][] => {
  const env = { PATH: process.env.PATH, HOME: join(dir, home), XDG_CONFIG_HOME: join(dir, home, ".config") };
  const made = (rgPath: string | null) => createGrepTool({ rg: rgPath, env, home: join(dir, home) });
  return [["built-in", made(null)], ...(rg ? [["ripgrep", made(rg)] as [string, Tool]] : [])];
};
const files = (output: string) => [...new Set(output.split("\n").flatMap((l) => /^(.+?):\d+: /.exec(l)?.[1] ?? []))];
const search = async (tool: Tool, cwd: string, args: Record<string, unknown> = {}) =>
  files((await callTool(tool, { pattern: "TODO_MARKER", ...args }, { cwd: join(dir, cwd), signal: new AbortController().signal })).output);

test("ripgrep is there to compare with", () => {
  if (!rg) throw new Error(NO_RG);
});

describe.each(greps("home"))("grep (%s)", (_name, tool) => {
  test("leaves out what .git/info/exclude, the global excludes file and .ignore list; .rgignore and .ignore outrank .gitignore", async () => {
    // notes.txt: .gitignore lists it, .ignore takes it back; logs/: .ignore lists it, .rgignore takes it back;
    // sub/x.snap: .ignore lists it, and the nearer .gitignore's `!*.snap` cannot take it back
    expect(await search(tool, "repo")).toEqual(["logs/today.log", "notes.txt", "src/a.ts"]);
  });

  test("a path naming an excluded directory is searched", async () => {
    for (const path of ["localdata", "scratch", "gen"])
      expect(await search(tool, "repo", { path })).toEqual([`${path}/${{ localdata: "l1.txt", scratch: "s1.txt", gen: "api.ts" }[path]}`]);
  });

  test("a worktree's excludes are its main repository's info/exclude", async () => {
    expect(await search(tool, "wt")).toEqual(["src/a.ts"]);
  });

  test("outside a repository .ignore counts and .gitignore does not", async () => {
    expect(await search(tool, "plain")).toEqual(["a.ts", "build/b.ts", "c.tmp"]);
  });
});

describe.each(greps("home2"))("grep (%s), core.excludesFile set in ~/.gitconfig", (_name, tool) => {
  test("the file it names is the global excludes file, in place of ~/.config/git/ignore", async () => {
    expect(await search(tool, "repo")).toEqual(["logs/today.log", "notes.txt", "scratch/s1.txt", "src/a.ts"]);
  });

  test("a project reached through a symbolic link: its ignore files count all the same", async () => {
    expect(await search(tool, "repo-link")).toEqual(["logs/today.log", "notes.txt", "scratch/s1.txt", "src/a.ts"]);
  });
});

describe.each(greps("home3"))("grep (%s), core.excludesFile set in a file ~/.gitconfig includes", (_name, tool) => {
  test("the last one git reads is the global excludes file, quoted with a space; outside a repository it counts for nothing", async () => {
    expect(await search(tool, "repo")).toEqual(["logs/today.log", "notes.txt", "scratch/s1.txt", "src/a.ts"]);
    expect(await search(tool, "repo", { path: "src" })).toEqual(["src/a.ts"]);
    expect(await search(tool, "plain")).toEqual(["a.ts", "build/b.ts", "c.tmp"]);
  });
});
