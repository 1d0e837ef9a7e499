// A submodule's own config (`.git/modules/NAME/config`, nested ones below it, or the `.git` of a
// repository added with `git add`) names programs too, and git runs them in the superproject's
// `git status` and `git diff --submodule=diff` (x81): they are found as the superproject's are, and
// git given guardedGit runs none of them.
import { afterEach, expect } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitlinkPaths } from "../../src/fs/git-index-links.ts";
import { repositoryPrograms } from "../../src/permission/repository-programs.ts";
import { guardedGit, refusal } from "../../src/permission/git-env.ts";
import { tempDir } from "../helpers/e2e.ts";
import { hostileSubmodules, marksIn } from "../helpers/hostile-git.ts";
import { testNeeding } from "../helpers/tools.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
const fresh = () => {
  const d = tempDir("hey-submodule-programs-");
  dirs.push(d);
  return d.path;
};
const git = (cwd: string, ...args: string[]) =>
  Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd, stdout: "pipe", stderr: "pipe" });

testNeeding(["git"])(
  "plan mode's git status and git diff --submodule=diff (or diff.submodule = diff) run no program a submodule's own config names, nested or embedded",
  async () => {
    const { repo, marks } = hostileSubmodules(fresh());
    git(repo, "config", "diff.submodule", "diff");
    for (const [cwd, command] of [
      [repo, "git status --short && git diff --submodule=diff && git diff"],
      [join(repo, "sub"), "git status --short && git diff --submodule=diff"],
      [repo, "git -C sub/deep diff && git -C embedded diff"],
    ] as const) {
      const programs = await repositoryPrograms(cwd, command, "/nonexistent", process.env);
      expect(programs).toEqual(expect.arrayContaining(["diff.evil.textconv", "filter.evil.clean"]));
      const run = Bun.spawnSync(["sh", "-c", command], { cwd, env: guardedGit(process.env, programs), stdout: "pipe", stderr: "pipe" });
      expect(run.exitCode).toBe(0);
      expect(run.stdout.toString()).toContain("+two");
    }
    expect(marksIn(marks)).toEqual([]);
  },
);

testNeeding(["git"])("a git directory below .git/modules that is a link (as git follows it) is read too", async () => {
  const base = fresh();
  const [repo, other] = [join(base, "repo"), join(base, "other")];
  git(base, "init", "-q", repo);
  git(base, "init", "-q", other);
  git(other, "config", "diff.linked.textconv", "evil");
  mkdirSync(join(repo, ".git", "modules", "lib"), { recursive: true });
  symlinkSync(join(other, ".git"), join(repo, ".git", "modules", "lib", "x"));
  expect(await repositoryPrograms(repo, "", "/nonexistent", process.env)).toEqual(["diff.linked.textconv"]);
});

testNeeding(["git"])("the gitlinks of an index of each version, SHA-1 and SHA-256, split or not, are the ones git lists", async () => {
  const base = fresh();
  for (const [format, version, split] of [
    ["sha1", "2", false],
    ["sha1", "3", false],
    ["sha1", "4", false],
    ["sha256", "4", false],
    ["sha1", "2", true],
  ] as const) {
    const repo = join(base, `${format}-${version}-${split}`);
    git(base, "init", "-q", `--object-format=${format}`, repo);
    for (const name of ["a-long-directory-name/x.txt", "a-long-directory-name/y.txt", "b.txt"]) {
      Bun.spawnSync(["mkdir", "-p", join(repo, name, "..")]);
      writeFileSync(join(repo, name), "x\n");
    }
    git(repo, "add", "-A");
    const commit = "1".repeat(format === "sha256" ? 64 : 40); // a gitlink's commit need not be there
    for (const path of ["a-long-directory-name/link", "z/link"]) git(repo, "update-index", "--add", "--cacheinfo", `160000,${commit},${path}`);
    writeFileSync(join(repo, "c.txt"), "new\n");
    git(repo, "add", "--intent-to-add", "c.txt"); // an extended entry: version 3 and up
    git(repo, "update-index", `--index-version=${version}`);
    if (split) git(repo, "update-index", "--split-index");
    if (split) git(repo, "update-index", "--add", "--cacheinfo", `160000,${commit},split/link`);
    const listed = git(repo, "ls-files", "-s")
      .stdout.toString()
      .split("\n")
      .filter((l) => l.startsWith("160000"));
    const wanted = listed.map((l) => l.split("\t")[1] ?? "").sort();
    expect(wanted.length).toBe(split ? 3 : 2);
    const read = (name: string) => gitlinkPaths(new Uint8Array(readFileSync(join(repo, ".git", name))), format === "sha256" ? 32 : 20);
    const shared = readdirSync(join(repo, ".git")).filter((n) => n.startsWith("sharedindex."));
    expect(shared.length).toBe(split ? 1 : 0);
    const found = [...new Set([...read("index")!, ...shared.flatMap((n) => read(n)!)])].sort();
    expect(found).toEqual(wanted);
  }
  expect(gitlinkPaths(new TextEncoder().encode("DIRC\0\0\0\x09\0\0\0\x01"), 20)).toBeUndefined();
});

testNeeding(["git"])("an index hey cannot read through: it cannot know the submodules, so git runs nothing in that command", async () => {
  const { repo, marks } = hostileSubmodules(fresh());
  writeFileSync(join(repo, ".git", "index"), "DIRC\0\0\0\x09\0\0\0\x01");
  expect(await repositoryPrograms(repo, "", "/nonexistent", process.env)).toContain(refusal("this repository's index could not be read"));
  expect(marksIn(marks)).toEqual([]);
});
