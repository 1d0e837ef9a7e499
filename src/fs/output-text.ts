// A command's output bytes as text (the bash tool, `!COMMAND`). Output is UTF-8 almost always, but a
// legacy log, a Latin-1 source file `cat`ed or `printf 'caf\xe9'` is not: decoded the usual way
// each such byte becomes U+FFFD, and the model reads `caf�` with no way to tell which byte it
// was. Here valid UTF-8 is read as UTF-8 and each byte that is not part of a valid sequence as
// its Windows-1252 character (Latin-1's superset, as the file tools fall back to in
// text-encoding.ts), so `caf\xe9` reads `café`; the few bytes Windows-1252 leaves undefined read
// `\xNN`. The full-output file keeps the bytes as they were. Pure.

/** What each byte 0x80–0xFF reads as where it is not part of valid UTF-8: its Windows-1252 character. */
const HIGH = [...new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i))].map((c, i) =>
  // 0x81, 0x8D, 0x8F, 0x90, 0x9D: undefined in Windows-1252 (decoded as C1 controls)
  c.charCodeAt(0) === 0x80 + i && i < 0x20 ? `\\x${(0x80 + i).toString(16).toUpperCase()}` : c,
);

/** The same characters as UTF-8, the bytes that stand in for them. */
const HIGH_UTF8 = HIGH.map((c) => new TextEncoder().encode(c));

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The length of the valid UTF-8 sequence starting at `at`; 0 when it is invalid, -1 when `bytes` end before it is complete. */
export function sequenceAt(bytes: Uint8Array, at: number): number {
  const b = bytes[at]!;
  if (b < 0x80) return 1;
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) length = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    length = 3;
    if (b === 0xe0) low = 0xa0; // overlong
    if (b === 0xed) high = 0x9f; // surrogates
  } else if (b >= 0xf0 && b <= 0xf4) {
    length = 4;
    if (b === 0xf0) low = 0x90; // overlong
    if (b === 0xf4) high = 0x8f; // past U+10FFFF
  } else return 0;
  for (let i = 1; i < length; i++) {
    if (at + i >= bytes.length) return -1;
    const c = bytes[at + i]!;
    if (c < (i === 1 ? low : 0x80) || c > (i === 1 ? high : 0xbf)) return 0;
  }
  return length;
}

/**
 * `bytes` as text: UTF-8 where it is valid, each other byte as its Windows-1252 character.
 * `stream`: more bytes follow, so an incomplete sequence at the end is not decoded but returned in
 * `rest` (to go before the next chunk). `foreign`: how many bytes were not UTF-8.
 */
export function decodeOutput(bytes: Uint8Array, stream = false): { text: string; rest: Uint8Array; foreign: number } {
  let end = bytes.length;
  if (stream) {
    // an incomplete sequence is at most 3 bytes from the end: hold it back when it may yet be valid
    for (let at = Math.max(0, end - 3); at < end; at++) if (bytes[at]! >= 0xc0 && sequenceAt(bytes, at) === -1) end = at;
  }
  const whole = bytes.subarray(0, end);
  const rest = bytes.slice(end);
  try {
    return { text: strict.decode(whole), rest, foreign: 0 };
  } catch {} // not all UTF-8: each other byte is replaced by its character's UTF-8, then decoded at once (only such output pays)
  const out = new Uint8Array(whole.length * 4); // `\xNN`, the longest replacement, is 4 bytes
  let o = 0;
  let foreign = 0;
  for (let at = 0; at < whole.length; ) {
    const b = whole[at]!;
    const length = b < 0x80 ? 1 : sequenceAt(whole, at);
    if (length > 0) {
      for (const end = at + length; at < end; ) out[o++] = whole[at++]!;
      continue;
    }
    const replacement = HIGH_UTF8[b - 0x80]!;
    out.set(replacement, o);
    o += replacement.length;
    foreign++;
    at++;
  }
  return { text: strict.decode(out.subarray(0, o)), rest, foreign };
}

/** A decoder for output that arrives in chunks: a character split between two chunks is decoded whole. */
export function outputDecoder(): { decode(chunk: Uint8Array, stream?: boolean): string; foreign: number } {
  let pending: Uint8Array = new Uint8Array(0);
  const self = {
    foreign: 0,
    decode(chunk: Uint8Array, stream = true): string {
      const bytes = pending.length === 0 ? chunk : concatBytes(pending, chunk);
      const { text, rest, foreign } = decodeOutput(bytes, stream);
      pending = rest;
      self.foreign += foreign;
      return text;
    },
  };
  return self;
}

/** `a` then `b`, in one new array. */
export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const all = new Uint8Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  return all;
}

/**
 * The bytes at the end of `bytes` that start a character they do not finish (a head cut at a byte
 * count), and those at its start that finish one begun before it (a tail): both are part of the
 * hidden middle, not text. The counts, each 0–3.
 */
export function cutEdges(bytes: Uint8Array): { start: number; end: number } {
  let start = 0;
  while (start < Math.min(3, bytes.length) && bytes[start]! >= 0x80 && bytes[start]! <= 0xbf) start++;
  let end = 0;
  for (let at = Math.max(start, bytes.length - 3); at < bytes.length; at++) if (bytes[at]! >= 0xc0 && sequenceAt(bytes, at) === -1) end = bytes.length - at;
  return { start, end };
}
