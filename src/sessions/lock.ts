// One writer per session (issue 13 row 14): `<id>.jsonl.lock` beside the session file (fs/file-lock.ts:
// the writing hey's pid, host and, on Linux, the boot's id). A second hey that wants to write the same session (two `hey -c` in
// one directory) is refused with a message instead of interleaving lines. A lock whose process is
// gone (a crash, a kill -9) is stale and taken over. Locks are removed when the session is closed
// and, at the latest, when the process exits.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { lockOwner, removeQuietly, tryLock } from "../fs/file-lock.ts";

/** The session is being written by another hey that is still running. */
export class SessionLockedError extends Error {
  override name = "SessionLockedError";
}

const held = new Set<string>();
let hooked = false;

/**
 * Makes this process the session's one writer; does nothing when it already is. Throws
 * SessionLockedError when another live hey holds it, the system error when the lock cannot be made.
 */
export function lockSession(sessionPath: string): void {
  const lock = `${sessionPath}.lock`;
  if (held.has(lock)) return;
  const owner = tryLock(lock);
  if (owner) {
    const id = basename(sessionPath, ".jsonl");
    throw new SessionLockedError(
      `session ${id} is in use by another hey (${owner}); wait for it to finish or start a new session — if no other hey is running, delete ${lock}`,
    );
  }
  held.add(lock);
  if (!hooked) process.on("exit", () => held.forEach(removeQuietly));
  hooked = true;
}

/**
 * Checks that the lock of a session this process holds is still its own: one deleted (by hand, with
 * its directory) is made again; one another hey made meanwhile throws SessionLockedError while
 * that hey lives, else it is taken back.
 */
export function relockSession(sessionPath: string): void {
  const lock = `${sessionPath}.lock`;
  if (!held.has(lock)) return;
  let pid: number | undefined;
  try {
    pid = Number(readFileSync(lock, "utf8").trim().split(/\s+/)[0]);
  } catch {
    // gone: made again below
  }
  if (pid === process.pid) return;
  held.delete(lock);
  lockSession(sessionPath);
}

/** Gives the session up (its writer closed). */
export function unlockSession(sessionPath: string): void {
  const lock = `${sessionPath}.lock`;
  if (held.delete(lock)) removeQuietly(lock);
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
