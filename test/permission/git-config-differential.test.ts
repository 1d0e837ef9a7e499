// x39 finding 2 against real git: every `git config` (and `git clone -c`, `git remote add`) the
// checker refuses while a list is set really writes git's config when bash runs it — in a scratch
// repository, with its own HOME and system config file — and every one it lets through changes no
// key but those that run nothing and name no file (WRITABLE). Everything happens inside the
// test's own directory.
import { expect } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { WRITABLE } from "../../src/permission/git-config-writes.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const EDITOR = `f() { printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> "$1"; }; f`;
const REFUSED = [
  'git config core.fsmonitor "touch pwned #"',
  "git config core.hooksPath /tmp/hooks",
  "git config include.path /tmp/evil.cfg",
  "git config --global alias.co '!touch pwned'",
  "git config --global include.path /tmp/evil.cfg",
  "git config --system core.editor vim",
  "git config --worktree core.sshCommand 'ssh -oProxyCommand=x'",
  "git config --local credential.helper '!f() { cat; }; f'",
  "git config --add alias.x '!sh'",
  "git config --replace-all core.fsmonitor x",
  "git config --unset core.hooksPath",
  "git config --unset-all safe.directory",
  "git config --global --add safe.directory '*'",
  "git config remote.origin.push +HEAD:main",
  "git config --rename-section foo core",
  "git config --remove-section user",
  "git config --ren foo core",
  "git config -e",
  "git config --global --edit",
  "git config Core.FSMonitor x --local",
  "git config core.hooksPath --local",
  "git -C sub config core.fsmonitor x",
  "git --no-pager -c color.ui=never config core.fsmonitor x",
  "env git config core.fsmonitor x",
  "sh -c 'git config core.fsmonitor x'",
  "git status && git config core.hooksPath h",
  // a file named as written (review finding 2): the global one by its name, the system one, a bare repository's
  "git config -f ~/.gitconfig core.fsmonitor 'touch pwned; false'",
  "git config --file ../home/.gitconfig alias.st '!touch pwned'",
  "git config -f ../home/system.cfg core.editor vim",
  "git init -q --bare b && git config -f b/config core.fsmonitor 'touch pwned; false'",
  "git init -q --bare b && git config --file=b/config include.path /tmp/evil.cfg",
  // a template's hooks and config copied into a repository (by name, abbreviated, or git's own -c), and git config by an alias set on the command line
  "git init -q --template=tpl fresh",
  "git init -q --templ tpl",
  "git clone -q --template=tpl . cloned",
  "git -c init.templateDir=tpl clone -q . cloned",
  "git -c alias.cfg=config cfg core.fsmonitor 'touch pwned; false'",
  "git -c alias.cfg='config --global' cfg alias.st '!touch pwned'",
  "git -c alias.i=init i -q --template=tpl fresh",
  "git clone -q -c core.fsmonitor=x . cloned",
  "git clone -q --config=alias.x=!sh . cloned",
  "git remote add evil 'ext::sh -c touch% pwned'",
  "git remote set-url origin ext::sh",
];
const ALLOWED = [
  "git config user.name 'Ana Lima'",
  "git config --global user.email ana@example.com",
  "git config core.autocrlf input",
  "git config --global init.defaultBranch main",
  "git config pull.rebase false",
  "git config push.default current",
  "git config branch.feature/x.remote origin",
  "git config branch.main.merge refs/heads/main",
  "git config color.ui auto",
  "git config merge.conflictStyle diff3",
  "git config --unset user.email",
  "git config core.fsmonitor",
  "git config --get core.hooksPath",
  "git config --get-regexp '^alias\\.'",
  "git config -l",
  "git config --list --show-origin",
  "git config --global --list",
  "git config color.x core",
  "git config -f .gitmodules submodule.lib.url https://example.com/lib.git",
  "git config -f .gitmodules core.fsmonitor 'touch pwned; false'",
  "git -c alias.cfg=config cfg user.name Bea",
  "git -c alias.st=status st",
];

/** Every config file below `dir` (a repository's, a worktree's, the home's, the system one we name) and every hook, with its text. */
function configs(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) configs(path, out);
    else if (stat.isFile() && /^(config|config\.worktree|\.gitconfig|system\.cfg)$/.test(name) && !path.includes(join(".config", "hey")))
      out.set(path, readFileSync(path, "utf8"));
    else if (stat.isFile() && basename(dir) === "hooks" && !name.endsWith(".sample")) out.set(path, readFileSync(path, "utf8"));
  }
  return out;
}

/** The keys whose values differ between two readings of one file (git config --list --file). */
function changedKeys(before: string, after: string): string[] {
  const pairs = (text: string) => {
    const file = join(tmp.path, "reading.cfg");
    writeFileSync(file, text);
    const out = Bun.spawnSync(["git", "config", "--file", file, "--list", "-z"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } }).stdout.toString();
    return out.split("\0").filter(Boolean);
  };
  const [a, b] = [pairs(before), pairs(after)];
  return [...new Set([...a.filter((p) => !b.includes(p)), ...b.filter((p) => !a.includes(p))].map((p) => p.split("\n")[0]!))];
}

const tmp = tempDir("hey-git-config-diff-");

testNeeding(["git", "bash"])("every git config write the checker refuses writes git's config; every one it allows changes only keys that run nothing", () => {
  try {
    const root = realpathSync(tmp.path);
    const violations: string[] = [];
    let box = 0;
    const run = (command: string) => {
      const dir = join(root, `b${box++}`);
      const { home, project, controls } = controlFixture(dir);
      const env = {
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        GIT_CONFIG_SYSTEM: join(home, "system.cfg"),
        GIT_EDITOR: EDITOR,
        GIT_TERMINAL_PROMPT: "0",
        PATH: process.env.PATH ?? "/usr/bin:/bin",
      };
      const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: project, env, stdout: "ignore", stderr: "ignore" });
      git("init", "-q");
      for (const [k, v] of [
        ["foo.fsmonitor", "touch pwned"],
        ["user.name", "Ana"],
        ["user.email", "ana@example.com"],
        ["core.hooksPath", ".githooks"],
        ["safe.directory", "/srv/x"],
        ["remote.origin.url", "https://example.com/r.git"],
      ])
        git("config", k!, v!);
      writeFileSync(join(home, "system.cfg"), "");
      // a template directory, as `git init --template` takes it: a config and a hook
      mkdirSync(join(project, "tpl", "hooks"), { recursive: true });
      writeFileSync(join(project, "tpl", "config"), "[core]\n\tfsmonitor = touch pwned; false\n");
      writeFileSync(join(project, "tpl", "hooks", "pre-commit"), "#!/bin/sh\ntouch pwned\n", { mode: 0o755 });
      // judged as hey judges it: before it runs (a hooks path or include it sets is guarded once set)
      const checks = {
        allow: permissionCheck({ allow: ["bash: git *", "bash: env *", "bash: sh *"], deny: [], narrow: [] }, "bash", { cwd: project, home, controls }),
        deny: permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "bash", { cwd: project, home, controls }),
      };
      const refusals = Object.entries(checks).map(([name, check]) => [name, check("bash", { command })] as const);
      const before = configs(dir);
      Bun.spawnSync(["bash", "-c", command], { cwd: project, env, stdout: "ignore", stderr: "ignore" });
      const after = configs(dir);
      const changed = [...new Set([...before.keys(), ...after.keys()])].flatMap((f) =>
        before.get(f) === after.get(f) ? [] : basename(dirname(f)) === "hooks" ? [`hook ${basename(f)}`] : changedKeys(before.get(f) ?? "", after.get(f) ?? ""),
      );
      return { changed, refusals };
    };
    for (const command of REFUSED) {
      const { changed, refusals } = run(command);
      // the global config's files are refused by their names first, whatever the key (README)
      for (const [name, refusal] of refusals)
        if (!refusal?.includes("writes git's config") && !refusal?.includes("names git's own files"))
          violations.push(`${name} list let through ${command}: ${refusal}`);
      if (!changed.length) violations.push(`git wrote no config key for ${command}, which the checker refuses`);
    }
    for (const command of ALLOWED) {
      const { changed, refusals } = run(command);
      // an allow list also judges a value git would run as a command (`bash: touch *` is not listed): stricter, never looser
      for (const [name, refusal] of refusals)
        if (refusal !== undefined && !(name === "allow" && refusal.includes("which git runs with the shell")))
          violations.push(`${name} list refused ${command}: ${refusal}`);
      const unlisted = changed.filter((k) => !WRITABLE.test(k));
      if (unlisted.length) violations.push(`${command} changed ${unlisted.join(", ")}`);
    }
    expect(violations).toEqual([]);
  } finally {
    tmp.remove();
  }
});

/** What the agent may write to `.gitmodules` under either list: keys that would run a command from any other config file. */
const GITMODULES = [
  "git config -f .gitmodules submodule.lib.update '!touch pwned-update'",
  "git config -f .gitmodules core.fsmonitor 'touch pwned-fsmonitor; false'",
  "git config -f .gitmodules alias.st '!touch pwned-alias'",
  "git config -f .gitmodules include.path evil.cfg",
];

testNeeding(["git", "bash"])(
  "whatever key the checker lets the agent write to .gitmodules, the user's git status, alias and submodule update run nothing",
  () => {
    const box = tempDir("hey-gitmodules-");
    try {
      const { home, project, controls } = controlFixture(realpathSync(box.path));
      const env = { HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", PATH: process.env.PATH ?? "/usr/bin:/bin" };
      const git = (cwd: string, ...args: string[]) =>
        Bun.spawnSync(["git", "-c", "protocol.file.allow=always", ...args], { cwd, env, stdout: "ignore", stderr: "ignore" });
      const lib = join(box.path, "lib");
      mkdirSync(lib);
      git(lib, "init", "-q");
      git(lib, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "--allow-empty", "-m", "lib");
      git(project, "init", "-q");
      git(project, "submodule", "add", "-q", lib, "lib");
      expect(readFileSync(join(project, ".gitmodules"), "utf8")).toContain("path = lib");
      writeFileSync(join(project, "evil.cfg"), "[core]\n\tfsmonitor = touch pwned-include; false\n[alias]\n\tst = !touch pwned-include\n");
      const checks = [
        permissionCheck({ allow: ["bash: git *"], deny: [], narrow: [] }, "bash", { cwd: project, home, controls }),
        permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "bash", { cwd: project, home, controls }),
      ];
      for (const command of GITMODULES) {
        // the deny list lets it through; the allow list may refuse a value it would run as a command all the same
        expect(checks[1]!("bash", { command })).toBeUndefined();
        expect(checks[0]!("bash", { command }) ?? "allowed").toMatch(/^allowed$|which git runs with the shell/);
        Bun.spawnSync(["bash", "-c", command], { cwd: project, env, stdout: "ignore", stderr: "ignore" });
      }
      expect(readFileSync(join(project, ".gitmodules"), "utf8")).toContain("update = !touch pwned-update");
      git(project, "submodule", "deinit", "-q", "-f", "lib");
      for (const args of [["status"], ["st"], ["submodule", "init"], ["submodule", "update"], ["diff"]]) git(project, ...args);
      expect(readdirSync(project).filter((n) => n.startsWith("pwned"))).toEqual([]);
      // the same key in the repository's config runs at the next git status: the check above could see one
      git(project, "config", "core.fsmonitor", "touch pwned-control; false");
      git(project, "status");
      expect(existsSync(join(project, "pwned-control"))).toBe(true);
    } finally {
      box.remove();
    }
  },
);
