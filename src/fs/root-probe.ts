// What projectRoot (places.ts) looks at, on the real file system: main.ts finds the launch
// directory's project with it, the session listings (sessions/scope.ts) the project of each
// directory a session was started in.
import { statSync } from "node:fs";
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

function kind(path: string) {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
