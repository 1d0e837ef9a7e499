// The grep tool's `glob` (SPEC §7): which files it keeps, and how ripgrep is told so that it does not
// read the files the glob leaves out (it is applied to ripgrep's results again in any case). Pure:
// grep.ts passes in how to tell a directory.
//   *.ts, **/*.ts     a file name, at any depth
//   src/**/*.ts       a path: relative to the searched `path` (as `cd path && rg -g` reads it), or
//                     to the project root
//   !*.test.ts        negation: every file but those (or those under a directory it names)
import { basename, join, relative, sep } from "node:path";
import { globToRegExp } from "../fs/gitignore.ts";
import { isWithin } from "../fs/within.ts";

export interface GlobFilter {
  /** whether the file at this absolute path is searched */
  keep(abs: string): boolean;
  /** ripgrep's arguments that leave out (some of) the files keep() refuses */
  rgArgs: string[];
  /** where ripgrep searches: the searched path, or its directories a path glob is limited to */
  rgPaths: string[];
}

/**
 * The filter for `glob` (as globOf in grep-args.ts gives it) over a search of `root` (a directory, or a
 * file in `rootDir`) from the project root `cwd`; undefined when the glob is invalid. `isDir` says
 * whether a path is a directory, never throwing.
 */
export async function globFilter(
  glob: string,
  where: { root: string; rootDir: string; cwd: string },
  isDir: (path: string) => Promise<boolean>,
): Promise<GlobFilter | undefined> {
  const { root, rootDir, cwd } = where;
  const negated = glob.startsWith("!");
  // `**/NAME` is NAME at any depth: a file-name glob, which ripgrep can take as a file type
  const body = (negated ? glob.slice(1) : glob).replace(/^(\*\*\/)+(?=[^/]+$)/, "");
  const re = body === "" ? undefined : globToRegExp(body);
  if (!re) return undefined;
  const isPath = body.includes("/");
  const relatives = (abs: string) => [relative(rootDir, abs), relative(cwd, abs)].map((p) => (sep === "/" ? p : p.replaceAll(sep, "/")));
  // a negated path glob also leaves out what is under a directory it names (`!src/gen`), as in ripgrep
  const ancestors = (path: string) => path.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"));
  const hit = (abs: string) => (isPath ? relatives(abs).some((p) => (negated ? ancestors(p) : [p]).some((q) => re.test(q))) : re.test(basename(abs)));
  const keep = (abs: string) => hit(abs) !== negated;
  if (negated) return { keep, rgArgs: ["--glob", `!${body}`], rgPaths: [root] };
  // a positive --glob would make ripgrep search .gitignored files it matches: a file-name glob goes as a file type
  const name = isPath ? /^((?:[^*?[\]{}\\/]+\/)+)\*\*\/([^/]+)$/.exec(body) : [body, "", body];
  if (!name || !/^[\w.*-]*(?:\{[\w.*,-]*\}[\w.*-]*)?$/.test(name[2]!)) return { keep, rgArgs: [], rgPaths: [root] };
  const type = ["--type-add", `hey:${name[2]}`, "--type", "hey"];
  if (!isPath || root !== rootDir) return { keep, rgArgs: type, rgPaths: [root] };
  // `src/**/*.ts`: only the directories it can match are searched, below the searched path and below the project root
  const dirs = [join(rootDir, name[1]!), join(cwd, name[1]!)].filter((d, i, all) => all.indexOf(d) === i && isWithin(d, rootDir));
  const found: string[] = [];
  for (const d of dirs) if (await isDir(d)) found.push(d);
  const outer = found.filter((d) => !found.some((o) => o !== d && isWithin(d, o))); // a directory inside another is searched once
  return { keep, rgArgs: type, rgPaths: outer.length > 0 ? outer : [root] };
}
