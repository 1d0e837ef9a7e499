// Whether the directory hey started in is still that directory (x136): a project moved or renamed
// while hey runs left hey working at a path to nothing, and the next write made the old tree again —
// a ghost holding only what hey wrote, where bash then ran and /reload recorded trust — while the
// project itself got nothing. The writing tools, bash, /reload and /trust look first (movedFrom). A
// directory made again where the deleted one was is the user's real tree, no ghost: hey works in it —
// when it is a real directory of the user's, never a link a checkout put there (x146).
import { lstatSync, readlinkSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { ToolResult } from "../kernel/tool.ts";

/** Each launch directory's device and inode when here.ts first named it. */
const started = new Map<string, string>();

/** Remembers which directory `dir` is (here.ts, as hey starts there): what movedFrom compares with. Never throws. */
export function rememberWorkDir(dir: string): void {
  const id = idOf(dir);
  if (id !== undefined && !started.has(dir)) started.set(dir, id);
}

/**
 * Why nothing may be written or run in `dir`, the directory hey started in: it is no longer that
 * directory (moved or renamed, deleted, or another one made at its path while the first still is
 * somewhere), in one line that names where it went when the system says (Linux: hey's own working
 * directory follows it). Undefined when it still is, or hey did not start there (an embedder's
 * directory). A directory made at the path after the first was deleted (a `git checkout` of a branch
 * without it and back, `git stash -u` and `pop`, a scaffolder's `rm -rf app && mkdir app`) is the
 * project from then on, and `tell` is told so once, in one line: no ghost can be made where a
 * directory stands. Only a real directory of this user's is taken (notTakenLine), and only once hey's
 * own directory is in it. One stat while nothing changed; never throws.
 */
export function movedFrom(dir: string, tell?: (line: string) => void): string | undefined {
  const id = started.get(dir);
  if (id === undefined) return undefined;
  const now = idOf(dir);
  if (now === id) return undefined;
  const where = whereNow();
  const seen = changedDir(dir, now, where);
  if (seen === "same") return undefined;
  if (seen !== "adopt") return seen.refuse;
  const found = foundAt(dir);
  const why = notTakenLine(dir, found, id.split(":")[0]!, process.getuid?.());
  if (why !== undefined) return why;
  try {
    process.chdir(dir); // hey's own directory is the new one: /proc follows it if it moves in turn
  } catch (e) {
    // not recorded: every later look tries again and says why until hey can enter it
    return `the project was made again at ${dir}, but hey cannot enter it (${(e as { code?: string }).code ?? String(e)}) — give your user access to it or restart hey in the directory you mean`;
  }
  // a link put there between the look and the chdir took hey elsewhere: refused, and /proc now says so
  if (idOf(".") !== found!.id) return notTakenLine(dir, { ...found!, link: true }, "", undefined);
  started.set(dir, found!.id);
  tell?.(adoptedLine(dir, where));
  return undefined;
}

/** What stands at a path itself (a link, not where it points): lstat's answer; `parentDev` its directory's device. */
export interface Found {
  id: string;
  link: boolean;
  target?: string;
  uid: number;
  parentDev?: string;
}

/**
 * Why the directory now at `dir` is not taken for the project hey started there (on device
 * `startedDev`), though that one was deleted; undefined: take it. Refused: a link (hey would follow
 * it to `..` or ~/.ssh while every path still reads as inside the project: a checkout of a branch
 * that tracks `app` as a link), nothing lstat can see, another user's directory (a shared one made in
 * the race; `uid` undefined on Windows: owners not compared), or one on neither the first one's file
 * system nor its parent's, where `mkdir` makes it (something mounted there). Pure.
 */
export function notTakenLine(dir: string, found: Found | undefined, startedDev: string, uid: number | undefined): string | undefined {
  const restart = "restart hey in the directory you mean";
  if (found === undefined) return movedLine(dir, "gone", "deleted");
  if (found.link) return `the project was replaced: ${dir} is now a link${found.target ? ` to ${found.target}` : ""} — hey does not follow it; ${restart}`;
  if (uid !== undefined && found.uid !== uid)
    return `the project was replaced: ${dir} was made again by another user (uid ${found.uid}) — hey does not work in it; ${restart}`;
  const dev = found.id.split(":")[0];
  if (dev !== startedDev && dev !== found.parentDev) return `the project was replaced: ${dir} is now on another file system (mounted there?) — ${restart}`;
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

/** Which directory `dir` is: its device and inode; undefined when it is not a directory there. */
function idOf(dir: string): string | undefined {
  try {
    const s = statSync(dir);
    return s.isDirectory() ? `${s.dev}:${s.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** What stands at `dir` itself, links not followed; undefined when nothing does. */
function foundAt(dir: string): Found | undefined {
  try {
    const s = lstatSync(dir);
    const link = s.isSymbolicLink();
    const parentDev = idOf(dirname(dir))?.split(":")[0];
    return { id: `${s.dev}:${s.ino}`, link, target: link ? readlinkSync(dir) : undefined, uid: s.uid, parentDev };
  } catch {
    return undefined;
  }
}

/**
 * Where hey's own working directory (the one it started in, or the one movedFrom took for it since)
 * is now, as Linux's /proc says; "deleted", or undefined elsewhere.
 */
function whereNow(): string | undefined {
  try {
    const path = readlinkSync("/proc/self/cwd");
    return path.endsWith(" (deleted)") ? "deleted" : path;
  } catch {
    return undefined;
  }
}
