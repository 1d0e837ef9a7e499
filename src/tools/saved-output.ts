// What a full-output file keeps of a command's output (command-result.ts): its text with the
// secrets hidden as the result the model read hides them, so the file on disk holds no key the
// result did not. Bytes that are not UTF-8 (a binary stream, Latin-1 text) are kept as they were
// around what is replaced. Pure.

/** Pieces of a spilled stream are hidden this many bytes or more at a time, cut at a line's end. */
const PIECE_BYTES = 1 << 20;

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

/** The chunks of a stream (a spill file's) hidden as hiddenBytes hides, in pieces cut at line ends: a secret is never split between two. */
export async function* hiddenChunks(chunks: AsyncIterable<Uint8Array>, hide: (text: string) => string): AsyncGenerator<Uint8Array> {
  let held: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    held.push(chunk);
    size += chunk.length;
    if (size < PIECE_BYTES) continue;
    const all = joined(held, size);
    const end = all.lastIndexOf(10) + 1 || all.length; // a line longer than a piece is cut where it is
    yield hiddenBytes(all.subarray(0, end), hide);
    held = [all.subarray(end)];
    size = all.length - end;
  }
  if (size > 0) yield hiddenBytes(joined(held, size), hide);
}

function joined(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}
