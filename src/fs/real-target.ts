// The file a path really names (issue 24): links resolved, also for a file not created yet, so a
// guard comparing paths cannot be passed by a link or a `..` that names the same file differently.
// The permission checks look within the deadline (fs/bounded-reads.ts: a hung network mount or a
// huge tree throws Hung, which they turn into a refusal naming the path), and so does the order of
// tool calls on one file (callTarget: "cannot tell" when it does not answer); the file tools, which
// have just read the file, resolve it here (realTarget).
import * as fs from "node:fs";
import * as path from "node:path";
import { boundedHardLink, boundedLstat, boundedReal, boundedStat, Hung, readerStarted, type Stat } from "./bounded-reads.ts";
import { resolveTarget } from "./disk-walks.ts";
import { diskPath } from "./dir-names.ts";

/** fs/disk-walks.ts resolveTarget, here: `abs` with every link on the way resolved, as the kernel opens it. Never throws. */
export const realTarget = (abs: string): string => resolveTarget(odd(abs) ? bytesFs : fs, path, abs);

/**
 * node:fs as the tools open a name as hey writes it (fs/odd-names.ts: `x\x80` for a byte that is not
 * UTF-8): by its bytes (fs/dir-names.ts diskPath), so a link or a hard link named so is followed to
 * the file it names, not taken for a new file. A path spelled that way is spelled that way again.
 */
const bytesFs = {
  ...fs,
  lstatSync: (p: string) => fs.lstatSync(diskPath(p)),
  readlinkSync: (p: string) => fs.readlinkSync(diskPath(p)),
} as unknown as typeof fs;
/** Whether `abs` names a file by bytes that are not UTF-8 (diskPath gives bytes), which the worker's looks (strings) cannot open. */
const odd = (abs: string) => typeof diskPath(abs) !== "string";

/**
 * realTarget within the deadline; throws Hung. A name with bytes that are not UTF-8 is looked up
 * here instead, without the deadline: the worker takes text paths, and such names are rare.
 */
export const realTargetBounded = (abs: string): string => (odd(abs) ? realTarget(abs) : boundedReal(abs));

/** Where `abs` really leads, within the read deadline (fs/bounded-reads.ts); undefined when it did not answer (or is not there). */
export function realWithin(abs: string): string | undefined {
  try {
    return realTargetBounded(abs);
  } catch {
    return undefined;
  }
}

/** boundedStat of `abs`; a name with bytes that are not UTF-8 is looked at here, as realTargetBounded does. Throws as statSync does. */
function statOf(abs: string): Pick<Stat, "kind" | "nlink" | "id"> {
  if (!odd(abs)) return boundedStat(abs);
  const st = fs.statSync(diskPath(abs), { bigint: true });
  return { kind: st.isFile() ? "file" : "other", nlink: Number(st.nlink), id: `${st.dev}:${st.ino}` };
}

/**
 * The file a tool call's absolute path names, so that calls on one file (through a link and through
 * its target) run in call order: realTarget — within the deadline when there is a permission list
 * (`guarded`) or its checks run a thread for reads (without one, none is started for this alone) — or undefined when it does not
 * answer (kernel/tool-calls.ts then orders the call with every file call around it: taken as
 * written, a link's call and its target's would run side by side). The tool meets the hung mount
 * itself, off hey's main thread.
 */
export function callTarget(abs: string, guarded = false): string | undefined {
  // a thread for reads costs ~9 MB: only a permission list's checks start one (`guarded`: there is a
  // list), and without one the order is looked up here, as the file tools look up their paths; with
  // one, the first turn's calls are ordered before any check has run, and a hung mount's path would
  // freeze hey here (no Ctrl-C) where its check would have been refused in time
  if (!guarded && !readerStarted()) return realTarget(abs);
  try {
    return realTargetBounded(abs);
  } catch {
    return undefined;
  }
}

/**
 * fileId for a file tool's path, as callTarget looks one up: here unless a thread for reads has
 * started (then within its deadline); undefined when it is not there or did not answer.
 */
export function callId(abs: string): string | undefined {
  try {
    if (readerStarted()) return fileId(abs);
    const st = fs.statSync(diskPath(abs), { bigint: true });
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** Which file `abs` is, links followed: its device and inode, so a hard link is known as the same file. Undefined when it does not exist; throws Hung. */
export function fileId(abs: string): string | undefined {
  try {
    return statOf(abs).id;
  } catch (e) {
    if (e instanceof Hung) throw e;
    return undefined;
  }
}

/** How many names the regular file at `abs` has (links followed; hard links make more than one), undefined when it is no regular file or not there; throws Hung. */
export function fileLinks(abs: string): number | undefined {
  try {
    const st = statOf(abs);
    return st.kind === "file" ? st.nlink : undefined;
  } catch (e) {
    if (e instanceof Hung) throw e;
    return undefined;
  }
}

/**
 * Whether the regular file at `abs` (links followed), having other hard links, has one below the
 * directory `dir`: true, false (no other links, another device, or none found in the whole tree),
 * or "maybe" (the tree is too large to search, or a part of it cannot be read): fs/disk-walks.ts
 * hardLinkBelow, the whole search within the deadline; throws Hung naming `dir`.
 */
export const hardLinkUnder = (abs: string, dir: string): boolean | "maybe" => boundedHardLink(abs, dir);

/**
 * What is at `abs`, its last name not followed: "none" (nothing: writing there makes a file),
 * "empty" (a regular file holding nothing), "data" (anything else: a file with content, a
 * directory, a link, or what cannot be read), undefined (it did not answer in time:
 * fs/bounded-reads.ts). Never throws.
 */
export function fileState(abs: string): "none" | "empty" | "data" | undefined {
  try {
    const st = boundedLstat(abs);
    return st.kind === "file" && st.size === 0 ? "empty" : "data";
  } catch (e) {
    if (e instanceof Hung) return undefined;
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "none" : "data";
  }
}
