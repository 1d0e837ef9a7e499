// The programs the repositories a command may run git in name in their own config (x67): a
// textconv driver, a diff driver's command, `diff.external`, a filter's clean, smudge or process
// command (permission/git-env.ts repositoryProgram), which plan mode and `/diff` make harmless. The
// repositories are the one git finds from the working directory and from each directory the
// command's words name (`cd ../other`, `git -C /src/x`, `--git-dir=…`): a path hidden in a
// variable or a command's output is not seen. A bare repository is found only by `.git` or
// GIT_DIR, as under `safe.bareRepository = explicit`. Read without a deadline; never throws.
import { type Dirent, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { explicitBareRepositories, guardedGit, PROGRAMS_WITHOUT_NAMES, REFUSED, repositoryProgram } from "../permission/git-env.ts";
import { gitDirs, readConfigFile, walkGitConfig } from "./git-config-files.ts";
import { gitlinkPaths } from "./git-index-links.ts";
import { readHeadBytes } from "./read-head.ts";

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
export function repositoryPrograms(cwd: string, command: string, home: string, env: Record<string, string | undefined>): string[] {
  const named = pathWords(command).map((w) => (w === "~" ? home : w.startsWith("~/") ? join(home, w.slice(2)) : resolve(cwd, w)));
  const dirs = [...new Set([cwd, ...named.filter(isDirectory)])];
  const found = new Set<string>();
  const seen = new Set<string>();
  for (const dir of dirs) {
    try {
      const [gitDir, common] = gitDirs(dir, env);
      if (gitDir) readRepositories({ gitDir, common: common ?? gitDir, top: env.GIT_DIR ? dir : undefined }, home, env, found, seen);
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
 * submodules cannot all be found (an index hey cannot read, too many), REFUSED.
 */
function readRepositories(first: Repository, home: string, env: Record<string, string | undefined>, found: Set<string>, seen: Set<string>): void {
  const queue = [first];
  for (let repo = queue.shift(); repo; repo = queue.shift()) {
    if (seen.has(repo.gitDir)) continue;
    seen.add(repo.gitDir);
    if (seen.size > MAX_REPOSITORIES) {
      found.add(REFUSED);
      return;
    }
    let worktree: string | undefined;
    let hashBytes = 20;
    const stop = walkGitConfig(
      [join(repo.common, "config"), join(repo.gitDir, "config.worktree")],
      readConfigFile,
      () => true,
      home,
      (setting) => {
        const key = repositoryProgram(setting);
        if (key) found.add(key);
        if (setting.section === "core" && setting.sub === undefined && setting.key === "worktree") worktree = setting.value;
        if (setting.section === "extensions" && setting.key === "objectformat") hashBytes = setting.value?.toLowerCase() === "sha256" ? 32 : 20;
        return false;
      },
    );
    // hey stopped reading where git reads on (an include over 1 MB, over 200 files): what comes
    // after may set any program, so every one is made harmless, the drivers by the names git lists
    if (stop && stop !== "found" && !stop.gitStops) for (const key of everyProgram(repo.gitDir, env)) found.add(key);
    const top = worktree ? resolve(repo.gitDir, worktree) : (repo.top ?? workTreeOf(repo.gitDir));
    const modules = moduleGitDirs([repo.gitDir, repo.common]);
    const links = top ? indexLinks(repo.gitDir, hashBytes) : [];
    if (!modules || !links) {
      found.add(REFUSED); // submodules hey cannot list: it cannot know what their config names
      return;
    }
    for (const path of links) {
      const gitDir = submoduleGitDir(join(top!, path));
      if (gitDir) queue.push({ gitDir, common: commonOf(gitDir), top: join(top!, path) });
    }
    for (const gitDir of modules) queue.push({ gitDir, common: commonOf(gitDir), top: undefined });
  }
}

/** The top of the work tree of a git directory found by its `.git` (its parent) or a linked worktree's (its `gitdir` file); undefined for a bare one. */
function workTreeOf(gitDir: string): string | undefined {
  if (basename(gitDir) === ".git") return dirname(gitDir);
  const pointer = readText(join(gitDir, "gitdir"))?.trim();
  return pointer ? dirname(resolve(gitDir, pointer)) : undefined;
}

/** The git directory of the checked-out submodule at `path`: its `.git` directory, or the one its `.git` file names; undefined where it is not checked out. */
function submoduleGitDir(path: string): string | undefined {
  const dotGit = join(path, ".git");
  if (isDirectory(dotGit)) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? "")?.[1]?.trim();
  return pointer ? resolve(path, pointer) : undefined;
}

/** A git directory's common directory: itself, or the one its `commondir` names. */
function commonOf(gitDir: string): string {
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
function indexLinks(gitDir: string, hashBytes: number): string[] | undefined {
  let shared: string[];
  try {
    shared = readdirSync(gitDir).filter((name) => name.startsWith("sharedindex."));
  } catch {
    return [];
  }
  const links: string[] = [];
  for (const name of ["index", ...shared]) {
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

/**
 * The git directories below `<dir>/modules` for each of `dirs` (a directory holding `HEAD` is one;
 * any other is a step of a name with slashes), not their own `modules/`, which their own reading
 * finds. Undefined where there are more than hey looks at.
 */
function moduleGitDirs(dirs: string[]): string[] | undefined {
  const found: string[] = [];
  let looked = 0;
  const visit = (dir: string, depth: number): boolean => {
    if (++looked > MAX_MODULE_DIRS || depth > MAX_MODULE_DEPTH) return false;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return true; // none, or gone
    }
    if (entries.some((e) => e.name === "HEAD" && !e.isDirectory())) {
      found.push(dir);
      return true;
    }
    // a link to a directory is followed, as git follows it; MAX_MODULE_DIRS ends a loop of them
    const into = (e: Dirent) => e.isDirectory() || (e.isSymbolicLink() && isDirectory(join(dir, e.name)));
    return entries.every((e) => !into(e) || visit(join(dir, e.name), depth + 1));
  };
  for (const dir of new Set(dirs)) if (!visit(join(dir, "modules"), 0)) return undefined;
  return found;
}

/** How long git may take to list a repository's config keys (everyProgram): it runs before the command, which waits. */
const LIST_MS = 5000;

/**
 * Every program key (repositoryProgram's) the config of the repository of `dir` may set: those
 * without a subsection name, and each driver's by the names git itself lists from the repository's
 * own files (`git config --list`, includes followed: it reads what hey did not). When git does not
 * list them in time or fails, REFUSED: git in that command then runs nothing at all.
 */
function everyProgram(gitDir: string, env: Record<string, string | undefined>): string[] {
  const listed = Bun.spawnSync(["git", "config", "--list", "--includes", "--show-scope", "--name-only", "-z"], {
    cwd: gitDir,
    env: explicitBareRepositories({ ...env, GIT_DIR: gitDir }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
    timeout: LIST_MS,
  });
  if (listed.exitCode !== 0) return [REFUSED];
  const words = listed.stdout.toString().split("\0"); // scope, name, scope, name…
  const drivers: string[] = [];
  for (let i = 0; i + 1 < words.length; i += 2) {
    if (words[i] !== "local" && words[i] !== "worktree") continue;
    const name = words[i + 1]!;
    const [section, key] = [name.slice(0, name.indexOf(".")), name.slice(name.lastIndexOf(".") + 1)];
    const sub = name.slice(section.length + 1, -key.length - 1);
    const program = sub === "" ? undefined : repositoryProgram({ section, sub, key });
    if (program) drivers.push(program);
  }
  return [...PROGRAMS_WITHOUT_NAMES, ...drivers];
}

/** The commands' environment, made for each command: `env`, guarded (guardedGit) for the repositories it may run git in while `on()` says so (plan mode, which comes and goes). */
export function guardedWhile(on: () => boolean, env: Record<string, string | undefined>, cwd: string, home: string) {
  return (command: string) => (on() ? guardedGit(env, repositoryPrograms(cwd, command, home, env)) : env);
}
