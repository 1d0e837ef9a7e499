// One writer per session (issue 13 row 14): `<id>.jsonl.lock` beside the session file holds the
// writing hey's pid, host and, on Linux, the boot's id (a lock from before a reboot is stale,
// whatever process has its pid now). A second hey that wants to write the same session (two `hey -c` in
// one directory) is refused with a message instead of interleaving lines; so is a second writer in
// this process (two requests of an embedding server continuing one session): each lock held here
// has one holder, a writer or the resume that will hand it to one. A lock whose process is gone (a
// crash, a kill -9) is stale and taken over. Locks are removed when their holder closes the
// session and, at the latest, when the process exits.
import { closeSync, constants, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { basename } from "node:path";
import { errnoCode } from "../kernel/errors.ts";

/** The session is being written by another hey that is still running, or by another writer in this process. */
export class SessionLockedError extends Error {
  override name = "SessionLockedError";
}

/**
 * Who in this process holds a session: a writer (any object of its own), or RESUMED — a resume
 * made the lock, and the first writer of the session that asks takes it over.
 */
export type Holder = object;
export const RESUMED: Holder = Object.freeze({ resumed: true });

/** The locks this process holds, and by whom. */
const held = new Map<string, Holder>();
let hooked = false;

/**
 * Makes `holder` the session's one writer; does nothing when it already is, and a writer takes over
 * a resume's lock (RESUMED): the first of the session's writers to write. Throws SessionLockedError
 * when another live hey holds it, or another holder in this process (a second writer, a second
 * resume), the system error when the lock cannot be made.
 */
export function lockSession(sessionPath: string, holder: Holder = RESUMED): void {
  const lock = `${sessionPath}.lock`;
  const now = held.get(lock);
  if (now === holder && holder !== RESUMED) return; // a second resume is a second writer
  if (now === RESUMED && holder !== RESUMED) return void held.set(lock, holder);
  if (now !== undefined) {
    const id = basename(sessionPath, ".jsonl");
    const by = now === RESUMED ? "was resumed in this process already, for a writer" : "is in use by another writer in this process";
    throw new SessionLockedError(`session ${id} ${by} (pid ${process.pid}); close that writer first, or start a new session`);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, `${process.pid} ${hostname()}${bootId() ? ` ${bootId()}` : ""}\n`);
      } catch (e) {
        removeQuietly(lock); // a full disk: no empty lock left behind
        throw e;
      } finally {
        closeSync(fd);
      }
      held.set(lock, holder);
      if (!hooked)
        process.on("exit", () => {
          for (const path of held.keys()) removeQuietly(path);
        });
      hooked = true;
      return;
    } catch (e) {
      if (errnoCode(e) !== "EEXIST" || attempt > TAKEOVER_TRIES) throw e;
      const seen = readLock(lock);
      const owner = seen === null ? `its lock ${lock} cannot be read` : seen === undefined ? undefined : lockOwner(lock, seen);
      if (owner) {
        const id = basename(sessionPath, ".jsonl");
        throw new SessionLockedError(
          `session ${id} is in use by another hey (${owner}); wait for it to finish or start a new session — if no other hey is running, delete ${lock}`,
        );
      }
      if (seen !== null) removeStale(lock, seen);
    }
  }
}

/** How many times a stale lock is taken over before giving up: each try lost means another hey took it first. */
const TAKEOVER_TRIES = 3;

/**
 * Removes the stale lock whose text was `seen` (undefined: a link to nothing), and only that one:
 * another hey that judged it stale too may have replaced it with its own since (two `hey -c`
 * started at once after a crash). It is moved aside first, which one process alone can do, and
 * put back when it is not the one judged.
 */
function removeStale(lock: string, seen: string | undefined): void {
  const aside = `${lock}.stale-${process.pid}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // gone already: the next try makes it
  }
  if (readLock(aside) !== seen) {
    try {
      linkSync(aside, lock); // never over a lock made meanwhile
    } catch {
      // one was: that hey holds the session, and the next try says so
    }
  }
  removeQuietly(aside);
}

/** The lock's text; undefined when there is none, null when it cannot be read (held, as lockOwner counts it). */
function readLock(lock: string): string | undefined | null {
  try {
    return readFileSync(lock, "utf8");
  } catch (e) {
    return errnoCode(e) === "ENOENT" ? undefined : null;
  }
}

/**
 * Checks that the lock of a session this process holds is still its own: one deleted (by hand, with
 * its directory) is made again; one another hey made meanwhile throws SessionLockedError while
 * that hey lives, else it is taken back.
 */
export function relockSession(sessionPath: string, holder: Holder): void {
  const lock = `${sessionPath}.lock`;
  if (held.get(lock) !== holder) return;
  let pid: number | undefined;
  try {
    pid = Number(readFileSync(lock, "utf8").trim().split(/\s+/)[0]);
  } catch {
    // gone: made again below
  }
  if (pid === process.pid) return;
  held.delete(lock);
  lockSession(sessionPath, holder);
}

/** Gives the session up when `holder` holds it (its writer closed); another holder's lock is left alone. */
export function unlockSession(sessionPath: string, holder: Holder = RESUMED): void {
  const lock = `${sessionPath}.lock`;
  if (held.get(lock) !== holder) return;
  held.delete(lock);
  removeQuietly(lock);
}

/** Whether another live process holds the session. */
export function lockedByOther(sessionPath: string): boolean {
  const lock = `${sessionPath}.lock`;
  return !held.has(lock) && lockOwner(lock) !== undefined;
}

/**
 * Whether the live process `pid`, not this one, holds the session (a lock on another host, or one
 * that cannot be read, counts as held): a temporary file named after it may be in the making.
 */
export function heldByProcess(sessionPath: string, pid: number): boolean {
  const owner = pid === process.pid ? undefined : lockOwner(`${sessionPath}.lock`);
  return owner !== undefined && (owner === `pid ${pid}` || owner.startsWith(`pid ${pid} on `) || !owner.startsWith("pid "));
}

/**
 * For pruning: false, after removing its stale lock, when no live hey (this one included) holds
 * the session; true, touching nothing, when one does.
 */
export function releaseIfUnheld(sessionPath: string): boolean {
  const lock = `${sessionPath}.lock`;
  if (held.has(lock) || lockOwner(lock) !== undefined) return true;
  removeQuietly(lock);
  return false;
}

/**
 * "pid N" when the lock's process is alive (or on another host, where it cannot be checked);
 * undefined for no lock or a stale one. An unreadable lock counts as held: better refused than
 * interleaved.
 */
function lockOwner(lock: string, known?: string): string | undefined {
  let text: string;
  try {
    text = known ?? readFileSync(lock, "utf8");
  } catch (e) {
    return errnoCode(e) === "ENOENT" ? undefined : `its lock ${lock} cannot be read`;
  }
  const [pidText = "", host = "", bootText = ""] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return undefined; // a torn lock: its writer died while making it
  if (host !== "" && host !== hostname()) return `pid ${pid} on ${host}`;
  // made before this machine last started (a crash, then a reboot): its pid may be another process's now
  if (bootText !== "" && bootId() !== undefined && bootText !== bootId()) return undefined;
  if (pid === process.pid) return undefined; // an earlier process had our pid
  try {
    process.kill(pid, 0);
    return `pid ${pid}`;
  } catch (e) {
    return errnoCode(e) === "EPERM" ? `pid ${pid}` : undefined;
  }
}

let boot: string | null | undefined;

/**
 * This boot's id (Linux's boot_id; a lock written by an older hey has none), undefined elsewhere:
 * a start time computed from the uptime moves with the clock, and with sleep where the uptime
 * leaves it out, so a live lock could be taken for a stale one.
 */
function bootId(): string | undefined {
  if (boot === undefined) {
    try {
      boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
    } catch {
      boot = null;
    }
  }
  return boot ?? undefined;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
