// Where hey's files are and which project it is in: fs/places.ts computes them, this file looks at
// the home directory and the file system for it. main.ts imports it only after the flags, so
// `hey --version` and `hey --help` load none of node:fs, node:os and node:path (~3 MB of RSS).
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { places, projectRoot, type Places, type RootProbe } from "./fs/places.ts";

/** Where hey's files are and which project it is in, computed once per command. */
export function here(): Places {
  const home = process.env.HOME || homedir();
  const cwd = process.cwd();
  return places(process.env, home, cwd, process.platform, projectRoot(cwd, home, probe));
}

/** What projectRoot looks at: a directory hey may not look into holds no project. */
export const probe: RootProbe = {
  isDir: (path) => kind(path)?.isDirectory() === true,
  exists: (path) => kind(path) !== undefined,
};

function kind(path: string) {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
