// r5 #1 and #6: links a command line makes. `ln -s ~/.config cl && git clone -q . cl/git`
// laid a clone on git's global config folder (so did a worktree, a submodule, `cp -r`, `rsync` and a
// plain `cp` through the link): the guard looked links up on disk, where the link was not yet. And
// `ln -s /abs/agent-dir ~/.config/git` replaced that folder with the agent's. Each is refused now,
// with the real ln, git and cp run to show the harm; the links a user makes every day still run.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { globalGitConfigs } from "../../src/fs/git-config-files.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-line-links-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const GIT_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" };

const LISTS = {
  // README's example list
  readme: { allow: ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"], deny: ["bash: git push *"], narrow: [] },
  // an allow list with no deny part, where each part passes by its entry
  links: {
    allow: ["bash: git *", "bash: ln *", "bash: cp *", "bash: rsync *", "bash: mkdir *", "bash: cd *", "bash: echo *", "bash: ls *"],
    deny: [],
    narrow: [],
  },
  // a deny list
  deny: { allow: [], deny: ["bash: curl *"], narrow: [] },
};

/** A fresh fixture (hey's files in `home`, a project with src/gc), checks whose PATH holds ~/.local/bin and ~/tools/bin (neither there yet). */
function fixture(name: string) {
  const { home, project, controls } = controlFixture(join(root, name));
  mkdirSync(join(project, "src", "gc"), { recursive: true });
  mkdirSync(join(project, "template"), { recursive: true });
  const place = {
    cwd: project,
    home,
    controls,
    gitConfigs: globalGitConfigs(home, {}),
    pathDirs: [join(home, ".local", "bin"), join(home, "tools", "bin"), "/usr/bin"],
    gitEnv: { HOME: home },
  };
  const checks = Object.fromEntries(Object.entries(LISTS).map(([k, l]) => [k, permissionCheck(l, "bash", place)]));
  const verdict = (list: keyof typeof LISTS, command: string) => [command, checks[list]!("bash", { command }) ?? "allowed"];
  return { home, project, verdict };
}

// named where the link leads (`copies files into ~/.config/git`), or by the word through it (`b/config` names git's own files)
const GIT_CONFIG =
  /^blocked by permission rules: `[^`]+` (copies files into `~\/\.config\/git`|names git's own files|could write git's own files).*git's global config, whose settings run commands/;

test("a clone, worktree, submodule, copy or plain write through a link made earlier on the line is judged where the link leads (r5 #1)", () => {
  const { verdict } = fixture("same-line");
  for (const list of ["links", "deny"] as const) {
    for (const command of [
      "ln -s ~/.config cl && git clone -q . cl/git",
      "ln -s ~/.config cl && git worktree add cl/git",
      "ln -sfn ~/.config cl && git submodule add -q https://example.com/x.git cl/git",
      "ln -s ~/.config cl && cp -r src/gc cl/git",
      "ln -s ~/.config cl && rsync -a template/ cl/git/",
      "ln -s ~/.config cl && mkdir -p cl/git && cp src/cfg cl/git/config",
      "ln -s ~/.config cl && echo '[core]' > cl/git/config",
      "ln -sT ~/.config cl; cd cl/git && cp ../../src/cfg config",
      "cp -s ~/.config cl && git clone -q . cl/git",
      // one link through another, and a tree of links `cp -rs` makes
      "ln -s ~/.config a && ln -s a/git b && cp src/cfg b/config",
      "cp -rs ~/.config c && cp src/cfg c/git/config",
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, expect.stringMatching(GIT_CONFIG)]);
    // a PATH folder not there yet, and hey's own config folder
    expect(verdict(list, "ln -s ~/.local cl && git clone -q . cl/bin")[1]).toContain("in a directory on the commands' PATH");
    expect(verdict(list, "ln -s ~/.config/hey h2 && cp src/cfg h2/config.toml")[1]).toMatch(/^blocked by permission rules: .*hey's own configuration/);
    expect(verdict(list, "ln -s ~/.config c && cp -r src/gc c/hey")[1]).toMatch(/^blocked by permission rules: .*hey's own configuration/);
  }
  // README's list refuses it by the guard, not only because its deny entry names `git`
  expect(verdict("readme", "ln -s ~/.config cl && git clone -q . cl/git")[1]).toContain("copies files into `~/.config/git`");
});

test("a path through a link whose target is known only at run time cannot be verified; the link itself still runs", () => {
  const { verdict } = fixture("run-time");
  for (const list of ["links", "deny"] as const) {
    for (const command of ['ln -s "$X" l && git clone -q . l/git', 'ln -s "$X" l && cp src/cfg l/git/config', 'ln -s "$X" l && echo x > l/config'])
      expect(verdict(list, command)[1]).toMatch(
        /^blocked by permission rules: cannot verify .*`ln -s "\$X" l` makes a link on its way whose target `"\$X"` is known only at run time/,
      );
  }
  // (an allow list refuses the run-time word itself, by its entries)
  for (const command of ['ln -sf "$X" out', 'ln -sfn "$(pwd)/build" current && ls current/']) expect(verdict("deny", command)).toEqual([command, "allowed"]);
});

test("a link made at git's global config folder, at a PATH folder or at a folder above one is refused, naming the file it replaces (r5 #6)", () => {
  const { home, project, verdict } = fixture("over");
  const REPLACES =
    /^blocked by permission rules: `[^`]+` makes a link at `~\/\.config\/git`, which would replace `~\/\.config\/git\/config`, a place hey guards \(git's global config, whose settings run commands\) with what it points to, which the agent may not change$/;
  for (const list of ["links", "deny"] as const) {
    for (const command of [
      "ln -s /tmp/agent ~/.config/git",
      "ln -sf /tmp/agent ~/.config/git",
      "ln -sfn /tmp/agent ~/.config/git",
      "ln -sT /tmp/agent ~/.config/git",
      "ln --symbolic --no-target-directory /tmp/agent ~/.config/git",
      "cp -s /tmp/agent ~/.config/git",
      `ln -s /tmp/agent ${home}/.config/git`,
      "cd ~/.config && ln -s /tmp/agent git",
      // a folder of git's name linked into ~/.config, which is there: it lands as ~/.config/git
      "ln -s /tmp/dotfiles/git ~/.config",
      "ln -s /tmp/dotfiles/git -t ~/.config",
      // a target that is a folder there now (the project itself), and a link through one the line made
      `ln -s ${project} ~/.config/git`,
      "ln -s ~/.config a && ln -s /tmp/agent a/git",
      "ln -s ~/.config a && ln -s /tmp/dotfiles/git a",
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, expect.stringMatching(REPLACES)]);
    expect(verdict(list, "ln -s /tmp/agent ~/tools")[1]).toMatch(
      /makes a link at `~\/tools`, which would replace `~\/tools\/bin`, a place hey guards \(in a directory on the commands' PATH/,
    );
    // ~/.local is a real folder: the link lands below it, by its own name
    expect(verdict(list, "ln -sfn /tmp/agent ~/.local")).toEqual(["ln -sfn /tmp/agent ~/.local", "allowed"]);
  }
});

test("the links a user makes every day stay allowed", () => {
  const { home, project, verdict } = fixture("usable");
  mkdirSync(join(project, "bin"), { recursive: true });
  mkdirSync(join(home, ".config", "nvim-old"), { recursive: true });
  for (const list of ["links", "deny"] as const)
    for (const command of [
      "ln -s ../shared/config.js src/config.js",
      "ln -sf build/out bin/tool",
      "ln -sfn releases/v2 current",
      "ln -s /tmp/dotfiles/nvim ~/.config",
      "ln -s /tmp/dotfiles/nvim ~/.config/nvim",
      "ln -s ~/.config cfgview && ls cfgview/",
      "ln -s ~/.config cfgview && cp -r cfgview/nvim-old backup",
      "ln -s dist out && cp -r src out/",
      "ln -s ../x y && git clone -q . y/vendor",
      "cp -rs src mirror",
      "ln -s ~/.config/nvim-old nv && cp src/gc/init.lua nv/init.lua",
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, "allowed"]);
});

/** Runs `script` with bash in `cwd`, HOME at `home`; returns its exit code. */
function run(script: string, cwd: string, home: string) {
  return Bun.spawnSync(["bash", "-c", script], { cwd, env: { ...GIT_ENV, HOME: home, PATH: process.env.PATH }, stdout: "ignore", stderr: "ignore" }).exitCode;
}

testNeeding(["git", "bash", "ln", "cp"])("each refused link, run for real with ln, git and cp, makes git run the agent's fsmonitor", () => {
  const marker = join(root, "pwned");
  const fsmonitor = `[core]\n\tfsmonitor = "echo ran >> ${marker}; false"\n`;
  for (const command of [
    "ln -s ~/.config cl && git clone -q . cl/git",
    "ln -s ~/.config cl && cp -r src/gc cl/git",
    "ln -s ~/.config cl && mkdir -p cl/git && cp src/gc/config cl/git/config",
    "ln -s $PWD/src/gc ~/.config/git",
    "ln -s ~/.config a && ln -s $PWD/src/gc a/git",
  ]) {
    rmSync(join(root, "real"), { recursive: true, force: true });
    rmSync(marker, { force: true });
    const { home, project, verdict } = fixture("real");
    writeFileSync(join(project, "src", "gc", "config"), fsmonitor);
    writeFileSync(join(project, "config"), fsmonitor);
    expect(run("git init -q && git add config && git commit -qm cfg", project, home)).toBe(0);
    expect(verdict("links", command)[1]).toMatch(/^blocked by permission rules: .*git's global config, whose settings run commands/);
    expect([command, run(command, project, home)]).toEqual([command, 0]);
    expect(readFileSync(join(home, ".config", "git", "config"), "utf8")).toBe(fsmonitor);
    run("git status --short", project, home);
    expect([command, existsSync(marker)]).toEqual([command, true]);
  }
});
