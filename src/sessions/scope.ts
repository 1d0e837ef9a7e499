// Which sessions belong where hey runs (SPEC §19): `-c`, `--sessions`, `/sessions` and `/resume`
// offer the launch directory's sessions and, where it has none, its project's — those started at
// the project root or below it, in no project of their own (a nested repository, a `.hey/` of its
// own), so a subdirectory of the project continues the work begun at its root, and the other way
// round. A directory's own sessions come first: their relative paths are right where hey works,
// and a subdirectory kept for its own work keeps its own latest session. Pure: `projectOf` looks.
import { isAbsolute, relative, sep } from "node:path";
import type { SessionInfo } from "./format.ts";

/** The sessions shown or continued here, most recently used first; `project`: the directory had none, these are its project's. */
export interface SessionsHere {
  sessions: SessionInfo[];
  project: boolean;
}

/**
 * Of `sessions` (most recently used first), those started in `here.cwd`; when there are none,
 * those whose directory is `here.root` or below it and has `here.root` as its project
 * (`projectOf`, asked once per directory). `skip`: a session not to offer (the one in use).
 */
export function sessionsHere(
  sessions: readonly SessionInfo[],
  here: { cwd: string; root: string },
  projectOf: (dir: string) => string,
  skip?: string,
): SessionsHere {
  const offered = sessions.filter((s) => s.path !== skip);
  const own = offered.filter((s) => sameDir(s.cwd, here.cwd));
  if (own.length > 0) return { sessions: own, project: false };
  const known = new Map<string, boolean>();
  const inProject = (dir: string) => {
    let yes = known.get(dir);
    if (yes === undefined) known.set(dir, (yes = within(here.root, dir) && projectOf(dir) === here.root));
    return yes;
  };
  return { sessions: offered.filter((s) => inProject(s.cwd)), project: true };
}

/**
 * Whether two spellings of a directory name the same one, as the file system compares names: on
 * Windows whatever their case (a session recorded from `cd c:\PROJ` is C:\proj's).
 */
export const sameDir = (a: string, b: string, windows = sep === "\\"): boolean => a === b || (windows && a.toLowerCase() === b.toLowerCase());

/** Whether `dir` is `root` or below it. */
function within(root: string, dir: string): boolean {
  const path = relative(root, dir);
  return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}
