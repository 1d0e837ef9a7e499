// The built-in directory walk behind grep when ripgrep is not installed. It leaves in exactly the
// files `rg --hidden` with ripgrep's default ignore handling would search (see grep-search.ts for
// the flags that make the two agree); which ignore files count is fs/ignore-files.ts, how their
// rules match and weigh fs/gitignore.ts.
import { readdir, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { isIgnored, type IgnoreLevel, type IgnoreRules } from "../fs/gitignore.ts";
import { ignoreLevel } from "../fs/ignore-files.ts";
import { diskPath, showNames } from "../fs/dir-names.ts";
import { kernelDirsIn } from "./kernel-dirs.ts";

/**
 * Names never searched, even without a .gitignore: version-control data and dependency or cache
 * trees, which are huge and never the project's own source. Matched against every entry's name
 * below the search root (the root itself may be one of them).
 */
export const ALWAYS_SKIP: readonly string[] = [
  ".git",
  ".hg",
  ".svn",
  ".jj",
  "node_modules",
  "__pycache__",
  ".venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".next",
];

const toSlash = (path: string) => (sep === "/" ? path : path.replaceAll(sep, "/"));

/**
 * The files below directory `root` that a search should read, in path order (a directory's
 * entries sorted by name, depth first). Skips ALWAYS_SKIP names, symlinks, special files and what
 * the ignore files of the walked directories and of root's ancestors ignore (`.gitignore` up to the
 * repository root, `.ignore`, `.rgignore`, `.git/info/exclude`) and the global excludes file
 * (`scope.global`), as fs/gitignore.ts `isIgnored` weighs them. Unreadable directories are
 * skipped, each passed to `unreadable` with its error. Stops when `signal` aborts. Never throws.
 */
export async function* walkFiles(
  root: string,
  signal: AbortSignal,
  unreadable: (dir: string, error: unknown) => void = () => {},
  scope: Scope = { skip: ALWAYS_SKIP, gitignore: true },
): AsyncGenerator<string> {
  // Ancestors are found from the real path (as ripgrep does); entries are matched in the same
  // coordinates but reported under `root` as given.
  const realRoot = await realpath(root).catch(() => root);
  const away = new Set(await kernelDirsIn(root, realRoot));
  yield* visit(root, toSlash(realRoot), await levelsAbove(realRoot, scope), signal, unreadable, { ...scope, away });
}

/** The ignore files of the directories above `realRoot`, nearest first. */
async function levelsAbove(realRoot: string, scope: Scope): Promise<IgnoreLevel[]> {
  const above: IgnoreLevel[] = [];
  for (let dir = dirname(realRoot); ; dir = dirname(dir)) {
    above.push(await ignoreLevel(dir, () => undefined, scope.gitignore));
    if (dirname(dir) === dir) return above;
  }
}

/** Skipped names not worth searching even by name: version-control data and bytecode caches. */
const NOT_SEARCHED_BY_NAME = [".git", ".hg", ".svn", ".jj", "__pycache__", ".mypy_cache", ".pytest_cache"];

/** How deep below the searched path left-out folders are looked for: a workspace's `packages/NAME/node_modules` is 3 down, `packages/@scope/NAME/dist` 4. */
const LEFT_OUT_DEPTH = 4;
/** Directories listed at most in that look: the first levels of a big tree (or of `/`) cost a fraction of a second, not a walk. */
const LEFT_OUT_LISTINGS = 2000;

/**
 * The directories below `root` that a walk of it leaves out (node_modules, a .gitignored build/,
 * each package's own node_modules and dist in a workspace), as `/`-separated paths relative to
 * root, sorted: what grep names when nothing matched, since a search for a library's code finds
 * nothing in the project's own. Looks LEFT_OUT_DEPTH levels down, level by level, listing at most
 * LEFT_OUT_LISTINGS directories, never into one the walk leaves out. Never throws.
 */
export async function leftOutDirs(root: string, scope: Scope): Promise<string[]> {
  const realRoot = await realpath(root).catch(() => root);
  const away = new Set(await kernelDirsIn(root, realRoot));
  const out: string[] = [];
  let level: { dir: string; matchDir: string; rel: string; above: IgnoreLevel[] }[] = [
    { dir: root, matchDir: toSlash(realRoot), rel: "", above: await levelsAbove(realRoot, scope) },
  ];
  let listings = 0;
  for (let depth = 1; depth <= LEFT_OUT_DEPTH && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { dir, matchDir, rel, above } of level) {
      if (++listings > LEFT_OUT_LISTINGS) break;
      const entries = await readdir(diskPath(dir), { withFileTypes: true }).catch(() => []);
      const renaming = showNames(dir, entries);
      if (renaming) await renaming;
      const names = new Set(entries.map((e) => e.name));
      const levels = [{ ...(await ignoreLevel(dir, (name) => names.has(name), scope.gitignore)), dir: matchDir }, ...above];
      const prefix = matchDir.endsWith("/") ? matchDir : `${matchDir}/`;
      for (const e of entries) {
        if (!e.isDirectory() || NOT_SEARCHED_BY_NAME.includes(e.name) || away.has(join(dir, e.name))) continue;
        const path = rel === "" ? e.name : `${rel}/${e.name}`;
        if (scope.skip.includes(e.name) || isIgnored(levels, prefix + e.name, true, scope.global)) out.push(path);
        else next.push({ dir: join(dir, e.name), matchDir: prefix + e.name, rel: path, above: levels });
      }
    }
    level = next;
  }
  return out.sort();
}

/** What a walk leaves out: names skipped wherever they are, and what ignore files say. */
export interface Scope {
  skip: readonly string[];
  /** whether git's ignore files count (.gitignore, .git/info/exclude, `global`); `.ignore` and `.rgignore` always do */
  gitignore: boolean;
  /** git's global excludes file (fs/ignore-files.ts globalExcludes), given absolute real paths */
  global?: IgnoreRules;
  /** directories never entered, as the walk names them (walkFiles sets it: kernelDirsIn) */
  away?: ReadonlySet<string>;
}

/**
 * The walk's scope for a search of `root`: inside a dependency tree (`node_modules/.pnpm/…`) the
 * node_modules below are searched too (pnpm keeps every package in one), and the project's
 * .gitignore, which leaves the whole tree out, does not count there. Only the part of `root` below
 * `base` (hey's working directory) counts: a project that itself lives in a node_modules (a package
 * developed where it is installed) is searched as any project is.
 */
export function scopeOf(root: string, base: string): Scope {
  const below = relative(base, root);
  const named = below.startsWith("..") || isAbsolute(below) ? root : below;
  if (!named.split(/[\\/]/).includes("node_modules")) return { skip: ALWAYS_SKIP, gitignore: true };
  return { skip: ALWAYS_SKIP.filter((n) => n !== "node_modules"), gitignore: false };
}

async function* visit(
  dir: string,
  matchDir: string,
  above: IgnoreLevel[],
  signal: AbortSignal,
  unreadable: (dir: string, error: unknown) => void,
  scope: Scope,
): AsyncGenerator<string> {
  if (signal.aborted) return;
  const entries = await readdir(diskPath(dir), { withFileTypes: true }).catch((e: unknown) => {
    unreadable(dir, e);
    return [];
  });
  const renaming = showNames(dir, entries); // a name not UTF-8 or with a control character, as hey writes it
  if (renaming) await renaming;
  const names = new Set(entries.map((e) => e.name));
  const here = await ignoreLevel(dir, (name) => names.has(name), scope.gitignore);
  const levels = [{ ...here, dir: matchDir }, ...above]; // read where it is, matched in the real path's coordinates
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (signal.aborted) return;
    if (scope.skip.includes(entry.name) || entry.isSymbolicLink()) continue;
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    const matchPath = (matchDir.endsWith("/") ? matchDir : matchDir + "/") + entry.name;
    if (isIgnored(levels, matchPath, isDir, scope.global)) continue;
    if (isDir && scope.away?.has(join(dir, entry.name))) continue;
    if (isDir) yield* visit(join(dir, entry.name), matchPath, levels, signal, unreadable, scope);
    else yield join(dir, entry.name);
  }
}
