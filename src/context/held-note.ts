// `.hey/task.md` in the requests after a compaction (SPEC §6, §10). The agent keeps the file current,
// every few turns, and the note sits right after the first user message: sent as the file is now, each
// update changed the prompt near its top and re-billed the whole conversation uncached (x4 #1: 41–44 %
// of a long task's bill). So its text is taken where the prefix is rebuilt anyway — the request a
// summary brings it in with, the first after the cache was lost, one that leaves out more than the
// request before — and held until the next such request; the model reads its later updates in its own
// write_file and edit calls, which dedup and error purge leave alone (a cut of a long one says the
// file has it whole), and the note's first line says so. Pure.

import type { Message } from "../kernel/ir.ts";

/** The note the requests send, as the file was when it was taken (`text` undefined: there was none). */
export interface HeldNote {
  text: string | undefined;
}

/** The note a request that keeps its prefix sends: the held one, or the file's (`file`) when none is held yet. */
export const heldText = (held: HeldNote | undefined, file: string | undefined): string | undefined => (held ? held.text : file);

/**
 * What the state holds after a request built with the file's note (`fresh`) or the held one, and what its
 * usage line records for `hey -c`'s replay (`record`), which cannot read the file as it was then: the text
 * taken anew, "" for none — only where a note is or was held, so a session without one records nothing.
 */
export function holdNote(held: HeldNote | undefined, file: string | undefined, fresh: boolean): { note: HeldNote; record?: string } {
  if (!fresh && held) return { note: held };
  const record = fresh && (file !== undefined || held?.text !== undefined) ? (file ?? "") : undefined;
  return { note: { text: file }, ...(record !== undefined ? { record } : {}) };
}

/** The note's path in a call's arguments (JSON: a backslash doubled), not any task.md (a `notes/task.md` of the project). */
const NOTE_IN_ARGUMENTS = /\.hey(?:\/|\\\\|\\)task\.md/;

/** Whether message `m` holds the agent's call naming `.hey/task.md` (a read, a write, an edit of it: its updates). */
export const callsNote = (m: Message): boolean => m.toolCalls?.some((c) => NOTE_IN_ARGUMENTS.test(c.arguments)) ?? false;
