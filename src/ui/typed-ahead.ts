// The line typed during a turn (README "typing during a turn"): drawn under the turn's status as it is typed, Enter queues it
// (sent when the turn ends), and what is still being typed waits at the prompt, unsent, when the turn ends. Keys typed just before
// the end can be read just after it (the terminal hands them over late on a loaded machine): a late Enter sends the line at the
// prompt, as it would have queued it in time, and keys after it are never part of that line; words read within HELD_BREAK_MS of
// the end after a line break typed during the turn (Ctrl-J) go on the row that break began. Pure.
import type { Key } from "./keys.ts";

/** Keys read this soon after a turn ended may have been typed before the screen showed it. */
export const HELD_BREAK_MS = 500;
/** queued lines drawn under the status at most; the rest are counted */
export const QUEUED_SHOWN = 3;
/** said after the line being typed during a turn, when it fits */
export const AHEAD_HINT = "Enter queues it";

/** When the last turn ended, kept while what was typed during it may still be coming in. */
export interface TurnEndTimes {
  /** when the turn ended, if what was typed during it ended in line breaks (not drawn): words typed within HELD_BREAK_MS go on after them */
  heldBreakAt?: number;
}

/** What was typed during the turn (`typed`) as the prompt shows it at the turn's end, at `now`. */
export function aheadAtEnd(typed: string, now: number): TurnEndTimes & { text: string } {
  const text = typed.replace(/\n+$/, ""); // the line breaks that ended it: the next Enter sends the line, no empty row below it
  return { text, heldBreakAt: text !== "" && text !== typed ? now : undefined };
}

/** A key read at the prompt at `now`, after a turn that ended at `times`: `lineBreak` when it is words typed right after a held line break. */
export function readAfterEnd(times: TurnEndTimes, key: Key, now: number) {
  const early = times.heldBreakAt !== undefined && now - times.heldBreakAt <= HELD_BREAK_MS;
  return { lineBreak: early && (key.type === "text" || key.type === "paste"), times: { heldBreakAt: undefined } };
}

/** How the rows under the status show text: each code point as drawn (a folded paste as its label) and the columns a string takes. */
export interface AheadLook {
  shown(ch: string): string;
  width(text: string): number;
  /** the character under the cursor, marked (reverse video); as it is without colour */
  mark(ch: string): string;
}

/**
 * The rows drawn under a turn's status: the lines queued (the last QUEUED_SHOWN of them) and the line being typed with its cursor,
 * each cut to one row of `columns` (the last column left empty: a full row would wrap when the terminal reflows it).
 */
export function aheadRows(queued: readonly string[], text: string, cursor: number, columns: number, look: AheadLook): string[] {
  const room = Math.max(8, columns - 1);
  const one = (line: string) => [...line].map((ch) => (ch === "\n" ? "↵" : look.shown(ch))).join("");
  const cut = (line: string, max: number) => {
    if (look.width(line) <= max) return line;
    let out = "";
    for (const ch of line) {
      if (look.width(out + ch) > max - 1) break;
      out += ch;
    }
    return `${out}…`;
  };
  const rows = queued.length > QUEUED_SHOWN ? [`(${queued.length - QUEUED_SHOWN} more queued)`] : [];
  rows.push(...queued.slice(-QUEUED_SHOWN).map((q) => cut(`queued: ${one(q)}`, room)));
  if (text === "") return rows.length > 0 ? [...rows, cut(`sent when the turn ends (Esc stops it and puts them back at the prompt)`, room)] : [];
  // the line around the cursor: from its start when it fits, else as much before the cursor as leaves it in view
  const lead = "› ";
  const before = one(text.slice(0, cursor));
  const chars = [...text.slice(cursor)];
  const at = chars.length > 0 ? one(chars[0]!) : " ";
  const after = one(chars.slice(1).join(""));
  const hint = `  ${AHEAD_HINT}`;
  const fits = look.width(lead + before + at + after + hint) <= room;
  const space = room - look.width(lead) - (fits ? look.width(hint) : 0);
  let head = before;
  while (head !== "" && look.width(head) + look.width(at) + 1 > space) head = [...head].slice(1).join("");
  if (head !== before) head = `…${[...head].slice(1).join("")}`;
  const tail = cut(after, Math.max(1, space - look.width(head) - look.width(at)));
  rows.push(lead + head + look.mark(at) + (after === "" ? "" : tail) + (fits ? hint : ""));
  return rows;
}
