// Files hey owns inside a project or the user's directories (SPEC §24: `.hey/task.md`, sessions,
// full-output files, trust.json, history) are never read or written through a symbolic link: a
// repository that ships `.hey/task.md → ~/.bashrc` must not get hey's hand-off appended to the
// user's shell profile, nor a link to a private key read into a request.
import { constants, closeSync, fstatSync, lstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { errnoCode } from "../kernel/errors.ts";
import { concatBytes } from "./output-text.ts";
import { decodeText, utf16Of, wholeCharacters } from "./text-encoding.ts";

/** A file of hey's that is a link, a directory or a device: refused, never followed. */
export class OwnFileError extends Error {
  override name = "OwnFileError";
}

/**
 * Throws OwnFileError when `path` or its directory is a symbolic link, or `path` exists and is not
 * a regular file. A missing file (or directory) is fine: hey creates it.
 */
export function checkOwnFile(path: string): void {
  for (const [p, want] of [
    [dirname(path), "directory"],
    [path, "file"],
  ] as const) {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(p);
    } catch {
      continue; // missing: nothing to follow
    }
    if (st.isSymbolicLink()) throw new OwnFileError(`${p} is a symbolic link; hey does not follow links for its own files`);
    if (want === "file" ? !st.isFile() : !st.isDirectory()) throw new OwnFileError(`${p} is not a regular ${want}`);
  }
}

/**
 * The text of `path` read without following a link (O_NOFOLLOW, then a regular-file check on the
 * open descriptor), at most `maxBytes` of it — its start, or its end with `tail` — (`truncated`
 * says whether there was more, `size` is the whole file's bytes, `bytes` those read), as UTF-8, by
 * `decode`, or with `text` as read_file decodes a file a person may have written (text-encoding.ts:
 * UTF-16 by the byte-order mark at its start, even when only its end is read; without the mark);
 * undefined when the file does not exist. Throws OwnFileError for a link or a non-regular file, the system error otherwise.
 */
export function readOwnFile(
  path: string,
  maxBytes: number,
  opts: { tail?: boolean; decode?: (bytes: Uint8Array) => string; text?: boolean } = {},
): { text: string; truncated: boolean; size: number; bytes: Uint8Array } | undefined {
  checkOwnFile(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new OwnFileError(`${path} is a symbolic link; hey does not follow links for its own files`);
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new OwnFileError(`${path} is not a regular file`);
    let want = Math.min(st.size, maxBytes);
    let start = opts.tail ? st.size - want : 0;
    const mark = opts.text && start > 0 ? utf16Mark(fd) : undefined;
    if (mark && start % 2 === 1) [start, want] = [start + 1, want - 1]; // whole UTF-16 code units
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, start + got);
      if (n === 0) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    const truncated = st.size > got;
    let text: string;
    if (opts.text) text = decodeText(mark ? concatBytes(mark, bytes) : truncated && start === 0 ? wholeCharacters(bytes) : bytes).text.replace(/^\uFEFF/, "");
    else text = opts.decode ? opts.decode(bytes) : buf.toString("utf8", 0, got);
    return { text, truncated, size: st.size, bytes };
  } finally {
    closeSync(fd);
  }
}

/** The UTF-16 byte-order mark the file open as `fd` starts with, if it does. */
function utf16Mark(fd: number): Uint8Array | undefined {
  const head = Buffer.alloc(2);
  return readSync(fd, head, 0, 2, 0) === 2 && utf16Of(head) ? head : undefined;
}

/**
 * Appends `text` to `path` (created 0600, its directory 0700 when missing), never through a link.
 * A last line a crash left without its newline (`text` being lines) is ended first, so the new
 * line is not glued to it. Throws OwnFileError for a link or a non-regular file, the system error otherwise.
 */
export function appendOwnFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  checkOwnFile(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600); // read too: the last byte
  } catch (e) {
    if (errnoCode(e) === "ELOOP") throw new OwnFileError(`${path} is a symbolic link; hey does not follow links for its own files`);
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new OwnFileError(`${path} is not a regular file`);
    const last = Buffer.alloc(1);
    const torn = text.endsWith("\n") && st.size > 0 && readSync(fd, last, 0, 1, st.size - 1) === 1 && last[0] !== 10;
    const bytes = Buffer.from(torn ? `\n${text}` : text);
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
  } finally {
    closeSync(fd);
  }
}
