// A read_file note points at an earlier result (context/read-stubs.ts). Once a summary took that
// result, the live run sends the note as the result was; a resume, which passes over the lines a
// summary replaced (reader.ts), loads the results its notes point at from them, so that the
// resumed run sends the same bytes. Pure.
import type { Message } from "../kernel/ir.ts";
import type { Summary } from "../context/passes.ts";
import { stubTarget } from "../context/read-stubs.ts";

const RESULT_KEY = Buffer.from(`"toolCallId":"`);

/**
 * The call id a session line's tool result names, read from its bytes without parsing the line
 * (words inside a message have their quotes escaped: only the key itself matches); undefined when
 * it names none.
 */
export function resultCallId(bytes: Buffer): string | undefined {
  const at = bytes.indexOf(RESULT_KEY);
  if (at < 0) return undefined;
  const start = at + RESULT_KEY.length - 1; // at the opening quote
  let end = start + 1;
  while (end < bytes.length && bytes[end] !== 0x22) end += bytes[end] === 0x5c ? 2 : 1;
  try {
    return JSON.parse(bytes.toString("utf8", start, end + 1)) as string;
  } catch {
    return undefined;
  }
}

/**
 * Keeps `wanted` (the calls whose results notes read so far point at, not met yet) up to date
 * with `m`, read after them going back through the file: a note adds its call, a result met takes it out.
 */
export function notePointers(m: Message, wanted: Set<string>): void {
  const target = stubTarget(m);
  if (target !== undefined) wanted.add(target);
  else if (m.role === "tool" && m.toolCallId) wanted.delete(m.toolCallId);
}

/** The results of `pool` outside `messages` that notes in `messages` point at and `messages` do not hold before them (a call id can come back), in `pool`'s order. */
export function pointedAtIn(messages: readonly Message[], pool: readonly Message[]): Message[] {
  const held = new Set<string>();
  const wanted = new Set<string>();
  for (const m of messages) {
    const target = stubTarget(m);
    if (target !== undefined && !held.has(target)) wanted.add(target);
    if (m.role === "tool" && m.toolCallId) held.add(m.toolCallId);
  }
  const out: Message[] = [];
  const inMessages = new Set(messages.map((m) => m.id));
  // the pool's messages among `messages` stand after a note, never the result it points at
  for (const m of pool) if (m.role === "tool" && m.toolCallId && !inMessages.has(m.id) && wanted.delete(m.toolCallId)) out.push(m);
  return out;
}

/** `summaries` with `results` on the latest (the view looks for them in every summary): as they are when there are none. */
export function withResults(summaries: Summary[], results: readonly Message[]): Summary[] {
  const latest = summaries.at(-1);
  return latest && results.length > 0 ? [...summaries.slice(0, -1), { ...latest, results }] : summaries;
}
