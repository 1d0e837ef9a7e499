// Whether the directory hey started in is still that directory (x136): a project moved or renamed
// while hey runs left hey working at a path to nothing, and the next write made the old tree again —
// a ghost holding only what hey wrote, where bash then ran and /reload recorded trust — while the
// project itself got nothing. The writing tools, bash, /reload and /trust look first (movedFrom). A
// directory made again where the deleted one was is the user's real tree, no ghost: hey works in it —
// when it is a real directory of the user's, never a link a checkout put there, at the path or above
// it (x146, x149).
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { ToolResult } from "../kernel/tool.ts";

/** The directory hey started in, as here.ts first named it: what movedFrom compares with. */
export interface StartedDir {
  /** its device and inode */
  id: string;
  /** its owner's uid: a directory they make again there is theirs as much as the first (hey run as root on their checkout) */
  uid: number;
  /** its path with every link resolved: `dir` itself but on Windows, where a junction or a mapped drive is kept as named */
  real: string;
}

/** Each launch directory by the path here.ts named it with. */
const started = new Map<string, StartedDir>();

/**
 * hey's own directory is where no project is: a link put at the path in the instant between the
 * look and the chdir took hey to what it points at (`..`, ~/.ssh). /proc names that place, not
 * "deleted", so every later look would say the project moved there; they take it for deleted
 * instead, and the first real directory made at the path is entered and taken (x149).
 */
let astray = false;

/** Remembers which directory `dir` is (here.ts, as hey starts there): what movedFrom compares with. Never throws. */
export function rememberWorkDir(dir: string): void {
  if (started.has(dir)) return;
  const s = statOf(dir);
  // process.cwd() is getcwd's answer, its links resolved already: no look needed but on Windows
  if (s !== undefined) started.set(dir, { ...s, real: process.platform === "win32" ? (realOf(dir) ?? dir) : dir });
}

/**
 * Why nothing may be written or run in `dir`, the directory hey started in: it is no longer that
 * directory (moved or renamed, deleted, or another one made at its path while the first still is
 * somewhere), in one line that names where it went when the system says (Linux: hey's own working
 * directory follows it). Undefined when it still is, or hey did not start there (an embedder's
 * directory). A directory made at the path after the first was deleted (a `git checkout` of a branch
 * without it and back, `git stash -u` and `pop`, a scaffolder's `rm -rf app && mkdir app`) is the
 * project from then on, and `tell` is told so once, in one line: no ghost can be made where a
 * directory stands. Only a real directory of this user's (or the first one's owner's) is taken
 * (notTakenLine), and only once hey's own directory is in it. One stat while nothing changed; never throws.
 */
export function movedFrom(dir: string, tell?: (line: string) => void): string | undefined {
  const first = started.get(dir);
  return first === undefined ? undefined : look(dir, first, tell, 1);
}

/** movedFrom's look; `again`: how many more looks a path changed under the chdir earns. */
function look(dir: string, first: StartedDir, tell: ((line: string) => void) | undefined, again: number): string | undefined {
  const now = statOf(dir)?.id;
  if (now === first.id && !astray) return undefined;
  const where = whereNow();
  const seen = changedDir(dir, now, where);
  if (seen === "same") return undefined;
  const uid = process.getuid?.();
  if (seen !== "adopt") {
    // a link to nothing (yet) at the path is a link, not a deletion to restore
    const there = now === undefined ? foundAt(dir) : undefined;
    return there?.link ? notTakenLine(dir, there, first, uid) : seen.refuse;
  }
  const found = foundAt(dir);
  const why = notTakenLine(dir, found, first, uid);
  if (why !== undefined) return why;
  try {
    process.chdir(dir); // hey's own directory is the new one: /proc follows it if it moves in turn
  } catch (e) {
    const code = (e as { code?: string }).code;
    // not recorded: every later look tries again and says why until hey can enter it
    if (code === "EACCES" || code === "EPERM")
      return `the project was made again at ${dir}, but hey cannot enter it (${code}) — give your user access to it or restart hey in the directory you mean`;
    // the path changed again between the look and the chdir (ENOENT, ENOTDIR, ELOOP: a scaffolder's
    // `rm -rf app && mkdir app` racing it): what is there now says
    if (again > 0) return look(dir, first, tell, again - 1);
    return (
      notTakenLine(dir, foundAt(dir), first, uid) ??
      `the project was made again at ${dir}, but it changed as hey entered it (${code ?? String(e)}) — hey looks again at the next call`
    );
  }
  // a link put at the path (or above it) between the look and the chdir took hey where it points
  const at = procCwd();
  if (statOf(".")?.id !== found!.id || (at !== undefined && at !== first.real)) {
    astray = true;
    return (
      notTakenLine(dir, foundAt(dir), first, uid) ?? `the project was made again at ${dir}, but it changed as hey entered it — hey looks again at the next call`
    );
  }
  astray = false;
  started.set(dir, { ...first, id: found!.id });
  tell?.(adoptedLine(dir, where));
  return undefined;
}

/**
 * What stands at a path itself (a link, not where it points): lstat's answer; `parentDev` its
 * directory's device; `real` the path with every link above it resolved (not for a link).
 */
export interface Found {
  id: string;
  link: boolean;
  target?: string;
  uid: number;
  parentDev?: string;
  real?: string;
}

/**
 * Why the directory now at `dir` is not taken for the project hey started there (`first`), though
 * that one was deleted; undefined: take it. Refused: a link, at the path or above it (hey would
 * follow it to `..` or ~/.ssh while every path still reads as inside the project: a checkout of a
 * branch that tracks `app`, or `pkg` above it, as a link), nothing lstat can see, another user's
 * directory (neither hey's `uid` nor the first one's owner: a shared one made in the race; `uid`
 * undefined on Windows: owners not compared), or one on neither the first one's file system nor
 * its parent's, where `mkdir` makes it (something mounted there). Pure.
 */
export function notTakenLine(dir: string, found: Found | undefined, first: StartedDir, uid: number | undefined): string | undefined {
  const restart = "restart hey in the directory you mean";
  if (found === undefined) return movedLine(dir, "gone", "deleted");
  if (found.link) return `the project was replaced: ${dir} is now a link${found.target ? ` to ${found.target}` : ""} — hey does not follow it; ${restart}`;
  if (found.real !== first.real) return `the project was replaced: ${dir} now leads through a link to ${found.real} — hey does not follow it; ${restart}`;
  if (uid !== undefined && found.uid !== uid && found.uid !== first.uid)
    return `the project was replaced: ${dir} was made again by another user (uid ${found.uid}) — hey does not work in it; ${restart}`;
  const dev = found.id.split(":")[0];
  if (dev !== first.id.split(":")[0] && dev !== found.parentDev)
    return `the project was replaced: ${dir} is now on another file system (mounted there?) — ${restart}`;
  return undefined;
}

/**
 * `run`'s result when `dir` (a call's working directory) is still the project, led by the line
 * movedFrom tells when it took a new directory for it; `refused(why)` when it is not. The writing
 * tools and bash look here first.
 */
export async function inWorkDir(dir: string, refused: (why: string) => ToolResult, run: () => Promise<ToolResult>): Promise<ToolResult> {
  const told: string[] = [];
  const moved = movedFrom(dir, (line) => told.push(line));
  if (moved) return refused(moved);
  const result = await run();
  return told.length === 0 ? result : { ...result, output: `[hey: ${told[0]}]\n${result.output}` };
}

/**
 * What movedFrom makes of `dir` when it is no longer the directory hey started in: `now` the one at
 * its path now (undefined: none), `where` where hey's own directory is now (whereNow). "same": the
 * system still names hey's directory so (a FUSE file system such as sshfs may number its inodes
 * afresh); "adopt": the directory there is the project; else why hey refuses. Without /proc (macOS)
 * a move cannot be told from a renumbering, so only nothing at the path is refused. Pure.
 */
export function changedDir(dir: string, now: string | undefined, where: string | undefined): "same" | "adopt" | { refuse: string } {
  if (where === dir) return "same";
  if (now !== undefined && (where === "deleted" || where === undefined)) return "adopt";
  return { refuse: movedLine(dir, now === undefined ? "gone" : "other", where) };
}

/** The line movedFrom tells when it takes the directory at `dir` for the project; `where` as changedDir's. */
export function adoptedLine(dir: string, where: string | undefined): string {
  return where === "deleted"
    ? `${dir} was deleted and made again while hey ran (a checkout, a stash, a scaffolder): hey works in the new one`
    : `${dir} is not the directory hey started in (made again, or its file system numbers it afresh): hey works in the one there now`;
}

/**
 * The line movedFrom says: `dir` is `gone` (nothing there) or an `other` directory while the one hey
 * started in is elsewhere; `now` is where that one is now: a path, "deleted", or undefined when the
 * system does not say. Gone, the project can be restored (a checkout back): movedFrom takes the new
 * directory for it.
 */
export function movedLine(dir: string, look: "gone" | "other", now: string | undefined): string {
  if (look === "other")
    return `the project moved: ${dir} is not the directory hey started in${now ? ` (that one is now ${now}?)` : ""} — restart hey in the one you mean`;
  if (now === "deleted")
    return `the project is gone: ${dir} was deleted while hey ran — restore it (a checkout back) or restart hey in a directory that exists`;
  return `the project moved: ${dir} no longer exists${now ? ` (now ${now}?) — restart hey there` : " — restart hey where it is now, or restore it"}`;
}

/** Which directory `dir` is (its device and inode) and whose; undefined when it is not a directory there. */
function statOf(dir: string): { id: string; uid: number } | undefined {
  try {
    const s = statSync(dir);
    return s.isDirectory() ? { id: `${s.dev}:${s.ino}`, uid: s.uid } : undefined;
  } catch {
    return undefined;
  }
}

/** `path` with every link resolved; undefined when it leads nowhere. */
function realOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** What stands at `dir` itself, links not followed; undefined when nothing does, or a file, or a directory its path no longer leads to. */
function foundAt(dir: string): Found | undefined {
  try {
    const s = lstatSync(dir);
    const parentDev = statOf(dirname(dir))?.id.split(":")[0];
    const found = { id: `${s.dev}:${s.ino}`, link: s.isSymbolicLink(), uid: s.uid, parentDev };
    if (found.link) return { ...found, target: readlinkSync(dir) };
    const real = s.isDirectory() ? realOf(dir) : undefined;
    return real === undefined ? undefined : { ...found, real };
  } catch {
    return undefined;
  }
}

/**
 * Where hey's own working directory (the one it started in, or the one movedFrom took for it since)
 * is now, as Linux's /proc says; "deleted" (or astray: where no project is), or undefined elsewhere.
 */
function whereNow(): string | undefined {
  if (astray) return "deleted";
  const path = procCwd();
  return path?.endsWith(" (deleted)") ? "deleted" : path;
}

/** hey's own working directory as Linux's /proc names it; undefined without /proc. */
function procCwd(): string | undefined {
  try {
    return readlinkSync("/proc/self/cwd");
  } catch {
    return undefined;
  }
}
