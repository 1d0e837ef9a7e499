// x157 #3: a project's untracked `.hey/config.toml`, once staged, is taken out of the work tree by
// `git stash` (push or save), `reset --hard`, `checkout -f BRANCH`, `switch -f`, `restore -SW .`,
// `checkout --no-overlay HEAD -- .` and `read-tree -u --reset HEAD` — whether the `git add -A` came
// earlier in the same command or in an earlier call. Each is refused at the project's root, and each,
// run by the real git in a fresh copy, does delete the file; a `git stash` or `git checkout BRANCH`
// where the file is committed, or untracked and not staged, still runs.
import { afterAll, expect } from "bun:test";
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const tmp = tempDir("hey-control-staged-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const home = join(root, "home");
const project = join(home, "src", "shop");
const config = join(project, ".hey", "config.toml");
const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: join(root, "gitconfig"), GIT_CEILING_DIRECTORIES: root };
const git = (...args: string[]) => {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: project, env, stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
};

/** A fresh project: a repository with a commit on main and a branch `other`; `.hey/config.toml` committed or left untracked. */
function fresh(committed: boolean) {
  rmSync(project, { recursive: true, force: true });
  mkdirSync(join(project, ".hey"), { recursive: true });
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(root, "gitconfig"), "");
  writeFileSync(join(project, "src", "a.ts"), "export const a = 1;\n");
  git("init", "-q", "-b", "main");
  git("add", "src");
  git("commit", "-qm", "first");
  git("branch", "other");
  writeFileSync(config, '[permission]\ndeny = ["bash: curl *"]\n');
  if (committed) {
    git("add", ".hey");
    git("commit", "-qm", "config");
  }
}

const check = () =>
  permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", {
    cwd: project,
    home,
    controls: controlFiles(places({}, home, project, "linux", project), undefined),
  });
const run = (command: string) => Bun.spawnSync(["bash", "-c", command], { cwd: project, env, stdout: "ignore", stderr: "ignore" });

const TAKERS = [
  "git stash",
  "git stash save wip",
  "git reset --hard",
  "git checkout -f other",
  "git switch -f other",
  "git switch --discard-changes other",
  "git restore -SW .",
  "git checkout --no-overlay HEAD -- .",
  "git read-tree -u --reset HEAD",
];

testNeeding(["bash", "git"])("after `git add -A` in the same command, each is refused and, run, deletes the project's config", () => {
  const ran: string[] = [];
  for (const taker of TAKERS) {
    fresh(false);
    const command = `git add -A && ${taker}`;
    expect(check()("bash", { command }) ?? `allowed: ${command}`).toMatch(/^blocked by permission rules: .*deletes/);
    run(command);
    if (existsSync(config)) ran.push(command);
  }
  expect(ran).toEqual([]);
});

testNeeding(["bash", "git"])("after `git add -A` in an earlier call, each is refused and, run, deletes the project's config", () => {
  const ran: string[] = [];
  for (const taker of TAKERS) {
    fresh(false);
    expect(check()("bash", { command: "git add -A" })).toBeUndefined();
    run("git add -A");
    expect(check()("bash", { command: taker }) ?? `allowed: ${taker}`).toMatch(/^blocked by permission rules: .*deletes/);
    run(taker);
    if (existsSync(config)) ran.push(taker);
  }
  expect(ran).toEqual([]);
});

testNeeding(["bash", "git"])("where the config is committed, or untracked and not staged, everyday git runs", () => {
  const everyday = ["git stash", "git stash push -m wip", "git checkout other", "git checkout main", "git reset --hard", "git switch other"];
  for (const committed of [true, false]) {
    fresh(committed);
    writeFileSync(join(project, "src", "a.ts"), "export const a = 2;\n");
    run("git add src/a.ts");
    for (const command of everyday) expect([committed, command, check()("bash", { command })]).toEqual([committed, command, undefined]);
  }
  // committed and staged again unchanged: `git add -A` in an earlier call stages nothing new
  fresh(true);
  run("git add -A");
  expect(check()("bash", { command: "git stash" })).toBeUndefined();
});
