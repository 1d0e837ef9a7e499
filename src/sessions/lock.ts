// One writer per session (issue 13 row 14): `<id>.jsonl.lock` beside the session file (fs/file-lock.ts:
// the writing hey's pid, host and, on Linux, the boot's id). A second hey that wants to write the same session (two `hey -c` in
// one directory) is refused with a message instead of interleaving lines; so is a second writer in
// this process (two requests of an embedding server continuing one session): each lock held here
// has one holder, a writer or the resume that will hand it to one. A lock whose process is gone (a
// crash, a kill -9) is stale and taken over. Locks are removed when their holder closes the
// session and, at the latest, when the process exits — but only while they are still this process's:
// a hey stopped for a minute (Ctrl-Z, docker pause) may find its lock taken over by another one, and
// must neither remove nor refresh that hey's lock; its writer stops at its next sync (relockSession).
import { readFileSync, utimesSync } from "node:fs";
import { basename } from "node:path";
import { isOwnLock, LOCK_REFRESH_MS, lockOwner, removeQuietly, tryLock } from "../fs/file-lock.ts";

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
/** When each lock held here was last made, found still ours or touched (Date.now()): relockAfterPause. */
const checked = new Map<string, number>();
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
  const owner = tryLock(lock);
  if (owner) {
    const id = basename(sessionPath, ".jsonl");
    throw new SessionLockedError(
      `session ${id} is in use by another hey (${owner}); wait for it to finish or start a new session — if no other hey is running, delete ${lock}`,
    );
  }
  held.set(lock, holder);
  checked.set(lock, Date.now());
  refresher ??= setInterval(refreshLocks, LOCK_REFRESH_MS);
  refresher.unref(); // never what keeps hey running
  if (!hooked)
    process.on("exit", () => {
      for (const path of held.keys()) if (!takenOver(path)) removeQuietly(path);
    });
  hooked = true;
}

/**
 * Checks that the lock of a session this process holds is still its own: one deleted (by hand, with
 * its directory) is made again; one another hey made meanwhile throws SessionLockedError while
 * that hey lives, else it is taken back.
 */
export function relockSession(sessionPath: string, holder: Holder): void {
  const lock = `${sessionPath}.lock`;
  if (held.get(lock) !== holder) return;
  let text: string | undefined;
  try {
    text = readFileSync(lock, "utf8");
  } catch {
    // gone: made again below
  }
  if (text !== undefined && isOwnLock(text)) return void checked.set(lock, Date.now());
  held.delete(lock);
  lockSession(sessionPath, holder);
}

/**
 * relockSession, when LOCK_REFRESH_MS went by since the lock was last made, checked or touched here:
 * a hey stopped past LOCK_STALE_MS (Ctrl-Z, SIGSTOP, docker pause), whose lock another hey may have
 * taken over meanwhile, finds that out before it writes another line of the session; a hey that
 * runs reads no file per line. Throws as relockSession does.
 */
export function relockAfterPause(sessionPath: string, holder: Holder): void {
  if (Date.now() - (checked.get(`${sessionPath}.lock`) ?? 0) >= LOCK_REFRESH_MS) relockSession(sessionPath, holder);
}

let refresher: ReturnType<typeof setInterval> | undefined;

/**
 * Touches every session lock this process holds, so a hey in another PID namespace, which cannot
 * see this process, sees it live (fs/file-lock.ts LOCK_STALE_MS); stops once none is held. Never throws.
 */
export function refreshLocks(): void {
  const now = new Date();
  for (const lock of held.keys()) {
    if (takenOver(lock)) continue; // another hey's now: its own refresh keeps it live, and our writer stops at its next sync
    try {
      utimesSync(lock, now, now);
      checked.set(lock, now.getTime());
    } catch {
      // gone: relockSession makes it again at the turn's end
    }
  }
  if (held.size === 0 && refresher) clearInterval(refresher);
  if (held.size === 0) refresher = undefined;
}

/** Gives the session up when `holder` holds it (its writer closed); another holder's lock is left alone. */
export function unlockSession(sessionPath: string, holder: Holder = RESUMED): void {
  const lock = `${sessionPath}.lock`;
  if (held.get(lock) !== holder) return;
  held.delete(lock);
  checked.delete(lock);
  if (!takenOver(lock)) removeQuietly(lock);
}

/**
 * Whether the lock of a session this process holds now holds another process's text: another hey
 * judged it stale while this one was stopped (Ctrl-Z, SIGSTOP, docker pause, a long freeze) and
 * took it over. A lock that is gone or cannot be read is not.
 */
function takenOver(lock: string): boolean {
  try {
    return !isOwnLock(readFileSync(lock, "utf8"));
  } catch {
    return false;
  }
}

/** Whether this process holds the session's lock and it is still its own. */
const holdsHere = (lock: string) => held.has(lock) && !takenOver(lock);

/** Whether another live process holds the session. */
export function lockedByOther(sessionPath: string): boolean {
  const lock = `${sessionPath}.lock`;
  return !holdsHere(lock) && lockOwner(lock) !== undefined;
}

/** Who holds the session (`pid 123`, `pid 123 on host`, this process's pid), or undefined when no live process does. */
export function holderOf(sessionPath: string): string | undefined {
  const lock = `${sessionPath}.lock`;
  return holdsHere(lock) ? `pid ${process.pid}` : lockOwner(lock);
}

/**
 * Whether the live process `pid`, not this one, holds the session (a lock on another host, or one
 * that cannot be read, counts as held): a temporary file named after it may be in the making.
 */
export function heldByProcess(sessionPath: string, pid: number): boolean {
  const owner = pid === process.pid ? undefined : lockOwner(`${sessionPath}.lock`);
  return owner !== undefined && (owner === `pid ${pid}` || owner.startsWith(`pid ${pid} `) || !owner.startsWith("pid "));
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
