// The line typed during a turn as the turn ends (README "typing during a turn"): it waits at the prompt, unsent, the Enter that
// ended it held, not drawn. Keys typed just before the end can be read just after it (the terminal hands them over late on a
// loaded machine), so keys read within HELD_BREAK_MS of the end are taken as typed during the turn when that is what they can be.
import type { Key } from "./keys.ts";

/** Keys read this soon after a turn ended may have been typed before the screen showed it. */
export const HELD_BREAK_MS = 500;

/** When the last turn ended, kept while what was typed during it may still be coming in. */
export interface TurnEndTimes {
  /** when the turn ended, if it held the Enter that ended what was typed during it (not drawn): words typed within HELD_BREAK_MS go on after it */
  heldBreakAt?: number;
  /** when the turn ended, if what was typed during it had no Enter read by then: the first one read within HELD_BREAK_MS may be that line's */
  endedMidLineAt?: number;
}

/** What was typed during the turn (`typed`, its Enters newlines) as the prompt shows it at the turn's end, at `now`. */
export function aheadAtEnd(typed: string, now: number): TurnEndTimes & { text: string } {
  const text = typed.replace(/\n+$/, ""); // the Enters that ended it: the next Enter sends the line, no empty row below it
  const typedOn = text !== "";
  return { text, heldBreakAt: typedOn && text !== typed ? now : undefined, endedMidLineAt: typedOn && text === typed ? now : undefined };
}

/**
 * A key read at the prompt at `now`, after a turn that ended at `times`: `heldEnter` when it is the Enter that ended the line typed
 * during the turn, read late (it is not a send: the Enter typed after the turn is); `lineBreak` when it is words typed right after a
 * held Enter, which go on a row of their own; and the times that stand after it.
 */
export function readAfterEnd(times: TurnEndTimes, key: Key, more: boolean, now: number) {
  const early = (at: number | undefined) => at !== undefined && now - at <= HELD_BREAK_MS;
  const ends = key.type === "key" && (key.name === "enter" || key.name === "newline"); // Ctrl-J too: during a turn, both are a newline
  const heldEnter = ends && !more && early(times.endedMidLineAt);
  const lineBreak = early(times.heldBreakAt) && (key.type === "text" || key.type === "paste");
  // the line gets one Enter from the turn, whenever it is read: the one after it is the user's
  const after: TurnEndTimes = heldEnter
    ? { heldBreakAt: times.endedMidLineAt, endedMidLineAt: undefined }
    : { heldBreakAt: undefined, endedMidLineAt: times.endedMidLineAt };
  return { heldEnter, lineBreak, times: after };
}
