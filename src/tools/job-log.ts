// Where the output of a job a bash command left in the background (`npm run dev &`, `server &`)
// goes once the call has returned. The job holds the command's stdout and stderr: closing hey's end
// would kill it at its next line (SIGPIPE) or fail its writes (EPIPE), and not reading them would
// block it once the pipe's 64 KB are full. So hey reads on, as long as the job writes or hey runs,
// into one file of the call's (stdout and stderr as they come, 0600, secrets hidden as the call's
// result hides them) that the result names, for the model to read with read_file or `tail`. A job
// that prints for hours keeps only its last JOB_LOG_BYTES, with a line saying how much went before;
// one that prints in a loop (`yes &`) is read at JOB_LOG_RATE at most, so it waits on its writes
// as at a slow terminal instead of keeping hey busy reading it.
import { closeSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { concatBytes } from "../fs/output-text.ts";
import { errorText } from "../kernel/errors.ts";
import { sizeText } from "./capture.ts";
import { hiddenBytes } from "./saved-output.ts";

/** 8 MB: a dev server's log of a working session, not a disk filled by a job that prints in a loop. */
export const JOB_LOG_BYTES = 8 << 20;
/**
 * 1 MB/s, after a first burst of JOB_LOG_BURST_BYTES: a chatty dev server's log, read for about 0%
 * CPU. Reading `yes &` as fast as it prints kept hey at 70-80% CPU while it sat at the prompt.
 */
export const JOB_LOG_RATE = { bytesPerSecond: 1 << 20, burstBytes: 4 << 20 };
/** A line without its end is held this long for the rest (a secret cut between two chunks), then written as it is. */
const PARTIAL_LINE_MS = 200;
/** A line longer than this is hidden and written in pieces of it. */
const LINE_HOLD_BYTES = 64 << 10;

export interface JobLog {
  /** the file (empty when its folder could not be made), or why it could not be made (what the job prints is then read and dropped) */
  path: string;
  error?: string;
  /**
   * A writer for one more pipe: its chunks, then `undefined` when it ends; the file closes once
   * every pipe given one has ended. A chunk over the rate returns how long to wait before reading more.
   */
  writer(): (chunk: Uint8Array | undefined) => Promise<void> | undefined;
}

export interface JobLogOptions {
  /** the most the file keeps (JOB_LOG_BYTES) */
  maxBytes?: number;
  /** what the file hides, as the call's result and full output do; none: kept as printed */
  hide?: (text: string) => string;
  /** the rate the job's output is read at, at most (JOB_LOG_RATE) */
  rate?: Rate;
  /** milliseconds, for the rate (performance.now) */
  now?: () => number;
}

type Rate = { bytesPerSecond: number; burstBytes: number };
/** A token bucket: bytes that may still be read at once, as of `at` (ms). */
export type Pace = { allowance: number; at: number };

/** After `bytes` more were read at `now`: the bucket, and how long (ms) to wait before reading more (0: none). Pure. */
export function paced(pace: Pace, bytes: number, now: number, rate: Rate): { pace: Pace; waitMs: number } {
  const allowance = Math.min(rate.burstBytes, pace.allowance + ((now - pace.at) * rate.bytesPerSecond) / 1000) - bytes;
  return { pace: { allowance, at: now }, waitMs: allowance < 0 ? Math.ceil((-allowance * 1000) / rate.bytesPerSecond) : 0 };
}

/**
 * Creates `where` (0600, exclusively) for a job's later output; a function gives the path, making
 * its folder (a read-only HOME's cache cannot be made: the job runs on, its output dropped, said in
 * `error`). Never throws.
 */
export function openJobLog(where: string | (() => string), opts: JobLogOptions = {}): JobLog {
  const { maxBytes = JOB_LOG_BYTES, hide, rate = JOB_LOG_RATE, now = () => performance.now() } = opts;
  let fd: number | undefined;
  let error: string | undefined;
  let path = typeof where === "string" ? where : "";
  try {
    if (typeof where !== "string") path = where();
    fd = openSync(path, "wx+", 0o600);
  } catch (e) {
    error = errorText(e);
  }
  let size = 0; // of the file
  let noteBytes = 0; // its first line, once some was dropped
  let dropped = 0;
  let open = 0;
  let pace: Pace = { allowance: rate.burstBytes, at: now() };
  let slowed = false;
  const SLOWED = `this job prints faster than hey reads a job's output, ${sizeText(rate.bytesPerSecond)}/s after the first ${sizeText(rate.burstBytes)}: it waits on its writes`;
  const write = (chunk: Uint8Array) => {
    if (fd === undefined || chunk.length === 0) return;
    try {
      if (size + chunk.length > maxBytes) {
        // keep the newest half from a line's start, after a line saying how much went before
        let keep = Math.min(size - noteBytes, Math.floor(maxBytes / 2));
        const end = new Uint8Array(keep);
        for (let at = 0; at < keep; ) {
          const n = readSync(fd, end, at, keep - at, size - keep + at);
          if (n === 0) break;
          at += n;
        }
        const start = end.indexOf(10) + 1;
        if (start < keep) keep -= start;
        dropped += size - noteBytes - keep;
        const note = new TextEncoder().encode(
          `[… ${dropped} earlier bytes dropped: this file keeps about the last ${sizeText(maxBytes)}${slowed ? `; ${SLOWED}` : ""} …]\n`,
        );
        const kept = new Uint8Array(note.length + keep);
        kept.set(note);
        kept.set(end.subarray(end.length - keep), note.length);
        ftruncateSync(fd, 0);
        writeAt(fd, kept, 0);
        size = kept.length;
        noteBytes = note.length;
      }
      writeAt(fd, chunk.subarray(Math.max(0, chunk.length - maxBytes)), size);
      size += Math.min(chunk.length, maxBytes);
    } catch {
      closeSync(fd); // disk full: the job runs on, its output is dropped
      fd = undefined;
    }
  };
  /** How long the reader waits after `bytes` more, saying once in the file that the job is read slower than it prints. */
  const wait = (bytes: number): Promise<void> | undefined => {
    const next = paced(pace, bytes, now(), rate);
    pace = next.pace;
    if (next.waitMs === 0) return undefined;
    if (!slowed) {
      slowed = true;
      write(new TextEncoder().encode(`[… ${SLOWED} from here …]\n`));
    }
    return Bun.sleep(next.waitMs);
  };
  return {
    path,
    ...(error ? { error } : {}),
    writer() {
      open++;
      const lines = hide && heldLines(hide, write);
      return (chunk) => {
        if (chunk) {
          if (lines) lines.push(chunk);
          else write(chunk);
          return wait(chunk.length);
        }
        lines?.end();
        if (--open === 0 && fd !== undefined) closeSync(fd);
        if (open === 0) fd = undefined;
        return undefined;
      };
    },
  };
}

/**
 * One pipe's chunks, hidden a whole line at a time before `write`: a secret cut between two chunks is
 * still seen. A line's start without its end is written after PARTIAL_LINE_MS (a prompt), or once it is long.
 */
function heldLines(hide: (text: string) => string, write: (bytes: Uint8Array) => void) {
  let held = new Uint8Array(0);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (held.length > 0) write(hiddenBytes(held, hide));
    held = new Uint8Array(0);
  };
  return {
    push(chunk: Uint8Array) {
      const all = held.length === 0 ? chunk : concatBytes(held, chunk);
      const end = all.lastIndexOf(10) + 1;
      if (end > 0) write(hiddenBytes(all.subarray(0, end), hide));
      held = all.slice(end);
      clearTimeout(timer);
      timer = undefined;
      if (held.length >= LINE_HOLD_BYTES) flush();
      else if (held.length > 0) {
        timer = setTimeout(flush, PARTIAL_LINE_MS);
        timer.unref?.();
      }
    },
    end: flush,
  };
}

function writeAt(fd: number, bytes: Uint8Array, position: number): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at, position + at);
}
