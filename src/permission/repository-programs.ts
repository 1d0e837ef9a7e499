// The programs the repositories a command may run git in name in their own config (x67): a
// textconv driver, a diff driver's command, `diff.external`, a filter's clean, smudge or process
// command (permission/git-env.ts repositoryProgram), which plan mode and `/diff` make harmless. The
// repositories are the one git finds from the working directory and from each directory the
// command's words name (`cd ../other`, `git -C /src/x`, `--git-dir=…`): a path hidden in a
// variable or a command's output is not seen. A bare repository is found only by `.git` or
// GIT_DIR, as under `safe.bareRepository = explicit`. Read without a deadline but git's listing
// (everyProgram, which `signal` stops); never throws.
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { explicitBareRepositories, guardedGit, isRefusal, PROGRAMS_WITHOUT_NAMES, refusal, repositoryProgram } from "./git-env.ts";
import { look, type Stamps, unchanged } from "../fs/file-stamps.ts";
import { gitDirs, readConfigFile, walkGitConfig } from "../fs/git-config-files.ts";
import { gitlinkPaths } from "../fs/git-index-links.ts";
import { readHeadBytes } from "../fs/read-head.ts";

/** Words of a command looked at, at most: each is a stat(2). */
const MAX_WORDS = 64;

/** The words of `command` that may be paths: split at blanks, quotes and shell punctuation, and at `=` (`--git-dir=DIR`, `GIT_DIR=DIR`). Pure. */
export function pathWords(command: string): string[] {
  const words = command.split(/[\s;&|()<>`"'=]+/).filter((w) => w !== "" && !w.startsWith("-") && !w.includes("$"));
  return [...new Set(words)].slice(0, MAX_WORDS);
}

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The `section.sub.key` of every such program the repositories of `cwd` and of the directories `command` names set, their submodules' too; `home` for `~/`. */
export async function repositoryPrograms(
  cwd: string,
  command: string,
  home: string,
  env: Record<string, string | undefined>,
  signal?: AbortSignal,
): Promise<string[]> {
  const named = pathWords(command).map((w) => (w === "~" ? home : w.startsWith("~/") ? join(home, w.slice(2)) : resolve(cwd, w)));
  const dirs = [...new Set([cwd, ...named.filter(isDirectory)])];
  const found = new Set<string>();
  const seen = new Set<string>();
  for (const dir of dirs) {
    try {
      const [gitDir, common] = gitDirs(dir, env);
      if (gitDir) await readRepositories({ gitDir, common: common ?? gitDir, top: env.GIT_DIR ? dir : undefined }, { home, env, signal }, found, seen);
    } catch {
      // a directory that vanished while it was read: nothing found there
    }
  }
  return [...found].sort();
}

/** A repository to read: its git directory, its common one (`config`), and its work tree's top where the caller knows it. */
interface Repository {
  gitDir: string;
  common: string;
  top: string | undefined;
}

/** Repositories read for one command at most, submodules and theirs included: past that hey cannot say what git may run, so it runs no git. */
const MAX_REPOSITORIES = 500;

/**
 * Adds to `found` the programs the config of `first` and of each of its submodules, nested ones too,
 * names. git runs git in a submodule (`git status`, `git diff --submodule=diff`, `diff.submodule`)
 * with the config of the repository the submodule's `.git` names, or else of `modules/NAME` in the
 * superproject's git directory: both are read, for every gitlink the index records and every git
 * directory below `modules/`. Where a config cannot be read to its end, everyProgram; where the
 * submodules cannot all be found (an index hey cannot read, too many), a refusal that says so.
 */
async function readRepositories(first: Repository, how: Listing & { home: string }, found: Set<string>, seen: Set<string>): Promise<void> {
  const queue = [first];
  for (let repo = queue.shift(); repo; repo = queue.shift()) {
    if (seen.has(repo.gitDir)) continue;
    seen.add(repo.gitDir);
    if (seen.size > MAX_REPOSITORIES) {
      found.add(refusal(`more than ${MAX_REPOSITORIES} repositories and submodules to read`));
      return;
    }
    const reading = await remembered(repo, how);
    for (const key of reading.programs) found.add(key);
    if (reading.refused) return;
    queue.push(...reading.next);
  }
}

/** What one repository's files say: the programs its config names (or the refusal), and the repositories of its submodules, to read next; `partial` where git listed what hey did not read. */
interface Reading {
  programs: string[];
  refused: boolean;
  next: Repository[];
  partial: boolean;
}

/** Readings of repositories already read, with the stamps of what each looked at: each git call in plan mode asks again, and a superproject of 150 submodules is ~1,800 files (x119). */
const readings = new Map<string, { stamps: Stamps; reading: Reading }>();

/** Repositories read from their files, not from memory, since hey started: what tells a test a reading was remembered. */
let readFromDisk = 0;
export const repositoriesRead = (): number => readFromDisk;

/** Memory of readings kept, at most: repositories one session runs git in. */
const MAX_READINGS = 2000;

/** `repo`'s reading, from memory where every file and directory it looked at is unchanged (a config the agent edits, a submodule it adds, is read again at the next call). */
async function remembered(repo: Repository, how: Listing & { home: string }): Promise<Reading> {
  const key = [repo.gitDir, repo.common, repo.top ?? "", how.home].join("\0");
  const known = readings.get(key);
  if (known && unchanged(known.stamps)) return known.reading;
  const stamps: Stamps = new Map();
  readFromDisk++;
  const reading = await readRepository(repo, how, (path) => look(stamps, path));
  readings.delete(key);
  // a refusal (git did not list the config in time, an index read while git wrote it) may not hold
  // next time; a reading that stopped short has no stamps of the files git read past that point (x127)
  if (!how.signal?.aborted && !reading.programs.some(isRefusal) && !reading.partial) readings.set(key, { stamps, reading });
  if (readings.size > MAX_READINGS) readings.delete(readings.keys().next().value!);
  return reading;
}

/** Reads one repository's config, its index's gitlinks and its `modules/`, telling `look` each path before it is read. */
async function readRepository(repo: Repository, how: Listing & { home: string }, look: Look): Promise<Reading> {
  const programs = new Set<string>();
  const tops = [join(repo.common, "config"), join(repo.gitDir, "config.worktree")];
  for (const file of tops) look(file);
  let worktree: string | undefined;
  let hashBytes = 20;
  const stop = walkGitConfig(
    tops,
    (path) => (look(path), readConfigFile(path)),
    () => true,
    how.home,
    (setting) => {
      const key = repositoryProgram(setting);
      if (key) programs.add(key);
      if (setting.section === "core" && setting.sub === undefined && setting.key === "worktree") worktree = setting.value;
      if (setting.section === "extensions" && setting.key === "objectformat") hashBytes = setting.value?.toLowerCase() === "sha256" ? 32 : 20;
      return false;
    },
  );
  // hey stopped reading where git reads on (an include over 1 MB, over 200 files): what comes
  // after may set any program, so every one is made harmless, the drivers by the names git lists
  const partial = !!stop && stop !== "found" && !stop.gitStops;
  if (partial) for (const key of await everyProgram(repo.gitDir, how)) programs.add(key);
  const top = worktree ? resolve(repo.gitDir, worktree) : (repo.top ?? workTreeOf(repo.gitDir, look));
  const modules = moduleGitDirs([repo.gitDir, repo.common], look);
  const links = top ? indexLinks(repo.gitDir, hashBytes, look) : [];
  if (!modules || !links) {
    programs.add(refusal(links ? "this repository's submodules could not all be listed" : "this repository's index could not be read")); // it cannot know what their config names
    return { programs: [...programs], refused: true, next: [], partial };
  }
  const next: Repository[] = [];
  for (const path of links) {
    const gitDir = submoduleGitDir(join(top!, path), look);
    if (gitDir) next.push({ gitDir, common: commonOf(gitDir, look), top: join(top!, path) });
  }
  for (const gitDir of modules) next.push({ gitDir, common: commonOf(gitDir, look), top: undefined });
  return { programs: [...programs], refused: false, next, partial };
}

/** Told each path a reading looks at, before it reads it (fs/file-stamps.ts look). */
type Look = (path: string) => void;

/** The top of the work tree of a git directory found by its `.git` (its parent) or a linked worktree's (its `gitdir` file); undefined for a bare one. */
function workTreeOf(gitDir: string, look: Look): string | undefined {
  if (basename(gitDir) === ".git") return dirname(gitDir);
  look(join(gitDir, "gitdir"));
  const pointer = readText(join(gitDir, "gitdir"))?.trim();
  return pointer ? dirname(resolve(gitDir, pointer)) : undefined;
}

/** The git directory of the checked-out submodule at `path`: its `.git` directory, or the one its `.git` file names; undefined where it is not checked out. */
function submoduleGitDir(path: string, look: Look): string | undefined {
  const dotGit = join(path, ".git");
  look(dotGit);
  if (isDirectory(dotGit)) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? "")?.[1]?.trim();
  return pointer ? resolve(path, pointer) : undefined;
}

/** A git directory's common directory: itself, or the one its `commondir` names. */
function commonOf(gitDir: string, look: Look): string {
  look(join(gitDir, "commondir"));
  const common = readText(join(gitDir, "commondir"))?.trim();
  return common ? resolve(gitDir, common) : gitDir;
}

/** Small text files (`.git` pointers, `commondir`) read at most this far. */
const POINTER_BYTES = 4096;

function readText(path: string): string | undefined {
  try {
    return new TextDecoder().decode(readHeadBytes(path, POINTER_BYTES).bytes);
  } catch {
    return undefined;
  }
}

/** An index read at most this far: a work tree of several million files. */
const MAX_INDEX_BYTES = 512 << 20;

/**
 * The gitlinks the index of `gitDir` records ([] where there is none), with those of its shared
 * index files (`core.splitIndex`: the index then holds only what changed since); undefined where
 * one cannot be read to its end.
 */
function indexLinks(gitDir: string, hashBytes: number, look: Look): string[] | undefined {
  let shared: string[];
  try {
    shared = readdirSync(gitDir).filter((name) => name.startsWith("sharedindex."));
  } catch {
    return [];
  }
  const links: string[] = [];
  for (const name of ["index", ...shared]) {
    look(join(gitDir, name)); // a new shared index is named by a new index
    try {
      const { bytes, size } = readHeadBytes(join(gitDir, name), MAX_INDEX_BYTES);
      const paths = size > bytes.length ? undefined : gitlinkPaths(bytes, hashBytes);
      if (!paths) return undefined;
      links.push(...paths);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    }
  }
  return [...new Set(links)];
}

/** Directories looked at below the `modules/` folders of one repository, at most, and how deep (a submodule's name may hold slashes). */
const MAX_MODULE_DIRS = 5000;
const MAX_MODULE_DEPTH = 32;

/** The real path of `path`, or undefined where it is gone. */
function realOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `dir` is a git directory: it holds a `HEAD` that is no directory. */
function holdsHead(dir: string): boolean {
  try {
    return !statSync(join(dir, "HEAD")).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The git directories below `<dir>/modules` for each of `dirs` (a directory holding `HEAD` is one;
 * any other is a step of a name with slashes), not their own `modules/`, which their own reading
 * finds. Undefined where there are more than hey looks at. A link that stays inside the git
 * directory is followed, as git follows it, each directory once; one that leads out of it is a
 * module's git directory where it is one and is never walked (`modules/x -> /` is no 5000 reads).
 */
function moduleGitDirs(dirs: string[], look: Look): string[] | undefined {
  const found: string[] = [];
  const roots = dirs.map(realOf).filter((d): d is string => d !== undefined);
  const within = (real: string) => roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep));
  const walked = new Set<string>();
  let looked = 0;
  const visit = (dir: string, depth: number): boolean => {
    if (++looked > MAX_MODULE_DIRS || depth > MAX_MODULE_DEPTH) return false;
    const real = realOf(dir);
    if (real === undefined || walked.has(real)) return (look(dir), true); // none, gone, or read already
    walked.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return (look(dir), true);
    }
    // looked at after the listing: a name added meanwhile makes a recent time, never trusted (fs/file-stamps.ts)
    if (entries.some((e) => e.name === "HEAD" && !e.isDirectory())) {
      look(join(dir, "HEAD")); // not the directory, whose time each write of the submodule's index or config changes
      found.push(dir);
      return true;
    }
    look(dir); // a directory's times change when a name is added to it or taken away
    return entries.every((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return visit(path, depth + 1);
      if (!e.isSymbolicLink()) return true;
      look(path);
      if (!isDirectory(path)) return true;
      const target = realOf(path);
      if (target !== undefined && within(target)) return visit(path, depth + 1);
      if (holdsHead(path)) found.push(path);
      return true;
    });
  };
  for (const dir of new Set(dirs)) if (!visit(join(dir, "modules"), 0)) return undefined;
  return found;
}

/** How long git may take to list a repository's config keys (everyProgram): it runs before the command, which waits. */
const LIST_MS = 5000;

/** How everyProgram runs git: the commands' environment, and the call's abort. */
interface Listing {
  env: Record<string, string | undefined>;
  signal: AbortSignal | undefined;
}

/**
 * Every program key (repositoryProgram's) the config of the repository of `gitDir` may set: those
 * without a subsection name, and each driver's by the names git itself lists from the repository's
 * own files (`git config --list`, includes followed: it reads what hey did not). Asked before each
 * command, never remembered: a file git read past where hey stopped (an include after the oversized
 * one, or one it includes) has no stamp to tell it changed, and a driver added there would run (x127).
 * git older than 2.26 has no `--show-scope`: it is asked again without, and every name it lists is
 * taken, the user's own too, which only makes more harmless. When git does not list them in time or
 * fails, a refusal saying so: git in that command then runs nothing.
 */
async function everyProgram(gitDir: string, how: Listing): Promise<string[]> {
  let answer = await listConfig(gitDir, true, how);
  if (answer.code === USAGE_ERROR) answer = await listConfig(gitDir, false, how);
  if (answer.code !== 0) {
    if (how.signal?.aborted) return [refusal("the command was stopped while git listed this repository's config")];
    if (answer.code === undefined) return [refusal(`git did not list this repository's config within ${LIST_MS / 1000} s`)];
    return [refusal(`git could not list this repository's config (it exited with ${answer.code})`)];
  }
  const drivers: string[] = [];
  for (const name of answer.names) {
    const [section, key] = [name.slice(0, name.indexOf(".")), name.slice(name.lastIndexOf(".") + 1)];
    const sub = name.slice(section.length + 1, -key.length - 1);
    const program = sub === "" ? undefined : repositoryProgram({ section, sub, key });
    if (program) drivers.push(program);
  }
  return [...PROGRAMS_WITHOUT_NAMES, ...drivers];
}

/** git's exit code for an option it does not know (`--show-scope` before 2.26). */
const USAGE_ERROR = 129;

/** The config names git lists for `gitDir`, only the repository's own where `scoped`; code undefined where git was stopped (LIST_MS, the abort) or could not start. */
async function listConfig(gitDir: string, scoped: boolean, how: Listing): Promise<{ code: number | undefined; names: string[] }> {
  const args = scoped ? ["--show-scope", "--name-only", "-z"] : ["-z"]; // unscoped: `name\nvalue`, as git 1.8 writes it
  try {
    const git = Bun.spawn(["git", "config", "--list", "--includes", ...args], {
      cwd: gitDir,
      env: explicitBareRepositories({ ...how.env, GIT_DIR: gitDir }),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: LIST_MS,
      ...(how.signal ? { signal: how.signal } : {}),
    });
    const [out, code] = await Promise.all([new Response(git.stdout).text(), git.exited]);
    if (git.signalCode !== null) return { code: undefined, names: [] };
    const words = out.split("\0");
    if (!scoped) return { code, names: words.map((record) => record.split("\n")[0]!).filter((name) => name !== "") };
    const names: string[] = []; // scope, name, scope, name…
    for (let i = 0; i + 1 < words.length; i += 2) if (words[i] === "local" || words[i] === "worktree") names.push(words[i + 1]!);
    return { code, names };
  } catch {
    return { code: undefined, names: [] };
  }
}

/** The commands' environment, made for each command: `env`, guarded (guardedGit) for the repositories it may run git in while `on()` says so (plan mode, which comes and goes). */
export function guardedWhile(on: () => boolean, env: Record<string, string | undefined>, cwd: string, home: string) {
  return async (command: string, signal?: AbortSignal) => (on() ? guardedGit(env, await repositoryPrograms(cwd, command, home, env, signal)) : env);
}
