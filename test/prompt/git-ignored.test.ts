// Whether git ignores a file of the project (prompt/git-ignored.ts), as `git check-ignore` would
// say, against real directories: .gitignore files from the root down, a file below an ignored
// directory, `!` rules, .git/info/exclude, a nested repository, and no repository at all; and,
// with real git as the judge, a linked worktree's, a submodule's and the global excludes file.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ignoredByGit, notTheProjects } from "../../src/prompt/git-ignored.ts";
import { tempDir } from "../helpers/e2e.ts";
import { git, repoWith } from "../helpers/git-worktree.ts";

let tmp: ReturnType<typeof tempDir>;
let repo: string;
beforeEach(() => {
  tmp = tempDir("hey-ignored-");
  repo = join(realpathSync(tmp.path), "repo");
  mkdirSync(join(repo, ".git", "info"), { recursive: true });
});
afterEach(() => tmp.remove());

function put(path: string, text = ""): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

test.each([
  ["a file no rule names", "src/.cache.json", false],
  ["a file the root's .gitignore names", "config/local.json", true],
  ["a file below an ignored directory", "build/out/notes.md", true],
  ["a file a `!` rule keeps", "docs/keep.md", false],
  ["a file in a directory whose own .gitignore ignores it", "web/draft.md", true],
  ["a file the deeper .gitignore keeps although the root's ignores it", "web/local.md", false],
  ["a file .git/info/exclude names", "mine.md", true],
  ["a committed file", "docs/style.md", false],
])("%s: %s → %p", (_, path, ignored) => {
  put(join(repo, ".gitignore"), "config/local.json\nbuild/\ndocs/*\n!docs/keep.md\n!docs/style.md\nlocal.md\n");
  put(join(repo, "web", ".gitignore"), "draft.md\n!local.md\n");
  put(join(repo, ".git", "info", "exclude"), "mine.md\n");
  put(join(repo, path), "text");
  expect(ignoredByGit(join(repo, path), repo)).toBe(ignored);
});

test("a nested repository's files follow its own rules, not the outer one's; without git nothing is ignored", () => {
  put(join(repo, ".gitignore"), "*.json\n");
  mkdirSync(join(repo, "vendor", "lib", ".git"), { recursive: true });
  put(join(repo, "vendor", "lib", "data.json"), "{}");
  put(join(repo, "data.json"), "{}");
  expect(ignoredByGit(join(repo, "data.json"), repo)).toBe(true);
  expect(ignoredByGit(join(repo, "vendor", "lib", "data.json"), repo)).toBe(false);
  const plain = join(realpathSync(tmp.path), "plain");
  put(join(plain, ".gitignore"), "*.json\n");
  put(join(plain, "data.json"), "{}");
  expect(ignoredByGit(join(plain, "data.json"), plain)).toBe(false);
});

// Where a user keeps their own files out of git outside any .gitignore: the repository's exclude
// file seen from a linked worktree or a submodule, and the global excludes file. hey must say what
// `git check-ignore` says there (with the same HOME and XDG_CONFIG_HOME, never the real ones).
describe("the exclude files git reads outside the working tree", () => {
  let root: string;
  let env: Record<string, string>;
  beforeEach(() => {
    root = realpathSync(tmp.path);
    env = { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "home", ".config"), GIT_CONFIG_NOSYSTEM: "1" };
    mkdirSync(env.HOME!, { recursive: true });
  });
  /** What git says of `path` in the checkout `dir`, reading the test's global files only. */
  const gitIgnores = (dir: string, path: string) =>
    Bun.spawnSync(["git", "check-ignore", "-q", path], { cwd: dir, env: { PATH: process.env.PATH ?? "", ...env } }).exitCode === 0;
  const shop = () => repoWith(join(root, "shop"), { "CLAUDE.md": "See @config/local.json\n", "config/shared.json": "{}\n" });

  test("a linked worktree: the main .git's info/exclude", () => {
    const main = shop();
    writeFileSync(join(main, ".git", "info", "exclude"), "config/local.json\n");
    const wt = join(root, "shop-wt");
    git(main, "worktree", "add", "-q", "-b", "wt", wt);
    put(join(wt, "config", "local.json"), '{"db_password":"hunter2"}');
    expect(gitIgnores(wt, "config/local.json")).toBe(true);
    expect(ignoredByGit(join(wt, "config", "local.json"), wt, false, env)).toBe(true);
    expect(ignoredByGit(join(wt, "config", "shared.json"), wt, false, env)).toBe(false);
  });

  test("a submodule: its .git/modules/NAME/info/exclude, and not the superproject's", () => {
    const lib = repoWith(join(root, "lib"), { "README.md": "lib\n" });
    const main = shop();
    git(main, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub");
    writeFileSync(join(main, ".git", "modules", "sub", "info", "exclude"), "config/local.json\n");
    writeFileSync(join(main, ".git", "info", "exclude"), "notes.md\n");
    const sub = join(main, "sub");
    put(join(sub, "config", "local.json"), '{"db_password":"hunter2"}');
    put(join(sub, "notes.md"), "mine");
    expect([gitIgnores(sub, "config/local.json"), gitIgnores(sub, "notes.md")]).toEqual([true, false]);
    expect(ignoredByGit(join(sub, "config", "local.json"), sub, false, env)).toBe(true);
    expect(ignoredByGit(join(sub, "notes.md"), sub, false, env)).toBe(false);
  });

  test.each([
    ["$XDG_CONFIG_HOME/git/ignore", "", ".config/git/ignore"],
    ["core.excludesFile in ~/.gitconfig", "[core]\n\texcludesFile = ~/.my-ignore\n", ".my-ignore"],
  ])("the global excludes file, %s: in the main checkout, a worktree and a directory below them", (_, gitconfig, file) => {
    if (gitconfig) writeFileSync(join(env.HOME!, ".gitconfig"), gitconfig);
    put(join(env.HOME!, file), "config/local.json\n/top-only.md\n");
    const main = shop();
    const wt = join(root, "shop-wt");
    git(main, "worktree", "add", "-q", "-b", "wt", wt);
    for (const dir of [main, wt]) {
      put(join(dir, "config", "local.json"), '{"db_password":"hunter2"}');
      put(join(dir, "docs", "top-only.md"), "text");
      expect([gitIgnores(dir, "config/local.json"), gitIgnores(dir, "docs/top-only.md")]).toEqual([true, false]);
      expect(ignoredByGit(join(dir, "config", "local.json"), dir, false, env)).toBe(true);
      expect(ignoredByGit(join(dir, "docs", "top-only.md"), dir, false, env)).toBe(false); // anchored at the repository's top, as git reads it
    }
    const plain = join(root, "plain");
    put(join(plain, "config", "local.json"), "{}");
    expect(ignoredByGit(join(plain, "config", "local.json"), plain, false, env)).toBe(false); // outside git nothing is ignored
  });

  test("core.excludesFile in the repository's own config, which a worktree shares, outranks the global one", () => {
    put(join(env.HOME!, ".config", "git", "ignore"), "global-only.md\n");
    put(join(env.HOME!, "mine-ignore"), "config/local.json\n");
    const main = shop();
    git(main, "config", "core.excludesFile", "~/mine-ignore");
    const wt = join(root, "shop-wt");
    git(main, "worktree", "add", "-q", "-b", "wt", wt);
    for (const dir of [main, wt]) {
      put(join(dir, "config", "local.json"), '{"db_password":"hunter2"}');
      put(join(dir, "global-only.md"), "text");
      expect([gitIgnores(dir, "config/local.json"), gitIgnores(dir, "global-only.md")]).toEqual([true, false]);
      expect(ignoredByGit(join(dir, "config", "local.json"), dir, false, env)).toBe(true);
      expect(ignoredByGit(join(dir, "global-only.md"), dir, false, env)).toBe(false);
    }
  });

  // How users name their excludes file: in a file ~/.gitconfig includes (dotfiles keep machine-local
  // settings there), under a condition, quoted with a space, set twice (git takes the last), in any
  // case. `secret.md` is in ~/.gitignore_global and ~/my files/ignore, `first.md` in ~/first-ignore.
  const LOCAL = "[core]\n\texcludesFile = ~/.gitignore_global\n";
  test.each<[string, (root: string) => Record<string, string>, { main: boolean; wt: boolean }]>([
    ["an [include] of another file", () => ({ ".gitconfig": "[include]\n\tpath = ~/.gitconfig.local\n", ".gitconfig.local": LOCAL }), { main: true, wt: true }],
    [
      'an [includeIf "gitdir:…"] that matches, its path relative to the including file',
      (root) => ({ ".gitconfig": `[includeIf "gitdir:${root}/"]\n\tpath = .gitconfig.local\n`, ".gitconfig.local": LOCAL }),
      { main: true, wt: true },
    ],
    [
      'an [includeIf "gitdir/i:…"] in another case',
      (root) => ({ ".gitconfig": `[includeIf "gitdir/i:${root.toUpperCase()}/**"]\n\tpath = ~/.gitconfig.local\n`, ".gitconfig.local": LOCAL }),
      { main: true, wt: true },
    ],
    [
      'an [includeIf "onbranch:…"]: the worktree\'s branch only',
      () => ({ ".gitconfig": '[includeIf "onbranch:w*"]\n\tpath = ~/.gitconfig.local\n', ".gitconfig.local": LOCAL }),
      { main: false, wt: true },
    ],
    [
      'an [includeIf "gitdir:…"] naming the worktree\'s directory: its git directory is in the main .git, so none matches',
      (root) => ({ ".gitconfig": `[includeIf "gitdir:${root}/shop-wt/"]\n\tpath = ~/.gitconfig.local\n`, ".gitconfig.local": LOCAL }),
      { main: false, wt: false },
    ],
    [
      'an [includeIf "hasconfig:remote.*.url:…"] that the repository\'s remote matches',
      () => ({ ".gitconfig": '[includeIf "hasconfig:remote.*.url:https://example.com/acme/**"]\n\tpath = ~/.gitconfig.local\n', ".gitconfig.local": LOCAL }),
      { main: true, wt: true },
    ],
    [
      "an [includeIf] that does not match is not followed",
      () => ({
        ".gitconfig": `${LOCAL}[includeIf "gitdir:/nowhere/"]\n\tpath = ~/.gitconfig.first\n`,
        ".gitconfig.first": "[core]\n\texcludesFile = ~/first-ignore\n",
      }),
      { main: true, wt: true },
    ],
    ["a quoted path with a space and a comment", () => ({ ".gitconfig": '[core]\n\texcludesFile = "~/my files/ignore" ; mine\n' }), { main: true, wt: true }],
    [
      "set twice: the last one counts",
      () => ({ ".gitconfig": "[core]\n\texcludesFile = ~/first-ignore\n[user]\n\tname = me\n[core]\n\texcludesfile = ~/.gitignore_global\n" }),
      { main: true, wt: true },
    ],
    [
      "~/.gitconfig over $XDG_CONFIG_HOME/git/config, names in any case",
      () => ({ ".config/git/config": "[core]\n\texcludesFile = ~/first-ignore\n", ".gitconfig": "[CORE]\n\tExcludesFile = ~/.gitignore_global\n" }),
      { main: true, wt: true },
    ],
    [
      "an include relative to $XDG_CONFIG_HOME/git/config",
      () => ({ ".config/git/config": "[include]\n\tpath = local.inc\n", ".config/git/local.inc": LOCAL }),
      { main: true, wt: true },
    ],
    [
      "a value continued on the next line, a section not core's",
      () => ({ ".gitconfig": '[core "x"]\n\texcludesFile = ~/first-ignore\n[core]\n\texcludesFile = ~/.gitignore\\\n_global\n' }),
      { main: true, wt: true },
    ],
  ])("core.excludesFile through %s: as git says", (_, configs, secret) => {
    for (const [path, text] of Object.entries(configs(root))) put(join(env.HOME!, path), text);
    put(join(env.HOME!, ".gitignore_global"), "secret.md\n");
    put(join(env.HOME!, "my files", "ignore"), "secret.md\n");
    put(join(env.HOME!, "first-ignore"), "first.md\n");
    const main = shop();
    git(main, "remote", "add", "origin", "https://example.com/acme/shop.git");
    const wt = join(root, "shop-wt");
    git(main, "worktree", "add", "-q", "-b", "wt", wt);
    for (const [dir, secretIgnored] of [
      [main, secret.main],
      [wt, secret.wt],
    ] as const) {
      for (const name of ["secret.md", "first.md", "plain.md"]) put(join(dir, name), "text");
      expect(gitIgnores(dir, "secret.md")).toBe(secretIgnored);
      for (const name of ["secret.md", "first.md", "plain.md"])
        expect([name, ignoredByGit(join(dir, name), dir, false, env)]).toEqual([name, gitIgnores(dir, name)]);
    }
  });

  test("a worktree's own config.worktree (extensions.worktreeConfig), then GIT_CONFIG_COUNT settings, outrank the shared config", () => {
    put(join(env.HOME!, ".gitignore_global"), "secret.md\n");
    put(join(env.HOME!, "first-ignore"), "first.md\n");
    const main = shop();
    const wt = join(root, "shop-wt");
    git(main, "worktree", "add", "-q", "-b", "wt", wt);
    git(main, "config", "extensions.worktreeConfig", "true");
    git(main, "config", "core.excludesFile", "~/.gitignore_global");
    git(wt, "config", "--worktree", "core.excludesFile", "~/first-ignore");
    const check = () => {
      for (const dir of [main, wt]) {
        for (const name of ["secret.md", "first.md"]) put(join(dir, name), "text");
        for (const name of ["secret.md", "first.md"])
          expect([dir, name, ignoredByGit(join(dir, name), dir, false, env)]).toEqual([dir, name, gitIgnores(dir, name)]);
      }
    };
    check();
    expect([gitIgnores(main, "secret.md"), gitIgnores(wt, "secret.md"), gitIgnores(wt, "first.md")]).toEqual([true, false, true]);
    Object.assign(env, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.excludesFile", GIT_CONFIG_VALUE_0: "~/.gitignore_global" });
    check();
    expect([gitIgnores(wt, "secret.md"), gitIgnores(wt, "first.md")]).toEqual([true, false]);
  });

  test("a config hey cannot read as git does (an include loop, where git stops): every file is taken as ignored", () => {
    put(join(env.HOME!, ".gitconfig"), "[include]\n\tpath = ~/.gitconfig\n");
    const main = shop();
    put(join(main, "notes.md"), "text");
    const judge = Bun.spawnSync(["git", "check-ignore", "notes.md"], { cwd: main, env: { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1", ...env } });
    expect([judge.exitCode, judge.stderr.toString()]).toEqual([128, expect.stringContaining("include")]);
    expect(ignoredByGit(join(main, "notes.md"), main, false, env)).toBe(true);
  });

  test("a deeper directory git ignores only through a worktree's exclude file holds no instructions of the user's", () => {
    const main = shop();
    writeFileSync(join(main, ".git", "info", "exclude"), "scratch/\n");
    const wt = join(root, "shop-wt");
    git(main, "worktree", "add", "-q", "-b", "wt", wt);
    put(join(wt, "scratch", "AGENTS.md"), "mine");
    expect(notTheProjects(join(wt, "scratch"), wt)).toBe("in a directory git ignores");
    expect(notTheProjects(join(wt, "config"), wt)).toBeUndefined();
  });
});
