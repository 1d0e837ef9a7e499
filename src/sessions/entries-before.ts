// What resume reads before the messages it loads (reader.ts): the latest summary and model
// entries, found by their line prefix without parsing the lines between.
import { readSync } from "node:fs";
import { ENTRY_PREFIX, parseEntry, type SessionEntry } from "./format.ts";
import { linesForward, TAIL_CHUNK } from "./lines.ts";

type Marked = keyof typeof ENTRY_PREFIX;

/**
 * The last entry of each `wanted` type that starts in the `limit` bytes before byte `before`,
 * found by searching the bytes for its line prefix: no other line is decoded or parsed.
 */
export function lastEntriesBefore(fd: number, before: number, limit: number, wanted: Marked[]): Partial<Record<Marked, SessionEntry>> {
  const out: Partial<Record<Marked, SessionEntry>> = {};
  const markers = wanted.map((type) => ({ type, bytes: Buffer.from("\n" + ENTRY_PREFIX[type]) }));
  const overlap = Math.max(...markers.map((m) => m.bytes.length)) - 1; // a marker across two reads
  const buf = Buffer.allocUnsafe(TAIL_CHUNK);
  for (let end = before; end > 0 && before - end < limit && markers.some((m) => !out[m.type]); ) {
    const from = Math.max(0, end - TAIL_CHUNK);
    const got = readSync(fd, buf, 0, end - from, from);
    const view = buf.subarray(0, got);
    for (const { type, bytes } of markers) {
      for (let at = view.length - 1; !out[type] && at >= 0; at--) {
        at = view.lastIndexOf(bytes, at);
        if (at < 0) break;
        const line = linesForward(fd, Number.MAX_SAFE_INTEGER, from + at + 1).next();
        const parsed = line.done ? undefined : parseEntry(line.value.text);
        if (parsed?.ok && parsed.entry.type === type) out[type] = parsed.entry;
      }
    }
    if (from === 0) break;
    end = from + overlap;
  }
  return out;
}
