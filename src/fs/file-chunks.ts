// A file's bytes as they are read, a chunk at a time, through one file handle. Not node:fs's
// createReadStream, whose stream machinery costs a run ~1.5 MB of memory the first time it is
// used (the short task's read_file), nor Bun's own file stream, whose failed read ends the process
// on Windows (test/no-rejecting-bun-file.test.ts says why).
import { constants, type PathLike } from "node:fs";
import { open } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;

/**
 * How files are opened for reading: a read that would wait throws EAGAIN instead. A regular file
 * never waits; a kernel file that does (root's /proc/kmsg waits for the next log line, for ever)
 * would hang the tool past any Esc, which cannot stop a read already waiting in the kernel.
 */
export const NO_WAIT = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of the file at `path`, in chunks of up to 64 KB; the file is closed when the reader stops
 * or is done. With `buffer`, every chunk is read into it, up to its length: a chunk holds its bytes
 * only until the next one is asked for, and a file of tens of MB leaves nothing for the collector (a
 * fresh 64 KB a chunk left up to 16 MB of a 50 MB spill file behind, on top of a bash call's peak).
 */
export async function* fileChunks(path: PathLike, buffer?: Uint8Array): AsyncGenerator<Uint8Array> {
  const handle = await open(path, NO_WAIT);
  try {
    for (;;) {
      const chunk = buffer ?? new Uint8Array(CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return;
      yield chunk.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
