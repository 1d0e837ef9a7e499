// Paths as a user (or the model) writes them (SPEC §2, §7): `~` and `~/…` are the home directory,
// as in a shell; a relative path is under the project. One function for the file tools and `@file`.
// On Windows `~\…` is the home too, as PowerShell reads it.
import * as nodePath from "node:path";

/** The path functions of a platform: node:path here, path.win32 or path.posix in tests. */
export type PlatformPath = typeof nodePath.win32;

/**
 * The absolute path `path` names, or why it names none. A leading `~` or `~/` (on Windows also
 * `~\`) is `home`; any other `~name` (a shell's "home of user name") is refused rather than taken
 * as a directory literally called `~name` in the project (`./~name` says that when it is meant).
 * `p`: the platform's path functions (path.win32 in tests of Windows inputs).
 */
export function resolveUserPath(path: string, cwd: string, home: string, p: PlatformPath = nodePath): { abs: string } | { error: string } {
  const seps = p.sep === "\\" ? /[\\/]/ : /\//;
  if (path === "~" || (path.startsWith("~") && seps.test(path[1]!))) return { abs: p.resolve(home, path.slice(2)) };
  if (path.startsWith("~")) {
    const name = path.split(seps, 1)[0]!;
    return { error: `${path}: "${name}" paths (another user's home) are not supported; give the full path, or .${p.sep}${path} for a file in the project` };
  }
  return { abs: p.isAbsolute(path) ? path : p.resolve(cwd, path) };
}

/**
 * Why `path` cannot name a file, or undefined: it ends with a separator (`/`; on Windows `\\`
 * too), which names a directory. The file tools refuse it rather than resolve it away, as a
 * shell does (`cat file.txt/` is "Not a directory"), so `x/` never writes or edits the file `x`.
 */
export function directorySpelling(path: string, p: PlatformPath = nodePath): string | undefined {
  const last = path.at(-1);
  if (last !== "/" && !(p.sep === "\\" && last === "\\")) return undefined;
  return `${path} ends with "${last}", which names a directory; give the file's path`;
}

/** The file a tool call's `path` names, for running calls on one file in order: resolveUserPath's, or `path` under `cwd` when that names none (the tool itself refuses it). */
export function callPath(path: string, cwd: string, home: string): string {
  const where = resolveUserPath(path, cwd, home);
  return "abs" in where ? where.abs : nodePath.resolve(cwd, path);
}
