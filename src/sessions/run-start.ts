// Where the last run's history began (reader.ts loadSession): its requests sent every message from
// there, so a resume that loads from there sends their prefix again. Reads the file backward.
import { ENTRY_PREFIX, idMarker, parseEntry } from "./format.ts";
import { linesBackward } from "./lines.ts";

const MESSAGE = Buffer.from(ENTRY_PREFIX.message);

/**
 * The offset of the line of message `id` among the `most` message lines that end before byte `before`, at or after byte
 * `least`; 0 when no message
 * but `firstUser` (the session's first prompt, which a resume loads anyway) comes before it: the file is loaded from its
 * start, as a whole one. Undefined when it is not there (further back, never written, a summary's), and then not one
 * line past them is read.
 */
export function messageLineBefore(fd: number, before: number, least: number, id: string, most: number, firstUser: string | undefined): number | undefined {
  const marker = idMarker(id);
  let at: number | undefined;
  let count = 0;
  for (const line of linesBackward(fd, before)) {
    if (line.offset === 0) break; // the header
    if (at === undefined && line.offset < least) return undefined;
    const bytes = line.oversized ? Buffer.from(line.oversized.head) : line.buf.subarray(line.start, line.end);
    if (bytes.length < MESSAGE.length || bytes.compare(MESSAGE, 0, MESSAGE.length, 0, MESSAGE.length) !== 0) continue;
    if (at !== undefined) return isMessage(bytes, firstUser) ? 0 : at; // the message before it
    if (++count > most) return undefined;
    if (bytes.includes(marker) && isMessage(bytes, id)) at = line.offset;
  }
  return at === undefined ? undefined : 0;
}

/** Whether the message line `bytes` is message `id`'s (its id, not a call's or a result's that holds the same text). */
function isMessage(bytes: Buffer, id: string | undefined): boolean {
  if (id === undefined || !bytes.includes(idMarker(id))) return false;
  const parsed = parseEntry(bytes.toString("utf8"));
  return parsed.ok && parsed.entry.type === "message" && parsed.entry.message.id === id;
}
