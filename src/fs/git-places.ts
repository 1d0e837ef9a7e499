// Where git finds the commands it runs, for the guard that keeps the agent from writing there while
// a permission list is set (SPEC §8, x105): a git directory known by what it holds, not by its name
// (`.bare` in the bare-repository-and-worktrees layout, `git init --separate-git-dir`, a worktree's
// `gitdir:` target, yadm's `repo.git`), every config file git reads from a directory with the
// files those include (`~/.gitconfig.local`, a tracked `.gitconfig` a repository includes), and the
// directory `core.hooksPath` names. Read here with bounded reads, never by a git the agent could
// configure. Every function may throw Hung (a read that did not answer in time).
import { dirname, isAbsolute, join, normalize, resolve, sep } from "node:path";
import { boundedHead, boundedList, checkNumber, Hung } from "./bounded-reads.ts";
import { bounded, configFiles, gitDirs, includedFile, statOrNone, walkGitConfig } from "./git-config-files.ts";
import { realTargetBounded } from "./real-target.ts";

type Env = Record<string, string | undefined>;

/**
 * Whether `dir` is a git directory as git tells one (setup.c is_git_directory): a HEAD that names a
 * branch (`ref: refs/…`) or holds a commit's hash, as git's validate_headref asks (a `HEAD` of
 * Markdown in a docs folder is no repository), and objects/ and refs/ or a `commondir` file naming
 * where they are (a worktree's own directory).
 */
export function isGitDir(dir: string): boolean {
  const head = statOrNone(join(dir, "HEAD"));
  if (!head || head.kind === "dir" || !headNamesCommit(join(dir, "HEAD"))) return false;
  if (statOrNone(join(dir, "commondir"))?.kind === "file") return true;
  return statOrNone(join(dir, "objects"))?.kind === "dir" && statOrNone(join(dir, "refs"))?.kind === "dir";
}

/** Whether the file `head` begins as git's HEAD does: `ref: refs/`, or a SHA-1 or SHA-256 hash. */
function headNamesCommit(head: string): boolean {
  let text: string;
  try {
    text = Buffer.from(boundedHead(head, 80).bytes).toString("latin1");
  } catch (e) {
    if (e instanceof Hung) throw e;
    return false;
  }
  return /^ref:\s*refs\//.test(text) || /^([0-9a-f]{40}|[0-9a-f]{64})\s*$/.test(text);
}

/**
 * The git directory `abs` is or is in, looked for from `abs` up to the root, or undefined. The look
 * stops at a work tree's top (a directory holding `.git`, which the agent cannot make: that name is
 * guarded): a worktree checked out inside a bare clone (`git clone --bare url repo; git -C repo
 * worktree add main`) is no part of the git directory it sits in, as git sees it.
 */
export function gitDirHolding(abs: string): string | undefined {
  // `bare.git/../main` is a sibling of bare.git: `..` taken first, or the walk up would pass through bare.git
  for (let d = normalize(abs); ; d = dirname(d)) {
    if (isGitDir(d)) return d;
    if (dirname(d) === d || statOrNone(join(d, ".git"))) return undefined;
  }
}

/** A place git runs commands from, and why, in the words a refusal says. */
export interface GitPlace {
  path: string;
  why: string;
  /** a git directory: a work tree checked out inside it (a bare clone's worktrees) is no part of it */
  gitDir?: true;
  /** of a git directory, the work trees git records inside it (`worktrees/NAME/gitdir`) */
  workTrees?: string[];
}

/**
 * The places a git run from `cwd` takes commands from: the repository's git directories (a
 * worktree's own and the common one, wherever its `.git` file points), every config file it reads
 * (system, global, the repository's, the worktree's) and every file those include, an
 * `[includeIf]` whatever its condition (a branch, a remote, a directory may meet it later), there
 * or not (creating `~/.gitconfig.local` sets what it includes), and each directory
 * `core.hooksPath` names (relative: from the work tree's top and from the git directory, as git runs
 * hooks from the one or the other). A file hey cannot read to its end says no more.
 */
export function gitPlaces(cwd: string, home: string, env: Env): GitPlace[] {
  if (!isAbsolute(cwd)) return []; // a path of another system (a Windows one checked on Linux): nothing here to read
  return placesOf(repositoryAt(cwd, env), cwd, home, env);
}

/** The repository a git run from `cwd` finds: its git directories and its work tree's top (none for a bare one). */
function repositoryAt(cwd: string, env: Env): { dirs: string[]; top: string | undefined } {
  const dirs = gitDirs(cwd, env);
  return { dirs, top: dirs.length && !env.GIT_DIR ? worktreeTop(cwd) : undefined };
}

function placesOf(repo: { dirs: string[]; top: string | undefined }, cwd: string, home: string, env: Env): GitPlace[] {
  const [dir, common] = repo.dirs;
  const places: GitPlace[] = [];
  for (const d of new Set([dir, common])) if (d) places.push({ path: d, why: `in ${d}, a git directory`, gitDir: true, workTrees: workTreesIn(d) });
  const files = configFiles(cwd, home, env);
  const from = new Map<string, string>(); // an included file, and the file that includes it
  const read = (path: string) => {
    places.push({ path, why: from.has(path) ? `a config file git reads, included by ${from.get(path)}` : "a config file git reads" });
    if (!from.has(path)) return bounded(path);
    // an included file that does not answer (a team share, its VPN down) stays a place by its name, and the rest is still read:
    // git, where it reads the file, waits on it as long, and one an `[includeIf]` names may be one git here never reads
    try {
      return bounded(path);
    } catch (e) {
      if (e instanceof Hung) return undefined;
      throw e;
    }
  };
  walkGitConfig(
    files,
    read,
    () => true,
    home,
    (s) => {
      if (s.key === "path" && s.value && (s.section === "include" || s.section === "includeif")) from.set(includedFile(s.value, s.file!, home), s.file!);
      if (s.section === "core" && s.sub === undefined && s.key === "hookspath" && s.value)
        for (const hooks of hookDirs(s.value, home, repo.top, dir))
          places.push({ path: hooks, why: `in ${hooks}, the hooks directory core.hooksPath names in ${s.file}` });
      return false;
    },
  );
  return places;
}

/** Where a `core.hooksPath` value points: `~/` below `home`, a relative one from the work tree's top and from the git directory. */
function hookDirs(value: string, home: string, top: string | undefined, gitDir: string | undefined): string[] {
  if (value.startsWith("~/")) return [join(home, value.slice(2))];
  if (isAbsolute(value)) return [value];
  return [...new Set([top, gitDir].filter((d) => d !== undefined).map((d) => resolve(d, value)))];
}

/**
 * The top of the work tree a git run in `cwd` acts on (`git stash`, `git checkout BRANCH` from any
 * folder of it): `$GIT_WORK_TREE`; under `$GIT_DIR` or `--git-dir` (`gitDir`), the `core.worktree` its
 * config sets (a dotfiles git directory's `~`, x157 #5), else `cwd` itself (git takes the directory it
 * runs in as the top); else the nearest directory up holding `.git`, or undefined. Throws Hung, or
 * an error where that config cannot be read as git reads it.
 */
export function workTreeTop(cwd: string, env: Env, gitDir?: string): string | undefined {
  if (!isAbsolute(cwd)) return undefined; // a path of another system (a Windows one checked on Linux)
  if (env.GIT_WORK_TREE) return resolve(cwd, env.GIT_WORK_TREE);
  const dir = gitDir ?? env.GIT_DIR;
  return dir ? (configuredWorkTree(resolve(cwd, dir), env) ?? cwd) : worktreeTop(cwd);
}

/** The last `core.worktree` the config of `gitDir` sets (relative to `gitDir`), or undefined. */
function configuredWorkTree(gitDir: string, env: Env): string | undefined {
  let top: string | undefined;
  const home = env.HOME ?? "";
  const stop = walkGitConfig(
    [join(gitDir, "config")],
    bounded,
    () => true,
    home,
    (s) => {
      if (s.section === "core" && s.sub === undefined && s.key === "worktree" && s.value) top = s.value;
      return false;
    },
  );
  if (stop && stop !== "found") throw new Error(stop.trouble);
  return top === undefined ? undefined : resolve(gitDir, top.startsWith("~/") ? join(home, top.slice(2)) : top);
}

/** The directory holding the `.git` a git run from `cwd` finds, or undefined. */
function worktreeTop(cwd: string): string | undefined {
  for (let d = resolve(cwd); ; d = dirname(d)) {
    if (statOrNone(join(d, ".git"))) return d;
    if (dirname(d) === d) return undefined;
  }
}

const inside = (path: string, place: string) => path === place || path.startsWith(place.endsWith(sep) ? place : place + sep);

let memo = { check: -1, places: new Map<string, (GitPlace & { real: string })[]>(), repos: new Map<string, ReturnType<typeof repositoryAt>>() };

/** gitPlaces with each place's real path, worked out once per permission check for each repository (a command names many paths, many in one repository). */
function placesOnce(cwd: string, home: string, env: Env): (GitPlace & { real: string })[] {
  if (memo.check !== checkNumber()) memo = { check: checkNumber(), places: new Map(), repos: new Map() };
  // the repository too, by directory: a command naming 200 files in 200 directories of one repository looks it up 200 times otherwise
  const at = `${cwd}\0${env.GIT_DIR ?? ""}`;
  let repo = memo.repos.get(at);
  if (!repo) memo.repos.set(at, (repo = repositoryAt(cwd, env)));
  const key = [...repo.dirs, repo.top ?? ""].join("\0");
  let places = memo.places.get(key);
  if (!places) memo.places.set(key, (places = placesOf(repo, cwd, home, env).map((p) => ({ ...p, real: realOrAsWritten(p.path) }))));
  return places;
}

/** Where `path` really is; as written where that does not answer (an included file on a hung share). */
function realOrAsWritten(path: string): string {
  try {
    return realTargetBounded(path);
  } catch (e) {
    if (e instanceof Hung) return path;
    throw e;
  }
}

/**
 * Why writing the absolute path `abs` would write something git runs commands from, or undefined:
 * it is in a git directory (by what that holds), or it is one of the places (gitPlaces) of a git run
 * from any of `from` or from the directory `abs` is in — as written, or once links are resolved.
 */
export function gitOwnership(abs: string, from: readonly string[], home: string, env: Env): string | undefined {
  if (!isAbsolute(abs)) return undefined; // a path of another system (a Windows one checked on Linux)
  const real = realTargetBounded(abs);
  const written = [...new Set([abs, real])];
  for (const p of written) {
    const dir = gitDirHolding(p);
    if (dir !== undefined) return `in ${dir}, a git directory`;
  }
  for (const cwd of new Set([...from, ...written.map(dirname)].filter((d) => isAbsolute(d))))
    for (const place of placesOnce(cwd, home, env))
      if (written.some((p) => [place.path, place.real].some((at) => inside(p, at) && !(place.gitDir && inWorkTree(p, at))))) return place.why;
  return undefined;
}

/** The tops of the work trees git records in `gitDir/worktrees/NAME/gitdir` (the path of each one's `.git` file, absolute or from there) that are inside `gitDir`. */
function workTreesIn(gitDir: string): string[] {
  let names: string[];
  try {
    names = boundedList(join(gitDir, "worktrees"), true);
  } catch (e) {
    if (e instanceof Hung) throw e;
    return [];
  }
  return names.flatMap((name) => {
    const text = bounded(join(gitDir, "worktrees", name, "gitdir"));
    if (typeof text !== "string" || !text.trim()) return [];
    const top = dirname(resolve(gitDir, "worktrees", name, text.trim()));
    return inside(top, gitDir) && top !== gitDir ? [top] : [];
  });
}

/** Whether a directory between `gitDir` and the path `p` below it holds a `.git`: `p` is then in a work tree checked out there, not in the git directory. */
function inWorkTree(p: string, gitDir: string): boolean {
  for (let d = dirname(p); d !== gitDir && inside(d, gitDir); d = dirname(d)) if (statOrNone(join(d, ".git"))) return true;
  return false;
}
