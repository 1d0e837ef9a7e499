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
