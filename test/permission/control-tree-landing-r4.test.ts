// r4 #1-#4 on the tree-landing check: a PATH or hooks directory inside the project (an active
// `.venv/bin`, `node_modules/.bin`, husky's `.husky/_`) refused every `cp -r template/. .` and
// blamed `.hey/config.toml`; `git -C ../bare.git worktree add ../main` was judged inside bare.git;
// `cd "$(mktemp -d)" && git clone URL` could not be verified; and `"$HOME/.config/git"` (unlike
// `~/.config/git`) let a tree become git's global config under a deny list. The real checker is
// asked, and the real cp and git show the refused ones do the harm.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { globalGitConfigs } from "../../src/fs/git-config-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-tree-landing-r4-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const GIT_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" };

const LISTS = {
  // an allow list that lets every command through by its entry
  all: { allow: ["read_file", "grep", "bash: *"], deny: [], narrow: [] },
  // a deny list
  deny: { allow: [], deny: ["bash: curl *"], narrow: [] },
};

const GIT_CONFIG =
  /^blocked by permission rules: .*copies files into `~\/\.config\/git`, where they may write `~\/\.config\/git\/config`, a place hey guards \(git's global config/;

/** Runs `script` with bash in `cwd`, HOME at `home`; returns its exit code. */
function run(script: string, cwd: string, home: string, env: Record<string, string> = {}) {
  return Bun.spawnSync(["bash", "-c", script], { cwd, env: { ...process.env, ...GIT_ENV, ...env, HOME: home }, stdout: "ignore", stderr: "ignore" }).exitCode;
}

/** A fresh fixture (hey's files in `home`, a project); `pathDirs` with `$P` for the project, `$H` for the home; `env` as the commands get it. */
function fixture(name: string, pathDirs: string[], env: Record<string, string> = {}) {
  rmSync(join(root, name), { recursive: true, force: true });
  const { home, project } = controlFixture(join(root, name));
  const here = places(env, home, project, "linux");
  const setup = (script: string) => expect(run(script, project, home, env)).toBe(0);
  const checks = () => {
    const place = {
      cwd: project,
      home,
      controls: controlFiles(here, undefined),
      gitConfigs: globalGitConfigs(home, env),
      pathDirs: pathDirs.map((p) => p.replace("$P", project).replace("$H", home)),
      gitEnv: { ...env, HOME: home },
    };
    return Object.fromEntries(Object.entries(LISTS).map(([k, l]) => [k, permissionCheck(l, "bash", place)]));
  };
  const verdict = (list: keyof typeof LISTS, command: string) => [command, checks()[list]!("bash", { command }) ?? "allowed"];
  return { home, project, setup, verdict };
}

test("a project with an active .venv/bin, node_modules/.bin and husky's hooks: a template merged in runs when it holds none of them (r4 #1)", () => {
  const { verdict, setup } = fixture("venv", ["$P/.venv/bin", "$P/node_modules/.bin", "/usr/bin"]);
  setup("mkdir -p .venv/bin node_modules/.bin .husky/_ template/sub src && echo hi > template/sub/a.txt && git init -q && git config core.hooksPath .husky/_");
  for (const list of ["all", "deny"] as const)
    for (const command of [
      "cp -r template/. .",
      "rsync -a template/ ./",
      "cp -rT template .",
      "cp -r src/. .",
      "cp -r template .",
      "cp -a template/. ./",
      `cp -r ${root}/venv/project/template/. .`,
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, "allowed"]);
});

test("a tree that holds a PATH or hooks directory of the project is refused, naming that directory, never a file that is not there (r4 #1)", () => {
  const { verdict, setup } = fixture("venv-evil", ["$P/.venv/bin", "$P/node_modules/.bin", "/usr/bin"]);
  setup(
    "mkdir -p .venv/bin node_modules/.bin .husky/_ evil/.venv/bin evil2/node_modules/.bin hk/.husky/_ && git init -q && git config core.hooksPath .husky/_",
  );
  const cases = [
    ["cp -r evil/. .", ".venv/bin", "in a directory on the commands' PATH"],
    ["cp -rT evil .", ".venv/bin", "in a directory on the commands' PATH"],
    ["rsync -a evil2/ ./", "node_modules/.bin", "in a directory on the commands' PATH"],
    ["cp -r evil/.venv .", ".venv/bin", "in a directory on the commands' PATH"],
    ["cp -r hk/. .", ".husky/_", "the hooks directory core.hooksPath names"],
  ];
  for (const list of ["all", "deny"] as const)
    for (const [command, dir, why] of cases) {
      const [, said] = verdict(list, command!);
      expect([list, command, said]).toEqual([
        list,
        command,
        expect.stringContaining(`where they may write \`${root}/venv-evil/project/${dir}\`, a place hey guards (`),
      ]);
      expect(said).toContain(why!);
      expect(said).not.toContain(".hey/config.toml");
    }
  // a tree filled by the same command is not read in time: that says so, naming the directory and the way out
  const filled = verdict("all", "mkdir -p t/.venv/bin && cp -r t/. .")[1];
  expect(filled).toMatch(
    /^blocked by permission rules: cannot verify .*`\S+\/\.venv\/bin` \(in a directory on the commands' PATH.*run `cp -r t\/\. \.` as a command of its own/,
  );
  // a glob source is not read either
  expect(verdict("deny", "cp -r evil/* .")[1]).toContain("cannot verify");
});

testNeeding(["cp", "bash"])("the refused merge, run for real, puts the tree's program in the project's .venv/bin (r4 #1)", () => {
  const { project, home, setup } = fixture("venv-real", ["$P/.venv/bin"]);
  setup("mkdir -p .venv/bin evil/.venv/bin && printf '#!/bin/sh\\necho agent\\n' > evil/.venv/bin/python && chmod +x evil/.venv/bin/python");
  expect(run("cp -r evil/. .", project, home)).toBe(0);
  expect(readFileSync(join(project, ".venv", "bin", "python"), "utf8")).toContain("echo agent");
});

test("git -C ../bare.git worktree add ../main lands beside bare.git, not in it (r4 #2)", () => {
  const { verdict, setup } = fixture("bare", ["/usr/bin"]);
  setup("git init -q && git commit -q --allow-empty -m x && git clone -q --bare --template= . ../bare.git");
  for (const list of ["all", "deny"] as const) {
    for (const command of ["git -C ../bare.git worktree add ../bare-main", "git -C ../bare.git clone -q . ../copy2", "git -C ../bare.git worktree add main"])
      expect([list, ...verdict(list, command)]).toEqual([list, command, "allowed"]);
    for (const command of ["git -C ../bare.git worktree add hooks", "git -C ../bare.git worktree add ../bare.git/objects/x"])
      expect(verdict(list, command)[1]).toMatch(/^blocked by permission rules: .*a git directory/);
  }
});

test('cd "$(mktemp -d)" && git clone URL runs; a directory only the run knows says what to write instead (r4 #3)', () => {
  const { verdict } = fixture("scratch", ["$H/.local/bin", "/usr/bin"]);
  for (const list of ["all", "deny"] as const)
    for (const command of [
      'cd "$(mktemp -d)" && git clone https://example.com/x/lib',
      "cd $(mktemp -d) && git clone --depth 1 https://example.com/x/lib lib",
      'cd "$(mktemp -d /tmp/lib.XXXX)" && git clone -q https://example.com/x/lib && ls lib',
      'cd "$(mktemp -d)" && cp -r ~/src copy',
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, "allowed"]);
  // `git -C` there too, under a list whose other rules take a run-time `-C`
  expect(verdict("deny", 'git -C "$(mktemp -d)" clone https://example.com/x/lib')[1]).toBe("allowed");
  // out of the fresh directory by `..`, or into a directory only the run knows: not verifiable
  for (const command of [
    'cd "$(mktemp -d)" && git clone -q https://example.com/x ../../../../../../../../../../.config/git',
    'cd "$(mktemp -d)" && cd .. && git clone -q https://example.com/x lib',
  ])
    expect(verdict("deny", command)[1]).toMatch(/^blocked by permission rules: cannot verify/);
  // should mktemp fail, an unquoted `cd` with no word goes home: the destination is judged from there too
  expect(verdict("deny", "cd $(mktemp -d -p /nonexistent) && git clone -q https://example.com/x .config/git")[1]).toMatch(GIT_CONFIG);
  const told = verdict("all", 'cd "$d" && git clone https://example.com/x/lib')[1];
  expect(told).toContain('write that directory out (`cd /tmp/lib && git clone URL x`), or clone into a fresh one (`cd "$(mktemp -d)" && git clone URL`)');
});

test("$HOME, ${HOME} and ${XDG_CONFIG_HOME:-$HOME/.config} spell the places the guard keeps as ~ does (r4 #4)", () => {
  const { verdict, setup } = fixture("home-var", ["$H/.local/bin", "/usr/bin"]);
  setup("mkdir -p src/gc x/bin && git init -q && git commit -q --allow-empty -m x");
  for (const list of ["all", "deny"] as const) {
    for (const command of [
      'cp -r src/gc "$HOME/.config/git"',
      "cp -r src/gc ${HOME}/.config/git",
      'cp -rT src/gc "$HOME/.config/git"',
      'cp -r src/gc "${XDG_CONFIG_HOME:-$HOME/.config}/git"',
      'git worktree add "$HOME/.config/git"',
      'git clone -q . "$HOME/.config/git"',
      // a part only the run knows stands for any text: its written part is matched against every guarded place
      'cp -r src/gc "$X/git"',
      'cp -r src/gc "$X/.config/git"',
    ])
      expect([list, ...verdict(list, command)]).toEqual([list, command, expect.stringMatching(GIT_CONFIG)]);
    for (const command of ['cp -r x/. "$HOME/.local"', 'cp -r x/. "$X/.local"'])
      expect(verdict(list, command)[1]).toMatch(
        /copies files into `~\/\.local`, where they may replace hey's own configuration or trust file `~\/\.local\/state\/hey\/approvals\.json`/,
      );
  }
  // what names no guarded place stays allowed
  for (const command of [
    'cp -r src "$HOME/backup"',
    'cp -r src/gc "$HOME/.config/nvim"',
    'cp -r src "$OUT"',
    'cp -r src "$OUT/build"',
    'rsync -a src/ "$HOME/src-copy/"',
  ])
    expect(verdict("deny", command)).toEqual([command, "allowed"]);
});

test("with XDG_CONFIG_HOME set, ${XDG_CONFIG_HOME:-…}/git is its git folder (r4 #4)", () => {
  const xdg = join(root, "xdg-cfg");
  const { verdict, setup } = fixture("xdg-var", ["/usr/bin"], { XDG_CONFIG_HOME: xdg });
  setup("mkdir -p src/gc");
  for (const command of ['cp -r src/gc "${XDG_CONFIG_HOME:-$HOME/.config}/git"', 'cp -r src/gc "$XDG_CONFIG_HOME/git"'])
    expect(verdict("deny", command)[1]).toContain(`where they may write \`${xdg}/git/config\`, a place hey guards (git's global config`);
});

testNeeding(["git", "bash", "cp"])('cp -r src/gc "$HOME/.config/git", run for real, makes the next git status run the agent\'s fsmonitor (r4 #4)', () => {
  const { project, home, setup, verdict } = fixture("home-real", ["/usr/bin"]);
  const marker = join(root, "pwned-home");
  setup(`mkdir -p src/gc && git init -q && printf '[core]\\n\\tfsmonitor = "echo ran >> ${marker}; false"\\n' > src/gc/config`);
  const command = 'cp -r src/gc "$HOME/.config/git"';
  expect(verdict("deny", command)[1]).toMatch(GIT_CONFIG);
  expect(run(command, project, home)).toBe(0);
  run("git status --short", project, home);
  expect(existsSync(marker)).toBe(true);
});

testNeeding(["git", "bash"])('cd "$(mktemp -d)" && git clone, run for real, clones into a fresh directory (r4 #3)', () => {
  const { project, home, setup } = fixture("scratch-real", ["/usr/bin"]);
  setup("git init -q && echo a > a && git add a && git commit -qm a");
  const scratch = join(root, "scratch-tmp");
  mkdirSync(scratch, { recursive: true });
  expect(run(`cd "$(mktemp -d)" && git clone -q ${project} lib && test -f lib/a`, project, home, { TMPDIR: scratch })).toBe(0);
  // and where mktemp fails, the unquoted form's `cd` goes home
  expect(run('cd $(mktemp -d -p /nonexistent 2>/dev/null) && pwd > /dev/null && test "$PWD" = "$HOME"', project, home)).toBe(0);
});
