// Appending a few lines to a file that a full disk may cut short, so that trying again later never
// writes a line twice: what a failed write left is cut off before the error is given back.
import * as nodeFs from "node:fs";

/** The calls appendWhole makes: node:fs's, or a test's that fail where a disk would. */
export type AppendCalls = Pick<typeof nodeFs, "openSync" | "fstatSync" | "writeSync" | "ftruncateSync" | "closeSync">;

/**
 * Appends `text` to `file` (created with `mode`) whole or not at all: what a failed write (a full
 * disk, `ulimit -f`) left of it is cut off again, so a retry writes each line once. The cut goes
 * back only to the size measured just before this write, and only while the file is exactly as long
 * as that write made it: another hey's lines appended meanwhile are never cut, a file another
 * process truncated meanwhile is never grown back (with NUL bytes), and a size that could not be
 * measured cuts nothing. The file is opened for appending (O_APPEND), so a write always lands at
 * the file's real end, never past it. Undefined when written; else the error, with `torn` when
 * part of `text` may be left (the file then ends in a broken line, and `text` should start a line
 * of its own). Never throws.
 */
export function appendWhole(file: string, text: string, mode: number, fs: AppendCalls = nodeFs): { error: unknown; torn: boolean } | undefined {
  let fd: number | undefined;
  let size: number | undefined;
  let written = 0;
  try {
    fd = fs.openSync(file, "a", mode);
    size = fs.fstatSync(fd).size;
    const bytes = Buffer.from(text);
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written);
    return undefined;
  } catch (error) {
    if (fd === undefined || size === undefined) return { error, torn: false }; // nothing of `text` was written
    try {
      const now = fs.fstatSync(fd).size;
      if (written === 0) return { error, torn: false };
      // not exactly `size` and this write's bytes: another writer's lines came after `size` (left whole), or the file was cut
      // shorter meanwhile (another process truncated it), where a cut back to `size` would grow it with NUL bytes
      if (now !== size + written) return { error, torn: true };
      fs.ftruncateSync(fd, size);
      return { error, torn: false };
    } catch {
      return { error, torn: written > 0 };
    }
  } finally {
    if (fd !== undefined)
      try {
        fs.closeSync(fd);
      } catch {}
  }
}
