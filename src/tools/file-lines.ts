// A text file's lines as ripgrep reads them, a chunk at a time: the built-in grep search holds one
// chunk and the line being read, never the whole file (a 60 MB log cost hundreds of MB read whole,
// and several searches at once multiplied that).
import { open } from "node:fs/promises";
import { utf16Of } from "../fs/text-encoding.ts";
import { diskPath } from "../fs/dir-names.ts";

const CHUNK_BYTES = 256 * 1024;

/**
 * Calls `onLine` with each line of the file at `abs` and its 1-based number: UTF-16 when the file
 * starts with that byte-order mark (dropped, as a UTF-8 one is), a CR before "\n" dropped, no line
 * after a final "\n". Stops at the first NUL byte of a file that is not UTF-16 and returns
 * "binary" (ripgrep drops such a file); "text" when the whole file was read. Throws when the file
 * cannot be read.
 */
export async function readLines(abs: string, onLine: (text: string, n: number) => void): Promise<"text" | "binary"> {
  const handle = await open(diskPath(abs), "r");
  try {
    const buffer = new Uint8Array(CHUNK_BYTES);
    let decoder: TextDecoder | undefined;
    let rest = "";
    let n = 0;
    const emit = (line: string) => onLine(line.endsWith("\r") ? line.slice(0, -1) : line, ++n);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES);
      if (bytesRead === 0) break;
      const bytes = buffer.subarray(0, bytesRead);
      if (!decoder) {
        const utf16 = utf16Of(bytes);
        decoder = new TextDecoder(utf16 ?? "utf-8");
        if (!utf16 && bytes.includes(0)) return "binary";
      } else if (decoder.encoding === "utf-8" && bytes.includes(0)) return "binary";
      const text = rest + decoder.decode(bytes, { stream: true });
      let start = 0;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
        emit(text.slice(start, nl));
        start = nl + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder?.decode() ?? "";
    if (rest !== "") emit(rest);
    return "text";
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
