// A session's header: read from an open file (the writer's, to write it back), and repaired when
// damaged (reader.ts resumeSession): the header is written over the damaged first line in place,
// or the file is copied behind a new one and renamed over it.
import { closeSync, constants, fstatSync, fsyncSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { parseHeader, type SessionHeader } from "./format.ts";
import { closeQuietly, linesForward, openSessionFile } from "./lines.ts";
import { copyBytes, writeAll } from "../fs/fd-bytes.ts";
import { diskProblem } from "../fs/dir-problem.ts";
import { dirSync } from "../fs/dir-sync.ts";
import { errorText } from "../kernel/errors.ts";

/**
 * Writes `header` as the first line of the session at `path` (the caller holds its lock): over the
 * damaged first line when it fits (padded with spaces, which JSON allows), else by copying the file
 * behind it into a temporary file renamed over the old one. `keepFirst`: the first line is an
 * entry (the header is missing, not damaged) and stays, after the header.
 */
export function repairHeader(path: string, header: SessionHeader, keepFirst: boolean): void {
  try {
    rewriteHeader(path, header, keepFirst);
  } catch (e) {
    // the copy is made beside the file and renamed over it only when whole: nothing of it was lost
    throw new Error(`cannot repair the damaged header of ${path}: ${diskProblem(e, path) ?? errorText(e)}; the file is as it was`, { cause: e });
  }
}

function rewriteHeader(path: string, header: SessionHeader, keepFirst: boolean): void {
  const line = Buffer.from(JSON.stringify(header));
  const fd = openSessionFile(path, constants.O_RDWR);
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(COPY_CHUNK);
    let firstEnd = 0; // the first newline, or the end of the file
    for (let n: number; firstEnd < size && (n = readSync(fd, buf, 0, Math.min(COPY_CHUNK, size - firstEnd), firstEnd)) > 0; ) {
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) {
        firstEnd += nl;
        break;
      }
      firstEnd += n;
    }
    if (!keepFirst && line.length <= firstEnd) {
      const padded = Buffer.alloc(firstEnd, 0x20);
      line.copy(padded);
      for (let done = 0; done < padded.length; ) done += writeSync(fd, padded, done, padded.length - done, done);
      fsyncSync(fd);
      return;
    }
    const tmp = `${path}.repair-${process.pid}`;
    const out = openSessionFile(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    try {
      const head = Buffer.concat([line, Buffer.from("\n")]);
      writeAll(out, head);
      copyBytes(fd, out, keepFirst ? 0 : Math.min(size, firstEnd + 1), size);
      fsyncSync(out);
    } catch (e) {
      closeQuietly(out);
      unlinkSync(tmp);
      throw e;
    }
    closeSync(out);
    renameSync(tmp, path);
    dirSync.run(dirname(path));
  } finally {
    closeQuietly(fd);
  }
}

const COPY_CHUNK = 1024 * 1024;

/** The first line of the file when it is a session header (a resumed file's), with its newline. */
export function headerLine(fd: number, size: number): string | undefined {
  const first = linesForward(fd, Math.min(size, HEADER_MAX_BYTES)).next();
  return !first.done && first.value.terminated && parseHeader(first.value.text) ? `${first.value.text}\n` : undefined;
}

/** A header line is ~150 bytes and its directory's path; one longer than this is not written back. */
const HEADER_MAX_BYTES = 64 * 1024;
