// Whether git ignores a file of the project (a CLAUDE.md import's target, agents-md.ts; a deeper
// directory's AGENTS.md, nested-agents.ts, with the dependency directories): what git
// ignores is this checkout's own state — `.env`, `config/local.json` — which a repository's
// CLAUDE.md must not put in the prompt. Read as git reads it, without running git (a cloned
// repository's config can make git run its programs): the .gitignore files from the repository
// root down, then the repository's `info/exclude` (in a linked worktree's main `.git`, a
// submodule's `.git/modules/NAME`), then the user's global excludes file (the last
// `core.excludesFile` in git's config files and their includes) — the files grep reads too, found
// by fs/ignore-files.ts — with fs/gitignore.ts's rules; a file below an ignored
// directory is ignored too. Outside any repository nothing is.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, sep } from "node:path";
import { compileIgnore, isIgnored, type IgnoreLevel, type IgnoreRules } from "../fs/gitignore.ts";
import { gitExcludeFiles } from "../fs/ignore-files.ts";
import { readHead } from "../fs/read-head.ts";

/** A .gitignore is read up to here: an endless one (a link to a device) cannot stall start-up. */
const IGNORE_FILE_MAX_BYTES = 256 * 1024;

/**
 * Whether git ignores `real` (a real path below `root`, the directory the search starts from; a
 * directory when `isDir`). `env` finds the global excludes file (HOME, XDG_CONFIG_HOME). Never throws.
 */
export function ignoredByGit(real: string, root: string, isDir = false, env: Record<string, string | undefined> = process.env): boolean {
  const names = relative(root, real).split(sep);
  const levels: IgnoreLevel[] = []; // nearest first, `/`-separated paths relative to root
  let top = ""; // the innermost repository's directory so far: the global file's rules are relative to it, as info/exclude's are
  let globalRules: IgnoreRules | undefined; // the innermost repository's
  const global: IgnoreRules = (path, isDirectory) => globalRules?.(top === "" ? path : path.slice(top.length + 1), isDirectory);
  for (let i = 0; i < names.length; i++) {
    const dir = names.slice(0, i).join("/");
    const abs = join(root, ...names.slice(0, i));
    const hasGit = existsSync(join(abs, ".git"));
    const level: IgnoreLevel = { dir, hasGit };
    const rules = rulesOf(join(abs, ".gitignore"));
    if (rules) level.rules = rules;
    const excludes = hasGit ? gitExcludeFiles(abs, env, homedir()) : undefined;
    const exclude = excludes && rulesOf(excludes.repo);
    if (exclude) level.exclude = exclude;
    if (hasGit) top = dir;
    // Where hey cannot tell which excludes file git reads (a config line git cannot read, an include
    // loop, a config over 1 MB or a FIFO: excludesFileOf), every file of the repository is taken as
    // ignored: an import left out costs a warning line, a secret sent to the provider cannot be taken back.
    if (excludes) {
      if (typeof excludes.global !== "string") return true;
      globalRules = rulesOf(excludes.global); // a nested repository's own config may name another
    }
    levels.unshift(level);
    if (isIgnored(levels, names.slice(0, i + 1).join("/"), isDir || i < names.length - 1, global)) return true;
  }
  return false;
}

function rulesOf(path: string): IgnoreRules | undefined {
  try {
    return compileIgnore(readHead(path, IGNORE_FILE_MAX_BYTES).text.split("\n"));
  } catch {
    return undefined; // none, or unreadable: ignores nothing
  }
}

/** Directories that hold other people's packages, by their name, whatever git says of them (a committed `node_modules` too). */
const DEPENDENCY_DIRS = new Set(["node_modules", "bower_components", "jspm_packages", "site-packages", "dist-packages"]);

/**
 * Why the directory `real` (a real path below `root`) holds no file of the user's — "a dependency's"
 * (below node_modules, site-packages…) or "in a directory git ignores" (build output, a virtualenv,
 * vendored code listed in .gitignore) — or undefined when it may. Its AGENTS.md or CLAUDE.md is
 * a package author's, or a generated copy: never the user's instructions. Never throws.
 */
export function notTheProjects(real: string, root: string): string | undefined {
  if (
    relative(root, real)
      .split(sep)
      .some((name) => DEPENDENCY_DIRS.has(name))
  )
    return "a dependency's";
  return ignoredByGit(real, root, true) ? "in a directory git ignores" : undefined;
}
