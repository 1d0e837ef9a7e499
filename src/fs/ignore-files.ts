// The ignore files grep's built-in walk reads (tools/walk.ts), found where ripgrep finds them, so the
// two searches leave out the same files: a directory's `.gitignore`, `.ignore` and `.rgignore`, a
// repository's `.git/info/exclude` (a worktree's in its main `.git`), and git's global excludes file
// (`core.excludesFile` in `~/.gitconfig` or `$XDG_CONFIG_HOME/git/config`, else
// `$XDG_CONFIG_HOME/git/ignore`). Where a repository's exclude file and the global one are is
// decided here for the CLAUDE.md import check too (prompt/git-ignored.ts), so the two agree on what
// git ignores. Read by hey, never by running git. How they weigh: fs/gitignore.ts.
import { readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, resolve, sep } from "node:path";
import { compileIgnore, type IgnoreLevel, type IgnoreRules } from "./gitignore.ts";
import { readHead } from "./read-head.ts";
import { gitDirsOf } from "./worktree.ts";

/** A git config file is read up to here to find core.excludesFile: a huge or endless one cannot stall a search or start-up. */
const GITCONFIG_MAX_BYTES = 1 << 20;

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
  /** the user's global excludes file (it may not exist) */
  global: string;
}

/**
 * The exclude files git reads for the repository whose `.git` is in `dir`, as git finds them: its
 * own `info/exclude` in the common git directory (fs/worktree.ts gitDirsOf: a linked worktree's
 * main `.git`, a submodule's `.git/modules/NAME`), and the global excludes file — named by
 * `core.excludesFile` in the repository's config, which git reads after the global ones, else as
 * globalExcludesFile finds it. Undefined when `dir` holds no `.git`. Never throws.
 */
export function gitExcludeFiles(dir: string, env: Record<string, string | undefined>, home: string): GitExcludeFiles | undefined {
  const dirs = gitDirsOf(dir);
  if (!dirs) return undefined;
  return { repo: join(dirs.commonDir, "info", "exclude"), global: globalExcludesFile(env, home, dir, [join(dirs.commonDir, "config")]) };
}

/**
 * The rules of git's global excludes file (globalExcludesFile). `env` is the one ripgrep runs with;
 * `home` where HOME is unset. They are matched against an absolute real path, relative to `cwd`
 * (where ripgrep runs: `/scratch` is cwd's scratch) when below it, whole otherwise. Undefined when
 * there is none. Never throws.
 */
export async function globalExcludes(env: Record<string, string | undefined>, home: string, cwd: string): Promise<IgnoreRules | undefined> {
  const rules = await rulesOf(globalExcludesFile(env, home, cwd));
  if (!rules) return undefined;
  const base = toSlash(await realpath(cwd).catch(() => cwd));
  const prefix = base.endsWith("/") ? base : `${base}/`;
  return (path, isDir) => rules(path.startsWith(prefix) ? path.slice(prefix.length) : path, isDir);
}

/**
 * Where git's global excludes file is, as git and ripgrep find it: `core.excludesFile` from
 * `~/.gitconfig`, else from `$XDG_CONFIG_HOME/git/config` (`~/.config` when unset), else
 * `$XDG_CONFIG_HOME/git/ignore`; a relative name is relative to `cwd`. `home` where HOME is unset;
 * `first`, config files that outrank those (a repository's). The file may not exist. Never throws.
 */
export function globalExcludesFile(env: Record<string, string | undefined>, home: string, cwd: string, first: string[] = []): string {
  const userHome = env.HOME || home;
  const config = env.XDG_CONFIG_HOME || join(userHome, ".config");
  for (const gitconfig of [...first, join(userHome, ".gitconfig"), join(config, "git", "config")]) {
    const named = excludesFileOf(smallText(gitconfig) ?? "");
    if (named) return named.startsWith("~/") ? join(userHome, named.slice(2)) : isAbsolute(named) ? named : resolve(cwd, named);
  }
  return join(config, "git", "ignore");
}

/** A config file's text, at most GITCONFIG_MAX_BYTES; undefined where there is none, or a FIFO or device (which could hang the read). */
function smallText(path: string): string | undefined {
  try {
    return readHead(path, GITCONFIG_MAX_BYTES).text;
  } catch {
    return undefined;
  }
}

/** `excludesFile = PATH` from a git config file's text (any case, quotes dropped), as ripgrep reads it; undefined when unset. */
function excludesFileOf(config: string): string | undefined {
  return /^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$/im.exec(config)?.[1];
}
