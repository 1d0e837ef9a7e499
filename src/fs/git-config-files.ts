// The git config files a `git push` run from a directory reads (git-config(1) "FILES"), read for the
// permission checker (SPEC §8): the system file, the global ones, the repository's (found as git
// finds it: `.git` a directory, or a file `gitdir: …` for a worktree, whose `commondir` holds the
// shared config) and its `config.worktree`, each with the files it includes. Read here, by hey,
// never by a git the command could configure. Never throws: a file that cannot be read says nothing,
// one over MAX_BYTES, a FIFO or a device that it may force (git reads it all, or what a writer sends).
import { dirname, isAbsolute, join, resolve } from "node:path";
import { readGitConfig } from "../permission/git-config.ts";
import { boundedHead, boundedStat, Hung, type Stat } from "./bounded-reads.ts";
import { isDevNull } from "./read-head.ts";

const MAX_BYTES = 1 << 20;
const MAX_DEPTH = 10; // git's own limit on nested includes

/** A config file's text; a FIFO or device (an include naming /dev/stdin, a `mkfifo .git/config`) is not read, so it cannot hang the check. */
function text(path: string): string | undefined {
  const read = bounded(path);
  return typeof read === "string" ? read : undefined;
}

/** What `bounded` gives for a file over MAX_BYTES: git reads it all, hey cannot tell what it sets. */
const TOO_LARGE = Symbol("too large");
/** What `bounded` gives for a FIFO or device (not /dev/null): git reads what a writer sends it, which hey cannot read ahead. */
const NOT_REGULAR = Symbol("not a regular file");

function bounded(path: string): string | typeof TOO_LARGE | typeof NOT_REGULAR | undefined {
  try {
    const { bytes, size } = boundedHead(path, MAX_BYTES);
    return size > bytes.length ? TOO_LARGE : Buffer.from(bytes).toString("utf8");
  } catch (e) {
    if (e instanceof Hung) throw e; // pushForcing says so
    return (e as NodeJS.ErrnoException).code === "EINVAL" && !isDevNull(path) ? NOT_REGULAR : undefined;
  }
}

/** stat(2) of `path`, undefined where nothing is; throws Hung (and a vanished directory's errors). */
function statOrNone(path: string): Stat | undefined {
  try {
    return boundedStat(path);
  } catch (e) {
    if (e instanceof Hung) throw e;
    return undefined;
  }
}

/** The repository's git directory and its common directory (a worktree's main `.git`), from `cwd` up. */
function gitDirs(cwd: string, env: Record<string, string | undefined>): string[] {
  let dir = env.GIT_DIR ? resolve(cwd, env.GIT_DIR) : undefined;
  for (let d = resolve(cwd); !dir; d = dirname(d)) {
    const dotGit = join(d, ".git");
    const st = statOrNone(dotGit);
    if (st) {
      const pointer = st.kind === "file" ? /^gitdir:\s*(.+)$/m.exec(text(dotGit) ?? "")?.[1]?.trim() : undefined;
      dir = pointer ? resolve(d, pointer) : dotGit;
    }
    if (dirname(d) === d) break;
  }
  if (!dir) return [];
  const common = text(join(dir, "commondir"))?.trim();
  return common ? [dir, resolve(dir, common)] : [dir];
}

/** git's global config files for `env` (git-config(1) "FILES"): `$GIT_CONFIG_GLOBAL`, or `$XDG_CONFIG_HOME/git/config` and `~/.gitconfig`. */
export function globalGitConfigs(home: string, env: Record<string, string | undefined>): string[] {
  return env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : [join(env.XDG_CONFIG_HOME || join(home, ".config"), "git", "config"), join(home, ".gitconfig")];
}

/** The files, in git's order: system, global, the repository's, the worktree's. */
function files(cwd: string, home: string, env: Record<string, string | undefined>): string[] {
  const system = env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig"];
  const global = globalGitConfigs(home, env);
  const [dir, common] = gitDirs(cwd, env);
  const repo = dir ? [join(common ?? dir, "config"), join(dir, "config.worktree")] : [];
  return [...system, ...global, ...repo];
}

/**
 * The first setting that makes a `git push` from `cwd` without refspecs force (permission/git-config.ts), as
 * `FILE: remote.NAME.push = +…`, or undefined. Includes are followed whatever their condition.
 */
export function pushForcing(cwd: string, home: string, env: Record<string, string | undefined> = process.env): string | undefined {
  const seen = new Set<string>();
  const visit = (path: string, depth: number): string | undefined => {
    if (depth > MAX_DEPTH || seen.has(path)) return undefined;
    seen.add(path);
    const content = bounded(path);
    if (content === TOO_LARGE) return `${path}: over ${MAX_BYTES / 1048576} MB, more than hey reads, so it may set anything`;
    if (content === NOT_REGULAR) return `${path}: not a regular file (a FIFO or device), whose contents hey cannot read ahead, so it may set anything`;
    if (content === undefined) return undefined;
    const read = readGitConfig(content);
    if (read.forcing) return `${path}: ${read.forcing}`;
    for (const inc of read.includes) {
      const target = inc.startsWith("~/") ? join(home, inc.slice(2)) : isAbsolute(inc) ? inc : join(dirname(path), inc);
      const found = visit(target, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  try {
    for (const file of files(cwd, home, env)) {
      const found = visit(file, 0);
      if (found) return found;
    }
  } catch (e) {
    // a read that did not answer in time may hide a forcing setting; a directory that vanished while it was read: nothing seen
    if (e instanceof Hung) return `${e.message}, so it may set anything`;
  }
  return undefined;
}
