// A forcing refspec or a mirroring remote in git's config files makes a `git push` without
// refspecs force: a deny entry naming `git push --force` refuses such a push once hey has read the
// config (the repository's, a worktree's shared one, the global one, and what they include).
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pushForcing } from "../../src/fs/git-config-files.ts";
import { readGitConfig } from "../../src/fs/git-config-forcing.ts";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-push-config-");
afterAll(() => tmp.remove());

test.each<[string, string | undefined]>([
  [
    '[remote "origin"]\n\turl = x\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n\tpush = +refs/heads/*:refs/heads/* ; all',
    "remote.origin.push = +refs/heads/*:refs/heads/*",
  ],
  ['[Remote "up"] PUSH = "+HEAD:main"', "remote.up.push = +HEAD:main"],
  ["[remote.up]\nmirror", "remote.up.mirror = true"],
  ['[remote "o"]\n  mirror = yes', "remote.o.mirror = yes"],
  ['[remote "o"]\n  mirror = false\n  push = HEAD:main\n  fetch = +refs/heads/*:refs/remotes/o/*', undefined],
  ['[core]\n  push = +x\n[branch "main"]\n  push = +x', undefined],
])("git config %j forces a push: %j", (text, forcing) => {
  expect(readGitConfig(text).forcing).toBe(forcing);
});

test("includes are listed, whatever their condition", () => {
  expect(readGitConfig('[include]\n\tpath = ~/a.inc\n[includeIf "gitdir:~/w/"]\n\tpath = "w.inc"').includes).toEqual(["~/a.inc", "w.inc"]);
});

/** A home and a project whose git config (`.git/config`, or a worktree's shared one) holds `config`. */
function repo(name: string, config: string, worktree = false): { home: string; project: string; env: Record<string, string> } {
  const root = join(tmp.path, name);
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, "sub"), { recursive: true });
  if (worktree) {
    const main = join(root, "main", ".git");
    mkdirSync(join(main, "worktrees", "wt"), { recursive: true });
    writeFileSync(join(main, "config"), config);
    writeFileSync(join(main, "worktrees", "wt", "commondir"), "../..\n");
    writeFileSync(join(project, ".git"), `gitdir: ${join(main, "worktrees", "wt")}\n`);
  } else {
    mkdirSync(join(project, ".git"));
    writeFileSync(join(project, ".git", "config"), config);
  }
  return { home, project, env: { GIT_CONFIG_NOSYSTEM: "1", XDG_CONFIG_HOME: join(home, ".config") } };
}

const FORCING = '[remote "origin"]\n\turl = /srv/x.git\n\tpush = +refs/heads/*:refs/heads/*\n';

test("the repository's config, a worktree's shared config, an included file and the global file are read", () => {
  const plain = repo("plain", FORCING);
  expect(pushForcing(join(plain.project, "sub"), plain.home, plain.env)).toBe(
    `${join(plain.project, ".git", "config")}: remote.origin.push = +refs/heads/*:refs/heads/*`,
  );
  const wt = repo("wt", FORCING, true);
  expect(pushForcing(wt.project, wt.home, wt.env)).toContain(": remote.origin.push = +refs/heads/*:refs/heads/*");
  const inc = repo("inc", "[include]\n\tpath = ../forcing.inc\n");
  writeFileSync(join(inc.project, "forcing.inc"), '[remote "up"]\n\tmirror = true\n');
  expect(pushForcing(inc.project, inc.home, inc.env)).toBe(`${join(inc.project, ".git", "..", "forcing.inc")}: remote.up.mirror = true`);
  const global = repo("global", '[remote "origin"]\n\turl = x\n');
  writeFileSync(join(global.home, ".gitconfig"), '[remote "origin"]\n\tpush = +main\n');
  expect(pushForcing(global.project, global.home, global.env)).toBe(`${join(global.home, ".gitconfig")}: remote.origin.push = +main`);
  const none = repo("none", '[remote "origin"]\n\turl = x\n\tpush = refs/heads/main\n');
  expect(pushForcing(none.project, none.home, none.env)).toBeUndefined();
});

test("deny 'git push --force *' refuses a push the config forces; a push naming its refspecs, or under a config that does not force, runs", () => {
  const plain = repo("deny", FORCING);
  const forcing = () => pushForcing(plain.project, plain.home, plain.env);
  const rules = (deny: string) =>
    compileRules({ allow: [], deny: [deny] }, "sh", { paths: [], cwd: plain.project, home: plain.home, pushForcing: forcing }).rules;
  const denied = rules("bash: git push --force *");
  for (const command of ["git push", "git push origin", "git -C . push -u origin", "git push --repo origin", "/usr/lib/git-core/git-push"]) {
    const d = decide("bash", { command }, denied);
    expect([command, d]).toEqual([
      command,
      {
        allowed: false,
        reason: expect.stringContaining(
          `may force the push through git's config (${join(plain.project, ".git", "config")}: remote.origin.push = +refs/heads/*:refs/heads/*)`,
        ),
      },
    ]);
  }
  for (const command of ["git push origin main", "git push origin HEAD:refs/heads/x", "git pull", "git push -- origin main"])
    expect([command, decide("bash", { command }, denied)]).toEqual([command, { allowed: true }]);
  // another entry, or no forcing config: the push runs
  expect(decide("bash", { command: "git push" }, rules("bash: git push --tags *"))).toEqual({ allowed: true });
  const calm = repo("calm", '[remote "origin"]\n\turl = x\n');
  const calmRules = compileRules({ allow: [], deny: ["bash: git push --force *"] }, "sh", {
    paths: [],
    cwd: calm.project,
    home: calm.home,
    pushForcing: () => pushForcing(calm.project, calm.home, calm.env),
  }).rules;
  expect(decide("bash", { command: "git push" }, calmRules)).toEqual({ allowed: true });
});

test("a command that may change git's config before its push is refused; one that only reads it runs", () => {
  const rules = compileRules({ allow: [], deny: ["bash: git push --force *"] }, "sh", {
    paths: [],
    cwd: tmp.path,
    home: tmp.path,
    pushForcing: () => undefined,
  }).rules;
  for (const [command, changer] of <[string, string][]>[
    ["echo '[remote \"origin\"] push = +main' >> ~/.gitconfig; git push", "echo '[remote \"origin\"] push = +main' >> ~/.gitconfig"],
    ["cp /tmp/evil ~/.gitconfig && git push origin", "cp /tmp/evil ~/.gitconfig"],
    ["git remote add --mirror=push m /srv/x.git && git push m", "git remote add --mirror=push m /srv/x.git"],
    ["sed -i 's/push = /push = +/' ~/.gitconfig; git push", "sed -i 's/push = /push = +/' ~/.gitconfig"],
  ])
    expect([command, decide("bash", { command }, rules)]).toEqual([
      command,
      {
        allowed: false,
        reason: `blocked by permission rules: \`${command.split(/\s*(?:&&|;)\s*/).pop()}\` may force the push through git's config (\`${changer}\` may change it first): deny entry \`bash: git push --force *\``,
      },
    ]);
  // a write in a `.git` directory is refused before the push is looked at: git's own files (control-arguments.ts)
  for (const command of ["echo '[remote \"origin\"] push = +main' >> .git/config; git push", "cp /tmp/evil .git/config && git push origin"])
    expect(decide("bash", { command }, rules)).toMatchObject({ allowed: false, reason: expect.stringContaining("git's own files") });
  // and so is a `git config` writing a key that runs commands or makes a push force (git-config-writes.ts)
  expect(decide("bash", { command: "git config remote.origin.push +main && git push" }, rules)).toMatchObject({
    allowed: false,
    reason: expect.stringContaining("`git config remote.origin.push +main` writes git's config"),
  });
  for (const command of [
    "git config --get remote.origin.url && git push",
    "git remote -v && git push",
    "cat .git/config && git push",
    "git add . && git commit -m x && git push",
    "git config user.email x && git push origin main",
  ])
    expect([command, decide("bash", { command }, rules)]).toEqual([command, { allowed: true }]);
});

test("the push's repository is the one a `cd` or `git -C` leads to", () => {
  const calm = repo("calm2", '[remote "origin"]\n\turl = x\n');
  const other = join(tmp.path, "calm2", "other");
  mkdirSync(join(other, ".git"), { recursive: true });
  writeFileSync(join(other, ".git", "config"), FORCING);
  const rules = compileRules({ allow: [], deny: ["bash: git push --force *"] }, "sh", {
    paths: [],
    cwd: calm.project,
    home: calm.home,
    pushForcing: (dir) => pushForcing(dir, calm.home, calm.env),
  }).rules;
  expect(decide("bash", { command: "git push" }, rules)).toEqual({ allowed: true });
  for (const command of ["git -C ../other push", "cd ../other && git push", `git -C ${other} push origin`, "cd .. && git -C other push"])
    expect([command, decide("bash", { command }, rules)]).toEqual([
      command,
      {
        allowed: false,
        reason: expect.stringContaining(
          `may force the push through git's config (${join(other, ".git", "config")}: remote.origin.push = +refs/heads/*:refs/heads/*)`,
        ),
      },
    ]);
});

test("a git config too large for hey to read may force the push: git reads it all", () => {
  const big = repo("big", `#${"x".repeat(1 << 20)}\n${FORCING}`);
  expect(pushForcing(big.project, big.home, big.env)).toBe(`${join(big.project, ".git", "config")}: over 1 MB, more than hey reads, so it may set anything`);
});
