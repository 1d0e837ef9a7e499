// How edit reads a file and writes it back so that a big one is held in memory as few times as
// may be: read and decoded a chunk at a time, its bytes not kept (their hash is), the new bytes
// made a piece at a time as they are written; and the size past which edit leaves a file alone.
import { open, readFile } from "node:fs/promises";
import { diskPath } from "../fs/dir-names.ts";
import { NO_WAIT } from "../fs/file-chunks.ts";
import { chunkedText, type DecodedText, decodeText, isText } from "../fs/text-encoding.ts";
import { singleQuoted } from "../kernel/tool-args.ts";
import { contentHash, READ_TO_END_MAX_BYTES } from "./read-file.ts";

// a bigger file is refused (tooBig says why); read_file reads a file this size to its end, so both decide its encoding alike
export const EDIT_MAX_BYTES = READ_TO_END_MAX_BYTES;
const READ_CHUNK = 1024 * 1024; // the file is read and decoded so many bytes at a time
const COLLECT_FROM_BYTES = 8 * 1024 * 1024; // from this size the garbage of reading is collected at once

/**
 * The text of the file at `abs` (decodeText), and the SHA-256 and length of its bytes, or undefined
 * when it is binary. Read and decoded a chunk at a time, and the bytes are not kept: writeFileAtomic
 * compares the file with the hash before replacing it. A big file is then held once, as text.
 */
export async function readForEdit(abs: string): Promise<(DecodedText & { before: { sha256: string; size: number } }) | undefined> {
  const path = diskPath(abs); // a name as hey writes it (fs/odd-names.ts) opened by its bytes
  const hasher = new Bun.CryptoHasher("sha256");
  const decoder = chunkedText();
  let size = 0;
  const handle = await open(path, NO_WAIT);
  try {
    const chunk = new Uint8Array(READ_CHUNK); // one, read into again and again: no garbage to wait for
    for (let n = 0; (n = (await handle.read(chunk, 0, READ_CHUNK, null)).bytesRead) > 0; size += n) {
      const read = chunk.subarray(0, n);
      if (size === 0 && !isText(read)) return undefined;
      hasher.update(read);
      decoder.add(read);
    }
  } finally {
    await handle.close();
  }
  const text = decoder.done();
  // the pieces the text was joined from are garbage the size of the file, which a collection may
  // not take before the edited text is made beside it: taken now (some milliseconds)
  if (size >= COLLECT_FROM_BYTES) Bun.gc(true);
  if (text) return { ...text, before: { sha256: hasher.digest("hex"), size } };
  const bytes = await readFile(path); // UTF-16 or Windows-1252: read whole (rare, and seldom big)
  return { ...decodeText(bytes), before: { sha256: contentHash(bytes), size: bytes.length } };
}

/** `pieces`, each added to `hasher` as it is read. */
export function* hashing(pieces: Iterable<Uint8Array>, hasher: Bun.CryptoHasher): Generator<Uint8Array> {
  for (const piece of pieces) {
    hasher.update(piece);
    yield piece;
  }
}

/**
 * Why edit leaves a file over EDIT_MAX_BYTES alone: the edit holds it in memory a few times over
 * (its text, the text after, the diff's line tables): 200 MB cost 545 MB of RSS, and a
 * container's limit kills the session. Such a file is data (a dump, a log, a bundle) that read_file
 * pages through a window at a time; a command edits it in a stream, in constant memory.
 */
export const tooBig = (path: string, size: number) =>
  `edit: ${path} is ${megabytes(size)}, over edit's ${megabytes(EDIT_MAX_BYTES)} limit (edit holds a file in memory several times over); ` +
  `change it with a command that streams it, e.g. sed -i 's/old/new/' ${shellWord(path)} (perl -0pi -e for text across lines), then check the lines with grep -n`;

const megabytes = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MB`; // up: a file just over the limit is not "64 MB, over 64 MB"
const shellWord = (path: string) => (/^[\w./@%+=:,-]+$/.test(path) ? path : singleQuoted(path));
