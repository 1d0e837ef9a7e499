// Reading a session file by lines without loading it whole: forward from an offset (the head, a
// found entry) and backward from the end (resume's window); opening one without following a link.
// Shared by the reader and the writer.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Resume reads backwards this much at a time: a few hundred typical messages per read. */
export const TAIL_CHUNK = 256 * 1024;

/** Lines from byte `from` up to byte `limit`; a line the limit cuts is not `terminated`. */
export function* linesForward(fd: number, limit: number, from = 0): Generator<{ text: string; end: number; terminated: boolean }> {
  let offset = from; // file offset of buf[0]
  let buf = Buffer.alloc(0);
  let searched = 0;
  for (;;) {
    const nl = buf.indexOf(10, searched);
    if (nl >= 0) {
      yield { text: buf.toString("utf8", 0, nl), end: offset + nl, terminated: true };
      buf = buf.subarray(nl + 1);
      offset += nl + 1;
      searched = 0;
      continue;
    }
    searched = buf.length;
    const want = Math.min(64 * 1024, limit - offset - buf.length);
    const chunk = Buffer.allocUnsafe(Math.max(0, want));
    const n = want > 0 ? readSync(fd, chunk, 0, want, offset + buf.length) : 0;
    if (n === 0) {
      if (buf.length > 0) yield { text: buf.toString("utf8"), end: offset + buf.length, terminated: false };
      return;
    }
    buf = Buffer.concat([buf, chunk.subarray(0, n)]);
  }
}

export interface TailLine {
  buf: Buffer;
  start: number;
  end: number;
  /** file offset of the line's first byte */
  offset: number;
  /** false only for a last line without its newline */
  terminated: boolean;
}

/** Lines from the end of the file to its start, read in TAIL_CHUNK pieces (bigger for a longer line). */
export function* linesBackward(fd: number, size: number): Generator<TailLine> {
  let pos = size; // bytes before pos are not read yet
  let carry = Buffer.alloc(0); // the start of a line that began before pos
  let last = true;
  while (pos > 0 || carry.length > 0) {
    const from = Math.max(0, pos - Math.max(TAIL_CHUNK, carry.length));
    const chunk = Buffer.allocUnsafe(pos - from);
    for (let got = 0; got < chunk.length; ) {
      const n = readSync(fd, chunk, got, chunk.length - got, from + got);
      if (n === 0) throw new Error("the session file shrank while it was read");
      got += n;
    }
    const buf = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
    let end = buf.length;
    for (;;) {
      const nl = end > 0 ? buf.lastIndexOf(10, end - 1) : -1;
      if (nl < 0 && from > 0) break;
      const start = nl + 1;
      if (!(last && start === end)) yield { buf, start, end, offset: from + start, terminated: !last };
      last = false;
      if (nl < 0) return;
      end = nl;
    }
    carry = buf.subarray(0, end);
    pos = from;
  }
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
    if ((e as NodeJS.ErrnoException).code === "ELOOP") throw new Error(`${path} is a symbolic link; hey does not follow links for its own files`);
    throw e;
  }
  if (!fstatSync(fd).isFile()) {
    closeQuietly(fd);
    throw new Error(`${path} is not a regular file`);
  }
  return fd;
}

/** Closes `fd`, ignoring errors: there is nothing left to save. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed or the disk went away: nothing left to save
  }
}
