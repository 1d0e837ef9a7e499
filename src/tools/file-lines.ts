// A text file's lines as ripgrep reads them, a chunk at a time: the built-in grep search holds one
// chunk and the line being read, never the whole file (a 60 MB log cost hundreds of MB read whole,
// and several searches at once multiplied that); the lines ripgrep left out for their length come
// in pieces, so not even one line is held whole.
import { open } from "node:fs/promises";
import { utf16Of } from "../fs/text-encoding.ts";
import { diskPath } from "../fs/dir-names.ts";

const CHUNK_BYTES = 256 * 1024;

/**
 * Calls `onLine` with each line of the file at `abs` and its 1-based number, as readLinePieces
 * reads them. Each line is held whole: the built-in search's regex needs all of it.
 */
export function readLines(abs: string, onLine: (text: string, n: number) => void): Promise<"text" | "binary"> {
  let parts: string[] = [];
  return readLinePieces(
    abs,
    (text) => void parts.push(text),
    (n) => {
      onLine(parts.length === 1 ? parts[0]! : parts.join(""), n);
      parts = [];
    },
  );
}

/**
 * Reads the file at `abs` as lines, each given in pieces (`onPiece`, never empty, a chunk's worth at
 * most) and then ended (`onEnd`, with its 1-based number; returning true stops the read there): a
 * line of 150 MB with no newline costs a chunk, not the line. UTF-16 when the file starts with that
 * byte-order mark (dropped, as a UTF-8 one is), a CR before "\n" dropped, no line after a final "\n".
 * Stops at the first NUL byte of a file that is not UTF-16 and returns "binary" (ripgrep drops such
 * a file), unless `nul` says a NUL ends a line instead; "text" when the file was read. Throws when the file
 * cannot be read.
 */
export async function readLinePieces(
  abs: string,
  onPiece: (text: string, n: number) => void,
  onEnd: (n: number) => boolean | void,
  nul: "stops" | "ends a line" = "stops",
): Promise<"text" | "binary"> {
  const handle = await open(diskPath(abs), "r");
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
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES);
      if (bytesRead === 0) break;
      const bytes = buffer.subarray(0, bytesRead);
      if (!decoder) {
        const utf16 = utf16Of(bytes);
        decoder = new TextDecoder(utf16 ?? "utf-8");
        if (!utf16 && nul === "stops" && bytes.includes(0)) return "binary";
      } else if (decoder.encoding === "utf-8" && nul === "stops" && bytes.includes(0)) return "binary";
      const decoded = decoder.decode(bytes, { stream: true });
      const text = nul === "stops" ? decoded : decoded.replaceAll("\0", "\n");
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

/**
 * How many lines of the binary file at `abs` `regex` matches, a NUL byte ending a line as a "\n"
 * does, as in ripgrep's `--binary` search; with `first`, 1 at the first match. Stops, with the
 * count so far, when `signal` is aborted. Throws when the file cannot be read.
 */
export async function binaryMatches(abs: string, regex: RegExp, signal: AbortSignal, first = false): Promise<number> {
  let parts: string[] = [];
  let count = 0;
  await readLinePieces(
    abs,
    (text) => void parts.push(text),
    () => {
      if (regex.test(parts.length === 1 ? parts[0]! : parts.join(""))) count++;
      parts = [];
      return signal.aborted || (first && count > 0);
    },
    "ends a line",
  );
  return count;
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
