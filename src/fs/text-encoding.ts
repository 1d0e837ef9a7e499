// How the file tools read and write text that is not UTF-8 (SPEC §7). A file that starts with a
// UTF-16 byte-order mark (Windows PowerShell 5's `>`, a .reg export) is UTF-16; any other file
// that is not valid UTF-8 is read as Windows-1252, the superset of Latin-1 that every byte decodes
// in (vim's `fileencodings=ucs-bom,utf-8,latin1`). read_file shows such a file with a note, edit
// and write_file keep its encoding, and every byte an edit does not touch is written back as it
// was. Pure.

export type Encoding = "utf-8" | "windows-1252" | "utf-16le" | "utf-16be";

/** An encoding as messages name it. */
export const ENCODING_NAME: Record<Encoding, string> = {
  "utf-8": "UTF-8",
  "windows-1252": "Windows-1252 (Latin-1)",
  "utf-16le": "UTF-16 LE",
  "utf-16be": "UTF-16 BE",
};

/** Windows-1252's 256 characters, in byte order: a byte decodes to one of them, and back. */
const CHARS = new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 256 }, (_, i) => i));
const BYTE = new Map([...CHARS].map((c, i) => [c, i]));

/** UTF-16 when `bytes` start with its byte-order mark. */
export function utf16Of(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/** `bytes` as text and the encoding they were read in. A byte-order mark is kept, as U+FEFF. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: Encoding } {
  const utf16 = utf16Of(bytes);
  if (utf16) return { text: new TextDecoder(utf16, { ignoreBOM: true }).decode(bytes), encoding: utf16 };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
  }
}

/** `text` in `encoding`, or the characters Windows-1252 cannot hold (at most 5, each once). */
export function encodeText(text: string, encoding: Encoding): Uint8Array | { missing: string[] } {
  if (encoding === "utf-8") return new TextEncoder().encode(text);
  if (encoding !== "windows-1252") {
    const out = new Uint8Array(text.length * 2);
    const view = new DataView(out.buffer);
    for (let i = 0; i < text.length; i++) view.setUint16(2 * i, text.charCodeAt(i), encoding === "utf-16le");
    return out;
  }
  const out = new Uint8Array(text.length);
  const missing = new Set<string>();
  let n = 0;
  for (const c of text) {
    const byte = BYTE.get(c);
    if (byte === undefined) missing.add(c);
    else out[n++] = byte;
  }
  return missing.size ? { missing: [...missing].slice(0, 5) } : out;
}

/**
 * `content` as bytes in the form of the text file it replaces (`old`), so rewriting a file whole
 * does not turn every line into a change: CRLF line ends when the old file ended every line so and
 * `content` has none of its own, its byte-order mark, its encoding when it was not UTF-8 and
 * `content` fits in it. `kept` names each of those carried over; a binary `old` passes none on.
 * `unfit`: the old encoding and what of `content` it cannot hold, when `content` goes out as UTF-8 instead.
 */
export function likeBefore(
  old: Uint8Array | undefined,
  content: string,
): { bytes: Uint8Array; kept: string[]; unfit?: { encoding: string; missing: string[] } } {
  const kept: string[] = [];
  let text = content;
  const before = old && isText(old) ? decodeText(old) : undefined;
  if (before && /\r\n/.test(before.text) && !/(^|[^\r])\n/.test(before.text) && text.includes("\n") && !text.includes("\r")) {
    text = text.replaceAll("\n", "\r\n");
    kept.push("CRLF line ends");
  }
  if (before?.text.startsWith("\uFEFF") && !text.startsWith("\uFEFF")) {
    text = `\uFEFF${text}`;
    if (before.encoding === "utf-8") kept.push("byte-order mark");
  }
  const encoded = before && before.encoding !== "utf-8" ? encodeText(text, before.encoding) : undefined;
  if (before && encoded && !("missing" in encoded)) return { bytes: encoded, kept: [...kept, `${ENCODING_NAME[before.encoding]} encoding`] };
  const unfit = before && encoded && "missing" in encoded ? { unfit: { encoding: ENCODING_NAME[before.encoding], missing: encoded.missing } } : {};
  return { bytes: new TextEncoder().encode(text), kept, ...unfit };
}

/** Whether `bytes` are text the file tools read and write: UTF-16 by its byte-order mark, or no NUL byte in the first 8 KB (git's test). */
export function isText(bytes: Uint8Array): boolean {
  return utf16Of(bytes) !== undefined || !bytes.subarray(0, 8192).includes(0);
}
