// What projectRoot (places.ts) looks at, on the real file system: main.ts finds the launch
// directory's project with it, the session listings (sessions/scope.ts) the project of each
// directory a session was started in; and the case a directory's name has on disk (storedCase).
import { realpathSync, statSync } from "node:fs";
import { projectRoot, type RootProbe } from "./places.ts";

/** A directory hey may not look into holds no project. */
export const rootProbe: RootProbe = {
  isDir: (path) => kind(path)?.isDirectory() === true,
  exists: (path) => kind(path) !== undefined,
};

/** The project root `dir` would have were hey launched there (a directory since removed: its nearest project above). */
export const projectOf =
  (home: string) =>
  (dir: string): string =>
    projectRoot(dir, home, rootProbe);

/**
 * `dir` spelled in the case the file system keeps, on Windows (its file systems ignore case, and
 * `cd C:\USERS\ANN` leaves that case in the working directory: hey's sessions, trust and other
 * records kept by directory took it for another directory). Only the case: a mapped drive, a subst
 * drive or a junction is kept as named (realpathSync.native would name what it stands for).
 * Elsewhere, and when `dir` cannot be resolved, `dir` itself. Never throws.
 */
export function storedCase(dir: string, platform: string = process.platform): string {
  if (platform !== "win32") return dir;
  try {
    const stored = realpathSync.native(dir);
    return stored.toLowerCase() === dir.toLowerCase() ? stored : dir;
  } catch {
    return dir;
  }
}

function kind(path: string) {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
