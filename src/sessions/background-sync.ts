// The fsync at a step's end, off the way to the next request (x119 #3): on a slow or busy disk (a
// network home, an encrypted laptop) an fsync takes 10-50 ms, and every step of a run paid it
// before its request went out. The lines are written (in the page cache: a kill -9 loses none of
// them) before the sync starts, so only a power cut during the request can lose what this sync
// had not yet made durable: the previous step's lines, as a power cut during a waited-for fsync did.
// A step that ends while the sync runs (a disk slower than the steps) has its own sync start when
// that one ends, and its request waits for that moment (synced-first.ts): never more than one step is
// left to a power cut (x126 #4), and hey's thread never blocks on the disk meanwhile (Ctrl-C, Esc,
// the spinner and MCP servers go on; x129 #3).
import { fsync } from "node:fs";
import { closeQuietly } from "./lines.ts";
import { ahead } from "./synced-first.ts";

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
  /** starts an fsync of `fd`; one asked for while one runs starts when it ends, and the next request waits for that (syncedFirst) */
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
  let running: { fd: number; ending: Promise<void> } | undefined;
  let queued: number | undefined; // a step's sync asked for while one ran: started when it ends
  let closing = false;
  const start = (fd: number) => {
    // steps faster than the disk: this one's sync follows, and the next request waits for the running one, so a
    // power cut loses at most one step, never several
    if (running !== undefined) {
      queued = fd;
      ahead.add(running.ending);
      return;
    }
    let ended = () => {};
    const ending = new Promise<void>((resolve) => (ended = resolve));
    running = { fd, ending };
    unfinished.add(ending);
    fileSync.run(fd, (error) => {
      running = undefined;
      const closed = closing;
      closing = false;
      const next = queued;
      queued = undefined;
      if (next !== undefined && !(closed && next === fd)) start(next); // one closed was synced at its close
      unfinished.delete(ending);
      ahead.delete(ending);
      ended();
      if (closed) closeQuietly(fd);
      if (error) closed ? lost(error) : failed(fd, error);
    });
  };
  return {
    start,
    close(fd) {
      if (queued === fd) queued = undefined; // never an fsync of a number the system may give another file
      if (running?.fd === fd) closing = true;
      else closeQuietly(fd);
    },
  };
}

/** What the writer says of a background fsync that failed after its file was closed: what a waited one would have said at close. */
export function unsyncedWarning(path: string, why: string): string {
  return `session may not be saved: the disk failed to make ${path} durable: ${why}; a power cut or a crash of the machine now may lose its last steps`;
}
