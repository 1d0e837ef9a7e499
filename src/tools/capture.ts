// Reading a child's stdout or stderr to the end in bounded memory (SPEC §7): small output stays in
// memory; past `memoryBytes` it goes to a spill file (the full output, byte for byte, up to
// `fileBytes`: of a runaway stream the file keeps the first and last half of that, and says what it
// dropped between) and memory keeps only its first and last `keepBytes`, with counts of what lies
// between. Also how long a child's pipes are read after it exited (`drained`), and handing a pipe
// a job still holds on to a reader that outlives the call, for the bash tool and `!COMMAND`.
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import type { Hidden } from "./bash-output.ts";
import { errorText } from "../kernel/errors.ts";
import { cutEdges, decodeOutput } from "../fs/output-text.ts";
import { copyBytes } from "../fs/fd-bytes.ts";
import { collectAsRead } from "./garbage-watch.ts";

export interface CaptureLimits {
  /** beyond this many bytes the stream spills to a file */
  memoryBytes: number;
  /** of a spilled stream, memory keeps this many bytes from its start and at least this many from its end */
  keepBytes: number;
  /** the spill file holds at most this many bytes of the stream: its first half and its last (CAPTURE_LIMITS' by default) */
  fileBytes?: number;
}

/**
 * 1 MB: output up to this is filtered straight from memory. Kept (head + tail) ≥ half the result's
 * 50 KB byte budget at each end, so the cut that truncation makes never reaches the hidden middle.
 * 64 MB in a spill file: `yes` for the 2 minutes of a default timeout would fill gigabytes of the
 * user's disk (the outputs' 500 MB cap applies only at start-up), and filtering them holds the
 * call up for minutes; a build log's errors are at its start or its end.
 */
export const CAPTURE_LIMITS: Required<CaptureLimits> = { memoryBytes: 1 << 20, keepBytes: 64 << 10, fileBytes: 64 << 20 };

export interface Captured {
  /** all of it, or (when `hidden` is not zero) its first bytes */
  head: string;
  /** all of it as read, when it stayed in memory: the full-output file keeps bytes that are not UTF-8 as they were */
  raw?: Uint8Array;
  /** "" or, when the middle is hidden, its last bytes */
  tail: string;
  /** what lies between `head` and `tail`; zero when `head` is all of it */
  hidden: Hidden;
  bytes: number;
  /** bytes of `head` and `tail` that are not UTF-8, shown as Windows-1252 characters (fs/output-text.ts) */
  foreign: number;
  /** the file holding all of it, when it outgrew memory and the file could be written */
  spill?: string;
  /** why a stream that outgrew memory could not be kept whole */
  spillError?: string;
  /** what the spill file lacks from the middle of a stream longer than `fileBytes` (a line there says so too) */
  dropped?: Hidden;
  /** mostly binary data (an image, an executable): not text to show */
  binary?: true;
}

export interface Capture {
  /** settles when the stream ends (or breaks) */
  done: Promise<void>;
  /**
   * Returns what was read. A pipe still open (a job the command left in the background holds it)
   * is closed, or with `later`, read on: each later chunk goes to the writer `later` gives, then
   * `undefined` once the pipe ends; the pipe is read again once what the writer returns settles (a job read at a rate). Never throws.
   */
  finish(later?: () => Writer): Promise<Captured>;
}

/** A pipe being read. */
export interface PipeReading {
  /** settles when the pipe ends (every writer closed it) or breaks; never rejects */
  done: Promise<void>;
  /** stops reading and closes the pipe: a writer still holding it gets EPIPE. Never throws. */
  stop(): Promise<void>;
}

/** Where a pipe's chunks go, then `undefined` at its end; what it returns is waited for before the next read. */
export type Writer = (chunk: Uint8Array | undefined) => Promise<void> | undefined;

/**
 * Reads `stream` until it ends, breaks or `stop` is called, each chunk to `take` as it arrives;
 * when `take` returns a promise, the next read waits for it (the writer of the pipe waits meanwhile).
 */
export function readPipe(stream: ReadableStream<Uint8Array>, take: (chunk: Uint8Array) => Promise<void> | undefined | void): PipeReading {
  const reader = stream.getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const wait = take(value);
        if (wait) await wait;
      }
    } catch {} // a cancelled or broken pipe ends the output; what was read is kept
  })();
  const stop = async () => {
    await reader.cancel().catch(() => {});
    await done;
  };
  return { done, stop };
}

/** Grandchildren (`server &`) can hold the pipes open long after the shell exited or was killed. */
const IO_DRAIN_MS = 200;
/**
 * How long the end of the pipes is waited for past IO_DRAIN_MS once no process is seen that could
 * hold them: their end is late only because hey got no CPU in time (a loaded machine: a build
 * running), unless a process that left the command's group unseen holds them (`setsid server &`
 * where its mark cannot be read: macOS), which is then reported this much later.
 */
const LATE_END_MS = 3000;

/**
 * For once the child has exited: what is still in its pipes arrives at once, and anything later
 * comes from a grandchild holding them open. Settles when every pipe has ended; after IO_DRAIN_MS
 * when `mayHold` says a process may still hold them (a job the command left running); else when
 * they end or LATE_END_MS later. `mayHold` (default: always) must not reject.
 */
export async function drained(pipes: { done: Promise<void> }[], mayHold: () => Promise<boolean> = async () => true): Promise<void> {
  const ended = Promise.all(pipes.map((p) => p.done));
  if (await within(ended, IO_DRAIN_MS)) return;
  if (!(await mayHold())) await within(ended, LATE_END_MS);
}

/** Whether `promise` settles within `ms` (its timer cleared when it does, so no timer keeps the process up). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true as const), late]);
  clearTimeout(timer);
  return settled;
}

/**
 * Reads `stream` until it ends or `finish` is called. `spillPath` (opened 0600, exclusively) holds
 * all of the output once it exceeds `limits.memoryBytes`, up to `limits.fileBytes`; without it, or
 * when it cannot be written, only the head and tail are kept and `spillError` says why.
 */
export function capture(
  stream: ReadableStream<Uint8Array>,
  spillPath: (() => string) | undefined,
  limits: CaptureLimits = CAPTURE_LIMITS,
  /** also told of each chunk as it arrives (the live tail a terminal shows) */
  listen?: (chunk: Uint8Array) => void,
): Capture {
  let memory: Uint8Array[] = []; // all of it, until it outgrows memory
  let memoryBytes = 0;
  let head: Uint8Array | undefined; // once spilled
  let tail: Uint8Array[] = [];
  let tailBytes = 0;
  let bytes = 0;
  let newlines = 0;
  let probe: Uint8Array | undefined; // the first BINARY_PROBE bytes, once spilled
  const file = spillFile(spillPath, limits.fileBytes ?? CAPTURE_LIMITS.fileBytes);

  const keepTail = (chunk: Uint8Array) => {
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tail.length > 1 && tailBytes - tail[0]!.length >= limits.keepBytes) tailBytes -= tail.shift()!.length;
  };
  /** The stream just outgrew memory: everything so far goes to the file, memory keeps both ends. */
  const overflow = () => {
    const all = concat(memory);
    memory = [];
    head = all.slice(0, limits.keepBytes);
    probe = all.slice(0, BINARY_PROBE);
    keepTail(all.slice(Math.max(limits.keepBytes, all.length - limits.keepBytes)));
    file.open();
    file.write(all);
  };
  const keep = (chunk: Uint8Array) => {
    bytes += chunk.length;
    newlines += countNewlines(chunk);
    if (head === undefined) {
      memory.push(chunk);
      memoryBytes += chunk.length;
      if (memoryBytes > limits.memoryBytes) overflow();
      return;
    }
    file.write(chunk);
    keepTail(chunk);
    collectAsRead(chunk.length); // the chunks a fast command prints pile up past the tail kept: 50 MB of `cat` peaked ~20 MB higher
  };
  let later: Writer | undefined;
  let ended = false;
  const pipe = readPipe(stream, (chunk) => {
    if (later) return later(chunk);
    keep(chunk);
    listen?.(chunk);
  });
  void pipe.done.then(() => {
    ended = true;
    later?.(undefined);
  });

  const finish = async (handOver?: () => Writer): Promise<Captured> => {
    if (handOver && !ended) later = handOver();
    else await pipe.stop();
    if (head === undefined) {
      const raw = concat(memory);
      memory = [];
      const { text, foreign } = decodeOutput(raw);
      return { head: text, raw, tail: "", hidden: { lines: 0, bytes: 0 }, bytes, foreign, ...binary(raw) };
    }
    const kept = file.close(newlines);
    // the hidden middle begins and ends at a line's end: a line cut in two would read as two whole
    // lines around what stands for the middle (`12774` kept as `1277`). Only a line longer than a
    // kept end is cut, at a character, never inside one; when the head is such a piece, the tail is
    // left as cut too: trimmed to a line's start it would be glued to that piece where head and tail are joined
    const all = concat(tail);
    tail = [];
    const headEnd = head.lastIndexOf(10);
    const first = headEnd >= 0 ? head.subarray(0, headEnd + 1) : head.subarray(0, head.length - cutEdges(head).end);
    const tailStart = headEnd >= 0 ? all.indexOf(10) : -1;
    const end = tailStart >= 0 && tailStart < all.length - 1 ? all.subarray(tailStart + 1) : all.subarray(cutEdges(all).start);
    const hidden = { lines: newlines - countNewlines(first) - countNewlines(end), bytes: bytes - first.length - end.length };
    const [shownHead, shownTail] = [decodeOutput(first), decodeOutput(end)];
    const foreign = shownHead.foreign + shownTail.foreign;
    return { head: shownHead.text, tail: shownTail.text, hidden, bytes, foreign, ...kept, ...binary(probe!) };
  };
  return { done: pipe.done, finish };
}

/**
 * A spill file that keeps at most `cap` bytes: the first half as they come, then the last half in a
 * second file used as a ring (`.tail`, written in place, so a runaway stream costs no more disk),
 * appended to the first with a line saying what was dropped between when the stream ends.
 */
function spillFile(path: (() => string) | undefined, cap: number) {
  const half = Math.max(1, Math.floor(cap / 2));
  let name: string | undefined;
  let fd: number | undefined;
  let ring: number | undefined;
  let filed = 0; // bytes in the first half
  let filedLines = 0;
  let ringAt = 0; // bytes ever written to the ring
  let error: string | undefined;

  const fail = (e: unknown) => {
    for (const f of [fd, ring]) if (f !== undefined) closeSync(f); // disk full: memory still holds head and tail
    if (name) for (const f of [name, `${name}.tail`]) rmSync(f, { force: true }); // a part is no full output
    fd = ring = name = undefined;
    error = errorText(e);
  };
  const writeAll = (to: number, chunk: Uint8Array, position?: number) => {
    for (let at = 0; at < chunk.length; ) at += writeSync(to, chunk, at, chunk.length - at, position === undefined ? null : position + at);
  };
  return {
    open() {
      if (!path) return void (error = "no file to keep it in");
      try {
        const p = path();
        fd = openSync(p, "wx", 0o600);
        name = p;
      } catch (e) {
        error = errorText(e);
      }
    },
    write(chunk: Uint8Array) {
      if (fd === undefined) return;
      try {
        const first = chunk.subarray(0, Math.max(0, half - filed));
        if (first.length > 0) {
          writeAll(fd, first);
          filed += first.length;
          filedLines += countNewlines(first);
        }
        let rest = chunk.subarray(first.length);
        if (rest.length > 0) ring ??= openSync(`${name}.tail`, "wx+", 0o600);
        while (rest.length > 0) {
          const n = Math.min(rest.length, half - (ringAt % half));
          writeAll(ring!, rest.subarray(0, n), ringAt % half);
          ringAt += n;
          rest = rest.subarray(n);
        }
      } catch (e) {
        fail(e);
      }
    },
    /** Closes the file, the last half in place (the stream had `lines` newlines); what the caller's Captured says of it. */
    close(lines: number): Pick<Captured, "spill" | "spillError" | "dropped"> {
      if (fd === undefined) return { spillError: error };
      let dropped: Hidden | undefined;
      try {
        if (ring !== undefined) {
          const at = ringAt % half;
          const parts: [number, number][] =
            ringAt <= half
              ? [[0, ringAt]]
              : [
                  [at, half],
                  [0, at],
                ];
          if (ringAt > half) {
            let ringLines = 0;
            for (const [from, to] of parts) ringLines += countRange(ring, from, to);
            dropped = { bytes: ringAt - half, lines: lines - filedLines - ringLines };
            writeAll(
              fd,
              new TextEncoder().encode(
                `\n[… ${sizeText(dropped.bytes)} (${dropped.lines} lines) dropped here: a full output keeps the first and last ${sizeText(half)} of each stream …]\n`,
              ),
            );
          }
          for (const [from, to] of parts) copyBytes(ring, fd, from, to);
        }
      } catch (e) {
        fail(e);
        return { spillError: error };
      } finally {
        if (ring !== undefined) {
          closeSync(ring);
          rmSync(`${name}.tail`, { force: true });
        }
        if (fd !== undefined) closeSync(fd);
      }
      const spill = name;
      fd = ring = undefined;
      return { spill, ...(dropped ? { dropped } : {}) };
    },
  };
}

const COPY_BYTES = 1 << 20;

function countRange(fd: number, start: number, end: number): number {
  const buffer = new Uint8Array(COPY_BYTES);
  let lines = 0;
  for (let at = start; at < end; ) {
    const n = readSync(fd, buffer, 0, Math.min(COPY_BYTES, end - at), at);
    if (n === 0) break;
    lines += countNewlines(buffer.subarray(0, n));
    at += n;
  }
  return lines;
}

/** A size as a result says it: `64 MB`, `1.7 GB`, `12 KB`, `300 bytes`. */
export const sizeText = (bytes: number): string =>
  bytes >= 1 << 30
    ? `${+(bytes / (1 << 30)).toFixed(1)} GB`
    : bytes >= 1 << 20
      ? `${+(bytes / (1 << 20)).toFixed(1)} MB`
      : bytes >= 1024
        ? `${Math.round(bytes / 1024)} KB`
        : `${bytes} bytes`;

/** Bytes read for the test of binary data (git's is a NUL byte among its first 8000). */
const BINARY_PROBE = 8192;
/** Of those, at least this share is no text (NUL, control bytes, bytes that are not UTF-8) in binary data: an image, an executable. */
const BINARY_SHARE = 0.3;

/**
 * `{binary: true}` when `bytes` start as binary data does: a NUL byte and mostly bytes that are no
 * text. A few NULs in text (`cat /proc/self/environ`, a log with a stray one) leave it text.
 */
function binary(bytes: Uint8Array): { binary?: true } {
  const probe = bytes.subarray(0, BINARY_PROBE);
  if (!probe.includes(0)) return {};
  let odd = decodeOutput(probe, true).foreign;
  for (const b of probe) if ((b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 8 && b !== 27) || b === 127) odd++;
  return odd >= probe.length * BINARY_SHARE ? { binary: true } : {};
}

function countNewlines(chunk: Uint8Array): number {
  let n = 0;
  for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) n++;
  return n;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}
