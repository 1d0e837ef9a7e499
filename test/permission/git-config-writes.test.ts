// x39 finding 2: while a list is set, `git config core.fsmonitor CMD`, `core.hooksPath`,
// `include.path` and `git config --global alias.x '!cmd'` ran under `bash: git *` and under a deny
// list, and the user's next `git status`, outside hey, ran the agent's command. A `git config` that
// writes is now a write of git's config, refused as `cp x .git/config` is, unless its key runs
// nothing and names no file (`user.name`, `core.autocrlf`…); reading the config stays.
import { afterAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-git-config-writes-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const place = { cwd: project, home, controls };
const checks = {
  allow: permissionCheck({ allow: ["bash: git *", "bash: cd *", "bash: env *", "bash: sh *"], deny: [], narrow: [] }, "bash", place),
  deny: permissionCheck({ allow: [], deny: ["bash: rm *", "bash: git push *"], narrow: [] }, "bash", place),
};
const PREFIX = "blocked by permission rules: ";
const OWN = "git runs commands its settings name), which the agent may not change: ";
/** Where a write to the file `-f F` names lands, as the refusal says. */
const ANY = (file: string) => `\`${file}\`, which may be a repository's, the global or system one, or one they include`;
const TEMPLATE = (option: string) => `\`${option}\` copies a template's hooks and config into it (git-init(1))`;
const unlisted = (key: string) =>
  `\`${key}\` is not a key hey knows to run nothing and name no file (the agent may set user.name, user.email, core.autocrlf, init.defaultBranch, pull.rebase, push.default, branch.NAME.remote, color.*…)`;

/** command, where it writes, why */
const REFUSED: [string, string, string][] = [
  ['git config core.fsmonitor "touch /tmp/pwned #"', "the repository's", unlisted("core.fsmonitor")],
  ["git config core.hooksPath /tmp/hooks", "the repository's", unlisted("core.hooksPath")],
  ["git config include.path /tmp/evil.cfg", "the repository's", unlisted("include.path")],
  ["git config --global alias.co '!touch /tmp/pwned'", "the global one", unlisted("alias.co")],
  ["git config --global include.path /tmp/evil.cfg", "the global one", unlisted("include.path")],
  ["git config --global core.pager 'less; touch /tmp/pwned'", "the global one", unlisted("core.pager")],
  ["git config --system core.editor vim", "the system's", unlisted("core.editor")],
  ["git config --worktree core.sshCommand 'ssh -oProxyCommand=x'", "the worktree's", unlisted("core.sshCommand")],
  ["git config --local credential.helper '!f() { cat; }; f'", "the repository's", unlisted("credential.helper")],
  ["git config --add alias.x '!sh'", "the repository's", unlisted("alias.x")],
  ["git config --replace-all core.fsmonitor x", "the repository's", unlisted("core.fsmonitor")],
  ["git config --unset core.hooksPath", "the repository's", unlisted("core.hooksPath")],
  ["git config --unset-all safe.directory", "the repository's", unlisted("safe.directory")],
  ["git config --global --add safe.directory '*'", "the global one", unlisted("safe.directory")],
  ["git config remote.origin.push +HEAD:main", "the repository's", unlisted("remote.origin.push")],
  ["git config --rename-section foo core", "the repository's", "`rename-section` may change any key"],
  ["git config --remove-section user", "the repository's", "`remove-section` may change any key"],
  ["git config --ren foo core", "the repository's", "`rename-section` may change any key"], // git takes an abbreviation
  ["git config -e", "the repository's", "`edit` may change any key"],
  ["git config --global --edit", "the global one", "`edit` may change any key"],
  // git 2.46's subcommands
  ["git config set core.fsmonitor x", "the repository's", unlisted("core.fsmonitor")],
  ["git config set --global alias.x '!sh'", "the global one", unlisted("alias.x")],
  ["git config unset core.hooksPath", "the repository's", unlisted("core.hooksPath")],
  ["git config edit", "the repository's", "`edit` may change any key"],
  // options after the key, in any case, past git's own options, by its dashed program, behind a wrapper or in a script
  ["git config Core.FSMonitor x --local", "the repository's", unlisted("Core.FSMonitor")],
  ["git config core.hooksPath --local", "the repository's", unlisted("core.hooksPath")], // git reads `--local` as the value: hooks from ./--local/
  ["git -C sub config core.fsmonitor x", "the repository's", unlisted("core.fsmonitor")],
  ["git --no-pager -c color.ui=never config core.fsmonitor x", "the repository's", unlisted("core.fsmonitor")],
  ["/usr/lib/git-core/git-config core.fsmonitor x", "the repository's", unlisted("core.fsmonitor")],
  ["env git config core.fsmonitor x", "the repository's", unlisted("core.fsmonitor")],
  ["sh -c 'git config core.fsmonitor x'", "the repository's", unlisted("core.fsmonitor")],
  ["git status && git config core.hooksPath h", "the repository's", unlisted("core.hooksPath")],
  // a key or a file known only at run time
  ['git config -f "$F" core.fsmonitor x', "a file named only at run time", unlisted("core.fsmonitor")],
  // a file named as written is judged by the key, as the repository's is (review finding 2): a bare repository's (the global and system ones: below)
  ["git config -f b/config core.fsmonitor 'touch P4; false'", ANY("b/config"), unlisted("core.fsmonitor")],
  ["git config -fb/config core.hooksPath h", ANY("b/config"), unlisted("core.hooksPath")],
  ["git config --fil=b/config include.path /tmp/evil.cfg", ANY("b/config"), unlisted("include.path")],
  ["git config -f b/config --unset core.hooksPath", ANY("b/config"), unlisted("core.hooksPath")],
  ["git config -f b/config set alias.x '!sh'", ANY("b/config"), unlisted("alias.x")],
  ["git config -f b/config -e", ANY("b/config"), "`edit` may change any key"],
  ["git config -f b/config --remove-section core", ANY("b/config"), "`remove-section` may change any key"],
  ["git config -f sub/.gitmodules/config core.fsmonitor x", ANY("sub/.gitmodules/config"), unlisted("core.fsmonitor")],
  // a template's hooks and config, copied into a repository git makes or already has
  ["git init --template=../t", "the repository's", TEMPLATE("--template=../t")],
  ["git init -q --templ t fresh", "the repository's", TEMPLATE("--templ t")],
  ["/usr/lib/git-core/git-init --template=t", "the repository's", TEMPLATE("--template=t")],
  ["git clone --template=t https://example.com/r.git", "the new repository's", TEMPLATE("--template=t")],
  ["git -c init.templateDir=t clone https://example.com/r.git", "every repository it makes", TEMPLATE("-c init.templateDir=t")],
  ["git --config-env=init.templateDir=T submodule update --init", "every repository it makes", TEMPLATE("--config-env=init.templateDir=T")],
  // git config by an alias set on the command line (git runs an alias's words in its place)
  ["git -c alias.cfg=config cfg core.fsmonitor x", "the repository's", unlisted("core.fsmonitor")],
  ["git -c alias.CFG='config --global' cfg alias.st '!sh'", "the global one", unlisted("alias.st")],
  ["git -c alias.a=cfg -c alias.cfg='-C sub config' a core.hooksPath h", "the repository's", unlisted("core.hooksPath")],
  ["git -c alias.i=init i --template=t", "the repository's", TEMPLATE("--template=t")],
  // a new repository's config, a remote that is a command
  ["git clone -c core.fsmonitor=x https://example.com/r.git", "the new repository's", unlisted("core.fsmonitor")],
  ["git clone --config=alias.x=!sh https://example.com/r.git", "the new repository's", unlisted("alias.x")],
  [
    "git remote add evil 'ext::sh -c touch% /tmp/pwned'",
    "the repository's",
    "`'ext::sh -c touch% /tmp/pwned'` is a command git runs as a remote (git-remote-ext(1))",
  ],
  ["git remote set-url origin ext::sh", "the repository's", "`ext::sh` is a command git runs as a remote (git-remote-ext(1))"],
];

describe.each(Object.entries(checks))("under the %s list", (_list, check) => {
  // x105: every config file git reads is guarded by its name, whatever the key; a reader may name it
  test.each(["~/.gitconfig", "../home/.gitconfig", "/etc/gitconfig", "~/.config/git/config"])(
    "git config -f %s, git's own config, is refused by its name",
    (file) => {
      for (const command of [`git config -f ${file} core.fsmonitor 'touch P2; false'`, `git config -f ${file} user.name Ana`])
        expect(check("bash", { command })).toBe(
          `${PREFIX}\`${file}\` names git's own files (git runs the commands its config and hooks name) (a config file git reads), which the agent may not change`,
        );
      expect(check("bash", { command: `git show HEAD:x ${file}` })).toBeUndefined(); // a reader
    },
  );
  test.each(REFUSED)("%s is refused", (command, where, why) => {
    const segment = /^(env|sh -c) /.test(command) ? command.replace(/^env |^sh -c '|'$/g, "") : command.replace(/^git status && /, "");
    expect(check("bash", { command })).toBe(`${PREFIX}\`${segment}\` writes git's config (${where}: ${OWN}${why}`);
  });

  test.each([
    'git config "$MODE" core.fsmonitor x',
    'git config "$K" x',
    'git config set "$X" core.fsmonitor x',
    'git -c "$X" cfg core.fsmonitor x',
    "git --config-env=alias.cfg=X cfg core.fsmonitor x",
  ])("%s, whose option or key is known only at run time, may write it", (command) =>
    expect(check("bash", { command })).toBe(
      `${PREFIX}\`${command}\` may write git's config (the repository's: ${OWN}cannot tell what it writes: ${
        command.includes(" cfg ")
          ? command.includes("--config-env")
            ? "`--config-env=alias.cfg=X` makes `cfg` an alias known only at run time"
            : '`-c "$X"` may make `cfg` an alias of `git config`'
          : `\`${/"?\$\w+"?/.exec(command)![0]}\` is known only at run time`
      }`,
    ),
  );

  test.each([
    "git config user.name 'Ana Lima'",
    "git config user.email ana@example.com",
    "git config --global user.email ana@example.com",
    "git config core.autocrlf input",
    "git config --global init.defaultBranch main",
    "git config pull.rebase false",
    "git config push.default current",
    "git config branch.feature/x.remote origin",
    "git config branch.main.merge refs/heads/main",
    "git config color.ui auto",
    "git config merge.conflictStyle zdiff3",
    "git config set user.name Ana",
    "git config --unset user.email",
    // reading
    "git config core.fsmonitor",
    "git config --get core.hooksPath",
    "git config --get-all include.path",
    "git config --get-regexp '^alias\\.'",
    "git config -l",
    "git config --list --show-origin",
    "git config --global --list",
    "git config get core.fsmonitor",
    "git config list",
    // .gitmodules: git reads only submodules' settings from it, and no command (gitmodules(5))
    "git config -f .gitmodules submodule.lib.branch main",
    "git config --file sub/.gitmodules submodule.lib.url https://example.com/lib.git",
    "git config -f .gitmodules submodule.lib.update '!touch /tmp/pwned'",
    // any other file, with a key that runs nothing
    "git config -f b/config user.name Ana",
    "git config --blob HEAD:.gitmodules --list",
    // a repository with git's own template
    "git init",
    "git init --bare b",
    "git clone https://example.com/r.git",
    // remotes that are not commands
    "git remote add upstream https://github.com/o/r.git",
    "git remote set-url origin git@github.com:o/r.git",
    "git remote -v",
    "git commit -m 'git config core.fsmonitor x'",
  ])("%s runs", (command) => expect(check("bash", { command })).toBeUndefined());
});

test("under a deny list, a key that runs nothing may take a value known only at run time, and a new repository's config may hold one", () => {
  for (const command of [
    'git config user.name "$NAME"',
    "git config user.name $NAME",
    'git config color.x "$X" core',
    'git config set user.name "$N"',
    "git clone -c user.name=Ana https://example.com/r.git",
  ])
    expect(checks.deny("bash", { command })).toBeUndefined();
});

test("an alias set on the command line that writes no config, or runs a shell command, and an empty template are not refused as config writes", () => {
  const lists = [
    permissionCheck({ allow: ["bash: git *"], deny: [], narrow: [] }, "bash", place),
    permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "bash", place),
  ];
  for (const command of ["git -c alias.cfg=config cfg user.name Ana", "git -c alias.st=status st", "git -c alias.hi='!echo hi' hi"])
    for (const check of lists) expect(check("bash", { command })).toBeUndefined();
  // under `bash: git *`, `--template=` is a file write a pattern must spell out (git.ts)
  expect(lists[1]!("bash", { command: "git init --template= fresh" })).toBeUndefined();
});

test("a `git config` writing a key that runs nothing is still held to the allow list", () => {
  const check = permissionCheck({ allow: ["bash: git status"], deny: [], narrow: [] }, "bash", place);
  expect(check("bash", { command: "git config user.name Ana" })).toStartWith(`${PREFIX}\`git config user.name Ana\` matches no allow entry`);
});

test("with no list set, `git config` is not checked", () => {
  const check = permissionCheck({ allow: [], deny: [], narrow: [] }, "bash", place);
  expect(check("bash", { command: "git config core.fsmonitor x" })).toBeUndefined();
});

// The review of the day's merges: git hands the commands it runs with the shell an argument (the
// file an editor edits, ssh's host, a helper's action), so `GIT_EDITOR='git config include.path'
// git commit -e` is `git config include.path .git/COMMIT_EDITMSG`, a write of git's config whose
// file holds the agent's message. Judged without that argument it read as `git config
// include.path`, a read, and passed both lists.
describe.each(Object.entries(checks))("under the %s list, a command git runs with an argument of its own", (_list, check) => {
  test.each([
    "GIT_EDITOR='git config include.path' git commit -e -m x",
    "git -c core.editor='git config include.path' commit -e -m x",
    "GIT_SSH_COMMAND='git config core.fsmonitor' git fetch origin",
    "git -c core.sshCommand='git config core.fsmonitor' fetch origin",
    "git -c alias.x='!git config core.hooksPath' x /tmp/hooks",
  ])("%s is refused", (command) => {
    const why = check("bash", { command });
    expect(why).toStartWith(PREFIX);
    expect(why).not.toContain("/tmp/git-appends-an-argument"); // said as written
  });
  test.each(["GIT_EDITOR=true git commit -e -m x", "git -c core.editor=true rebase --continue", "GIT_PAGER='git config core.pager' git log"])(
    "%s runs",
    (command) => expect(check("bash", { command })).toBeUndefined(),
  );
});
