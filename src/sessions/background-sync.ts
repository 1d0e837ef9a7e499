// The fsync at a step's end, off the way to the next request (x119 #3): on a slow or busy disk (a
// network home, an encrypted laptop) an fsync takes 10-50 ms, and every step of a run paid it
// before its request went out. The lines are written (in the page cache: a kill -9 loses none of
// them) before the sync starts, so only a power cut during the request can lose what this sync
// had not yet made durable: the previous step's lines, as a power cut during a waited-for fsync did.
// A step that ends while the sync runs (a disk slower than the steps) waits for its own: never
// more than one step is left to a power cut (x126 #4).
import { fsync, fsyncSync } from "node:fs";
import { closeQuietly } from "./lines.ts";

/**
 * The one place a session file is fsynced in the background (an object, so a test can hold a sync
 * back). `run` calls `done` once, with the fsync's error or null.
 */
export const fileSync = {
  run(fd: number, done: (error: NodeJS.ErrnoException | null) => void): void {
    fsync(fd, done);
  },
};

/** One file's background fsyncs: at most one running, and a file closed only once its sync ended. */
export interface BackgroundSync {
  /**
   * starts an fsync of `fd`; one asked for while one runs is waited for instead, and throws what that
   * fsync throws (a full disk then stalls the writer as at a turn's end)
   */
  start(fd: number): void;
  /** closes `fd` now, or when the fsync running on it ends: never an fsync of a number the system gave another file */
  close(fd: number): void;
}

/** Every background fsync still running, until its error (if any) was handed on. */
const unfinished = new Set<Promise<void>>();

/** Resolves once no background fsync runs (hey's exit waits: an error it ends with is said first); never rejects. */
export async function syncsDone(): Promise<void> {
  while (unfinished.size > 0) await Promise.all(unfinished);
}

/**
 * `failed` gets the error of a sync of the file still open; `lost` the error of a sync of a file
 * closed while it ran (Linux tells a failed writeback once, to the first fsync after it: the waited
 * one at close may then have found nothing wrong). Neither may throw.
 */
export function backgroundSync(failed: (fd: number, error: NodeJS.ErrnoException) => void, lost: (error: NodeJS.ErrnoException) => void): BackgroundSync {
  let running: number | undefined;
  let closing = false;
  const start = (fd: number) => {
    // steps faster than the disk: this one waits, so a power cut loses at most the step whose sync runs, never several
    if (running !== undefined) return fsyncSync(fd);
    running = fd;
    let ended = () => {};
    const ending = new Promise<void>((resolve) => (ended = resolve));
    unfinished.add(ending);
    fileSync.run(fd, (error) => {
      running = undefined;
      const closed = closing;
      closing = false;
      unfinished.delete(ending);
      ended();
      if (closed) closeQuietly(fd);
      if (error) closed ? lost(error) : failed(fd, error);
    });
  };
  return {
    start,
    close(fd) {
      if (running === fd) closing = true;
      else closeQuietly(fd);
    },
  };
}

/** What the writer says of a background fsync that failed after its file was closed: what a waited one would have said at close. */
export function unsyncedWarning(path: string, why: string): string {
  return `session may not be saved: the disk failed to make ${path} durable: ${why}; a power cut or a crash of the machine now may lose its last steps`;
}
