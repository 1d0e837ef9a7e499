// The ignore files grep's built-in walk reads (tools/walk.ts), found where ripgrep finds them, so the
// two searches leave out the same files: a directory's `.gitignore`, `.ignore` and `.rgignore`, a
// repository's `.git/info/exclude` (a worktree's in its main `.git`), and git's global excludes file
// (`core.excludesFile` in `~/.gitconfig` or `$XDG_CONFIG_HOME/git/config`, else
// `$XDG_CONFIG_HOME/git/ignore`). Read by hey, never by running git. How they weigh: fs/gitignore.ts.
import { readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, resolve, sep } from "node:path";
import { compileIgnore, type IgnoreLevel, type IgnoreRules } from "./gitignore.ts";

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

/**
 * `info/exclude` of the repository whose `.git` is in `dir`: in `.git` itself, or for a worktree
 * (`.git` a file, `gitdir: …`) in the directory its `commondir` names, as ripgrep reads it (a `.git`
 * file without a commondir, a submodule's, has none).
 */
async function excludeOf(dir: string): Promise<IgnoreRules | undefined> {
  const dotGit = join(dir, ".git");
  const pointer = await text(dotGit);
  if (pointer === undefined) return rulesOf(join(dotGit, "info", "exclude"));
  const gitDir = /^gitdir: (.+)/.exec(pointer)?.[1]?.trim();
  const common = gitDir && (await text(join(resolve(dir, gitDir), "commondir")))?.split("\n")[0]?.trim();
  return common ? rulesOf(join(resolve(dir, gitDir), common, "info", "exclude")) : undefined;
}

/**
 * The rules of git's global excludes file as ripgrep finds it: `core.excludesFile` from
 * `~/.gitconfig`, else from `$XDG_CONFIG_HOME/git/config` (`~/.config` when unset), else
 * `$XDG_CONFIG_HOME/git/ignore`. `env` is the one ripgrep runs with; `home` where HOME is unset.
 * They are matched against an absolute real path, relative to `cwd` (where ripgrep runs: `/scratch`
 * is cwd's scratch) when below it, whole otherwise. Undefined when there is none. Never throws.
 */
export async function globalExcludes(env: Record<string, string | undefined>, home: string, cwd: string): Promise<IgnoreRules | undefined> {
  const userHome = env.HOME || home;
  const config = env.XDG_CONFIG_HOME || join(userHome, ".config");
  let file = join(config, "git", "ignore");
  for (const gitconfig of [join(userHome, ".gitconfig"), join(config, "git", "config")]) {
    const named = excludesFileOf((await text(gitconfig)) ?? "");
    if (!named) continue;
    file = named.startsWith("~/") ? join(userHome, named.slice(2)) : isAbsolute(named) ? named : resolve(cwd, named);
    break;
  }
  const rules = await rulesOf(file);
  if (!rules) return undefined;
  const base = toSlash(await realpath(cwd).catch(() => cwd));
  const prefix = base.endsWith("/") ? base : `${base}/`;
  return (path, isDir) => rules(path.startsWith(prefix) ? path.slice(prefix.length) : path, isDir);
}

/** `excludesFile = PATH` from a git config file's text (any case, quotes dropped), as ripgrep reads it; undefined when unset. */
function excludesFileOf(config: string): string | undefined {
  return /^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$/im.exec(config)?.[1];
}
