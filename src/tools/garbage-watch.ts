// Collecting the garbage a long output leaves as it is read (SPEC §22: a bash call printing 50 MB
// stays under 100 MB). Bun's collector counts the small cells of chunks and strings, not the
// megabytes of bytes and text behind them, so it lets them pile up: the chunks of a fast command's
// pipe, the text of a spill file the filter reads, the pieces of its saved copy. A full collection
// takes ~6 ms with hey's heap, too long to run after every piece (one after each 1 MB piece of the
// saved copy added ~350 ms to a 50 MB call), so it runs only once the process has grown by
// GROWTH_BYTES past the least it was since the last one.

/** How far the process may grow before the garbage is collected: a long read peaks about this much above where it started. */
const GROWTH_BYTES = 4 << 20;
/** The resident size is looked at once this many bytes were read (a look costs ~30 µs). */
const LOOK_EVERY_BYTES = 1 << 20;

let floor: number | undefined; // the least resident size seen since the last collection
let unlooked = 0;

/**
 * Told of `bytes` a long read went through (a spilled stream's chunks, the filter's read of its
 * file, a piece of its saved copy): collects the garbage once the process grew by GROWTH_BYTES.
 * Process-wide, as the garbage is: a read that follows another starts from where that one left
 * the process. Never throws.
 */
export function collectAsRead(bytes: number): void {
  unlooked += bytes;
  if (unlooked < LOOK_EVERY_BYTES) return;
  unlooked = 0;
  const size = process.memoryUsage.rss();
  floor = Math.min(floor ?? size, size);
  if (size - floor < GROWTH_BYTES) return;
  Bun.gc(true);
  floor = process.memoryUsage.rss();
}
