// Bytes written to and copied between open files, however many system calls it takes: a write may
// take fewer bytes than it was given. Used by the session writer (sessions/vanished.ts) and the bash
// tool's capped output files (tools/capture.ts).
import { readSync, writeSync } from "node:fs";

const COPY_CHUNK = 1024 * 1024;

/** Appends the bytes [from, to) of `src` to `out` (at its position), a chunk at a time. */
export function copyBytes(src: number, out: number, from: number, to: number): void {
  const buf = Buffer.allocUnsafe(COPY_CHUNK);
  for (let at = from, n: number; at < to && (n = readSync(src, buf, 0, Math.min(COPY_CHUNK, to - at), at)) > 0; at += n) writeAll(out, buf.subarray(0, n));
}

/** Writes all of `bytes` at the file's position (its end when opened for appending). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}
