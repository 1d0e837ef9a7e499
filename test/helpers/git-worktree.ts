// Real git repositories for trust tests: a main checkout with one commit, its linked worktrees and
// clones, made with the git on PATH under a temp dir, with no user or system git config read.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Runs git in `cwd`; throws with its stderr when it fails. */
export function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

/** A repository at `dir` holding `files` (path → text), committed. */
export function repoWith(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "start");
  return dir;
}
