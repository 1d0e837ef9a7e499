// The folders write_file made for a new file, which `/undo` removes with the turn (x84; checkpoints.ts).
import { lstat, rmdir } from "node:fs/promises";
import { dirname } from "node:path";
import { diskPath } from "../fs/dir-names.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

/** The folders above `path` that are not there, deepest first: those writing `path` would make. Never throws. */
export async function missingFolders(path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const there = await lstat(diskPath(dir)).then(
      () => true,
      (e: unknown) => errnoCode(e) !== "ENOENT", // unreadable: there, for all this can tell
    );
    if (there) break;
    missing.push(dir);
  }
  return missing;
}

/**
 * The folders a turn made, removed deepest first once its files are undone: one that holds
 * anything (a file left because it changed, one the user or a command put there) stays, without a
 * word, as does one already gone or replaced; one that cannot be removed for another reason is named
 * in `skipped` (the report's).
 */
export async function removeFolders(folders: Set<string>, skipped: { path: string; why: string }[]): Promise<void> {
  const deepestFirst = [...folders].sort((a, b) => b.length - a.length); // a folder's path is longer than any above it
  for (const folder of deepestFirst)
    await rmdir(diskPath(folder)).catch((e: unknown) => {
      const code = errnoCode(e);
      // not empty, gone, or no folder now (a file or link put in its place): not the turn's to remove
      if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOENT" || code === "ENOTDIR") return;
      skipped.push({ path: folder, why: `cannot remove this folder, which that turn made: ${errorText(e)}` });
    });
}
