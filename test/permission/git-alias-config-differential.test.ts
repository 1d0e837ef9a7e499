// x56 findings 1 and 2 against real git: what hey reads of git's aliases and help.autocorrect agrees
// with what git itself runs in the same repository. An `[includeIf]` whose condition is not met
// (`gitdir:` elsewhere) does not re-define an alias, one that is met (`gitdir:`, `hasconfig:`) does,
// and `onbranch:` never does for aliases (git reads them before it knows the branch, though `git
// config` shows the value). With help.autocorrect set to run a guess, a misspelt subcommand is judged
// as the command git runs in its place. Each repository gets its own HOME inside the test's directory.
import { afterAll, expect } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitAliasConfig } from "../../src/fs/git-config-files.ts";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const tmp = tempDir("hey-git-alias-diff-");
afterAll(() => tmp.remove());

let made = 0;
/** A repository (under `work/` when `atWork`) whose HOME has `gitconfig` and the files `extra` names. */
function setup(gitconfig: string, extra: Record<string, string> = {}, atWork = false) {
  const root = join(tmp.path, `case${made++}`);
  const home = join(root, "home");
  const repo = join(home, atWork ? "work" : "elsewhere", "repo");
  mkdirSync(join(home, ".config"), { recursive: true });
  writeFileSync(join(home, ".gitconfig"), gitconfig);
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(home, name), text);
  const env = { GIT_CONFIG_NOSYSTEM: "1", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), PATH: process.env.PATH ?? "", LANG: "C" };
  mkdirSync(repo, { recursive: true });
  git(["init", "-q", "-b", "main", "."], repo, env);
  git(["remote", "add", "origin", "https://example.invalid/team/repo.git"], repo, env);
  const control = { paths: [], cwd: repo, home, gitAliases: (dir: string) => gitAliasConfig(dir, home, env) };
  const judge = (command: string) => decide("bash", { command }, compileRules({ allow: [], deny: ["bash: git push *"] }, "sh", control).rules);
  return { repo, home, env, judge };
}

function git(args: string[], cwd: string, env: Record<string, string>) {
  const r = Bun.spawnSync(["git", ...args], { cwd, env, stdin: "ignore" });
  return { code: r.exitCode, out: `${r.stdout.toString()}${r.stderr.toString()}` };
}

/** What `git p` runs there: `push` (no remote to push to here: it fails saying so) or `status`. */
const runs = (out: string) => (/push destination|upstream|push\b.*fatal|fatal:.*push/i.test(out) ? "push" : /On branch/.test(out) ? "status" : out);

const BASE = '[alias]\n\tp = push\n[includeIf "gitdir:~/work/"]\n\tpath = ~/.gitconfig-work\n';

testNeeding(["git"])("an alias an [includeIf] re-defines has the value git gives it, and `git p` is refused when git runs push", () => {
  const cases: { name: string; cfg: string; extra: Record<string, string>; atWork: boolean }[] = [
    { name: "gitdir elsewhere (the review's case)", cfg: BASE, extra: { ".gitconfig-work": "[alias]\n\tp = status\n" }, atWork: false },
    { name: "gitdir met", cfg: BASE, extra: { ".gitconfig-work": "[alias]\n\tp = status\n" }, atWork: true },
    {
      name: "gitdir met, pushing",
      cfg: '[alias]\n\tp = status\n[includeIf "gitdir:~/work/"]\n\tpath = ~/.w\n',
      extra: { ".w": "[alias]\n\tp = push\n" },
      atWork: true,
    },
    {
      name: "hasconfig met",
      cfg: '[alias]\n\tp = push\n[includeIf "hasconfig:remote.*.url:https://example.invalid/**"]\n\tpath = ~/.h\n',
      extra: { ".h": "[alias]\n\tp = status\n" },
      atWork: false,
    },
    {
      name: "hasconfig not met",
      cfg: '[alias]\n\tp = push\n[includeIf "hasconfig:remote.*.url:https://other.invalid/**"]\n\tpath = ~/.h\n',
      extra: { ".h": "[alias]\n\tp = status\n" },
      atWork: false,
    },
    {
      name: "onbranch (not read for aliases)",
      cfg: '[alias]\n\tp = push\n[includeIf "onbranch:main"]\n\tpath = ~/.b\n',
      extra: { ".b": "[alias]\n\tp = status\n" },
      atWork: false,
    },
  ];
  for (const c of cases) {
    const { repo, env, home, judge } = setup(c.cfg, c.extra, c.atWork);
    const ran = runs(git(["p"], repo, env).out);
    const config = gitAliasConfig(repo, home, env);
    const hey = "aliases" in config ? config.aliases.get("p") : config.unknown;
    // `git config` agrees wherever the include is read the same way for a command and for `git config`
    if (!c.name.startsWith("onbranch")) expect({ case: c.name, hey }).toEqual({ case: c.name, hey: git(["config", "alias.p"], repo, env).out.trim() });
    expect({ case: c.name, hey }).toEqual({ case: c.name, hey: ran });
    expect({ case: c.name, allowed: judge("git p origin HEAD:refs/heads/x").allowed }).toEqual({ case: c.name, allowed: ran !== "push" });
  }
});

testNeeding(["git"])("with help.autocorrect set to run a guess, a misspelt subcommand is judged as what git runs in its place", () => {
  const typos = ["psuh", "pusj", "pus", "stauts", "xyzzy", "fetc", "pushh"];
  for (const value of ["immediate", "1", "-1", "never", "0"]) {
    const { repo, env, judge } = setup(`[help]\n\tautocorrect = ${value}\n`);
    for (const typo of typos) {
      const out = git([typo], repo, env).out;
      const assumed = /you meant '([^']+)'/.exec(out)?.[1];
      const d = judge(`git ${typo} origin HEAD:refs/heads/x`);
      expect({ value, typo, allowed: d.allowed }).toEqual({ value, typo, allowed: assumed !== "push" });
    }
  }
});

testNeeding(["git"])("help.autocorrect in an [includeIf] git skips does not make a misspelt name a push; one it reads does", () => {
  const cfg = '[includeIf "gitdir:~/work/"]\n\tpath = ~/.w\n';
  for (const atWork of [false, true]) {
    const { repo, env, judge } = setup(cfg, { ".w": "[help]\n\tautocorrect = immediate\n" }, atWork);
    const ranPush = /you meant 'push'/.test(git(["psuh"], repo, env).out);
    expect({ atWork, ranPush }).toEqual({ atWork, ranPush: atWork });
    expect({ atWork, allowed: judge("git psuh origin main").allowed }).toEqual({ atWork, allowed: !ranPush });
  }
});

testNeeding(["git"])("an autocorrected name that is an alias is judged by the alias's value", () => {
  const { repo, env, judge } = setup("[help]\n\tautocorrect = immediate\n[alias]\n\tshove = push\n");
  expect(git(["shovee"], repo, env).out).toContain("you meant 'shove'");
  const d = judge("git shovee origin main");
  expect(d.allowed).toBe(false);
  if (!d.allowed) expect(d.reason).toContain("matches deny entry `bash: git push *` (help.autocorrect = immediate makes git run `shove` for `shovee`)");
});
