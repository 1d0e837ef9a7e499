// Where Tab lists from for the `@path` being typed. A path is typed as the user's shell spells it:
// on Windows `\` separates as `/` does (`@src\cr`, `@C:\proj\`, `@Z:/work/`, PowerShell's and
// Explorer's spelling), elsewhere it is a character of a name. Pure.
import { join } from "node:path";
import type { PlatformPath } from "../fs/user-path.ts";

/**
 * The directory part of `partial`, as typed: through its last separator (or a drive, `C:`), which
 * every candidate starts with, so the user's separators stay. `at`: the directory to list, as typed
 * when absolute (`/etc/`, `C:\proj\`, `\work\`), else under `cwd`. `sep`: what ends a listed
 * directory, the separator typed last (`/` when none was). `p` is the platform's path module.
 */
export function typedDir(partial: string, cwd: string, p: PlatformPath): { dir: string; at: string; sep: string } {
  const windows = p.sep === "\\";
  const last = windows ? Math.max(partial.lastIndexOf("/"), partial.lastIndexOf("\\")) : partial.lastIndexOf("/");
  const drive = windows && /^[A-Za-z]:/.test(partial) ? 2 : 0;
  const dir = partial.slice(0, Math.max(last + 1, drive));
  const sep = last === -1 ? "/" : partial[last]!;
  if (p.isAbsolute(dir) || drive > 0) return { dir, at: dir, sep };
  // this machine's join: on Windows it takes either separator; a test of Windows' spelling runs elsewhere
  return { dir, at: join(cwd, windows ? dir.replaceAll("\\", "/") : dir), sep };
}
