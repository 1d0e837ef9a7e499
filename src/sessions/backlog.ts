// A session on a disk that fills and frees (SPEC §19: a write failure warns once and the
// conversation continues): the writer (writer.ts) holds the lines the disk would not take, in
// order, up to BACKLOG_MAX_BYTES, tries again at each turn's end, and writes them once it can. What
// it holds, and what it says when it stops, saves again, or ends with lines still held, is here.
import { errnoCode } from "../kernel/errors.ts";
import { formatSize } from "./format.ts";
import type { KeptText } from "./shrunk.ts";

/**
 * The most the writer holds while the disk takes nothing: past it the oldest held lines are
 * dropped (the newest matter most to `hey -c`), and saving again says how many were lost.
 */
export const BACKLOG_MAX_BYTES = 32 * 1024 * 1024;

/** Lines not written yet, oldest first, and what was written and dropped of them since the disk filled. */
export interface Backlog {
  /** `text`: the line, or how to make it again (an entry's: its message is the conversation's, not held twice) */
  lines: { text: KeptText; bytes: number; message: boolean }[];
  /** bytes of `lines` */
  bytes: number;
  dropped: { lines: number; bytes: number; messages: number };
  written: { lines: number; messages: number };
}

export function emptyBacklog(): Backlog {
  return { lines: [], bytes: 0, dropped: { lines: 0, bytes: 0, messages: 0 }, written: { lines: 0, messages: 0 } };
}

/** Holds one more line; the oldest go past `max` bytes, the newest line is always kept. */
export function hold(backlog: Backlog, text: KeptText, bytes: number, message: boolean, max = BACKLOG_MAX_BYTES): void {
  backlog.lines.push({ text, bytes, message });
  backlog.bytes += bytes;
  while (backlog.bytes > max && backlog.lines.length > 1) {
    const gone = backlog.lines.shift()!;
    backlog.bytes -= gone.bytes;
    backlog.dropped.lines++;
    backlog.dropped.bytes += gone.bytes;
    if (gone.message) backlog.dropped.messages++;
  }
}

/** The oldest held line, written: no longer held. */
export function written(backlog: Backlog): void {
  const line = backlog.lines.shift();
  if (!line) return;
  backlog.bytes -= line.bytes;
  backlog.written.lines++;
  if (line.message) backlog.written.messages++;
}

/**
 * The lines written to a new file the writer then removed (the disk filled before its first
 * message: a file with none is no session), held again before the rest, as non-message lines;
 * `counted` of them had been counted as written from the backlog.
 */
export function holdAgain(backlog: Backlog, lines: readonly { text: KeptText; bytes: number }[], counted: number): void {
  backlog.lines.unshift(...lines.map((l) => ({ text: l.text, bytes: l.bytes, message: false })));
  backlog.bytes += lines.reduce((n, l) => n + l.bytes, 0);
  backlog.written.lines -= counted;
}

/** The disk takes lines again and none is held: what the backlog says of the time it was full, which then begins anew. */
export function savedAgain(backlog: Backlog, path: string): string {
  const { lines, messages } = backlog.written;
  const what = lines === 0 ? "nothing was waiting" : `wrote the ${held(lines, messages)} held since the disk was full`;
  const said = `session saved again: ${path} takes writes again; ${what}${droppedNote(backlog.dropped)}`;
  Object.assign(backlog, emptyBacklog());
  return said;
}

/**
 * A failure that ends when space is freed (a full disk, a used-up quota, a file size limit): the
 * writer holds its lines and tries again. Anything else (permissions, a read-only disk) stops it.
 */
export function spaceError(e: unknown): boolean {
  const code = errnoCode(e);
  return code === "ENOSPC" || code === "EDQUOT" || code === "EFBIG";
}

/** What the writer says when the disk stops taking its lines: `why` is the disk's problem (fs/dir-problem.ts diskProblem). */
export function stoppedWarning(path: string, why: string): string {
  return `session not saved: cannot write ${path}: ${why}; hey holds what it could not write (up to ${formatSize(BACKLOG_MAX_BYTES)}) and writes it at the end of a turn once there is space`;
}

/**
 * What the writer says when it closes with lines still held: they are lost. `saved`: the file holds
 * earlier messages. `away`: the file was deleted or replaced under the writer and the full disk
 * took no copy of it, so nothing of the conversation is where `hey -c` finds it. `left`: the
 * session's id, when `/clear` or `/resume` left it: `hey -c` goes on with a later one, not it.
 */
export function lostWarning(path: string, backlog: Backlog, saved: boolean, away?: "gone" | "replaced", left?: string): string {
  const lines = backlog.lines.length;
  const messages = backlog.lines.filter((l) => l.message).length;
  if (away) {
    const how = away === "gone" ? "was deleted" : "was replaced by another file";
    const also = lines === 0 ? "" : `, and the ${held(lines, messages)} (${formatSize(backlog.bytes)}) held since the disk was full,`;
    return `${path} ${how} while hey was writing it, and the disk still takes no copy of it as hey ends: this conversation${also} is lost${droppedNote(backlog.dropped)}`;
  }
  const resume = left === undefined ? "`hey -c`" : `\`hey --resume ${left}\``;
  const from = saved ? `; ${resume} goes on from what was saved before the disk was full` : `; nothing of this conversation was saved`;
  return `${path} still cannot be written as hey ends: the ${held(lines, messages)} (${formatSize(backlog.bytes)}) held since the disk was full are lost${droppedNote(backlog.dropped)}${from}`;
}

/**
 * What a session left (`/clear`, `/resume`) while the disk refuses its lines still holds, after the
 * session's name: said instead of "saved", with the promise the writer keeps (it tries again at each turn's end).
 */
export function heldNote(backlog: Backlog): string {
  const lines = backlog.lines.length;
  const what =
    lines === 0
      ? "was deleted and is not written back yet"
      : `has ${held(lines, backlog.lines.filter((l) => l.message).length)} (${formatSize(backlog.bytes)}) not yet written`;
  return `${what} (the disk is full); hey keeps trying at the end of each turn and writes ${lines === 0 ? "it" : "them"} once there is space`;
}

function droppedNote(dropped: Backlog["dropped"]): string {
  if (dropped.lines === 0) return "";
  return `; the ${held(dropped.lines, dropped.messages)} before them (${formatSize(dropped.bytes)}) went past the ${formatSize(BACKLOG_MAX_BYTES)} hey holds and are lost, so the session has a gap there`;
}

/** "3 messages and 2 other entries", "1 message", "2 entries". */
function held(lines: number, messages: number): string {
  const others = lines - messages;
  const m = messages === 1 ? "1 message" : `${messages} messages`;
  if (messages === 0) return others === 1 ? "1 entry" : `${others} entries`;
  return others === 0 ? m : `${m} and ${others === 1 ? "1 other entry" : `${others} other entries`}`;
}
