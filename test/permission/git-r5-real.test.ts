// r5 #7 and #8 against the real git: what the checker now refuses under README's allow entries
// (no deny entry) does, run by sh, what the refusal is about — a submodule's `update = !CMD` given
// on the command line runs CMD, a `gpg.program` runs the script the agent wrote — while the same
// key in `.gitmodules` runs nothing (git: "invalid value"), which is why only the command line and
// git's own config count. And `git submodule foreach 'git push'`, refused by `bash: git push *`,
// really pushes, while `git submodule foreach git pull`, now allowed, pushes nothing.
import { afterAll, expect } from "bun:test";
import { chmodSync, existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-git-r5-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const PWNED = join(root, "pwned");
const README_ALLOW = ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"];

const ENV = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  // the submodule is cloned from a local path, which git 2.38.1+ allows only when told
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "protocol.file.allow",
  GIT_CONFIG_VALUE_0: "always",
});

/** A project with a submodule `vendor/lib` checked out one commit behind the one recorded (as after a pull that bumps it), its remote a bare `lib.git`. */
function fixture() {
  const f = join(root, "f");
  rmSync(f, { recursive: true, force: true });
  rmSync(PWNED, { force: true });
  const { home, project, controls } = controlFixture(f);
  const env = ENV(home);
  const git = (cwd: string, ...args: string[]) => {
    const r = Bun.spawnSync(["git", ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
    expect([args.join(" "), r.exitCode, r.stderr.toString()]).toEqual([args.join(" "), 0, expect.any(String)]);
    return r.stdout.toString().trim();
  };
  const lib = join(f, "lib.git");
  git(f, "init", "-q", "--bare", lib);
  const work = join(f, "libwork");
  git(f, "clone", "-q", lib, work);
  git(work, "commit", "-q", "--allow-empty", "-m", "one");
  git(work, "commit", "-q", "--allow-empty", "-m", "two");
  git(work, "push", "-q", "origin", "HEAD");
  git(project, "init", "-q");
  git(project, "submodule", "add", "-q", lib, "vendor/lib");
  git(project, "commit", "-qm", "sub");
  git(join(project, "vendor", "lib"), "checkout", "-q", "HEAD~1");
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, "g"), `#!/bin/sh\ntouch ${PWNED}\nexit 1\n`);
  chmodSync(join(project, "g"), 0o755);
  const sh = (command: string) => Bun.spawnSync(["sh", "-c", command], { cwd: project, env, stdout: "ignore", stderr: "pipe" });
  const check = permissionCheck({ allow: README_ALLOW, deny: [], narrow: [] }, "bash", { cwd: project, home, controls });
  const readme = permissionCheck({ allow: README_ALLOW, deny: ["bash: git push *"], narrow: [] }, "bash", { cwd: project, home, controls });
  return { project, lib, git, sh, check, readme };
}

testNeeding(["git", "sh"])("a submodule's update `!CMD` on git's command line runs CMD: refused; from .gitmodules git runs nothing", () => {
  const { project, sh, check, git } = fixture();
  const command = `git -c 'submodule.vendor/lib.update=!touch ${PWNED}' submodule update`;
  expect(check("bash", { command })).toContain(`\`touch ${PWNED}\` matches no allow entry`);
  sh(command);
  expect(existsSync(PWNED)).toBe(true);
  // the same in .gitmodules: git refuses the value and runs nothing, so `git submodule update` stays allowed
  rmSync(PWNED);
  git(project, "config", "-f", ".gitmodules", "submodule.vendor/lib.update", `!touch ${PWNED}`);
  expect(check("bash", { command: "git submodule update" })).toBeUndefined();
  expect(sh("git submodule update").stderr.toString()).toContain("invalid value for 'submodule.vendor/lib.update'");
  expect(existsSync(PWNED)).toBe(false);
});

testNeeding(["git", "sh"])("`-c gpg.program=./g` runs the agent's script: refused under `bash: git *` alone", () => {
  const { sh, check } = fixture();
  const command = "git -c gpg.program=./g commit -q -S --allow-empty -m x";
  expect(check("bash", { command })).toContain("sets git's gpg.program, which git runs: `'./g'` matches no allow entry");
  sh(command);
  expect(existsSync(PWNED)).toBe(true);
});

testNeeding(["git", "sh"])("`submodule foreach 'git push'` pushes (refused by `bash: git push *`); `foreach git pull` does not (allowed)", () => {
  const { project, lib, git, sh, readme } = fixture();
  const sub = join(project, "vendor", "lib");
  git(sub, "checkout", "-q", "-B", "main");
  git(sub, "commit", "-q", "--allow-empty", "-m", "three");
  const pushed = () => git(lib, "log", "--all", "--oneline").includes("three");
  expect(readme("bash", { command: "git submodule foreach git pull -q --ff-only origin master" })).toBeUndefined();
  sh("git submodule foreach git pull -q --ff-only origin master");
  expect(pushed()).toBe(false);
  expect(readme("bash", { command: "git submodule foreach 'git push -q origin main'" })).toContain("matches deny entry `bash: git push *`");
  sh("git submodule foreach 'git push -q origin main'");
  expect(pushed()).toBe(true);
});

testNeeding(["git", "sh"])(
  "`submodule.NAME.update = !CMD` in the repository's config runs CMD on `git submodule update`: refused; `--checkout` runs none",
  () => {
    const { project, git, sh, check, readme } = fixture();
    git(project, "config", "submodule.vendor/lib.update", `!touch ${PWNED}`);
    for (const list of [check, readme])
      for (const command of ["git submodule update", "git submodule --quiet update --init vendor/lib"])
        expect(list("bash", { command })).toContain(
          `runs submodule.vendor/lib.update from git's config with the shell: \`touch ${PWNED}\` matches no allow entry`,
        );
    expect(check("bash", { command: "git submodule update --checkout" })).toBeUndefined();
    sh("git submodule update --checkout");
    expect(existsSync(PWNED)).toBe(false);
    git(join(project, "vendor", "lib"), "checkout", "-q", "HEAD~1");
    sh("git submodule update");
    expect(existsSync(PWNED)).toBe(true);
  },
);
