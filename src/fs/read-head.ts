// Bounded reads of text files hey reads but does not own (AGENTS.md, skills): at most `maxBytes`
// of the file, whatever its size, so a huge or endless file cannot stall start-up or fill the
// prompt. Links are followed; whether a link may be followed is the caller's decision.
import { closeSync, constants, fstatSync, openSync, type PathLike, readSync, realpathSync } from "node:fs";
import { decodeText, type Encoding, wholeCharacters } from "./text-encoding.ts";

/**
 * Whether `path` is, links followed, /dev/null (a device that reads as an empty file: `GIT_CONFIG_GLOBAL=/dev/null`);
 * `real` finds where the links lead (fs/root-probe.ts realPathAt shares it while hey starts).
 */
export function isDevNull(path: string, real: (path: string) => string = realpathSync): boolean {
  try {
    return real(path) === "/dev/null";
  } catch {
    return false;
  }
}

/** `noFollow`: a link at `path` itself is not followed (ELOOP), for a path whose links the caller resolved and checked. */
export interface Reading {
  noFollow?: boolean;
}

/**
 * The first `maxBytes` of `path` as UTF-8 (a character cut at the limit becomes U+FFFD);
 * `truncated` says whether the file is longer. Throws as readHeadBytes does.
 */
export function readHead(path: string, maxBytes: number, how: Reading = {}): { text: string; truncated: boolean } {
  const { bytes, size } = readHeadBytes(path, maxBytes, how);
  return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8"), truncated: size > bytes.length };
}

/**
 * The first `maxBytes` of `path` as text, decoded as read_file decodes a file (text-encoding.ts):
 * UTF-16 by its byte-order mark (Windows PowerShell 5.1's `>` and Out-File write it so), else UTF-8,
 * else Windows-1252; `encoding` says which. A byte-order mark stays, as U+FEFF; a character cut at
 * the limit is left out. For the files hey reads as text it is told (config, AGENTS.md); a file git
 * or ripgrep reads too (.gitignore) is read with readHead, as they read it. Throws as readHeadBytes does.
 */
export function readHeadText(path: string, maxBytes: number, how: Reading = {}): { text: string; truncated: boolean; encoding: Encoding } {
  const { bytes, size } = readHeadBytes(path, maxBytes, how);
  const truncated = size > bytes.length;
  const { text, encoding } = decodeText(truncated ? wholeCharacters(bytes) : bytes);
  return { text, truncated, encoding };
}

const CHUNK_BYTES = 64 * 1024;

/**
 * The first `maxBytes` bytes of a file whose size stat gives as 0 — empty, or written by the kernel
 * as it is read (/proc/cpuinfo) — read to its end; its size is what was read, one byte more when
 * there is more. Opened non-blocking, a read that would wait throws EAGAIN.
 */
function readUnsized(fd: number, maxBytes: number): { bytes: Uint8Array; size: number } {
  const chunks: Buffer[] = [];
  let got = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(maxBytes - got, 1)));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    if (got >= maxBytes) return { bytes: Buffer.concat(chunks), size: got + n };
    chunks.push(chunk.subarray(0, n));
    got += n;
  }
  return { bytes: Buffer.concat(chunks), size: got };
}

/**
 * The first `maxBytes` bytes of the regular file `path` and its size (for a file stat gives as empty,
 * as readUnsized reads it); never reads more. Throws
 * the system error (ENOENT, EACCES…), or an error with code EISDIR / EINVAL when `path` is a
 * directory or not a regular file (a FIFO is opened non-blocking, so it cannot hang the read).
 */
export function readHeadBytes(path: PathLike, maxBytes: number, how: Reading = {}): { bytes: Uint8Array; size: number } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (how.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0));
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: "EISDIR" });
    if (!st.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "EINVAL" });
    if (st.size === 0) return readUnsized(fd, maxBytes);
    const want = Math.min(st.size, maxBytes);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: buf.subarray(0, got), size: st.size };
  } finally {
    closeSync(fd);
  }
}
