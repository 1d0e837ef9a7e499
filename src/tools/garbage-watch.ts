// Collecting the garbage a long read of a spilled output leaves behind (SPEC §22: a bash call with
// 50 MB of output stays under 100 MB). Bun's collector counts the small string cells, not the
// megabytes of text behind them, so it lets decoded pieces pile up: reading a 50 MB spill file for
// the filter left ~25 MB behind, and each 1 MB piece of the saved copy ~3 MB. A full collection
// takes ~6 ms with hey's heap, too long to run after every piece (50 of them added ~350 ms to the
// call), so it runs only once the process has grown by GROWTH_BYTES since the last one.

/** How far the process may grow past where the last collection left it: a long read peaks at most this much higher. */
const GROWTH_BYTES = 4 << 20;
/** The resident size is looked at once this many bytes were read (a look costs ~30 µs). */
const LOOK_EVERY_BYTES = 1 << 20;

let floor: number | undefined; // the resident size the last collection left, or the least seen since
let unlooked = 0;

/**
 * Told of `bytes` a long read (a spill file's filter, its saved copy) went through: collects the
 * garbage once the process grew by GROWTH_BYTES past the least it was since the last collection. Never throws.
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
