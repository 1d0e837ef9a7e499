// Where the output of a job a bash command left in the background (`npm run dev &`, `server &`)
// goes once the call has returned. The job holds the command's stdout and stderr: closing hey's end
// would kill it at its next line (SIGPIPE) or fail its writes (EPIPE), and not reading them would
// block it once the pipe's 64 KB are full. So hey reads on, as long as the job writes or hey runs,
// into one file of the call's (stdout and stderr as they come, 0600) that the result names, for
// the model to read with read_file or `tail`. A job that prints for hours keeps only its last
// JOB_LOG_BYTES, with a line saying how much went before.
import { closeSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { errorText } from "../kernel/errors.ts";
import { sizeText } from "./capture.ts";

/** 8 MB: a dev server's log of a working session, not a disk filled by a job that prints in a loop. */
export const JOB_LOG_BYTES = 8 << 20;

export interface JobLog {
  /** the file, or why it could not be made (what the job prints is then read and dropped) */
  path: string;
  error?: string;
  /** a writer for one more pipe: its chunks, then `undefined` when it ends; the file closes once every pipe given one has ended */
  writer(): (chunk: Uint8Array | undefined) => void;
}

/** Creates `path` (0600, exclusively) for a job's later output, keeping at most `maxBytes`. Never throws. */
export function openJobLog(path: string, maxBytes = JOB_LOG_BYTES): JobLog {
  let fd: number | undefined;
  let error: string | undefined;
  try {
    fd = openSync(path, "wx+", 0o600);
  } catch (e) {
    error = errorText(e);
  }
  let size = 0; // of the file
  let noteBytes = 0; // its first line, once some was dropped
  let dropped = 0;
  let open = 0;
  const write = (chunk: Uint8Array) => {
    if (fd === undefined) return;
    try {
      if (size + chunk.length > maxBytes) {
        // keep the newest half from a line's start, after a line saying how much went before
        let keep = Math.min(size - noteBytes, Math.floor(maxBytes / 2));
        const end = new Uint8Array(keep);
        for (let at = 0; at < keep; ) {
          const n = readSync(fd, end, at, keep - at, size - keep + at);
          if (n === 0) break;
          at += n;
        }
        const start = end.indexOf(10) + 1;
        if (start < keep) keep -= start;
        dropped += size - noteBytes - keep;
        const note = new TextEncoder().encode(`[… ${dropped} earlier bytes dropped: this file keeps about the last ${sizeText(maxBytes)} …]\n`);
        const kept = new Uint8Array(note.length + keep);
        kept.set(note);
        kept.set(end.subarray(end.length - keep), note.length);
        ftruncateSync(fd, 0);
        writeAt(fd, kept, 0);
        size = kept.length;
        noteBytes = note.length;
      }
      writeAt(fd, chunk.subarray(Math.max(0, chunk.length - maxBytes)), size);
      size += Math.min(chunk.length, maxBytes);
    } catch {
      closeSync(fd); // disk full: the job runs on, its output is dropped
      fd = undefined;
    }
  };
  return {
    path,
    ...(error ? { error } : {}),
    writer() {
      open++;
      return (chunk) => {
        if (chunk) return write(chunk);
        if (--open === 0 && fd !== undefined) closeSync(fd);
        if (open === 0) fd = undefined;
      };
    },
  };
}

function writeAt(fd: number, bytes: Uint8Array, position: number): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at, position + at);
}
