// Reading a session file by lines without loading it whole: forward from an offset (the head, a
// found entry) and backward from the end (resume's window); opening one without following a link.
// Shared by the reader and the writer.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { errnoCode } from "../kernel/errors.ts";

/** Resume reads backwards this much at a time: a few hundred typical messages per read. */
export const TAIL_CHUNK = 256 * 1024;
/**
 * No line longer than this is loaded (issue 13 row 4): a 200 MB first prompt would take seconds
 * and gigabytes to read and parse. Such a line comes back as its first and last bytes (`Oversized`).
 */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** What is kept of an oversized line: its start (the entry's type, id, role and first words) and its end (a tool result's call id). */
const OVERSIZED_HEAD = 64 * 1024;
const OVERSIZED_TAIL = 4 * 1024;
/** Bytes read at a time going forward. */
const FORWARD_CHUNK = 64 * 1024;
/** Bytes read at a time while skipping over an oversized line. */
const SKIP_CHUNK = 1024 * 1024;

/** A line over the limit: its first and last bytes and its length; the rest was never read into memory. */
export interface Oversized {
  head: string;
  tail: string;
  bytes: number;
}

export interface ForwardLine {
  /** the line; for an oversized one, "" (see `oversized`) */
  text: string;
  end: number;
  terminated: boolean;
  oversized?: Oversized;
}

/**
 * Lines from byte `from` up to byte `limit`; a line the limit cuts is not `terminated`. A line
 * longer than `maxLine` is skipped over and reported as `oversized`.
 */
export function* linesForward(fd: number, limit: number, from = 0, maxLine = MAX_LINE_BYTES): Generator<ForwardLine> {
  let start = from; // file offset of the current line
  let parts: Buffer[] = []; // what is read of it, when it began in an earlier chunk
  let carried = 0;
  for (let pos = from; pos < limit; ) {
    const chunk = Buffer.allocUnsafe(Math.min(FORWARD_CHUNK, limit - pos));
    const n = readSync(fd, chunk, 0, chunk.length, pos);
    if (n === 0) break;
    let at = 0;
    for (let nl = chunk.indexOf(10, at); nl >= 0 && nl < n; nl = chunk.indexOf(10, at)) {
      const piece = chunk.subarray(at, nl);
      const line = carried > 0 ? Buffer.concat([...parts, piece]) : piece;
      const end = pos + nl;
      yield line.length > maxLine
        ? { text: "", end, terminated: true, oversized: oversized(fd, line, start, end) }
        : { text: line.toString("utf8"), end, terminated: true };
      parts = [];
      carried = 0;
      at = nl + 1;
      start = end + 1;
    }
    if (at < n) {
      parts.push(chunk.subarray(at, n));
      carried += n - at;
    }
    pos += n;
    if (carried > maxLine) {
      const end = newlineAfter(fd, pos, limit);
      yield { text: "", end, terminated: end < limit, oversized: oversized(fd, parts[0]!, start, end) };
      parts = [];
      carried = 0;
      pos = start = end + 1;
    }
  }
  if (carried > 0) yield { text: Buffer.concat(parts).toString("utf8"), end: start + carried, terminated: false };
}

export interface TailLine {
  buf: Buffer;
  start: number;
  end: number;
  /** file offset of the line's first byte */
  offset: number;
  /** false only for a last line without its newline */
  terminated: boolean;
  /** the line was over the limit: `start` = `end`, its text is here */
  oversized?: Oversized;
}

/**
 * Lines from the end of the file to its start, read in TAIL_CHUNK pieces; a line longer than
 * `maxLine` is skipped over and reported as `oversized`.
 */
export function* linesBackward(fd: number, size: number, maxLine = MAX_LINE_BYTES): Generator<TailLine> {
  let parts: Buffer[] = []; // the end of a line that began before pos, in file order
  let carried = 0;
  let last = true;
  function* line(buf: Buffer, start: number, end: number, offset: number): Generator<TailLine> {
    const terminated = !last;
    last = false;
    if (end - start > maxLine) yield { buf, start: end, end, offset, terminated, oversized: oversized(fd, buf.subarray(start), offset, offset + end - start) };
    else if (terminated || start < end) yield { buf, start, end, offset, terminated };
  }
  for (let pos = size; pos > 0; ) {
    const from = Math.max(0, pos - TAIL_CHUNK);
    const chunk = Buffer.allocUnsafe(pos - from);
    for (let got = 0; got < chunk.length; ) {
      const n = readSync(fd, chunk, got, chunk.length - got, from + got);
      if (n === 0) throw new Error("the session file shrank while it was read");
      got += n;
    }
    let nl = chunk.lastIndexOf(10);
    if (nl < 0 && from > 0) {
      parts.unshift(chunk);
      carried += chunk.length;
      pos = from;
      if (carried <= maxLine) continue;
      const start = newlineBefore(fd, from) + 1;
      yield {
        buf: chunk,
        start: 0,
        end: 0,
        offset: start,
        terminated: !last,
        oversized: oversized(fd, start === from ? chunk : Buffer.alloc(0), start, from + carried),
      };
      last = false;
      parts = [];
      carried = 0;
      pos = start - 1; // the newline before it ends the next line
      continue;
    }
    // the line that ends this chunk, with what was carried of it
    const tail = chunk.subarray(nl + 1);
    const whole = carried > 0 ? Buffer.concat([tail, ...parts]) : tail;
    yield* line(whole, 0, whole.length, from + nl + 1);
    parts = [];
    carried = 0;
    for (let end = nl; nl >= 0; end = nl) {
      nl = end > 0 ? chunk.lastIndexOf(10, end - 1) : -1;
      if (nl < 0 && from > 0) {
        parts = [chunk.subarray(0, end)];
        carried = end;
        break;
      }
      yield* line(chunk, nl + 1, end, from + nl + 1);
    }
    pos = from;
  }
}

/** The offset of the first newline at or after `at` (before `limit`), else `limit`; nothing is kept. */
function newlineAfter(fd: number, at: number, limit: number): number {
  const buf = Buffer.allocUnsafe(SKIP_CHUNK);
  for (let pos = at; pos < limit; ) {
    const n = readSync(fd, buf, 0, Math.min(SKIP_CHUNK, limit - pos), pos);
    if (n === 0) return pos;
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl >= 0) return pos + nl;
    pos += n;
  }
  return limit;
}

/** The offset of the last newline before `at`, else -1; nothing is kept. */
function newlineBefore(fd: number, at: number): number {
  const buf = Buffer.allocUnsafe(SKIP_CHUNK);
  for (let end = at; end > 0; ) {
    const from = Math.max(0, end - SKIP_CHUNK);
    const n = readSync(fd, buf, 0, end - from, from);
    const nl = buf.subarray(0, n).lastIndexOf(10);
    if (nl >= 0) return from + nl;
    end = from;
  }
  return -1;
}

/** The first and last bytes of the line [start, end) as text (`known`: bytes of its start already read). */
function oversized(fd: number, known: Buffer, start: number, end: number): Oversized {
  const read = (at: number, length: number) => {
    const b = Buffer.allocUnsafe(length);
    return b.toString("utf8", 0, readSync(fd, b, 0, length, at));
  };
  const headLength = Math.min(OVERSIZED_HEAD, end - start);
  const head = known.length >= headLength ? known.toString("utf8", 0, headLength) : read(start, headLength);
  const tailLength = Math.min(OVERSIZED_TAIL, end - start);
  return { head, tail: read(end - tailLength, tailLength), bytes: end - start };
}

/**
 * Opens a session file with `flags`, never through a symbolic link (SPEC §24), and only a regular
 * file. Throws the system error, or one that says the path is a link or not a file.
 */
export function openSessionFile(path: string, flags: number): number {
  let fd: number;
  try {
    fd = openSync(path, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
  } catch (e) {
    if (errnoCode(e) === "ELOOP") throw new Error(`${path} is a symbolic link; hey does not follow links for its own files`);
    throw e;
  }
  if (!fstatSync(fd).isFile()) {
    closeQuietly(fd);
    throw new Error(`${path} is not a regular file`);
  }
  return fd;
}

/**
 * Whether the `size` bytes of `fd` are all NUL: what some file systems leave of a file whose
 * blocks were allocated but never written when the machine went down. Stops at the first other byte.
 */
export function onlyNul(fd: number, size: number): boolean {
  const buf = Buffer.allocUnsafe(Math.min(SKIP_CHUNK, size));
  for (let pos = 0, n: number; pos < size; pos += n) {
    n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n === 0 || buf.subarray(0, n).some((b) => b !== 0)) return n === 0;
  }
  return size > 0;
}

/** Closes `fd`, ignoring errors: there is nothing left to save. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed or the disk went away: nothing left to save
  }
}

/** Whether the file's byte at `size - 1` is a newline. */
export function endsWithNewline(fd: number, size: number): boolean {
  const b = Buffer.alloc(1);
  return readSync(fd, b, 0, 1, size - 1) === 1 && b[0] === 10;
}

/**
 * How far back a resume searches a session (reader.ts: before the window, for the latest summary and model entry; note-taken.ts: for the task note): ~30,000
 * typical messages. A summary older than that says little about the recent window, and the
 * search must stay cheap when a session has none (120 MB took ~50 ms warm, ~250 ms cold).
 */
export const SCAN_LIMIT = 32 * 1024 * 1024;
