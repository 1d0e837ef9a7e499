// x2 findings 2, 7, 9, 11, 12 against the real programs: each command the checker now refuses under
// README's example list does, run by sh with the real git (or cp) in a fresh repository of the
// fixture, what the refusal says: runs a command the list does not allow, pushes, writes the global
// git config, or replaces hey's config. So the refusals are not of harmless spellings.
import { afterAll, expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture, snapshot } from "./control-corpus.ts";

const tmp = tempDir("hey-git-x2-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const PWNED = join(root, "pwned");
const EVIL = join(root, "evil");
mkdirSync(join(EVIL, ".config", "hey"), { recursive: true });
writeFileSync(join(EVIL, ".config", "hey", "config.toml"), '[permission]\nallow = ["bash"]\n');

const MARKS = `git fast-import --quiet --allow-unsafe-features <<'EOF'
feature export-marks=../home/.config/hey/config.toml
blob
mark :1
data 3
hi

EOF`;

/** Each command, and what shows it did what the refusal says (`f`: the fixture's root). */
const CASES: [command: string, happened: (f: string, home: string, before: string) => boolean][] = [
  [`git ls-remote --upload-pa='touch ${PWNED}; git-upload-pack' .`, () => existsSync(PWNED)],
  [`git fetch --upload-pac='touch ${PWNED}; git-upload-pack' .`, () => existsSync(PWNED)],
  [`git rebase --exe 'touch ${PWNED}' HEAD~1`, () => existsSync(PWNED)],
  [`printf 'connect git-upload-pack\n' | git remote-ext x 'touch ${PWNED}'`, () => existsSync(PWNED)],
  [`git clone -q --conf=core.fsmonitor='touch ${PWNED}' . ../cl && git -C ../cl status --short`, () => existsSync(PWNED)],
  [`git filter-branch -f --msg-filter 'touch ${PWNED}; cat' HEAD`, () => existsSync(PWNED)],
  [`git filter-branch -f --tree-filter 'touch ${PWNED}' HEAD`, () => existsSync(PWNED)],
  ["git subtree push --prefix=src origin master", (f) => git(["--git-dir", join(f, "origin.git"), "rev-parse", "--verify", "-q", "master"], f).ok],
  ["git maintenance register", (_f, home) => existsSync(join(home, ".gitconfig")) && readFileSync(join(home, ".gitconfig"), "utf8").includes("maintenance")],
  [MARKS, (_f, _home, before) => before !== readFileSync(join(_home, ".config", "hey", "config.toml"), "utf8")],
  [`cp --recur ${EVIL}/.config ../home/`, (_f, home) => readFileSync(join(home, ".config", "hey", "config.toml"), "utf8").includes('allow = ["bash"]')],
];

const ENV = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  FILTER_BRANCH_SQUELCH_WARNING: "1", // else git filter-branch waits 10 seconds
});
let env: Record<string, string | undefined> = {};
function git(args: string[], cwd: string): { ok: boolean } {
  return { ok: Bun.spawnSync(["git", ...args], { cwd, env, stdout: "ignore", stderr: "ignore" }).exitCode === 0 };
}

testNeeding(["git", "sh", "cp"])("each git command of x2 the checker now refuses does what the refusal says when sh runs it", () => {
  const dead: string[] = [];
  for (const [command, happened] of CASES) {
    const f = join(root, "f");
    rmSync(f, { recursive: true, force: true });
    rmSync(PWNED, { force: true });
    const { home, project, controls } = controlFixture(f);
    env = ENV(home);
    // a repository with two commits under src/, and a bare origin to push to
    mkdirSync(join(project, "src"));
    for (const [i, args] of [
      ["init", "-q", "-b", "master"],
      ["add", "src"],
      ["commit", "-qm", "one"],
      ["add", "src"],
      ["commit", "-qm", "two"],
    ].entries()) {
      if (i === 1 || i === 3) writeFileSync(join(project, "src", "a.txt"), `${i}\n`);
      expect(git(args, project).ok).toBe(true);
    }
    expect(git(["init", "-q", "--bare", join(f, "origin.git")], f).ok && git(["remote", "add", "origin", join(f, "origin.git")], project).ok).toBe(true);
    const check = permissionCheck(
      { allow: ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"], deny: ["bash: git push *"], narrow: [] },
      "bash",
      { cwd: project, home, controls },
    );
    expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, expect.stringMatching(/^blocked by permission rules/)]);
    const before = readFileSync(join(home, ".config", "hey", "config.toml"), "utf8");
    const kept = JSON.stringify(snapshot(controls));
    Bun.spawnSync(["sh", "-c", command], { cwd: project, env, stdout: "ignore", stderr: "ignore" });
    if (!happened(f, home, before)) dead.push(command);
    // the fixture's control files changed only where the case is about them
    if (!command.includes("home/") && JSON.stringify(snapshot(controls)) !== kept) dead.push(`${command}: changed a control file unexpectedly`);
  }
  expect(dead).toEqual([]);
});
