// Whether `.hey/task.md` is the resumed session's own when its loaded messages do not show it
// (context/task-note.ts sessionNote): a summary took the agent's call that wrote it, or the window
// starts after it (r2 #1: `hey -c` then left the note out of every request). Reads the file backward.
import { closeSync, constants } from "node:fs";
import { callsNote } from "../context/held-note.ts";
import { readTaskNote, sessionNote } from "../context/task-note.ts";
import type { Message } from "../kernel/ir.ts";
import { parseEntry } from "./format.ts";
import { linesBackward, openSessionFile, SCAN_LIMIT } from "./lines.ts";
import type { LoadedSession } from "./reader.ts"; // a type: the resume's code is loaded only by a run that resumes

/** In a call's arguments (`.hey/task.md`, `.hey\\task.md`) and in a usage line's `task_note` key: only such lines are parsed. */
const NOTE_PATH = Buffer.from("task.md");
const NOTE_RECORD = Buffer.from('"task_note":"');

/**
 * Whether the last SCAN_LIMIT bytes of the first `size` of the session at `path` (what the resume read) hold the agent's
 * call naming the note, or a request that sent it (its usage line's `task_note`, not ""): the conversation's own note, as a
 * live run, which has the call in its history, takes it. False when neither is found there or the file cannot be read.
 */
export function noteTakenIn(path: string, size: number): boolean {
  let fd: number;
  try {
    fd = openSessionFile(path, constants.O_RDONLY);
  } catch {
    return false;
  }
  try {
    for (const line of linesBackward(fd, size)) {
      if (line.offset === 0 || size - line.offset > SCAN_LIMIT) return false; // the header, or as far back as resume looks
      const bytes = line.buf.subarray(line.start, line.end);
      if (line.oversized || (!bytes.includes(NOTE_PATH) && !bytes.includes(NOTE_RECORD))) continue;
      const parsed = parseEntry(bytes.toString("utf8"));
      if (!parsed.ok) continue;
      const e = parsed.entry;
      if (e.type === "usage" ? !!e.task_note : e.type === "message" && callsNote(e.message)) return true;
    }
    return false;
  } catch {
    return false; // unreadable past what the resume read: as if it said nothing
  } finally {
    closeSync(fd);
  }
}

/**
 * AgentParts.taskNote: `.hey/task.md` under `root` as it is now when it is this conversation's (sessionNote), the lines of
 * the session it `resumed` read for it (noteTakenIn) once, the first time a note is there that its loaded messages do not
 * show to be theirs. Read for each request: the file may be changed, or deleted (then it is left out), by then.
 */
export function conversationNote(
  root: string,
  resumed: Pick<LoadedSession, "path" | "bytes"> | undefined,
): (history: readonly Message[]) => string | undefined {
  let taken: boolean | undefined;
  const earlier = () => (taken ??= resumed !== undefined && noteTakenIn(resumed.path, resumed.bytes));
  return (history) => sessionNote(readTaskNote(root), history, earlier);
}
