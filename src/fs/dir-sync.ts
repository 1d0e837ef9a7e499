// A file's name lives in its directory: after a power cut a file just created, renamed or linked
// may be missing (or have its old content back) though its bytes were fsynced, until the directory
// itself is fsynced too. Once per new name, never per line appended.
import { closeSync, constants, fsyncSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * The one place directories are synced (an object, so a test can watch the calls). `run` fsyncs
 * `dir`; never throws: the write it follows is done, and some file systems refuse a directory's
 * fsync (EINVAL), or the directory went away meanwhile.
 */
export const dirSync = {
  run(dir: string): void {
    // Windows cannot open a directory to fsync it (EISDIR/EPERM); NTFS journals the rename itself
    if (process.platform === "win32") return;
    let fd: number | undefined;
    try {
      fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
      fsyncSync(fd);
    } catch {
      // nothing more to do: the name is made, only its durability across a power cut is unsure
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
};

/**
 * `mkdir -p dir` (`mode` for each directory it makes) whose new names survive a power cut: the
 * parent of every directory made is synced (a session's file synced in a directory whose own name
 * was lost is lost with it). Nothing is synced when `dir` existed. Throws what mkdir throws.
 */
export function makeDirDurable(dir: string, mode: number): void {
  const made = mkdirSync(dir, { recursive: true, mode });
  if (made === undefined) return;
  const first = resolve(made);
  for (let d = resolve(dir); d !== dirname(d); d = dirname(d)) {
    dirSync.run(dirname(d));
    if (d === first) break;
  }
}
