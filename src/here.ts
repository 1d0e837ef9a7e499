// Where hey's files are and which project it is in: fs/places.ts computes them from the home
// directory and the file system (fs/root-probe.ts). main.ts imports this file only after the
// flags, so `hey --version` and `hey --help` load none of node:fs, node:os and node:path (~3 MB of RSS).
import { homedir } from "node:os";
import { driveUpper, homeOf, outerConfigs, places, projectRoot, type Places } from "./fs/places.ts";
import { realDir, rootProbe, startProbing, storedCase } from "./fs/root-probe.ts";
import { rememberWorkDir } from "./fs/work-dir.ts";

export { rootProbe, startProbing };

/** Where hey's files are and which project it is in, computed once per command. */
export function here(): Places {
  const home = realDir(driveUpper(homeOf(process.env, process.platform, homedir), process.platform)); // as cwd is named: links resolved
  const cwd = storedCase(driveUpper(process.cwd(), process.platform));
  rememberWorkDir(cwd); // a project moved while hey runs is found out before a write would make it again (fs/work-dir.ts)
  const root = projectRoot(cwd, home, rootProbe);
  return places(process.env, home, cwd, process.platform, root, outerConfigs(cwd, root, home, rootProbe));
}
