// How the file tools read and write text that is not UTF-8 (SPEC §7). A file that starts with a
// UTF-16 byte-order mark (Windows PowerShell 5's `>`, a .reg export) is UTF-16. Any other file is
// UTF-8 when it is, and when it is but for a few bytes (a Latin-1 line pasted into a UTF-8 file:
// at least as many valid multi-byte characters as such bytes), UTF-8 with those bytes kept as
// they are; else it is Windows-1252, the superset of Latin-1 that every byte decodes in (vim's
// `fileencodings=ucs-bom,utf-8,latin1`). One decision for the whole file, the same in read_file
// and edit, whichever line the odd byte is on. read_file shows such a file with a note, edit and
// write_file keep its encoding, and every byte an edit does not touch is written back as it was.
// Pure.
import { lineEndChange, lineEndCounts, withLineEnds } from "./line-ends.ts";
import { sequenceAt } from "./output-text.ts";

export type Encoding = "utf-8" | "windows-1252" | "utf-16le" | "utf-16be";

/** A text file's content as decodeText reads it. */
export interface DecodedText {
  text: string;
  encoding: Encoding;
  raw?: string;
  strays?: number;
}

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

/**
 * `bytes` as text and the encoding they were read in. A byte-order mark is kept, as U+FEFF. In a
 * UTF-8 file with `strays` (bytes that are not UTF-8), `text` shows each as its Windows-1252
 * character, as read_file does, and `raw` (the same length) holds it as a character encodeText
 * writes back as the byte.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const utf16 = utf16Of(bytes);
  if (utf16) return { text: new TextDecoder(utf16, { ignoreBOM: true }).decode(bytes), encoding: utf16 };
  const decoder = utf8Decoder("kept");
  const raw = decoder.decode(bytes, false);
  const { strays } = decoder.scan;
  if (strays === 0) return { text: raw, encoding: "utf-8" };
  if (keepsStrays(decoder.scan)) return { text: shownText(raw), encoding: "utf-8", raw, strays };
  return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
}

/**
 * decodeText for a file given a chunk at a time, so a big file is not held whole as bytes beside
 * its text: `add` each chunk in order, then `done`. Undefined when only decodeText of the whole
 * file reads it rightly: UTF-16 (its first chunk says so), or Windows-1252 throughout (its end does).
 */
export function chunkedText(): { add(chunk: Uint8Array): void; done(): DecodedText | undefined } {
  const decoder = utf8Decoder("kept");
  const parts: string[] = [];
  let utf16 = false;
  return {
    add(chunk) {
      if (parts.length === 0 && utf16Of(chunk)) utf16 = true;
      if (!utf16) parts.push(decoder.decode(chunk, true));
    },
    done() {
      if (utf16) return undefined;
      parts.push(decoder.decode(new Uint8Array(0), false));
      const raw = parts.join("");
      parts.length = 0; // the pieces are garbage before the caller makes its next copy
      const { strays } = decoder.scan;
      if (strays === 0) return { text: raw, encoding: "utf-8" };
      return keepsStrays(decoder.scan) ? { text: shownText(raw), encoding: "utf-8", raw, strays } : undefined;
    },
  };
}

/**
 * `bytes`, the start of a longer file, without the character the cut split (an odd byte of UTF-16,
 * an incomplete UTF-8 sequence), so a cut does not read as a stray byte or U+FFFD.
 */
export function wholeCharacters(bytes: Uint8Array): Uint8Array {
  if (utf16Of(bytes)) return bytes.subarray(0, bytes.length - (bytes.length % 2));
  for (let at = Math.max(0, bytes.length - 3); at < bytes.length; at++) if (bytes[at]! >= 0xc0 && sequenceAt(bytes, at) === -1) return bytes.subarray(0, at);
  return bytes;
}

/** What decides how a file that is not all UTF-8 is read: its valid multi-byte characters, its bytes that are not UTF-8 (strays), the line of the first stray (0: none). */
export interface Utf8Scan {
  multibyte: number;
  strays: number;
  strayLine: number;
}

/** Whether a file scanned so is UTF-8 with its strays kept as they are (not Windows-1252 throughout): it has as many UTF-8 characters as strays. */
export const keepsStrays = (scan: Utf8Scan): boolean => scan.strays > 0 && scan.multibyte >= scan.strays;

/** A stray byte inside `raw` text: a lone low surrogate, which no UTF-8 decodes to (Python's surrogateescape). */
const STRAY_BASE = 0xdc00;
const STRAY = /[\uDC80-\uDCFF]/gu;

/** What an edit of `raw` text says of the stray bytes it wrote back as they were; undefined when none. */
export function keptStrays(raw: string): string | undefined {
  const n = raw.match(STRAY)?.length ?? 0;
  if (n === 0) return undefined;
  return n === 1 ? "kept its 1 byte that is not UTF-8 as it was" : `kept its ${n} bytes that are not UTF-8 as they were`;
}

/** `raw` text with each stray byte shown as its Windows-1252 character. */
export const shownText = (raw: string): string => raw.replace(STRAY, (c) => CHARS[c.charCodeAt(0) - STRAY_BASE]!);

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A decoder of UTF-8 given a chunk at a time that never fails: each byte that is not part of valid
 * UTF-8 becomes its Windows-1252 character (`shown`) or a stand-in encodeText writes back as the
 * byte (`kept`), and is counted in `scan`. A byte-order mark is kept, as U+FEFF.
 */
export function utf8Decoder(strays: "shown" | "kept"): { decode(chunk: Uint8Array, stream?: boolean): string; scan: Utf8Scan } {
  let pending = new Uint8Array(0);
  let line = 1;
  const scan: Utf8Scan = { multibyte: 0, strays: 0, strayLine: 0 };
  const decode = (chunk: Uint8Array, stream = true): string => {
    let bytes = chunk;
    if (pending.length) {
      bytes = new Uint8Array(pending.length + chunk.length);
      bytes.set(pending);
      bytes.set(chunk, pending.length);
    }
    let end = bytes.length;
    // an incomplete character is at most 3 bytes from the end: hold it back for the next chunk
    if (stream) for (let at = Math.max(0, end - 3); at < end; at++) if (bytes[at]! >= 0xc0 && sequenceAt(bytes, at) === -1) end = at;
    pending = bytes.slice(end);
    const whole = bytes.subarray(0, end);
    let text: string | undefined;
    try {
      text = strict.decode(whole);
    } catch {} // not all UTF-8: read byte by byte below (only such a chunk pays)
    if (text !== undefined) {
      if (text.length < whole.length) for (let i = 0; i < whole.length; i++) if (whole[i]! >= 0xc0) scan.multibyte++;
      if (scan.strays === 0) for (let nl = whole.indexOf(10); nl !== -1; nl = whole.indexOf(10, nl + 1)) line++;
      return text;
    }
    const parts: string[] = [];
    let run = 0; // start of the valid bytes not yet decoded
    for (let at = 0; at < whole.length; ) {
      const b = whole[at]!;
      const length = b < 0x80 ? 1 : Math.max(0, sequenceAt(whole, at));
      if (b === 10 && scan.strays === 0) line++;
      if (length > 0) {
        if (length > 1) scan.multibyte++;
        at += length;
        continue;
      }
      parts.push(strict.decode(whole.subarray(run, at)), strays === "kept" ? String.fromCharCode(STRAY_BASE + b) : CHARS[b]!);
      if (scan.strays++ === 0) scan.strayLine = line;
      run = ++at;
    }
    parts.push(strict.decode(whole.subarray(run)));
    return parts.join("");
  };
  return { decode, scan };
}

/** `text` in `encoding`, or the characters Windows-1252 cannot hold (at most 5, each once). */
export function encodeText(text: string, encoding: Encoding): Uint8Array | { missing: string[] } {
  if (encoding === "utf-8") return utf8Of(text);
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
 * `text` as UTF-8 (as encodeText writes it) in pieces of about `chars` characters each, made as
 * they are read into one buffer, reused: a piece is good until the next is asked for. A big file's
 * new content is so written without a second whole copy. A piece never ends between the two halves
 * of a surrogate pair.
 */
export function* utf8Pieces(text: string, chars = 1 << 20): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(3 * Math.min(chars + 1, text.length)); // a UTF-16 unit is at most 3 bytes of UTF-8
  const strays = text.search(STRAY) !== -1;
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + chars);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++; // a high surrogate: its low half comes with it
    const piece = text.slice(at, end);
    yield strays ? utf8Of(piece) : buffer.subarray(0, encoder.encodeInto(piece, buffer).written);
    at = end;
  }
}

/** `text` as UTF-8, each stray byte decodeText kept in it (in `raw`) written back as that byte. */
function utf8Of(text: string): Uint8Array {
  const encoder = new TextEncoder();
  if (text.search(STRAY) === -1) return encoder.encode(text);
  const parts = text.split(STRAY).map((part) => encoder.encode(part));
  const strays = text.match(STRAY)!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, strays.length));
  let o = 0;
  parts.forEach((part, i) => {
    out.set(part, o);
    o += part.length;
    if (i < strays.length) out[o++] = strays[i]!.charCodeAt(0) - STRAY_BASE;
  });
  return out;
}

/**
 * `content` as bytes in the form of the text file it replaces (`old`), so rewriting a file whole
 * does not turn every line into a change: its line ends (line-ends.ts: CRLF when most of its lines
 * ended so, and each unchanged line's own) when `content` has none of its own, its byte-order mark,
 * its encoding when it was not UTF-8 and `content` fits in it. `kept` names each of those carried
 * over; a binary `old` passes none on. `converted`: how the line ends changed from the old file's
 * (`line ends: 7 CRLF → LF`), when they did. `unfit`: the old encoding and what of `content` it
 * cannot hold, when `content` goes out as UTF-8 instead.
 */
export function likeBefore(
  old: Uint8Array | undefined,
  content: string,
): { bytes: Uint8Array; kept: string[]; converted?: string; unfit?: { encoding: string; missing: string[] } } {
  const kept: string[] = [];
  let text = content;
  const before = old && isText(old) ? decodeText(old) : undefined;
  if (before) {
    text = withLineEnds(before.text, content);
    const { crlf, lf } = lineEndCounts(text);
    if (text !== content) kept.push(lf === 0 ? "CRLF line ends" : `mixed line ends (${crlf} CRLF, ${lf} LF)`);
  }
  const converted = before ? lineEndChange(before.text, text) : undefined;
  const change = converted ? { converted } : {};
  if (before?.text.startsWith("\uFEFF") && !text.startsWith("\uFEFF")) {
    text = `\uFEFF${text}`;
    if (before.encoding === "utf-8") kept.push("byte-order mark");
  }
  const encoded = before && before.encoding !== "utf-8" ? encodeText(text, before.encoding) : undefined;
  if (before && encoded && !("missing" in encoded)) return { bytes: encoded, kept: [...kept, `${ENCODING_NAME[before.encoding]} encoding`], ...change };
  const unfit = before && encoded && "missing" in encoded ? { unfit: { encoding: ENCODING_NAME[before.encoding], missing: encoded.missing } } : {};
  return { bytes: new TextEncoder().encode(text), kept, ...change, ...unfit };
}

/** Whether `bytes` are text the file tools read and write: UTF-16 by its byte-order mark, or no NUL byte in the first 8 KB (git's test). */
export function isText(bytes: Uint8Array): boolean {
  return utf16Of(bytes) !== undefined || !bytes.subarray(0, 8192).includes(0);
}
