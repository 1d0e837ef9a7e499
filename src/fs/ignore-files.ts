// The ignore files grep's built-in walk reads (tools/walk.ts), found where ripgrep finds them, so the
// two searches leave out the same files: a directory's `.gitignore`, `.ignore` and `.rgignore`, a
// repository's `.git/info/exclude` (a worktree's in its main `.git`), and git's global excludes file
// — found as git finds it (the last `core.excludesFile` in git's config files and what they include,
// else `$XDG_CONFIG_HOME/git/ignore`), which inside a repository ripgrep is given in place of its own
// simpler reading. Where a repository's exclude file and the global one are is decided here for the
// CLAUDE.md import check too (prompt/git-ignored.ts), so the two agree on what git ignores. Read by
// hey, never by running git (a repository's config can make git run its programs). How they weigh:
// fs/gitignore.ts.
import { readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { gitSettings, readConfigFile } from "./git-config-files.ts";
import { compileIgnore, type IgnoreLevel, type IgnoreRules } from "./gitignore.ts";
import { readHead } from "./read-head.ts";
import { type GitDirs, gitDirsOf } from "./worktree.ts";

/** A repository's HEAD is one line. */
const HEAD_MAX_BYTES = 4096;

const text = (path: string) => readFile(path, "utf8").catch(() => undefined);
const rulesOf = async (path: string): Promise<IgnoreRules | undefined> => {
  const lines = await text(path);
  return lines === undefined ? undefined : compileIgnore(lines.split("\n"));
};
const toSlash = (path: string) => (sep === "/" ? path : path.replaceAll(sep, "/"));
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * The ignore files of `dir`. `has(name)` says whether the directory holds that entry (a walked
 * directory's listing), or is undefined where it is not known (an ancestor: each file is tried).
 * `vcs` false leaves the git ones out (ripgrep's --no-ignore-vcs). Never throws.
 */
export async function ignoreLevel(dir: string, has: (name: string) => boolean | undefined, vcs: boolean): Promise<IgnoreLevel> {
  const read = (name: string) => (has(name) === false ? undefined : rulesOf(join(dir, name)));
  const hasGit = has(".git") ?? (await exists(join(dir, ".git")));
  const hasJj = has(".jj") ?? (await exists(join(dir, ".jj"))); // a repository root to ripgrep 15 too
  const [ignore, rgignore] = await Promise.all([read(".ignore"), read(".rgignore")]);
  const level: IgnoreLevel = { dir: toSlash(dir), hasGit: hasGit || hasJj };
  if (ignore) level.ignore = ignore;
  if (rgignore) level.rgignore = rgignore;
  if (!vcs) return level;
  const rules = await read(".gitignore");
  if (rules) level.rules = rules;
  const exclude = hasGit ? await excludeOf(dir) : undefined;
  if (exclude) level.exclude = exclude;
  return level;
}

/** `info/exclude` of the repository whose `.git` is in `dir`, as ripgrep reads it: a submodule's (a `.git` file naming no commondir) is not read. */
async function excludeOf(dir: string): Promise<IgnoreRules | undefined> {
  const dirs = gitDirsOf(dir);
  return dirs && dirs.kind !== "file" ? rulesOf(join(dirs.commonDir, "info", "exclude")) : undefined;
}

/** The exclude files git reads for one repository, beside its .gitignore files (gitExcludeFiles). */
export interface GitExcludeFiles {
  /** `info/exclude` in its common git directory */
  repo: string;
  /** the user's global excludes file (it may not exist), or why hey cannot tell which it is (excludesFileOf) */
  global: string | { unknown: string };
}

/**
 * The exclude files git reads for the repository whose `.git` is in `dir`, as git finds them: its
 * own `info/exclude` in the common git directory (fs/worktree.ts gitDirsOf: a linked worktree's
 * main `.git`, a submodule's `.git/modules/NAME`), and the global excludes file (excludesFileOf).
 * Undefined when `dir` holds no `.git`. Never throws.
 */
export function gitExcludeFiles(dir: string, env: Record<string, string | undefined>, home: string): GitExcludeFiles | undefined {
  const dirs = gitDirsOf(dir);
  if (!dirs) return undefined;
  return { repo: join(dirs.commonDir, "info", "exclude"), global: excludesFileOf(env, home, dir, { ...dirs, dir }) };
}

/** git's global excludes file for a search (globalExcludes): its rules, and ripgrep's flags to read the same file. */
export interface GlobalExcludes {
  /** matched against absolute real paths; undefined when there is none or hey cannot tell which it is (then grep searches more, not less) */
  rules?: IgnoreRules;
  /**
   * Inside a repository, ripgrep's own reading of git's config (one regex over ~/.gitconfig and
   * $XDG_CONFIG_HOME/git/config: no includes, no path with a space, the first one set) is set aside
   * and it is given this file, which it weighs below the others as it weighs its global file.
   * Outside one ripgrep applies it only in the repositories below, so it is left to its own reading.
   */
  rgArgs: string[];
}

/**
 * The rules of git's global excludes file (excludesFileOf) for a search of `root`, in the repository
 * `root` is in. `env` is the one ripgrep runs with; `home` where HOME is unset. The rules are
 * matched relative to `cwd` (where ripgrep runs: `/scratch` is cwd's scratch) when below it, whole
 * otherwise. Never throws.
 */
export async function globalExcludes(env: Record<string, string | undefined>, home: string, cwd: string, root = cwd): Promise<GlobalExcludes> {
  let repo: (GitDirs & { dir: string }) | undefined;
  let inRepo = false;
  for (let dir = resolve(root); !inRepo; dir = dirname(dir)) {
    inRepo = (await exists(join(dir, ".git"))) || (await exists(join(dir, ".jj"))); // as ignoreLevel finds a repository
    const dirs = inRepo ? gitDirsOf(dir) : undefined;
    if (dirs) repo = { ...dirs, dir };
    if (dirname(dir) === dir) break;
  }
  const file = excludesFileOf(env, home, cwd, repo);
  const rules = typeof file === "string" ? await rulesOf(file) : undefined;
  const rgArgs = !inRepo ? [] : rules && typeof file === "string" ? ["--no-ignore-global", "--ignore-file", file] : ["--no-ignore-global"];
  if (!rules) return { rgArgs };
  const base = toSlash(await realpath(cwd).catch(() => cwd));
  const prefix = base.endsWith("/") ? base : `${base}/`;
  return { rules: (path, isDir) => rules(path.startsWith(prefix) ? path.slice(prefix.length) : path, isDir), rgArgs };
}

/**
 * Where git's global excludes file is for the repository `repo` (whose `.git` is in `repo.dir`), as
 * git finds it: the last `core.excludesFile` in its config files, read in git's order (the system
 * file, `$XDG_CONFIG_HOME/git/config`, `~/.gitconfig`, the repository's config, a worktree's
 * `config.worktree` where `extensions.worktreeConfig` is set, `$GIT_CONFIG_COUNT` settings) with
 * what they include (an `[includeIf]` weighed against `repo`: git-config-syntax.ts), else
 * `$XDG_CONFIG_HOME/git/ignore`. `~/` is below HOME (`home` where it is unset); a relative name is
 * relative to `cwd`. The file may not exist. `unknown` says why hey cannot tell (a config line git
 * cannot read, an include loop, a file over 1 MB, a FIFO, `~user/`): the callers decide what that
 * means for them. Never throws.
 */
export function excludesFileOf(
  env: Record<string, string | undefined>,
  home: string,
  cwd: string,
  repo?: GitDirs & { dir: string },
): string | { unknown: string } {
  const userHome = env.HOME || home;
  // git matches its git directory as found and as a real path; a worktree's or submodule's is the one its `.git` file names
  const gitDirs = !repo ? [] : repo.kind === "directory" ? [...new Set([repo.gitDir, resolve(repo.dir, ".git")])] : [repo.gitDir];
  const head = repo ? smallText(join(repo.gitDir, "HEAD")) : undefined;
  const branch = head && /^ref: refs\/heads\/(.+?)\s*$/m.exec(head)?.[1];
  const repoAt = repo && { gitDir: repo.gitDir, commonDir: repo.commonDir, matchAs: gitDirs };
  const settings = gitSettings(userHome, env, repoAt, readConfigFile, branch);
  if (!Array.isArray(settings)) return { unknown: settings.trouble };
  let named: string | undefined;
  for (const s of settings) if (s.section === "core" && s.sub === undefined && s.key === "excludesfile") named = s.value ?? MISSING;
  for (let i = 0; i < Number(env.GIT_CONFIG_COUNT || 0) && i < 1000; i++)
    if (env[`GIT_CONFIG_KEY_${i}`]?.toLowerCase() === "core.excludesfile") named = env[`GIT_CONFIG_VALUE_${i}`] ?? MISSING;
  if (named === MISSING) return { unknown: "core.excludesFile is set without a value, where git stops" };
  if (named === undefined) return join(env.XDG_CONFIG_HOME || join(userHome, ".config"), "git", "ignore");
  if (named === "~" || named.startsWith("~/")) return join(userHome, named.slice(1));
  if (named.startsWith("~")) return { unknown: `core.excludesFile is ${named}, another user's home` };
  return isAbsolute(named) ? named : resolve(cwd, named);
}

/** `core.excludesFile` written without `=`: git stops there ("missing value"). */
const MISSING = "\0missing";

/** A small file's text (a repository's HEAD); undefined where there is none, or a FIFO or device (which could hang the read). */
function smallText(path: string): string | undefined {
  try {
    return readHead(path, HEAD_MAX_BYTES).text;
  } catch {
    return undefined;
  }
}
