// Appending a few lines to a file that a full disk may cut short, so that trying again later never
// writes a line twice: what a failed write left is cut off before the error is given back.
import { appendFileSync, closeSync, fstatSync, ftruncateSync, openSync } from "node:fs";

/**
 * Appends `text` to `file` (created with `mode`) whole or not at all: what a failed write (a full
 * disk, `ulimit -f`) left of it is cut off again, so a retry writes each line once. Undefined when
 * written; else the error, with `torn` when even the cut failed (the file then ends in a broken
 * line, and `text` should start a line of its own). Never throws.
 */
export function appendWhole(file: string, text: string, mode: number): { error: unknown; torn: boolean } | undefined {
  let fd: number | undefined;
  let size = 0;
  try {
    fd = openSync(file, "a", mode);
    size = fstatSync(fd).size;
    appendFileSync(fd, text);
    return undefined;
  } catch (error) {
    if (fd === undefined) return { error, torn: false };
    try {
      ftruncateSync(fd, size);
      return { error, torn: false };
    } catch {
      return { error, torn: true };
    }
  } finally {
    if (fd !== undefined)
      try {
        closeSync(fd);
      } catch {}
  }
}
