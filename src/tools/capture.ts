// Reading a child's stdout or stderr to the end in bounded memory (SPEC §7): small output stays in
// memory; past MEMORY_CAP_BYTES all of it goes to a spill file (the full output, byte for byte)
// and memory keeps only its first and last KEEP_BYTES, with counts of what lies between. Also how
// long a child's pipes are read after it exited (`drained`), for the bash tool and `!COMMAND`.
import { closeSync, openSync, writeSync } from "node:fs";
import type { Hidden } from "./bash-output.ts";
import { errorText } from "../kernel/errors.ts";
import { cutEdges, decodeOutput } from "../fs/output-text.ts";

export interface CaptureLimits {
  /** beyond this many bytes the stream spills to a file */
  memoryBytes: number;
  /** of a spilled stream, memory keeps this many bytes from its start and at least this many from its end */
  keepBytes: number;
}

/**
 * 1 MB: output up to this is filtered straight from memory. Kept (head + tail) ≥ half the result's
 * 50 KB byte budget at each end, so the cut that truncation makes never reaches the hidden middle.
 */
export const CAPTURE_LIMITS: CaptureLimits = { memoryBytes: 1 << 20, keepBytes: 64 << 10 };

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
}

export interface Capture {
  /** settles when the stream ends (or breaks) */
  done: Promise<void>;
  /** stops reading (a grandchild may hold the pipe open) and returns what was read. Never throws. */
  finish(): Promise<Captured>;
}

/** A pipe being read. */
export interface PipeReading {
  /** settles when the pipe ends (every writer closed it) or breaks; never rejects */
  done: Promise<void>;
  /** stops reading and closes the pipe: a writer still holding it gets EPIPE. Never throws. */
  stop(): Promise<void>;
}

/** Reads `stream` until it ends, breaks or `stop` is called, each chunk to `take` as it arrives. */
export function readPipe(stream: ReadableStream<Uint8Array>, take: (chunk: Uint8Array) => void): PipeReading {
  const reader = stream.getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        take(value);
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
 * For once the child has exited: what is still in its pipes arrives at once, and anything later
 * comes from a grandchild holding them open. Settles when every pipe has ended, or after IO_DRAIN_MS.
 */
export const drained = (pipes: { done: Promise<void> }[]): Promise<unknown> => Promise.race([Promise.all(pipes.map((p) => p.done)), Bun.sleep(IO_DRAIN_MS)]);

/**
 * Reads `stream` until it ends or `finish` is called. `spillPath` (opened 0600, exclusively) holds
 * all of the output once it exceeds `limits.memoryBytes`; without it, or when it cannot be
 * written, only the head and tail are kept and `spillError` says why.
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
  const tail: Uint8Array[] = [];
  let tailBytes = 0;
  let bytes = 0;
  let newlines = 0;
  let fd: number | undefined;
  let spill: string | undefined;
  let spillError: string | undefined;

  const write = (chunk: Uint8Array) => {
    if (fd === undefined) return;
    try {
      for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
    } catch (e) {
      closeSync(fd); // disk full: memory still holds head and tail
      fd = undefined;
      spill = undefined;
      spillError = errorText(e);
    }
  };
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
    keepTail(all.slice(Math.max(limits.keepBytes, all.length - limits.keepBytes)));
    if (!spillPath) return void (spillError = "no file to keep it in");
    try {
      const path = spillPath();
      fd = openSync(path, "wx", 0o600);
      spill = path;
    } catch (e) {
      spillError = errorText(e);
      return;
    }
    write(all);
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
    write(chunk);
    keepTail(chunk);
  };
  const pipe = readPipe(
    stream,
    listen
      ? (chunk) => {
          keep(chunk);
          listen(chunk);
        }
      : keep,
  );

  const finish = async (): Promise<Captured> => {
    await pipe.stop();
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    if (head === undefined) {
      const raw = concat(memory);
      const { text, foreign } = decodeOutput(raw);
      return { head: text, raw, tail: "", hidden: { lines: 0, bytes: 0 }, bytes, foreign };
    }
    // a character cut in two where the hidden middle begins or ends is part of the middle
    const first = head.subarray(0, head.length - cutEdges(head).end);
    const all = concat(tail);
    const end = all.subarray(cutEdges(all).start);
    const hidden = { lines: newlines - countNewlines(first) - countNewlines(end), bytes: bytes - first.length - end.length };
    const [shownHead, shownTail] = [decodeOutput(first), decodeOutput(end)];
    const foreign = shownHead.foreign + shownTail.foreign;
    return { head: shownHead.text, tail: shownTail.text, hidden, bytes, foreign, ...(spill ? { spill } : { spillError }) };
  };
  return { done: pipe.done, finish };
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
