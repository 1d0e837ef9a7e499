// x157 #4 and #5: where git's whole-tree commands act. `git checkout [-f] NAME` switches to the
// branch or tag NAME even where a file NAME is in the folder it runs in (packed refs too), so it is
// judged at the top of the work tree, not the folder; and `--git-dir DIR` (or `GIT_DIR=DIR`) acts on
// the tree DIR's `core.worktree` names, not the folder git runs in. Each refusal is of a command the
// real git, run in a fresh copy, lets change a control file; a file checkout and a git directory with
// no core.worktree still run.
import { afterAll, expect } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const tmp = tempDir("hey-control-git-tops-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const home = join(root, "home");
const elsewhere = join(root, "work");
const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: join(root, "gitconfig"), GIT_CEILING_DIRECTORIES: root };
const git = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, env, stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
};
const here = places({}, home, elsewhere, "linux");
const check = (cwd: string) =>
  permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd, home, controls: controlFiles(places({}, home, cwd, "linux"), undefined) });
const refused = (out: string | undefined, command: string) =>
  expect(out ?? `allowed: ${command}`).toMatch(/^blocked by permission rules: .*(hey's own configuration|cannot verify)/);
const run = (cwd: string, command: string) => Bun.spawnSync(["bash", "-c", command], { cwd, env, stdout: "ignore", stderr: "ignore" });

/** A home holding hey's files; ~/.config a dotfiles repository tracking hey's config, whose branch `other` holds another. */
function dotfiles() {
  rmSync(home, { recursive: true, force: true });
  writeFileSync(join(root, "gitconfig"), "");
  for (const d of [here.configDir, here.stateDir, join(home, ".config", "nvim"), elsewhere]) mkdirSync(d, { recursive: true });
  writeFileSync(here.userConfig, '[permission]\ndeny = ["bash: rm *"]\n');
  writeFileSync(here.approvalsFile, "{}\n");
  writeFileSync(join(home, ".config", "nvim", "init.lua"), "-- mine\n");
  const config = join(home, ".config");
  git(config, "init", "-q", "-b", "main");
  git(config, "add", ".");
  git(config, "commit", "-qm", "dotfiles");
  git(config, "checkout", "-qb", "other");
  writeFileSync(here.userConfig, "# PWNED\n");
  git(config, "commit", "-qam", "other");
  git(config, "checkout", "-q", "main");
}

testNeeding(["bash", "git"])("`git checkout NAME` with a file NAME there switches to the branch NAME: judged at the top of the tree", () => {
  const nvim = join(home, ".config", "nvim");
  const commands = ["git checkout other", "git checkout -f other", "git checkout -f main", "git checkout --force other"];
  for (const packed of [false, true]) {
    dotfiles();
    if (packed) git(join(home, ".config"), "pack-refs", "--all");
    writeFileSync(join(nvim, "other"), "notes\n");
    writeFileSync(join(nvim, "main"), "notes\n");
    for (const command of commands) refused(check(nvim)("bash", { command }), command);
    // a file of no ref's name, or a path after `--`, is the file's checkout in the folder
    for (const command of ["git checkout init.lua", "git checkout -- other", "git checkout -f -- init.lua", "git checkout .", "git checkout ./"])
      expect([command, check(nvim)("bash", { command })]).toEqual([command, undefined]);
  }
  run(nvim, "git checkout -f other");
  expect(readFileSync(here.userConfig, "utf8")).toBe("# PWNED\n");
});

testNeeding(["bash", "git"])("`--git-dir DIR` acts on the tree DIR's core.worktree names, from wherever git runs", () => {
  dotfiles();
  const gitDir = join(home, ".dotfiles");
  git(root, "init", "-q", "--bare", gitDir);
  git(root, "--git-dir", gitDir, "config", "core.bare", "false");
  git(root, "--git-dir", gitDir, "config", "core.worktree", home);
  writeFileSync(join(home, ".bashrc"), "# mine\n");
  git(home, "--git-dir", gitDir, "add", ".bashrc");
  git(home, "--git-dir", gitDir, "commit", "-qm", "dotfiles");
  const commands = [
    `git -C /usr --git-dir ${gitDir} stash -u`,
    `git --git-dir=${gitDir} stash -u`,
    "git --git-dir ~/.dotfiles checkout -f main",
    `GIT_DIR=${gitDir} git stash -u`,
    'git --git-dir "$D" stash -u',
  ];
  for (const command of commands) refused(check(elsewhere)("bash", { command }), command);
  // a git directory with no core.worktree works on the folder git runs in
  git(root, "init", "-q", join(root, "plain"));
  for (const command of [`git --git-dir ${join(root, "plain", ".git")} stash -u`, `git --git-dir=${gitDir} log`])
    expect([command, check(elsewhere)("bash", { command })]).toEqual([command, undefined]);
  run(elsewhere, commands[0]!);
  expect(() => readFileSync(here.approvalsFile, "utf8")).toThrow();
});
