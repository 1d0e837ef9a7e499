// `/diff` in a repository whose own config names a filter (`git lfs install --local`) or a textconv
// driver: only the files whose attributes select it are named (or shown as git's own bytes); every
// other file's diff is shown in full (before: the whole of /diff became a list of names). A filter
// the repository defines as the user's own config does is the user's program and runs. Real git
// against real repositories; every program touches a marker, so a test sees what ran.
import { afterEach, expect } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { diffView } from "../../src/ui/diff-view.ts";
import { tempDir } from "../helpers/e2e.ts";
import { hostileSubmodules, lfsRepo, markingFilter, marksIn } from "../helpers/hostile-git.ts";
import { testNeeding } from "../helpers/tools.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
const globalConfig = process.env.GIT_CONFIG_GLOBAL;
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
  if (globalConfig === undefined) delete process.env.GIT_CONFIG_GLOBAL;
  else process.env.GIT_CONFIG_GLOBAL = globalConfig;
});
const fresh = () => {
  const d = tempDir("hey-diff-lfs-");
  dirs.push(d);
  return d.path;
};
const view = async (cwd: string) => (await diffView(cwd, false, 0, new AbortController().signal)).text;
const git = (cwd: string, ...args: string[]) => Bun.spawnSync(["git", ...args], { cwd });

/** The user's global git config (git reads GIT_CONFIG_GLOBAL instead of ~/.gitconfig), holding `text`. */
function userConfig(dir: string, text: string): void {
  const path = join(dir, "user.gitconfig");
  writeFileSync(path, text);
  process.env.GIT_CONFIG_GLOBAL = path;
}

const TEXT_DIFFS = ["-old line", "+new line", "-export const size = 1;", "+export const size = 2;"];

testNeeding(["git"])(
  "a `git lfs install --local` repository: the text files' diffs in full, the .bin file named with its filter, none of its programs run",
  async () => {
    const { repo, marks } = lfsRepo(fresh());
    for (const cwd of [repo, join(repo, "src")]) {
      const text = await view(cwd);
      for (const line of TEXT_DIFFS) expect(text).toContain(line);
      expect(text).toContain("changed, not shown: this repository's own config names their filter (filter=lfs), which /diff does not run");
      expect(text).toContain("\nM assets/logo.bin\n");
      expect(text).not.toContain("logo v2");
    }
    expect(marksIn(marks)).toEqual([]);
  },
);

testNeeding(["git"])("the filter only in the user's global config: every file's diff, the .bin one through the user's filter", async () => {
  const dir = fresh();
  const { repo, marks } = lfsRepo(dir);
  git(repo, "config", "--remove-section", "filter.lfs");
  userConfig(dir, markingFilter("lfs", marks, "user", ["clean", "smudge"]));
  const text = await view(repo);
  for (const line of [...TEXT_DIFFS, "-logo v1", "+logo v2"]) expect(text).toContain(line);
  expect(text).not.toContain("not shown");
  expect(marksIn(marks)).toEqual(["user-clean"]);
});

testNeeding(["git"])(
  "the repository's filter set as the user's global config sets it (`git lfs install` and `--local`): the user's program, so the .bin file's diff is shown too",
  async () => {
    const dir = fresh();
    const { repo, marks } = lfsRepo(dir);
    git(repo, "config", "--remove-section", "filter.lfs");
    const mine = markingFilter("lfs", marks, "user", ["clean", "smudge"]);
    writeFileSync(join(repo, ".git", "config"), mine, { flag: "a" });
    userConfig(dir, mine);
    const text = await view(repo);
    for (const line of [...TEXT_DIFFS, "-logo v1", "+logo v2"]) expect(text).toContain(line);
    expect(text).not.toContain("not shown");
    expect(marksIn(marks)).toEqual(["user-clean"]);
  },
);

/**
 * A stand-in for the user's git-lfs at `dir/git-lfs`, and the filter entry that runs it: as git-lfs
 * does at clean, it runs each extension's clean program the config git gives it names (the last
 * value, as git-lfs takes it), then marks `user-clean` and passes the bytes through.
 */
function userGitLfs(dir: string, marks: string): string {
  const gitLfs = join(dir, "git-lfs");
  const names = "git config --name-only --get-regexp '^lfs\\.extension\\..*\\.clean$' | sort -u";
  writeFileSync(
    gitLfs,
    `#!/bin/sh\n${names} | while read -r key; do sh -c "$(git config --get "$key")" </dev/null >/dev/null; done\ntouch ${join(marks, "user-clean")}\ncat\n`,
    {
      mode: 0o755,
    },
  );
  return `[filter "lfs"]\n\tclean = ${gitLfs} clean -- %f\n\tsmudge = ${gitLfs} smudge -- %f\n\trequired = true\n`;
}

testNeeding(["git"])(
  "the user's own git-lfs, but the repository's config names an lfs extension (which git-lfs runs at clean): it does not run, and the .bin file is named",
  async () => {
    const dir = fresh();
    const { repo, marks } = lfsRepo(dir);
    git(repo, "config", "--remove-section", "filter.lfs");
    const mine = userGitLfs(dir, marks);
    writeFileSync(join(repo, ".git", "config"), mine, { flag: "a" });
    userConfig(dir, mine);
    git(repo, "config", "lfs.extension.evil.clean", `touch ${join(marks, "repo-extension")}`);
    git(repo, "config", "lfs.extension.evil.priority", "0");
    const text = await view(repo);
    for (const line of TEXT_DIFFS) expect(text).toContain(line);
    expect(text).toContain("\nM assets/logo.bin\n");
    expect(text).not.toContain("logo v2");
    expect(marksIn(marks)).toEqual([]);
    // the same filter without the extension is the user's, and runs (the stand-in works)
    git(repo, "config", "--remove-section", "lfs.extension.evil");
    expect(await view(repo)).toContain("+logo v2");
    expect(marksIn(marks)).toEqual(["user-clean"]);
  },
);

testNeeding(["git"])(
  "git-lfs only in the user's global config, an lfs extension in the repository's: the user's filter runs, the extension does not",
  async () => {
    const dir = fresh();
    const { repo, marks } = lfsRepo(dir);
    git(repo, "config", "--remove-section", "filter.lfs");
    userConfig(dir, userGitLfs(dir, marks));
    git(repo, "config", "lfs.extension.evil.clean", `touch ${join(marks, "repo-extension")}`);
    const text = await view(repo);
    for (const line of [...TEXT_DIFFS, "-logo v1", "+logo v2"]) expect(text).toContain(line);
    expect(marksIn(marks)).toEqual(["user-clean"]);
  },
);

testNeeding(["git"])(
  "the same filter name, but the repository's programs are not the user's: the repository's do not run, and its files are named",
  async () => {
    const dir = fresh();
    const { repo, marks } = lfsRepo(dir);
    userConfig(dir, markingFilter("lfs", marks, "user", ["clean", "smudge"]));
    const text = await view(repo);
    for (const line of TEXT_DIFFS) expect(text).toContain(line);
    expect(text).toContain("\nM assets/logo.bin\n");
    expect(marksIn(marks).filter((m) => m.startsWith("repo-"))).toEqual([]);
  },
);

testNeeding(["git"])("a submodule that defines the user's filter with a program of its own: git runs the user's there, never the submodule's", async () => {
  const dir = fresh();
  const { repo, marks } = hostileSubmodules(dir); // sub, sub/deep and embedded: filter.evil.clean touching `<name>-clean`
  const mine = markingFilter("evil", marks, "user", ["clean"]);
  writeFileSync(join(repo, ".git", "config"), mine, { flag: "a" });
  writeFileSync(join(repo, ".gitattributes"), "*.txt filter=evil\n");
  userConfig(dir, mine);
  const text = await view(repo);
  expect(text).toContain("Subproject commit");
  expect(marksIn(marks).filter((m) => !m.startsWith("user-"))).toEqual([]);
});

testNeeding(["git"])(
  "a repository's own textconv driver: that file as git's own bytes, and the user's own textconv driver still runs for the others",
  async () => {
    const dir = fresh();
    const { repo, marks } = lfsRepo(dir);
    git(repo, "config", "--remove-section", "filter.lfs");
    git(repo, "config", "diff.lfs.textconv", `sh -c 'touch ${join(marks, "repo-textconv")}; cat "$0"'`);
    writeFileSync(join(repo, ".gitattributes"), "*.bin diff=lfs\n*.md diff=upper\n");
    userConfig(dir, `[diff "upper"]\n\ttextconv = "sh -c 'touch ${join(marks, "user-textconv")}; tr a-z A-Z < $0'"\n`);
    const text = await view(repo);
    expect(text).toContain("+NEW LINE"); // the user's driver's text
    expect(text).toContain("+logo v2");
    expect(text).toContain(
      "shown as git's own bytes, without the textconv driver this repository's own config names for them (diff=lfs), which /diff does not run: assets/logo.bin",
    );
    expect(marksIn(marks)).toEqual(["user-textconv"]);
  },
);

testNeeding(["git"])("a changed file whose name is not UTF-8 (which hey cannot hand back to git): every changed file named, and /diff says why", async () => {
  const { repo, marks } = lfsRepo(fresh());
  const latin1 = Buffer.concat([Buffer.from(`${repo}/caf`), Buffer.from([0xe9]), Buffer.from(".txt")]);
  writeFileSync(latin1, "one\n");
  const harmless = ["-c", "filter.lfs.process=", "-c", "filter.lfs.clean=cat", "-c", "filter.lfs.required=false", "-c", "user.email=a@b", "-c", "user.name=a"];
  git(repo, ...harmless, "add", "-A");
  git(repo, ...harmless, "commit", "-qm", "latin-1");
  writeFileSync(latin1, "two\n");
  writeFileSync(join(repo, "notes.md"), "# Notes\nnewer line\n");
  const text = await view(repo);
  expect(text).toContain("/diff could not tell which files they clean (a file name that is not UTF-8");
  expect(text).toContain("\nM notes.md\n");
  expect(text).not.toContain("+newer line");
  expect(marksIn(marks)).toEqual([]);
});
