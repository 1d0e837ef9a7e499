// x5 #4 and #5: a whole tree laid down on a directory that holds git's global config or is on the
// commands' PATH. `git clone -q . ~/.config/git` or `cp -r src/gc ~/.config/git` (and, when that
// folder exists, `cp -rT` or `cp -r src/gc/.`) made the tree's `config` git's global config, whose
// core.fsmonitor every later git command ran; `git -C ~/.local clone -q PROJECT bin` made
// ~/.local/bin (on PATH, not there yet) hold the agent's `git`, where the same clone after a `cd`
// was refused. Each is refused now, under README's list and under lists without a deny part, and
// the real git and cp are run to show the refusals are not of harmless spellings.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { globalGitConfigs } from "../../src/fs/git-config-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-tree-landing-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const GIT_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" };

const LISTS = {
  // README's example list
  readme: { allow: ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"], deny: ["bash: git push *"], narrow: [] },
  // an allow list with no deny part, where the copies pass by their entries
  copies: { allow: ["read_file", "grep", "bash: git *", "bash: cp *", "bash: rsync *", "bash: cd *"], deny: [], narrow: [] },
  // a deny list
  deny: { allow: [], deny: ["bash: curl *"], narrow: [] },
};

/** A fresh fixture (hey's files in `home`, a project), `~/tools` holding no control file, and checks whose PATH holds ~/.local/bin and ~/tools/bin, neither there yet. */
function fixture(name: string, env: Record<string, string> = {}) {
  const { home, project, controls } = controlFixture(join(root, name));
  mkdirSync(join(home, "tools"), { recursive: true });
  mkdirSync(join(project, "src", "gc"), { recursive: true });
  const here = places(env, home, project, "linux");
  const place = {
    cwd: project,
    home,
    controls: env.XDG_CONFIG_HOME ? controlFiles(here, undefined) : controls,
    gitConfigs: globalGitConfigs(home, env),
    pathDirs: [join(home, ".local", "bin"), join(home, "tools", "bin"), "/usr/bin"],
    gitEnv: { ...env, HOME: home },
  };
  const checks = Object.fromEntries(Object.entries(LISTS).map(([k, l]) => [k, permissionCheck(l, "bash", place)]));
  const verdict = (list: keyof typeof LISTS, command: string) => [command, checks[list]!("bash", { command }) ?? "allowed"];
  return { home, project, verdict };
}

const GIT_CONFIG =
  /^blocked by permission rules: .*copies files into `~\/\.config\/git`, where they may write `~\/\.config\/git\/config`, a place hey guards \(git's global config/;
const ON_PATH = /^blocked by permission rules: .*(in a directory on the commands' PATH|`~\/tools\/bin`, a place hey guards)/;

test("a tree laid down on git's global config folder is refused, whether it creates it or merges into it (x5 #4)", () => {
  const { verdict } = fixture("xdg");
  for (const list of ["copies", "deny"] as const)
    for (const command of [
      "git clone -q . ~/.config/git",
      "git clone -q . ../home/.config/git",
      "git -C .. clone -q project home/.config/git",
      "git clone -q --bare . ~/.config/git",
      "git clone -q --separate-git-dir ~/.config/git . x",
      "cp -r src/gc ~/.config/git",
      "cp -rT src/gc ~/.config/git",
      "cp -r src/gc/. ~/.config/git",
      "rsync -a src/gc/ ~/.config/git/",
      "cd ~/.config && git clone -q ../../project git",
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, expect.stringMatching(GIT_CONFIG)]);
  // README's list refuses the clones by this rule too, not only by its deny entry naming `git`
  expect(verdict("readme", "git clone -q . ~/.config/git")).toEqual(["git clone -q . ~/.config/git", expect.stringMatching(GIT_CONFIG)]);
});

test("an existing ~/.config/git is merged into only by -T or SRC/.; a folder copied into it lands below it and stays allowed", () => {
  const { home, verdict } = fixture("xdg-there");
  mkdirSync(join(home, ".config", "git"), { recursive: true });
  writeFileSync(join(home, ".config", "git", "config"), "[user]\n\tname = u\n");
  for (const command of ["cp -rT src/gc ~/.config/git", "cp -r src/gc/. ~/.config/git", "cp -r --no-target-directory src/gc ~/.config/git"])
    expect(verdict("copies", command)[1]).toMatch(/^blocked by permission rules: /);
  expect(verdict("copies", "cp -r src/gc ~/.config/git")).toEqual(["cp -r src/gc ~/.config/git", "allowed"]);
});

test("with XDG_CONFIG_HOME set, git's global config and hey's own config there are guarded the same way", () => {
  const xdg = join(root, "xdg-home-cfg");
  const { verdict } = fixture("xdg-env", { XDG_CONFIG_HOME: xdg });
  for (const list of ["copies", "deny"] as const) {
    expect(verdict(list, `cp -r src/gc ${xdg}/git`)[1]).toContain(`where they may write \`${xdg}/git/config\`, a place hey guards (git's global config`);
    expect(verdict(list, `git clone -q . ${xdg}/git`)[1]).toContain(`where they may write \`${xdg}/git/config\``);
    expect(verdict(list, `cp -r src/gc ${xdg}/hey`)[1]).toMatch(/^blocked by permission rules: .*hey's own configuration/);
    expect(verdict(list, `cp -r src/gc/. ${xdg}`)[1]).toMatch(/^blocked by permission rules: .*hey's own configuration/);
  }
});

test("git's -C leads a clone's, worktree's, submodule's and init's directory as a cd does (x5 #5)", () => {
  const { project, verdict } = fixture("path");
  for (const list of ["readme", "copies", "deny"] as const)
    for (const command of [
      `git -C ~/.local clone -q ${project} bin`,
      `git -C ~/tools clone -q ${project} bin`,
      `git -C ~/tools clone -q --depth 1 ${project} bin`,
      "git -C ~/tools clone -q https://example.com/x/bin.git",
      `git -C ~/tools clone -q --separate-git-dir bin ${project} x`,
      "git -C ~/tools worktree add bin HEAD",
      "git -C ~/nowhere -C ../tools worktree add -b topic bin",
      `git -C ~/tools submodule add ${project} bin`,
      "git -C ~/tools init -q --bare bin",
      "git -C ~/tools init bin",
      // the forms that were refused already
      `cd ~/tools && git clone -q ${project} bin`,
      `git clone -q ${project} ~/tools/bin`,
      "git worktree add ~/tools/bin HEAD",
      `cp -r src ~/tools/bin`,
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, expect.stringMatching(ON_PATH)]);
  // a tree that would make the PATH folder by its own name below where it lands
  expect(verdict("copies", "cp -r src/tools ~/")[1]).toContain("copies files into `~/tools`, where they may write `~/tools/bin`, a place hey guards");
});

test("the clones, worktrees and copies a user runs every day stay allowed", () => {
  const { verdict } = fixture("usable");
  for (const list of ["copies", "deny"] as const)
    for (const command of [
      "git clone https://example.com/x vendor/x",
      "git clone -q --depth 1 https://example.com/x.git",
      "git -C vendor clone https://example.com/x.git",
      "git clone https://example.com/x ~/src/x",
      "git submodule add https://example.com/x.git vendor/x",
      "git worktree add ../wt HEAD",
      "git -C src worktree add ../../wt HEAD",
      "git init",
      "git init sub/new",
      "cp -r src dist",
      "cp -r src/. dist",
      "cp -r src/gc ~/tools",
      "rsync -a src/ dist/",
      "git clone -q . ~/.config/nvim",
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, "allowed"]);
});

/** Runs `script` with bash in `cwd`, HOME at `home` and `path` first on PATH; returns its exit code. */
function run(script: string, cwd: string, home: string, path = "") {
  return Bun.spawnSync(["bash", "-c", script], {
    cwd,
    env: { ...GIT_ENV, HOME: home, PATH: `${path}${process.env.PATH}` },
    stdout: "ignore",
    stderr: "ignore",
  }).exitCode;
}

testNeeding(["git", "bash", "cp"])("each refused tree write does, with the real git and cp, make git run the agent's program", () => {
  const marker = join(root, "pwned");
  const fsmonitor = `[core]\n\tfsmonitor = "echo ran >> ${marker}; false"\n`;
  // the last two merge into a ~/.config/git that is there already, with a config of the user's
  const cases = [
    ["git clone -q . ~/.config/git", false],
    ["cp -r src/gc ~/.config/git", false],
    ["cp -rT src/gc ~/.config/git", true],
    ["cp -r src/gc/. ~/.config/git", true],
  ] as const;
  for (const [command, there] of cases) {
    rmSync(join(root, "real"), { recursive: true, force: true });
    rmSync(marker, { force: true });
    const { home, project, verdict } = fixture("real");
    // the agent's tree: a commit holding `config` at its top, and the same file in src/gc
    writeFileSync(join(project, "src", "gc", "config"), fsmonitor);
    writeFileSync(join(project, "config"), fsmonitor);
    expect(run("git init -q && git add config && git commit -qm cfg", project, home)).toBe(0);
    rmSync(marker, { force: true }); // the repository's own config has no fsmonitor: nothing ran yet
    if (there) {
      mkdirSync(join(home, ".config", "git"), { recursive: true });
      writeFileSync(join(home, ".config", "git", "config"), "[user]\n\tname = u\n");
    }
    expect(verdict("copies", command)[1]).toMatch(GIT_CONFIG);
    expect(run(command, project, home)).toBe(0);
    expect(readFileSync(join(home, ".config", "git", "config"), "utf8")).toBe(fsmonitor);
    run("git status --short", project, home);
    expect([command, existsSync(marker)]).toEqual([command, true]);
  }
});

testNeeding(["git", "bash"])("git -C ~/.local clone PROJECT bin, run for real, puts the agent's git first on PATH", () => {
  rmSync(join(root, "real-path"), { recursive: true, force: true });
  const { home, project, verdict } = fixture("real-path");
  const marker = join(root, "pwned-path");
  writeFileSync(join(project, "git"), `#!/bin/sh\necho ran >> ${marker}\n`);
  chmodSync(join(project, "git"), 0o755);
  expect(run("git init -q && git add git && git commit -qm tool", project, home)).toBe(0);
  const command = `git -C ~/.local clone -q ${project} bin`;
  expect(verdict("readme", command)).toEqual([command, expect.stringMatching(ON_PATH)]);
  expect(run(command, project, home)).toBe(0);
  expect(existsSync(join(home, ".local", "bin", "git"))).toBe(true);
  run("git status --short", project, home, `${join(home, ".local", "bin")}:`);
  expect(existsSync(marker)).toBe(true);
});
