// What `seq 1 n` prints, as a stream of pipe-sized chunks: output whose every line says where it belongs.
/** `seq 1 n` as one stream, in pipe-sized chunks. */
export function seq(n: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(Array.from({ length: n }, (_, i) => `${i + 1}\n`).join(""));
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + 65536));
      at += 65536;
    },
  });
}
