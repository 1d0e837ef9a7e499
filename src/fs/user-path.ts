// Paths as a user (or the model) writes them (SPEC §2, §7): `~` and `~/…` are the home directory,
// as in a shell; a relative path is under the project. One function for the file tools and `@file`.
import { isAbsolute, resolve } from "node:path";

/**
 * The absolute path `path` names, or why it names none. A leading `~` or `~/` is `home`; any other
 * `~name` (a shell's "home of user name") is refused rather than taken as a directory literally
 * called `~name` in the project (`./~name` says that when it is meant).
 */
export function resolveUserPath(path: string, cwd: string, home: string): { abs: string } | { error: string } {
  if (path === "~" || path.startsWith("~/")) return { abs: resolve(home, path.slice(2)) };
  if (path.startsWith("~")) {
    const name = path.split("/", 1)[0]!;
    return { error: `${path}: "${name}" paths (another user's home) are not supported; give the full path, or ./${path} for a file in the project` };
  }
  return { abs: isAbsolute(path) ? path : resolve(cwd, path) };
}
