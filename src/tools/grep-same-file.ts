// Whether a file grep matched is still that file when its lines are read. The count (pass 1 of
// grep-ripgrep.ts) walks the tree and never follows a link; the lines are read by giving ripgrep
// the paths by name, and ripgrep follows a link given by name. A file swapped for a link between
// the two (by a background command, a watcher) would have its target's lines shown, past the deny
// rules, which judge a file by its folder (permission/file-paths.ts refusedFiles).
import { lstat, realpath, stat } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { diskPath } from "../fs/dir-names.ts";
import { bytesPath } from "../fs/odd-names.ts";

/** What a path is on disk: undefined when it is no regular file reached without a link below `under`. */
export async function fileIdentity(abs: string, under: string[]): Promise<string | undefined> {
  try {
    const top = under.filter((p) => abs === p || abs.startsWith(p.endsWith(sep) ? p : p + sep)).sort((a, b) => b.length - a.length)[0];
    if (top === undefined) return undefined;
    // the path searched may itself be a link (it was checked as named); a file found below it may not
    const disk = diskPath(abs); // a name shown with escapes (a line break in it) is read by its bytes
    const info = abs === top ? await stat(disk) : await lstat(disk);
    if (!info.isFile()) return undefined;
    // a folder on the way swapped for a link leads somewhere else: the real path must be the one
    // the searched path leads to, with the rest of the name as written
    const real = await realpath(disk, { encoding: "buffer" });
    // read as diskPath read it: a name as written when a file has it (`back\new.txt`), else its bytes
    const leads = resolve(await realpath(top), relative(top, abs));
    const expected = Buffer.from(disk === abs ? leads : bytesPath(leads));
    if (!samePath(real, expected)) return undefined;
    return `${info.dev}:${info.ino}:${real.toString("hex")}`;
  } catch {
    return undefined;
  }
}

// Windows compares names without case
const samePath = (a: Buffer, b: Buffer) => (process.platform === "win32" ? a.toString().toLowerCase() === b.toString().toLowerCase() : a.equals(b));
