// What a full-output file keeps of a command's output (command-result.ts): its text with the
// secrets hidden as the result the model read hides them, so the file on disk holds no key the
// result did not. Bytes that are not UTF-8 (a binary stream, Latin-1 text) are kept as they were
// around what is replaced. Pure.

/**
 * Pieces of a spilled stream are hidden this many bytes or more at a time, cut at a line's end. The
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
 * The chunks of a stream (a spill file's) hidden as hiddenBytes hides, in pieces cut at line ends: a
 * secret is never split between two. The pieces are gathered in one buffer, reused: a piece (and a
 * chunk given) holds its bytes only until the next one is asked for.
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
    const end = held.subarray(0, size).lastIndexOf(10) + 1 || size; // a line longer than a piece is cut where it is
    yield hiddenBytes(held.subarray(0, end), hide);
    held.copyWithin(0, end, size);
    size -= end;
  }
  if (size > 0) yield hiddenBytes(held.subarray(0, size), hide);
}
