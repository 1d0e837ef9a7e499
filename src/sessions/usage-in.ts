// What the earlier runs of a session cost (`/usage`), read from its file without decoding its messages.
import { closeSync, constants, readSync } from "node:fs";
import { addUsage, emptyUsage, type Usage } from "../kernel/ir.ts";
import { usageOf } from "../kernel/output.ts";
import { ENTRY_PREFIX, parseEntry } from "./format.ts";
import { openSessionFile, TAIL_CHUNK } from "./lines.ts";

/** A usage entry's line is ~170 bytes; more is not one of hey's. */
const USAGE_LINE_MAX = 1024;

/**
 * The token counts of every `usage` entry in the first `bytes` of the session at `path` (the runs
 * before this one), how many there are, the last of them (`/usage`'s last request after `hey -c`),
 * and how many message lines: found by a byte search for
 * the entries' line prefixes, so no other line is decoded, however long (a message line is counted, not read).
 */
export function usageIn(path: string, bytes: number): { usage: Usage; requests: number; messages: number; last?: Usage } {
  const fd = openSessionFile(path, constants.O_RDONLY);
  let usage = emptyUsage();
  let requests = 0;
  let messages = 0;
  let last: Usage | undefined;
  const marker = Buffer.from("\n" + ENTRY_PREFIX.usage);
  const messageMarker = Buffer.from("\n" + ENTRY_PREFIX.message);
  const buf = Buffer.allocUnsafe(TAIL_CHUNK + USAGE_LINE_MAX);
  try {
    for (let from = 0; from < bytes; from += TAIL_CHUNK) {
      const got = readSync(fd, buf, 0, Math.min(buf.length, bytes - from), from);
      const view = buf.subarray(0, got);
      // a marker is counted in the chunk where it starts; the extra bytes complete its line
      for (let at = view.indexOf(messageMarker); at >= 0 && at < TAIL_CHUNK; at = view.indexOf(messageMarker, at + 1)) messages++;
      for (let at = view.indexOf(marker); at >= 0 && at < TAIL_CHUNK; at = view.indexOf(marker, at + 1)) {
        const end = view.indexOf(10, at + 1);
        const parsed = end < 0 ? undefined : parseEntry(view.toString("utf8", at + 1, end));
        if (parsed?.ok && parsed.entry.type === "usage") {
          last = usageOf(parsed.entry);
          usage = addUsage(usage, last);
          requests++;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return { usage, requests, messages, ...(last ? { last } : {}) };
}

/**
 * The tokens `resumed`'s earlier runs used and its messages before this run (RuntimeParts.earlierRuns),
 * read from its file; `loaded`: how many this run's history started with; `last`: the last request's
 * tokens, when there was one. Undefined for a new session, or when the file went away (this run's
 * counts are all there is).
 */
export function earlierRuns(
  resumed: { path: string; bytes: number; appended: readonly unknown[]; messages: readonly unknown[] } | undefined, // a LoadedSession (reader.ts)
): { usage: Usage; requests: number; messages: number; loaded: number; last?: Usage } | undefined {
  if (!resumed) return undefined;
  try {
    const { usage, requests, messages, last } = usageIn(resumed.path, resumed.bytes); // the results of calls a crash left open came after
    return { usage, requests, messages: messages + resumed.appended.length, loaded: resumed.messages.length, ...(last ? { last } : {}) };
  } catch {
    return undefined;
  }
}
