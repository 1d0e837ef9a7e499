// A session file emptied or cut short while hey writes it (`: > file`, a log-rotation tool's
// copytruncate, a cleanup script): the name and the inode stay, so vanished.ts sees nothing, but
// the bytes are gone and every later line would follow a hole. The writer keeps the lines it wrote
// (up to KEPT_MAX_BYTES), notices the shrink before its next write, and writes back what it knows,
// as this file decides.
import type { Message } from "../kernel/ir.ts";
import { formatSize, toLine, TORN_END } from "./format.ts";

/**
 * The most of a run's own lines the writer keeps to write back: a run longer than this (days at a
 * prompt) keeps its latest lines, and a shrink below the dropped ones says they are lost.
 */
export const KEPT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * A kept line: its text, or how to make it again (the writer's entries: their messages are the
 * conversation's, so the line's text is not held a second time — up to KEPT_MAX_BYTES of it).
 */
export type KeptText = string | (() => string);

/** What the writer knows of its file: its header line, the lines this run wrote (at their offsets), and the size it expects. */
export interface Kept {
  header: string | undefined;
  lines: { at: number; text: KeptText; bytes: number }[];
  /** bytes of `lines` */
  bytes: number;
  /** where the file ends after the writer's last write */
  size: number;
}

export function emptyKept(header: string | undefined, size: number): Kept {
  return { header, lines: [], bytes: 0, size };
}

/** Records a line written at the end of the file; the oldest are dropped past KEPT_MAX_BYTES. */
export function keep(kept: Kept, text: KeptText, bytes: number): void {
  kept.lines.push({ at: kept.size, text, bytes });
  kept.bytes += bytes;
  kept.size += bytes;
  while (kept.bytes > KEPT_MAX_BYTES && kept.lines.length > 1) kept.bytes -= kept.lines.shift()!.bytes;
}

/** The bytes a write-back starts from: 0 (the file is emptied first) or the size found. */
export interface WriteBack {
  truncateTo: number | undefined;
  text: string;
  /** this run's lines written again */
  lines: number;
  /** messages this run resumed with, written again (the file was emptied) */
  resumed: number;
  /** bytes that were in the file and are not written back (earlier runs', or this run's dropped ones) */
  lost: number;
  /** what the writer knows of the file once `text` is written */
  kept: Kept;
}

/**
 * What to write when the file, expected to be `kept.size` long, is found `now` bytes long
 * (`endsLine`: its last byte is a newline). The prefix still there is kept as it is: a line the cut
 * split is ended, marked as cut short (format.ts TORN_END, so a resume skips it without a word),
 * and every kept line not wholly in the prefix follows. A prefix shorter than the header is emptied
 * and the header written first, then `resumed` — the lines of the messages this run resumed with,
 * what earlier runs wrote that the writer can still give back — when given.
 */
export function writeBack(kept: Kept, now: number, endsLine: boolean, resumed?: () => string[]): WriteBack {
  const headerBytes = kept.header === undefined ? 0 : Buffer.byteLength(kept.header);
  const restart = kept.header !== undefined && now < headerBytes;
  const from = restart ? 0 : now;
  const again = kept.lines.filter((l) => l.at + l.bytes > from);
  const firstKept = kept.lines[0]?.at ?? kept.size;
  const lost = Math.max(0, firstKept - Math.max(from, headerBytes));
  const earlier = restart && lost > 0 ? (resumed?.() ?? []) : [];
  const lead = (restart ? kept.header! : "") + (from === 0 || endsLine ? "" : `${TORN_END}\n`);
  const after: Kept = { header: kept.header, lines: kept.lines.filter((l) => l.at + l.bytes <= from), bytes: 0, size: from + Buffer.byteLength(lead) };
  after.bytes = after.lines.reduce((n, l) => n + l.bytes, 0);
  for (const text of earlier) keep(after, text, Buffer.byteLength(text));
  for (const l of again) keep(after, l.text, l.bytes);
  const text = lead + earlier.join("") + again.map((l) => (typeof l.text === "string" ? l.text : l.text())).join("");
  return { truncateTo: restart && now > 0 ? 0 : undefined, text, lines: again.length, resumed: earlier.length, lost, kept: after };
}

/** `kept` for the same lines in a copy of the file (vanished.ts copySession) `size` bytes long, whose header may differ. */
export function rebase(kept: Kept, header: string | undefined, size: number): Kept {
  const shift = size - kept.size;
  return { header, lines: kept.lines.map((l) => ({ ...l, at: l.at + shift })), bytes: kept.bytes, size };
}

/** The warning for a write-back: what happened to the file, what was written again, what is lost. */
export function writeBackWarning(path: string, now: number, back: WriteBack): string {
  const what = now === 0 ? "was emptied" : `was cut to ${formatSize(now)}`;
  const lines = `${back.lines === 1 ? "the 1 line" : `the ${back.lines} lines`} of this run it had lost`;
  if (back.resumed > 0)
    return `${path} ${what} while hey was writing it; hey wrote back the ${back.resumed === 1 ? "message" : `${back.resumed} messages`} this run resumed with and ${lines}, which \`hey -c\` goes on from; what a resume does not load (older messages, the earlier runs' usage records) is lost`;
  const lost =
    back.lost === 0 ? "nothing of the session is lost" : `${formatSize(back.lost)} written before them is lost (\`hey -c\` goes on from what is left)`;
  return `${path} ${what} while hey was writing it; hey wrote back ${lines}; ${lost}`;
}

/** The lines of the messages a run resumed with, less the ones it adds itself (the synthetic results it writes): what a file emptied under the writer is given back. */
export function resumedEntries(resumed: { messages?: readonly Message[]; appended?: readonly Message[] }): string[] {
  const own = new Set(resumed.appended?.map((m) => m.id));
  return (resumed.messages ?? []).filter((m) => !own.has(m.id)).map((message) => toLine({ type: "message", message }));
}
