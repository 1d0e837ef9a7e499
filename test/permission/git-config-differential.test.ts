// x39 finding 2 against real git: every `git config` (and `git clone -c`, `git remote add`) the
// checker refuses while a list is set really writes git's config when bash runs it — in a scratch
// repository, with its own HOME and system config file — and every one it lets through changes no
// key but those that run nothing and name no file (WRITABLE). Everything happens inside the
// test's own directory.
import { expect } from "bun:test";
import { lstatSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
];

/** Every config file below `dir` (a repository's, a worktree's, the home's, the system one we name), with its text. */
function configs(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) configs(path, out);
    else if (stat.isFile() && /^(config|config\.worktree|\.gitconfig|system\.cfg)$/.test(name) && !path.includes(join(".config", "hey")))
      out.set(path, readFileSync(path, "utf8"));
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
      const before = configs(dir);
      Bun.spawnSync(["bash", "-c", command], { cwd: project, env, stdout: "ignore", stderr: "ignore" });
      const after = configs(dir);
      const changed = [...new Set([...before.keys(), ...after.keys()])].flatMap((f) =>
        before.get(f) === after.get(f) ? [] : changedKeys(before.get(f) ?? "", after.get(f) ?? ""),
      );
      const checks = {
        allow: permissionCheck({ allow: ["bash: git *", "bash: env *", "bash: sh *"], deny: [], narrow: [] }, "bash", { cwd: project, home, controls }),
        deny: permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "bash", { cwd: project, home, controls }),
      };
      return { changed, refusals: Object.entries(checks).map(([name, check]) => [name, check("bash", { command })] as const) };
    };
    for (const command of REFUSED) {
      const { changed, refusals } = run(command);
      for (const [name, refusal] of refusals) if (!refusal?.includes("writes git's config")) violations.push(`${name} list let through ${command}`);
      if (!changed.length) violations.push(`git wrote no config key for ${command}, which the checker refuses`);
    }
    for (const command of ALLOWED) {
      const { changed, refusals } = run(command);
      for (const [name, refusal] of refusals) if (refusal !== undefined) violations.push(`${name} list refused ${command}: ${refusal}`);
      const unlisted = changed.filter((k) => !WRITABLE.test(k));
      if (unlisted.length) violations.push(`${command} changed ${unlisted.join(", ")}`);
    }
    expect(violations).toEqual([]);
  } finally {
    tmp.remove();
  }
});
