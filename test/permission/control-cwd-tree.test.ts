// x144 #2: git acts on its repository's whole work tree from any folder in it. Started in
// `shop/web`, `git stash -u` and `git clean -fdx ..`/`:/`/`:/.hey` deleted the root's untracked
// `.hey/config.toml`, and from `~/.config/nvim` in a dotfiles repository `git checkout -f main` ran
// while `cd .. && git checkout -f main` was refused. Those are now judged at the work tree's top;
// git that cannot reach the file (a pathspec in the folder, `git stash`, `git checkout BRANCH` in a
// project, which write only what the repository holds) still runs — but not after a `git add` staged
// the file. Each case is run with real git too: what is refused does delete the file, what runs does not.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { describeNeeding } from "../helpers/tools.ts";

const tmp = tempDir("hey-control-tree-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const home = join(root, "home");
const gitEnv = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GIT_CONFIG_NOSYSTEM: "1" };
const git = (cwd: string, ...args: string[]) => {
  const run = Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd, env: { ...process.env, ...gitEnv }, stderr: "pipe" });
  if (run.exitCode !== 0 && args[0] !== "stash" && args[0] !== "clean") throw new Error(run.stderr.toString());
};
const lists = { allow: ["bash: git *", "bash: cd *"], deny: [], narrow: [] };
const startedIn = (cwd: string, project: string) =>
  permissionCheck(lists, "sh", { cwd, home, controls: controlFiles(places({}, home, cwd, "linux", project), undefined), gitEnv });
const config = '[permission]\ndeny = ["bash: curl *"]\n';

/** A repository at `top` with `web/a.txt` committed on main and a branch `other`; `file` written after the commit (untracked). */
function repository(top: string, file: string) {
  mkdirSync(join(top, "web"), { recursive: true });
  git(top, "init", "-q", "-b", "main");
  writeFileSync(join(top, "web", "a.txt"), "a\n");
  git(top, "add", "web");
  git(top, "commit", "-qm", "a");
  git(top, "branch", "other");
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, config);
}

const shop = join(home, "src", "shop");
const shopConfig = join(shop, ".hey", "config.toml");
const dotfiles = join(home, ".config");
const userConfig = join(dotfiles, "hey", "config.toml");
let web: ReturnType<typeof startedIn>;
let nvim: ReturnType<typeof startedIn>;
beforeAll(() => {
  repository(shop, shopConfig);
  repository(dotfiles, userConfig);
  mkdirSync(join(dotfiles, "nvim"));
  web = startedIn(join(shop, "web"), shop);
  nvim = startedIn(join(dotfiles, "nvim"), dotfiles);
});

/** Whether `command`, run with real git in `dir` of a copy of the repository at `top`, leaves `file` (below `top`) in place. */
function keeps(top: string, dir: string, file: string, command: string): boolean {
  const copy = join(root, `copy-${Math.random().toString(36).slice(2)}`);
  cpSync(top, copy, { recursive: true });
  Bun.spawnSync(["sh", "-c", command], { cwd: join(copy, dir), env: { ...process.env, ...gitEnv }, stdout: "pipe", stderr: "pipe" });
  return existsSync(join(copy, file.slice(top.length)));
}

const tree = (command: string, top: string, file: string, verb = "deletes files no repository keeps in") =>
  `blocked by permission rules: \`${command}\` ${verb} its repository's work tree, \`${top}\`, beyond the folder it runs in, a directory above hey's own configuration or trust file \`${file}\`, which the agent may not change`;

describeNeeding(["git"], "started in shop/web, git that takes the root's untracked .hey/config.toml is refused, naming the work tree", () => {
  const at = "~/src/shop";
  const file = "~/src/shop/.hey/config.toml";
  test.each(["git stash -u", "git stash -a", "git stash push --include-untracked", "git clean -fdx ..", "git clean -fdx :/", "git clean -fdx :/.hey"])(
    "%s",
    (command) => {
      expect(web("bash", { command })).toBe(tree(command, at, file));
      expect(keeps(shop, "web", shopConfig, command)).toBe(false);
    },
  );
  test.each([
    "git stash",
    "git stash -u -- .",
    "git clean -fdx",
    "git clean -fdx ../web",
    "git checkout -f other",
    "git checkout other",
    "git reset --hard",
    "git checkout a.txt",
    "git checkout other -- a.txt",
    "cd .. && git stash -u -- web/",
  ])("%s runs, and leaves it", (command) => {
    expect(web("bash", { command })).toBeUndefined();
    expect(keeps(shop, "web", shopConfig, command)).toBe(true);
  });
});

// staged first, a file no commit holds goes with the stash or the reset: `git add -A && git stash` is `git stash -u`
describeNeeding(["git"], "git stash and git reset --hard after a git add that stages the untracked config", () => {
  test.each(["git add -A && git stash", "git add -A && git reset --hard", "cd .. && git add . && git stash -q"])("%s is refused, and deletes it", (command) => {
    expect(web("bash", { command }) ?? "").toMatch(/^blocked by permission rules: `git (stash|reset)[^`]*` deletes files no repository keeps in/);
    expect(keeps(shop, "web", shopConfig, command)).toBe(false);
  });
  test.each(["git add . && git stash", "git add a.txt && git reset --hard", "git stash && git add -A"])("%s runs, and leaves it", (command) => {
    expect(web("bash", { command })).toBeUndefined();
    expect(keeps(shop, "web", shopConfig, command)).toBe(true);
  });
  test("git add -A && git commit -m wip && git pull --rebase runs", () =>
    expect(web("bash", { command: "git add -A && git commit -m wip && git pull --rebase" })).toBeUndefined());
});

describeNeeding(["git"], "started in ~/.config/nvim of a dotfiles repository, git acting on ~/.config is judged there", () => {
  const file = "~/.config/hey/config.toml";
  test("git stash -u and git clean -fdx :/hey are refused, and with real git they delete the user's config", () => {
    for (const command of ["git stash -u", "git clean -fdx :/hey"]) {
      expect(nvim("bash", { command })).toBe(tree(command, "~/.config", file));
      expect(keeps(dotfiles, "nvim", userConfig, command)).toBe(false);
    }
  });
  test("git checkout -f main is refused as cd .. && git checkout -f main is", () => {
    expect(nvim("bash", { command: "git checkout -f main" })).toBe(tree("git checkout -f main", "~/.config", file, "changes files in"));
    expect(nvim("bash", { command: "cd .. && git checkout -f main" })).toStartWith(
      "blocked by permission rules: `git checkout -f main` changes files in the directory it runs in, `~/.config`",
    );
  });
  test.each(["git checkout init.lua", "git clean -fdx", "git stash -u -- .", "git status"])("%s stays in the folder, and runs", (command) => {
    writeFileSync(join(dotfiles, "nvim", "init.lua"), "x\n");
    expect(nvim("bash", { command })).toBeUndefined();
  });
});

// a bare dotfiles repository worked through exported variables (`GIT_DIR=~/.dotfiles GIT_WORK_TREE=~`): git's tree is the home
describeNeeding(["git"], "a work tree git is told of", () => {
  test("with GIT_WORK_TREE=~ exported, git checkout -f main from the project is judged at the home", () => {
    const exported = { ...gitEnv, GIT_DIR: join(home, ".dotfiles"), GIT_WORK_TREE: home };
    const check = permissionCheck(lists, "sh", { cwd: shop, home, controls: controlFiles(places({}, home, shop, "linux"), undefined), gitEnv: exported });
    expect(check("bash", { command: "git checkout -f main" })).toStartWith(
      "blocked by permission rules: `git checkout -f main` changes files in its repository's work tree, `~`, beyond the folder it runs in",
    );
    expect(check("bash", { command: "git status" })).toBeUndefined();
  });
});
