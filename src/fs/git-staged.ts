// A file staged but held by no commit HEAD names (x157 #3): `git add -A` stages an untracked
// `.hey/config.toml`, and a `git stash`, `reset --hard` or `checkout -f BRANCH` in the next call takes
// it out of the work tree, lifting the project's deny list. Whether the index lists it is read from the
// index's bytes within the disk-read deadline (git's `ls-files` for a large one); whether HEAD holds it
// is asked of git (`ls-tree`, which reads objects only: no hook, no fsmonitor, no work tree), only for
// a file the index lists. In a partial clone (or a `.git` that claims to be one) a missing object
// makes git fetch it, through whatever transport the repository's config names (`core.sshCommand`,
// a local remote's `uploadpack`, `ext::`): git here reaches no remote at all (x165 #1).
import { dirname, join, relative, sep } from "node:path";
import { boundedHead, boundedList, DEADLINE_MS, Hung } from "./bounded-reads.ts";
import { gitDirs } from "./git-config-files.ts";
import { indexHolds } from "./git-index-links.ts";
import { workTreeTop } from "./git-places.ts";

type Env = Record<string, string | undefined>;

// an index read within the deadline, at most as large as a config file (some 10,000 files; the reads' thread
// keeps a buffer this large); of a larger one git itself says whether it lists the file
const MAX_INDEX_BYTES = 1 << 20;

/** Whether the file at the absolute `abs` is in its repository's index but not in HEAD's tree (or there is no HEAD yet); `{unknown}` where that cannot be told; throws Hung. */
export function stagedOnly(abs: string, env: Env): boolean | { unknown: string } {
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
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false; // no index: nothing is staged
    listed = undefined;
  }
  // core.splitIndex keeps entries in a shared index, and marks one there deleted in the main index: git reads both (x165 #3)
  if (listed === false) {
    if (!boundedList(gitDir).some((n) => n.startsWith("sharedindex."))) return false;
    listed = undefined;
  }
  // the git calls share one deadline, so a slow repository makes a command wait that long once, not once per call
  const until = Date.now() + DEADLINE_MS;
  const ask = (args: string[]) => answer(args, { top, gitDir, env }, until - Date.now());
  // a large index: git lists it, its fsmonitor (a command the repository's config may name) off
  if (listed === undefined) {
    const index = ask(["ls-files", "-z", "--", rel]);
    if (!("names" in index)) return { unknown: `git could not say whether its index lists it (${index.why})` };
    if (!index.names.includes(rel)) return false;
  }
  const head = ask(["ls-tree", "-z", "--name-only", "HEAD", "--", rel]);
  if ("names" in head) return !head.names.includes(rel);
  if (!("exit" in head)) return { unknown: `git could not read HEAD's tree (${head.why})` };
  // git answered that it could not: with no commit yet (`rev-parse --verify` then fails quietly too) the file is in none
  const commit = ask(["rev-parse", "-q", "--verify", "HEAD"]);
  if ("exit" in commit) return true;
  return { unknown: `git could not read HEAD's tree (${"names" in commit ? "an object a partial clone never fetched" : commit.why})` };
}

// what git is kept from doing while it answers: reaching a remote (every transport git knows refused on the
// command line, which beats a repository's own `protocol.NAME.allow`), its fsmonitor and hooks
const QUIET = [
  "protocol.allow=never",
  ...["file", "ssh", "git", "http", "https", "ext"].map((p) => `protocol.${p}.allow=never`),
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
];

/** What git said: the NUL-separated names it printed; that it failed (`exit`, its non-zero status); or why there was no answer. */
type Answer = { names: string[] } | { exit: number; why: string } | { why: string };

/** git's answer to `args` in the repository within `ms`; never throws. */
function answer(args: string[], at: { top: string; gitDir: string; env: Env }, ms: number): Answer {
  const late = { why: "no answer in time" };
  if (ms <= 0) return late;
  try {
    const git = Bun.spawnSync(["git", ...QUIET.flatMap((c) => ["-c", c]), ...args], {
      cwd: at.top,
      // GIT_NO_LAZY_FETCH (git 2.45+): a missing object is missing, not fetched
      env: { ...at.env, GIT_DIR: at.gitDir, GIT_WORK_TREE: at.top, GIT_NO_LAZY_FETCH: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: ms,
    });
    if (git.exitCode === 0) return { names: git.stdout.toString().split("\0") };
    // killed at the deadline (or by anything else): no exit status, so no answer
    if (git.exitCode === null || git.signalCode) return late;
    return { exit: git.exitCode, why: `git exited with status ${git.exitCode}` };
  } catch (e) {
    return { why: `git could not start: ${e instanceof Error ? e.message : String(e)}` };
  }
}
