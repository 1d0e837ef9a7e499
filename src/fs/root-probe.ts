// What projectRoot (places.ts) looks at, on the real file system: main.ts finds the launch
// directory's project with it, the session listings (sessions/scope.ts) the project of each
// directory a session was started in; and the case a directory's name has on disk (storedCase).
// While hey starts (startProbing to startedUp), what the walks from the launch directory up look at
// is looked at once and shared (lookAt): the project's root, the AGENTS.md places and the main
// checkout trust is kept under each asked every ancestor for its `.git`, 8-9 stats each before the
// first request, ~50 ms on a disk at 5 ms a look (x119). So too the real path of a config file or
// an instructions file (realPathAt): the approvals, the trust notice and the prompt each asked it,
// 3 syscalls each time. Once started, each look is made afresh: a repository the agent makes
// (`git init`), a config file it writes or links, is seen where hey looks later. And which of the
// project files that load only once it is trusted a root holds (gatedResources).
import { type Stats, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
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

/**
 * `dir` as the file system names it, its links resolved, as process.cwd() names the launch
 * directory (x136): a home reached through a link (FreeBSD's /home -> /usr/home, an NFS automount)
 * never equalled an ancestor of the launch directory, so the project search ran past home and took
 * ~ for the project, and hey's own folders under ~ did not look inside it. On Windows, storedCase:
 * a junction or a mapped drive is kept as named, as the launch directory is. `dir` itself when it
 * cannot be resolved (not there). Never throws.
 */
export function realDir(dir: string, platform: string = process.platform): string {
  if (platform === "win32") return storedCase(dir, platform);
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function kind(path: string) {
  try {
    return lookAt(path);
  } catch {
    return undefined;
  }
}

/** Each path's stat (or lstat, or real path) while hey starts, or the error it threw; undefined once it has started. */
let looks: Map<string, Stats | string | Error> | undefined;
let made = 0;

/** Shares what is looked at from now until startedUp. */
export function startProbing(): void {
  looks = new Map();
}

/** Looks afresh from now on. */
export function startedUp(): void {
  looks = undefined;
}

/** How many stats and real paths lookAt and realPathAt have made in this process: what tells a test a look was shared. */
export const looksMade = (): number => made;

/** stat(2) of `path` (lstat(2) where `links` is false), shared while hey starts; throws as statSync does. */
export function lookAt(path: string, links = true): Stats {
  return shared(`${links ? "" : "l"}${path}`, () => (links ? statSync(path) : lstatSync(path)));
}

/** realpath(3) of `path`, shared while hey starts; throws as realpathSync does. */
export function realPathAt(path: string): string {
  return shared(`r${path}`, () => realpathSync(path));
}

/** What `look` gives for `key`, made once while hey starts (looks), afresh otherwise; its error thrown again. */
function shared<T extends Stats | string>(key: string, look: () => T): T {
  let seen = looks?.get(key);
  if (seen === undefined) {
    made++;
    try {
      seen = look();
    } catch (e) {
      seen = e as Error;
    }
    looks?.set(key, seen);
  }
  if (seen instanceof Error) throw seen;
  return seen as T;
}

/** What of the project at `root` loads only when trusted, as the user would name it. */
export function gatedResources(root: string): string[] {
  const out: string[] = [];
  for (const file of [".hey/config.toml", ".mcp.json"]) {
    try {
      if (lookAt(join(root, file)).isFile()) out.push(file); // shared while hey starts with the project root's look
    } catch {}
  }
  for (const dir of [".claude/skills", ".agents/skills", ".hey/skills"]) {
    try {
      if (readdirSync(join(root, dir)).some((n) => !n.startsWith("."))) out.push(`${dir}/`);
    } catch {}
  }
  return out;
}
