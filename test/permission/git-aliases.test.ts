// x54 finding 5: under a deny entry naming a git subcommand, a name that is no git command is
// judged by what git's config files make of it (`alias.st = status` is `git status`, `alias.p =
// push` is refused as `git push`, no alias at all is a git-NAME program); a `!` alias, a config hey
// cannot read through, or a command that changes what git reads is refused saying why.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitAliasConfig } from "../../src/fs/git-config-files.ts";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-git-aliases-");
afterAll(() => tmp.remove());

const home = join(tmp.path, "home");
const project = join(tmp.path, "project");
mkdirSync(join(home, ".config"), { recursive: true });
mkdirSync(join(project, ".git"), { recursive: true });
mkdirSync(join(tmp.path, "other", ".git"), { recursive: true });
writeFileSync(
  join(project, ".git", "config"),
  '[alias]\n\tst = status\n\tp = push\n\tlg = !git log --oneline | head\n\tsync = "pull --rebase"\n\tup = p origin\n\tci = commit -v\n',
);
writeFileSync(join(tmp.path, "other", ".git", "config"), "[alias]\n\tst = push\n");
const env = { GIT_CONFIG_NOSYSTEM: "1", XDG_CONFIG_HOME: join(home, ".config") };
const control = { paths: [], cwd: project, home, gitAliases: (dir: string) => gitAliasConfig(dir, home, env) };
const judge = (command: string, cwd = project) =>
  decide("bash", { command }, compileRules({ allow: [], deny: ["bash: git push *"] }, "sh", { ...control, cwd }).rules);

test("the config files' aliases are read in git's order, whatever the name's case", () => {
  const config = gitAliasConfig(project, home, env);
  expect("aliases" in config && config.aliases.get("st")).toBe("status");
  expect("aliases" in config && config.aliases.get("none")).toBe(undefined);
});

test.each([
  "git st",
  "git ST -s",
  "git ci -m x",
  "git lfs pull", // no alias of that name: the git-lfs program
  "git sync", // `"pull --rebase"`: the quotes are the config file's
  "cd sub && git st",
])("%j runs: git's config makes it no push", (command) => {
  expect(judge(command)).toEqual({ allowed: true });
});

test.each([
  ["git p origin main", "`git p origin main` matches deny entry `bash: git push *`"],
  ["git up", "matches deny entry `bash: git push *`"], // an alias of an alias
  ["git lg", "its config sets it to shell text, `!git log --oneline | head`, which hey does not read here: write the command itself"],
  ["git config alias.st push && git st", "git's config"],
  ["echo '[alias] st = push' >> .git/config && git st", "git's"],
  ["GIT_CONFIG_GLOBAL=/tmp/x.cfg git st", "GIT_CONFIG_GLOBAL"],
  ["export GIT_CONFIG_GLOBAL=/tmp/x.cfg; git st", "GIT_CONFIG_GLOBAL"],
  ["git --git-dir=../other/.git st", "the command changes which config git reads"],
])("%j is refused: %s", (command, why) => {
  const d = judge(command);
  expect({ command, allowed: d.allowed }).toEqual({ command, allowed: false });
  if (!d.allowed) expect(d.reason).toContain(why);
});

test("another repository's config is the one read: `git -C ../other st` and a cd there are `git push`", () => {
  for (const command of ["git -C ../other st", `cd ${join(tmp.path, "other")} && git st`]) {
    const d = judge(command);
    expect({ command, allowed: d.allowed }).toEqual({ command, allowed: false });
  }
  expect(judge("git st", join(tmp.path, "other")).allowed).toBe(false);
});

test("without the file system to read (the embedding API), a name that is no git command is still refused as a possible alias", () => {
  const d = decide("bash", { command: "git st" }, compileRules({ allow: [], deny: ["bash: git push *"] }).rules);
  expect(d.allowed).toBe(false);
});
