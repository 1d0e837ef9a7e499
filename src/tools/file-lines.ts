// A text file's lines as ripgrep reads them, a chunk at a time: the built-in grep search holds one
// chunk and the line being read, never the whole file (a 60 MB log cost hundreds of MB read whole,
// and several searches at once multiplied that); the lines ripgrep left out for their length come
// in pieces, so not even one line is held whole.
import { open } from "node:fs/promises";
import { utf16Of } from "../fs/text-encoding.ts";
import { diskPath } from "../fs/dir-names.ts";
import { NO_WAIT } from "../fs/file-chunks.ts";

const CHUNK_BYTES = 256 * 1024;

/**
 * Calls `onLine` with each line of the file at `abs` and its 1-based number, as readLinePieces
 * reads them. Each line is held whole: the built-in search's regex needs all of it.
 */
export function readLines(abs: string, onLine: (text: string, n: number) => void, signal?: AbortSignal): Promise<"text" | "binary"> {
  let parts: string[] = [];
  return readLinePieces(
    abs,
    (text) => void parts.push(text),
    (n) => {
      onLine(parts.length === 1 ? parts[0]! : parts.join(""), n);
      parts = [];
    },
    signal,
  );
}

/**
 * Reads the file at `abs` as lines, each given in pieces (`onPiece`, never empty, a chunk's worth at
 * most) and then ended (`onEnd`, with its 1-based number; returning true stops the read there): a
 * line of 150 MB with no newline costs a chunk, not the line. UTF-16 when the file starts with that
 * byte-order mark (dropped, as a UTF-8 one is), a CR before "\n" dropped, no line after a final "\n".
 * Stops at the first NUL byte of a file that is not UTF-16 and returns "binary" (ripgrep drops such
 * a file); "text" when the file was read, or when `signal` was aborted (a multi-GB log is read no
 * further: the caller checks the signal). Never waits for a writer (a FIFO put at that path reads as
 * empty). Throws when the file cannot be read.
 */
export async function readLinePieces(
  abs: string,
  onPiece: (text: string, n: number) => void,
  onEnd: (n: number) => boolean | void,
  signal?: AbortSignal,
): Promise<"text" | "binary"> {
  const handle = await open(diskPath(abs), NO_WAIT);
  try {
    const buffer = new Uint8Array(CHUNK_BYTES);
    let decoder: TextDecoder | undefined;
    let n = 0;
    let begun = false; // the line has begun (a CR alone counts)
    let cr = false; // the line's text so far ended with a CR, held back: dropped if the line ends there
    const give = (text: string, ends: boolean): boolean => {
      let piece = cr ? `\r${text}` : text;
      cr = !ends && piece.endsWith("\r");
      if (ends || cr) piece = piece.endsWith("\r") ? piece.slice(0, -1) : piece;
      if (piece !== "") onPiece(piece, n + 1);
      begun = !ends && (begun || text !== "");
      return ends ? onEnd(++n) === true : false;
    };
    for (;;) {
      if (signal?.aborted) return "text";
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES);
      if (bytesRead === 0) break;
      const bytes = buffer.subarray(0, bytesRead);
      if (!decoder) {
        const utf16 = utf16Of(bytes);
        decoder = new TextDecoder(utf16 ?? "utf-8");
        if (!utf16 && bytes.includes(0)) return "binary";
      } else if (decoder.encoding === "utf-8" && bytes.includes(0)) return "binary";
      const text = decoder.decode(bytes, { stream: true });
      let start = 0;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
        if (give(text.slice(start, nl), true)) return "text";
        start = nl + 1;
      }
      if (start < text.length) give(text.slice(start), false);
    }
    const last = decoder?.decode() ?? "";
    if (last !== "" || begun) give(last, true);
    return "text";
  } finally {
    await handle.close();
  }
}

/** A pattern that is plain text of one line: its UTF-8 bytes are found in a file without decoding it (a tenth of the time). */
const LITERAL = /^[^\\^$.|?*+()[\]{}\n\r\0]+$/;

/** Whether the file at `abs` holds `bytes` anywhere (false when `signal` is aborted first). */
async function holdsBytes(abs: string, bytes: Uint8Array, signal: AbortSignal): Promise<boolean> {
  const handle = await open(diskPath(abs), "r");
  try {
    const keep = bytes.length - 1; // the end of the chunk before: a match across two chunks
    const buffer = Buffer.alloc(keep + CHUNK_BYTES);
    let held = 0;
    while (!signal.aborted) {
      const { bytesRead } = await handle.read(buffer, held, CHUNK_BYTES);
      if (bytesRead === 0) return false;
      const end = held + bytesRead;
      if (buffer.subarray(0, end).indexOf(bytes) !== -1) return true;
      held = Math.min(keep, end);
      buffer.copy(buffer, 0, end - held, end);
    }
    return false;
  } finally {
    await handle.close();
  }
}

/**
 * How many lines of the binary file at `abs` `regex` matches, a NUL byte ending a line as a "\n"
 * does, as in ripgrep's `--binary` search; with `first`, 1 at the first match. Stops, with the
 * count so far, when `signal` is aborted. Throws when the file cannot be read.
 */
export async function binaryMatches(abs: string, regex: RegExp, signal: AbortSignal, first = false): Promise<number> {
  const literal = LITERAL.test(regex.source) && !regex.flags.includes("i") ? Buffer.from(regex.source) : undefined;
  if (first && literal) return (await holdsBytes(abs, literal, signal)) ? 1 : 0;
  // a chunk's lines are tried one at a time only when the regex matches in the chunk at all (`m`: `^`
  // and `$` at each line's ends), so 200 MB of images that do not match cost seconds less
  const anywhere = new RegExp(regex.source, `${regex.flags.replace("m", "")}m`);
  const handle = await open(diskPath(abs), "r");
  try {
    const buffer = new Uint8Array(CHUNK_BYTES);
    const decoder = new TextDecoder();
    let begun = ""; // the last line read, not ended yet
    let count = 0;
    for (let done = false; !done && !signal.aborted && !(first && count > 0); ) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES);
      done = bytesRead === 0;
      const read = done ? decoder.decode() : decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      const text = (begun + read).replaceAll("\0", "\n").replaceAll("\r\n", "\n");
      const end = done ? text.length : text.lastIndexOf("\n") + 1;
      begun = text.slice(end);
      const lines = text.slice(0, end);
      if (lines === "" || !anywhere.test(lines)) continue;
      for (const line of (lines.endsWith("\n") ? lines.slice(0, -1) : lines).split("\n")) {
        if (regex.test(line)) count++;
        if (first && count > 0) break;
      }
    }
    return count;
  } finally {
    await handle.close();
  }
}

/**
 * Whether the file's first chunk holds a NUL byte and it is not UTF-16 (ripgrep's binary file, by the
 * part it looks at first): a multi-gigabyte log is not read whole, and with no way to stop, before its
 * search begins; a NUL further on ends the search there, as ripgrep's does.
 */
export async function isBinaryFile(abs: string): Promise<boolean> {
  const handle = await open(diskPath(abs), "r");
  try {
    const buffer = new Uint8Array(CHUNK_BYTES);
    const bytes = buffer.subarray(0, (await handle.read(buffer, 0, CHUNK_BYTES)).bytesRead);
    return !utf16Of(bytes) && bytes.includes(0);
  } finally {
    await handle.close();
  }
}
