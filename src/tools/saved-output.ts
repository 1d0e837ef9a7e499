// What a full-output file keeps of a command's output (command-result.ts): its text with the
// secrets hidden as the result the model read hides them, so the file on disk holds no key the
// result did not. Bytes that are not UTF-8 (a binary stream, Latin-1 text) are kept as they were
// around what is replaced. Pure.

/**
 * Pieces of a spilled stream are hidden this many bytes or more at a time, cut where no secret is (cutAt). The
 * shapes' search holds several times a piece while it runs (a line index, match arrays, copies):
 * 1 MB pieces of a build log with `token` in it peaked ~9 MB higher than 256 KB ones.
 */
export const PIECE_BYTES = 256 << 10;

/** `bytes` with `hide` applied to their text; `bytes` themselves when it changes nothing. */
export function hiddenBytes(bytes: Uint8Array, hide: (text: string) => string): Uint8Array {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // not UTF-8: one character per byte, so every byte hide leaves alone is written back as it was
    let latin = "";
    for (let i = 0; i < bytes.length; i += 8192) latin += String.fromCharCode(...bytes.subarray(i, i + 8192));
    const hidden = hide(latin);
    return hidden === latin ? bytes : Uint8Array.from(hidden, (c) => c.charCodeAt(0) & 0xff);
  }
  const hidden = hide(text);
  return hidden === text ? bytes : new TextEncoder().encode(hidden);
}

/**
 * The chunks of a stream (a spill file's) hidden as hiddenBytes hides, in pieces cut where hiding each
 * side alone hides what hiding the two together does (cutAt): a secret is never split between two, even
 * on a line longer than a piece (`jq -c`, `terraform show -json`). The pieces are gathered in one
 * buffer, reused: a piece (and a chunk given) holds its bytes only until the next one is asked for.
 */
export async function* hiddenChunks(chunks: AsyncIterable<Uint8Array>, hide: (text: string) => string): AsyncGenerator<Uint8Array> {
  let held = new Uint8Array(2 * PIECE_BYTES); // a piece's rest and a chunk of up to PIECE_BYTES
  let size = 0;
  for await (const chunk of chunks) {
    if (size + chunk.length > held.length) {
      const more = new Uint8Array(size + chunk.length);
      more.set(held.subarray(0, size));
      held = more;
    }
    held.set(chunk, size);
    size += chunk.length;
    if (size < PIECE_BYTES) continue;
    const end = cutAt(held.subarray(0, size), hide);
    yield hiddenBytes(held.subarray(0, end), hide);
    held.copyWithin(0, end, size);
    size -= end;
  }
  if (size > 0) yield hiddenBytes(held.subarray(0, size), hide);
}

/**
 * What the check of a cut looks at on each side of it: more than the longest secret hey hides with
 * what names it (a JWT, a one-line JSON private key of 3.3 KB, `"password": "…"`), so a cut that hides
 * the same as the whole around it splits none.
 */
const LOOK_BYTES = 8 << 10;

/** Cuts tried before the last resort: a run of secrets (a key's 50 lines) fails each one inside it. */
const CUTS_TRIED = 64;

/** How far apart the cuts tried in a run with no blank or punctuation are: one secret apart, at least. */
const STEP_BYTES = LOOK_BYTES / 2;

/**
 * Where to cut `bytes` (a piece and more; the stream goes on after them): the first of cuts' that
 * leaves LOOK_BYTES after it and where `hide` of the text on each side alone equals `hide` of both
 * together. Failing CUTS_TRIED of those, at the start of a character LOOK_BYTES from the end. Never
 * inside a UTF-8 character, which would make the piece read as Latin-1, and miss a known secret that
 * is not ASCII.
 */
function cutAt(bytes: Uint8Array, hide: (text: string) => string): number {
  const last = bytes.length - LOOK_BYTES;
  let tried = 0;
  for (const at of cuts(bytes, last)) {
    if (hidesAlike(bytes, at, hide)) return at;
    if (++tried === CUTS_TRIED) break;
  }
  return charStart(bytes, last);
}

/**
 * Cuts before `last`, each the nearer to it first: the line ends in the second half (a piece is not
 * made small while a longer one will do), then the blanks and punctuation there, then a character
 * every STEP_BYTES there (a run with neither: base64, a language without spaces), then the line ends
 * in the first half.
 */
function* cuts(bytes: Uint8Array, last: number): Generator<number> {
  const half = bytes.length >> 1;
  const lineEnds = function* (from: number, to: number) {
    for (let i = bytes.lastIndexOf(10, from); i >= to; i = i > 0 ? bytes.lastIndexOf(10, i - 1) : -1) yield i + 1; // -1 would search from the end
  };
  yield* lineEnds(last - 1, half);
  for (let i = last - 1; i >= half; i--) if (SEPARATES[bytes[i]!]) yield i + 1;
  for (let i = last; i >= half; i -= STEP_BYTES) yield charStart(bytes, i);
  yield* lineEnds(Math.min(last, half) - 1, 0);
}

/**
 * ASCII bytes that end a value in text and JSON: blanks, `,;` and closing brackets (ASCII, so a cut after
 * one starts a character). Not quotes, `:` or `=`, which stand inside an assignment (`"password":"…"`)
 * as often as after one: a cut there fails the check, and each costs a search of 16 KB.
 */
const SEPARATES = Array.from({ length: 256 }, (_, b) => " \t\r\n,;)]}>".includes(String.fromCharCode(b)));

/** Whether hiding LOOK_BYTES each side of `at` apart gives what hiding them together gives. */
function hidesAlike(bytes: Uint8Array, at: number, hide: (text: string) => string): boolean {
  const from = charStart(bytes, Math.max(0, at - LOOK_BYTES));
  const to = charStart(bytes, Math.min(bytes.length - 1, at + LOOK_BYTES)); // the stream's last character may be cut
  const both = hiddenBytes(bytes.subarray(from, to), hide);
  const before = hiddenBytes(bytes.subarray(from, at), hide);
  const after = hiddenBytes(bytes.subarray(at, to), hide);
  if (both.length !== before.length + after.length) return false;
  for (let i = 0; i < before.length; i++) if (both[i] !== before[i]) return false;
  for (let i = 0; i < after.length; i++) if (both[before.length + i] !== after[i]) return false;
  return true;
}

/** `at`, or the start of the UTF-8 character it is inside (up to 3 bytes back); `at` itself in bytes that are not UTF-8 there. */
function charStart(bytes: Uint8Array, at: number): number {
  for (let i = at; i > at - 4 && i > 0; i--) if ((bytes[i]! & 0xc0) !== 0x80) return i;
  return at;
}
