// A file staged but held by no commit HEAD names (x157 #3): `git add -A` stages an untracked
// `.hey/config.toml`, and a `git stash`, `reset --hard` or `checkout -f BRANCH` in the next call takes
// it out of the work tree, lifting the project's deny list. Whether the index lists it is read from the
// index's bytes within the disk-read deadline; whether HEAD holds it is asked of git (`ls-tree`,
// which reads objects only: no hook, no fsmonitor, no work tree), only for a file the index lists.
import { dirname, join, relative, sep } from "node:path";
import { boundedHead, boundedList, DEADLINE_MS, Hung } from "./bounded-reads.ts";
import { gitDirs } from "./git-config-files.ts";
import { indexHolds } from "./git-index-links.ts";
import { workTreeTop } from "./git-places.ts";

type Env = Record<string, string | undefined>;

const MAX_INDEX_BYTES = 64 * 1024 * 1024; // an index larger than this is taken to list the file

/** Whether the file at the absolute `abs` is in its repository's index but not in HEAD's tree (or there is no HEAD yet); true where that cannot be told; throws Hung. */
export function stagedOnly(abs: string, env: Env): boolean {
  const top = workTreeTop(dirname(abs), env);
  const [gitDir] = top === undefined ? [] : gitDirs(dirname(abs), env);
  if (top === undefined || gitDir === undefined) return false;
  const rel = relative(top, abs).split(sep).join("/");
  if (!rel || rel.startsWith("../")) return false;
  let listed: boolean | undefined;
  try {
    const { bytes, size } = boundedHead(join(gitDir, "index"), MAX_INDEX_BYTES);
    listed = size > bytes.length ? undefined : indexHolds(bytes, rel);
  } catch (e) {
    if (e instanceof Hung) throw e;
    return false; // no index: nothing is staged
  }
  // core.splitIndex keeps entries in a shared index too
  if (listed === false && !boundedList(gitDir).some((n) => n.startsWith("sharedindex."))) return false;
  try {
    const git = Bun.spawnSync(["git", "ls-tree", "-z", "--name-only", "HEAD", "--", rel], {
      cwd: top,
      env: { ...env, GIT_DIR: gitDir, GIT_WORK_TREE: top },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: DEADLINE_MS,
    });
    // no commit yet, or no answer in time: it may be in none
    if (git.exitCode !== 0) return true;
    return !git.stdout.toString().split("\0").includes(rel);
  } catch {
    return true; // git could not start
  }
}
