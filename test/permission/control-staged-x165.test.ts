// x165: the staged-config check (x157 #3) against real git. It runs no program a repository's config
// names, even where a partial clone would fetch a missing object (#1); a split index is read by git,
// so an untracked config is not "staged" (#3); a checkout or restore of one file leaves the config be
// (#4); and only the repository the command acts on counts (#5), the refusal saying why and the way out.
import { afterAll, expect } from "bun:test";
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const tmp = tempDir("hey-control-staged-x165-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const home = join(root, "home");
const project = join(home, "src", "shop");
const other = join(home, "src", "lib");
const config = join(project, ".hey", "config.toml");
const pwned = join(root, "pwned");
const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: join(root, "gitconfig"), GIT_CEILING_DIRECTORIES: root };
const gitIn = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, env, stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
};
const git = (...args: string[]) => gitIn(project, ...args);

/** A repository at `dir` with src/a.ts committed on main and a branch `other`. */
function repo(dir: string) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "src", "a.ts"), "export const a = 1;\n");
  gitIn(dir, "init", "-q", "-b", "main");
  gitIn(dir, "add", "src");
  gitIn(dir, "commit", "-qm", "first");
  gitIn(dir, "branch", "other");
}

/** The project with `.hey/config.toml` written, untracked. */
function fresh() {
  writeFileSync(join(root, "gitconfig"), "");
  repo(project);
  mkdirSync(join(project, ".hey"), { recursive: true });
  writeFileSync(config, '[permission]\ndeny = ["bash: curl *"]\n');
}

const check = (cwd = project) =>
  permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", {
    cwd,
    home,
    controls: controlFiles(places({}, home, project, "linux", project), undefined),
  });
const run = (command: string) => Bun.spawnSync(["bash", "-c", command], { cwd: project, env, stdout: "ignore", stderr: "ignore" });

testNeeding(["bash", "git"])("a partial clone missing HEAD's tree: the check runs none of the repository's programs, and says it could not tell", () => {
  const source = join(root, "source");
  repo(source);
  gitIn(source, "config", "uploadpack.allowFilter", "true");
  rmSync(project, { recursive: true, force: true });
  gitIn(root, "clone", "-q", "--filter=tree:0", "--no-checkout", `file://${source}`, project);
  // the remote is now reached by ssh, whose command the repository's own config names (and allows, per protocol)
  git("remote", "set-url", "origin", "ssh://example.invalid/x");
  git("config", "core.sshCommand", "false");
  mkdirSync(join(project, ".hey"), { recursive: true });
  writeFileSync(config, '[permission]\ndeny = ["bash: curl *"]\n');
  git("add", ".hey/config.toml");
  git("config", "core.sshCommand", `touch ${pwned}; false`);
  git("config", "protocol.ssh.allow", "always");
  const said = check()("bash", { command: "git stash" });
  expect(existsSync(pwned)).toBe(false);
  expect(said ?? "allowed").toMatch(/cannot tell|could not tell|did not say/);
});

testNeeding(["bash", "git"])("with a split index, an untracked or unstaged config leaves git stash, reset --hard and checkout -f be", () => {
  for (const unstaged of [false, true]) {
    fresh();
    git("config", "core.splitIndex", "true");
    if (unstaged) {
      git("add", ".hey/config.toml");
      git("update-index", "--split-index");
      git("rm", "-q", "--cached", ".hey/config.toml");
    } else git("update-index", "--split-index");
    for (const command of ["git stash", "git reset --hard", "git checkout -f other"])
      expect([unstaged, command, check()("bash", { command })]).toEqual([unstaged, command, undefined]);
  }
  // staged with a split index: still refused
  fresh();
  git("config", "core.splitIndex", "true");
  git("add", ".hey/config.toml");
  git("update-index", "--split-index");
  expect(check()("bash", { command: "git stash" }) ?? "allowed").toMatch(/^blocked by permission rules: .*deletes/);
});

testNeeding(["bash", "git"])("a staged-only config: checking out or restoring one file is allowed and, run, leaves it in place", () => {
  for (const command of [
    "git checkout -f src/a.ts",
    "git checkout -f -- src/a.ts",
    "git restore --source=HEAD src/a.ts",
    "git restore -s HEAD -- src/a.ts",
    "git checkout -f HEAD -- src/a.ts",
  ]) {
    fresh();
    writeFileSync(join(project, "src", "a.ts"), "export const a = 2;\n");
    run("git add -A");
    expect([command, check()("bash", { command })]).toEqual([command, undefined]);
    run(command);
    expect([command, existsSync(config)]).toEqual([command, true]);
  }
  // what can reach it is still refused
  for (const command of [
    "git checkout -f other",
    "git checkout -f -- .",
    "git restore --source=HEAD -SW .",
    "git checkout -f HEAD -- :/",
    "git restore -s HEAD -SW '*.toml'",
  ]) {
    fresh();
    run("git add -A");
    expect([command, check()("bash", { command }) ?? "allowed"]).toEqual([command, expect.stringMatching(/^blocked by permission rules: .*deletes/)]);
  }
});

testNeeding(["bash", "git"])("a staged-only config: git in another repository runs; the refusal in the project names the config and the way out", () => {
  fresh();
  repo(other);
  run("git add -A");
  expect(check()("bash", { command: `git -C ${other} stash` })).toBeUndefined();
  expect(check(other)("bash", { command: "git stash" })).toBeUndefined();
  const said = check()("bash", { command: "git stash" }) ?? "allowed";
  expect(said).toMatch(/^blocked by permission rules: .*deletes/);
  expect(said).toContain("`~/src/shop/.hey/config.toml` is staged and in no commit");
  expect(said).toContain("commit it first, or ask the user to unstage it (`git restore --staged .hey/config.toml`");
  // the agent is not told to run what it would be refused (x168 #4)
  expect(check()("bash", { command: "git restore --staged .hey/config.toml" })).toMatch(/^blocked by permission rules/);
});
