// The programs a repository's own config names are found in each repository a command may run git
// in: the working directory's, and those of the directories its words name (`cd ../other`,
// `git -C DIR`, `--git-dir=DIR`); given guardedGit's environment, real git then runs none of them.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathWords, repositoryPrograms } from "../../src/permission/repository-programs.ts";
import { guardedGit, refusal, repositoryProgram } from "../../src/permission/git-env.ts";
import { tempDir } from "../helpers/e2e.ts";
import { embeddedBareClone, hostileRepo, marksIn } from "../helpers/hostile-git.ts";
import { testNeeding } from "../helpers/tools.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
const fresh = () => {
  const d = tempDir("hey-repo-programs-");
  dirs.push(d);
  return d.path;
};
const PROGRAMS = ["diff.evil.textconv", "diff.external", "filter.evilf.clean", "filter.evilf.smudge"];

test.each([
  [{ section: "diff", sub: "evil", key: "textconv" }, "diff.evil.textconv"],
  [{ section: "diff", sub: "x", key: "command" }, "diff.x.command"],
  [{ section: "diff", sub: undefined, key: "external" }, "diff.external"],
  [{ section: "filter", sub: "lfs", key: "process" }, "filter.lfs.process"],
  [{ section: "filter", sub: "f", key: "required" }, undefined],
  [{ section: "gpg", sub: undefined, key: "program" }, "gpg.program"],
  [{ section: "gpg", sub: "ssh", key: "program" }, "gpg.ssh.program"],
  [{ section: "gpg", sub: "other", key: "program" }, undefined],
  [{ section: "core", sub: undefined, key: "sshcommand" }, "core.sshcommand"],
  [{ section: "diff", sub: "x", key: "binary" }, undefined],
  [{ section: "core", sub: undefined, key: "editor" }, undefined],
  [{ section: "lfs", sub: "extension.evil", key: "clean" }, "lfs.extension.evil.clean"],
  [{ section: "lfs", sub: "Extension.evil", key: "smudge" }, "lfs.Extension.evil.smudge"],
  [{ section: "lfs", sub: "customtransfer.x", key: "path" }, "lfs.customtransfer.x.path"],
  [{ section: "lfs", sub: undefined, key: "standalonetransferagent" }, "lfs.standalonetransferagent"],
  [{ section: "lfs", sub: "extension.evil", key: "priority" }, undefined],
  [{ section: "lfs", sub: "evil", key: "clean" }, undefined],
])("%o names a program git runs while it reads: %s", (setting, key) => {
  expect(repositoryProgram(setting)).toBe(key);
});

test("the words that may be paths: at blanks, quotes, punctuation and `=`, not options or variables", () => {
  expect(pathWords(`cd ../other && git -C "/src/x" diff --git-dir=/g; GIT_DIR=$HOME/y git log`)).toEqual([
    "cd",
    "../other",
    "git",
    "/src/x",
    "diff",
    "/g",
    "GIT_DIR",
    "log",
  ]);
});

test("guardedGit gives the user's git-lfs, run as a filter, no program the repository's config names: an extension passes the bytes through, a transfer agent is none", () => {
  const env = guardedGit({}, ["lfs.Extension.evil.clean", "lfs.extension.evil.smudge", "lfs.customtransfer.x.path", "lfs.standalonetransferagent"]);
  const given = Object.fromEntries(Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]));
  expect(given).toMatchObject({
    "lfs.Extension.evil.clean": "cat",
    "lfs.extension.evil.smudge": "cat",
    "lfs.customtransfer.x.path": "",
    "lfs.standalonetransferagent": "",
  });
});

test("guardedGit comes after the user's own GIT_CONFIG entries, which stay", () => {
  const mine = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "Ana" };
  const env = guardedGit(mine, ["diff.evil.textconv", "filter.f.process", "gpg.x509.program"]);
  expect(env.GIT_CONFIG_COUNT).toBe("10");
  expect(env.GIT_PROTOCOL_FROM_USER).toBe("0");
  expect([env.GIT_CONFIG_KEY_0, env.GIT_CONFIG_VALUE_0]).toEqual(["user.name", "Ana"]);
  expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `${env[`GIT_CONFIG_KEY_${i}`]}=${env[`GIT_CONFIG_VALUE_${i}`]}`)).toEqual([
    "safe.bareRepository=explicit",
    "core.fsmonitor=false",
    "protocol.file.allow=user",
    "protocol.ext.allow=never",
    "core.hooksPath=/dev/null",
    "diff.evil.textconv=cat",
    "filter.f.process=",
    "gpg.x509.program=gpgsm",
    "filter.f.required=false",
  ]);
});

testNeeding(["git"])("a command that goes to another repository: its programs are found, and git given guardedGit runs none of them", async () => {
  const base = fresh();
  const { repo, marks } = hostileRepo(base);
  const { clone } = embeddedBareClone(join(base, "elsewhere"));
  const command = `cd ${repo} && git status --short && git diff && git log -p -1 && git -C ${join(clone, "tools")} status`;
  expect(await repositoryPrograms(clone, "ls", "/nonexistent", process.env)).toEqual([]);
  expect(await repositoryPrograms(repo, "", "/nonexistent", process.env)).toEqual(PROGRAMS);
  const programs = await repositoryPrograms(clone, command, "/nonexistent", process.env);
  expect(programs).toEqual(PROGRAMS);
  const run = Bun.spawnSync(["sh", "-c", command], { cwd: clone, env: guardedGit(process.env, programs), stdout: "pipe", stderr: "pipe" });
  expect(run.stdout.toString()).toContain("+changed too");
  expect(run.stderr.toString()).toContain("safe.bareRepository");
  expect(marksIn(marks)).toEqual([]);
  expect(marksIn(join(base, "elsewhere", "marks"))).toEqual([]);
});

testNeeding(["git"])(
  "a remote at a local path is not reached, so the repository's remote.origin.uploadpack does not run at `git remote show origin`",
  async () => {
    const base = fresh();
    const { clone, marks } = embeddedBareClone(base);
    Bun.spawnSync(["git", "config", "remote.origin.uploadpack", `touch '${join(marks, "uploadpack")}'; git-upload-pack`], { cwd: clone });
    const programs = await repositoryPrograms(clone, "", "/nonexistent", process.env);
    const run = Bun.spawnSync(["git", "remote", "show", "origin"], { cwd: clone, env: guardedGit(process.env, programs), stdout: "pipe", stderr: "pipe" });
    expect(run.stderr.toString()).toContain("transport 'file' not allowed");
    expect(marksIn(marks)).toEqual([]);
    expect(Bun.spawnSync(["git", "remote", "-v"], { cwd: clone, env: guardedGit(process.env, programs), stdout: "pipe" }).stdout.toString()).toContain(
      "origin",
    );
  },
);

testNeeding(["git"])(
  "the repository's core.gitProxy does not run at `git remote show origin` of a git:// remote; the user's own GIT_PROXY_COMMAND stays",
  async () => {
    const { repo, marks } = hostileRepo(fresh());
    const proxy = join(marks, "..", "proxy.sh");
    writeFileSync(proxy, `#!/bin/sh\ntouch '${join(marks, "gitproxy")}'\n`, { mode: 0o755 });
    Bun.spawnSync(["git", "config", "core.gitProxy", proxy], { cwd: repo });
    Bun.spawnSync(["git", "remote", "add", "origin", "git://127.0.0.1:44351/x.git"], { cwd: repo }); // nothing listens there
    const programs = await repositoryPrograms(repo, "", "/nonexistent", process.env);
    expect(programs).toContain("core.gitproxy");
    const run = Bun.spawnSync(["git", "remote", "show", "origin"], { cwd: repo, env: guardedGit(process.env, programs), stdout: "pipe", stderr: "pipe" });
    expect(run.stderr.toString()).toContain("127.0.0.1");
    expect(marksIn(marks)).toEqual([]);
    expect(guardedGit({ GIT_PROXY_COMMAND: "my-proxy" }, programs).GIT_PROXY_COMMAND).toBe("my-proxy");
  },
);

testNeeding(["git"])("`git help -m` runs man(1), not a man viewer the repository's config names", async () => {
  const { repo, marks } = hostileRepo(fresh());
  Bun.spawnSync(["git", "config", "man.viewer", "evil"], { cwd: repo });
  Bun.spawnSync(["git", "config", "man.evil.cmd", `touch '${join(marks, "man")}'; true`], { cwd: repo });
  const env = { ...guardedGit(process.env, await repositoryPrograms(repo, "", "/nonexistent", process.env)), MANPAGER: "cat", PAGER: "cat" };
  Bun.spawnSync(["git", "help", "-m", "log"], { cwd: repo, env, stdin: "ignore", stdout: "ignore", stderr: "ignore", timeout: 20_000 });
  expect(marksIn(marks)).toEqual([]);
});

testNeeding(["git"])("git status and git diff, which write the refreshed index, run no hook of the repository's (post-index-change)", async () => {
  const { repo, marks } = hostileRepo(fresh());
  writeFileSync(join(repo, ".git", "hooks", "post-index-change"), `#!/bin/sh\ntouch '${join(marks, "hook")}'\n`, { mode: 0o755 });
  const env = guardedGit(process.env, await repositoryPrograms(repo, "", "/nonexistent", process.env));
  for (const args of [["status", "--short"], ["diff"]]) {
    Bun.spawnSync(["touch", "-d", "2001-01-01", join(repo, "a.txt"), join(repo, "b.dat")]); // stat-dirty: git refreshes the index and writes it
    const run = Bun.spawnSync(["git", ...args], { cwd: repo, env, stdout: "pipe", stderr: "pipe" });
    expect(run.exitCode).toBe(0);
  }
  expect(marksIn(marks)).toEqual([]);
});

/** A new repository (`git` runs in it, as a user with a name) and an empty folder beside it for the markers its programs would touch. */
function markedRepo(): { repo: string; marks: string; git: (...args: string[]) => unknown } {
  const base = fresh();
  const [repo, marks] = [join(base, "repo"), join(base, "marks")];
  mkdirSync(marks);
  mkdirSync(repo);
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd: repo });
  git("init", "-q");
  return { repo, marks, git };
}

/** A repository whose `.git/config` includes what `pad` writes, then names a textconv driver and a filter that touch markers. */
function paddedRepo(pad: (gitDir: string) => string): { repo: string; marks: string } {
  const { repo, marks, git } = markedRepo();
  writeFileSync(join(repo, ".gitattributes"), "*.txt diff=x\n*.dat filter=f\n");
  writeFileSync(join(repo, "a.txt"), "old\n");
  writeFileSync(join(repo, "b.dat"), "old\n");
  git("add", "-A");
  git("commit", "-qm", "init");
  writeFileSync(join(repo, "a.txt"), "new\n");
  writeFileSync(join(repo, "b.dat"), "new\n");
  const touch = (name: string) => `touch ${join(marks, name)}`;
  const after = `[diff "x"]\n\ttextconv = "sh -c '${touch("textconv")}; cat \\"$0\\"'"\n[filter "f"]\n\tclean = "sh -c '${touch("clean")}; cat'"\n`;
  writeFileSync(join(repo, ".git", "config"), `${pad(join(repo, ".git"))}${after}`, { flag: "a" });
  return { repo, marks };
}

testNeeding(["git"])(
  "after an include hey stops reading (over 1 MB, over 200 files), every program is made harmless, the drivers by the names git lists",
  async () => {
    const large = (gitDir: string) => {
      writeFileSync(join(gitDir, "big.inc"), "# padding\n".repeat(200_000)); // 2 MB
      return "[include]\n\tpath = big.inc\n";
    };
    const many = (gitDir: string) => {
      for (let i = 0; i < 210; i++) writeFileSync(join(gitDir, `part${i}.inc`), "[core]\n\tquotePath = false\n");
      return Array.from({ length: 210 }, (_, i) => `[include]\n\tpath = part${i}.inc\n`).join("");
    };
    for (const pad of [large, many]) {
      const { repo, marks } = paddedRepo(pad);
      const programs = await repositoryPrograms(repo, "", "/nonexistent", process.env);
      expect(programs).toEqual(expect.arrayContaining(["diff.external", "diff.x.textconv", "filter.f.clean", "gpg.program", "core.sshcommand"]));
      const env = guardedGit(process.env, programs);
      const diff = Bun.spawnSync(["sh", "-c", "git status --short && git diff"], { cwd: repo, env, stdout: "pipe", stderr: "pipe" });
      expect(diff.stdout.toString()).toContain("+new");
      expect(marksIn(marks)).toEqual([]);
    }
  },
);

testNeeding(["git"])("where git cannot list the config in time either (an include of a FIFO), git runs nothing in that command", async () => {
  const { repo, marks } = paddedRepo((gitDir) => {
    Bun.spawnSync(["mkfifo", join(gitDir, "pipe.inc")]);
    return "[include]\n\tpath = pipe.inc\n";
  });
  const programs = await repositoryPrograms(repo, "", "/nonexistent", process.env);
  expect(programs).toEqual([refusal("git did not list this repository's config within 5 s")]);
  const status = Bun.spawnSync(["git", "status"], { cwd: repo, env: guardedGit(process.env, programs), stdout: "pipe", stderr: "pipe" });
  expect(status.exitCode).not.toBe(0);
  expect(status.stderr.toString()).toContain("git did not list this repository's config within 5 s, so no git runs");
  expect(marksIn(marks)).toEqual([]);
});

testNeeding(["git"])(
  "a required filter (as `git lfs install --local` writes it) made harmless: plan mode's git status and /diff's git diff run, and run no filter",
  async () => {
    const { repo, marks, git } = markedRepo();
    writeFileSync(join(repo, ".gitattributes"), "*.bin filter=lfs\n");
    writeFileSync(join(repo, "f.bin"), "old\n");
    git("add", "-A");
    git("commit", "-qm", "init");
    writeFileSync(join(repo, "f.bin"), "new\n");
    const touch = (name: string) => `sh -c 'touch ${join(marks, name)}; cat'`;
    for (const [key, value] of [
      ["clean", touch("clean")],
      ["smudge", touch("smudge")],
      ["process", touch("process")],
      ["required", "true"],
    ])
      git("config", `filter.lfs.${key}`, value!);
    const env = guardedGit(process.env, await repositoryPrograms(repo, "", "/nonexistent", process.env));
    const status = Bun.spawnSync(["git", "status", "--short"], { cwd: repo, env, stdout: "pipe", stderr: "pipe" });
    expect([status.exitCode, status.stdout.toString(), status.stderr.toString()]).toEqual([0, " M f.bin\n", ""]);
    const diff = Bun.spawnSync(["git", "diff", "--no-ext-diff", "--no-textconv", "--name-status"], { cwd: repo, env, stdout: "pipe", stderr: "pipe" });
    expect([diff.exitCode, diff.stdout.toString(), diff.stderr.toString()]).toEqual([0, "M\tf.bin\n", ""]);
    expect(marksIn(marks)).toEqual([]);
  },
);
