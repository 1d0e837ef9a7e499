// How the file tools read and write a text file that is not UTF-8 (SPEC §7). Such a file is read
// as Windows-1252, the superset of Latin-1 that every byte decodes in (vim's
// `fileencodings=utf-8,latin1` does the same): read_file shows it with a note, edit keeps it in
// that encoding, and every byte an edit does not touch is written back as it was. Pure.

export const LEGACY_ENCODING = "windows-1252";
/** The encoding as messages name it. */
export const LEGACY_NAME = "Windows-1252 (Latin-1)";

/** Windows-1252's 256 characters, in byte order: a byte decodes to one of them, and back. */
const CHARS = new TextDecoder(LEGACY_ENCODING).decode(Uint8Array.from({ length: 256 }, (_, i) => i));
const BYTE = new Map([...CHARS].map((c, i) => [c, i]));

/** `bytes` as text, and whether they were read as Windows-1252 because they are not UTF-8. The BOM, if any, is kept. */
export function decodeText(bytes: Uint8Array): { text: string; legacy: boolean } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), legacy: false };
  } catch {
    return { text: new TextDecoder(LEGACY_ENCODING).decode(bytes), legacy: true };
  }
}

/** `text` as Windows-1252 bytes, or the characters it cannot hold (at most 5, each once). */
export function encodeLegacy(text: string): Uint8Array | { missing: string[] } {
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
 * `content` has none of its own, its UTF-8 byte-order mark, its Windows-1252 when it was not UTF-8
 * and `content` fits in it. `kept` names each of those carried over; a binary `old` passes none on.
 */
export function likeBefore(old: Uint8Array | undefined, content: string): { bytes: Uint8Array; kept: string[] } {
  const kept: string[] = [];
  let text = content;
  const before = old && !old.subarray(0, 8192).includes(0) ? decodeText(old) : undefined;
  if (before && /\r\n/.test(before.text) && !/(^|[^\r])\n/.test(before.text) && text.includes("\n") && !text.includes("\r")) {
    text = text.replaceAll("\n", "\r\n");
    kept.push("CRLF line ends");
  }
  if (before && !before.legacy && before.text.startsWith("\uFEFF") && !text.startsWith("\uFEFF")) {
    text = `\uFEFF${text}`;
    kept.push("byte-order mark");
  }
  const legacy = before?.legacy ? encodeLegacy(text) : undefined;
  if (legacy && !("missing" in legacy)) return { bytes: legacy, kept: [...kept, `${LEGACY_NAME} encoding`] };
  return { bytes: new TextEncoder().encode(text), kept };
}
