// What goes around the spinner's row during a turn: the running commands' live lines above it (how many fit the window), and
// under it what the user types and queues meanwhile (typed-ahead.ts draws those rows). Pure.
import { reflowedRow } from "./prompt-rows.ts";
import { visible } from "./visible.ts";

/** the width the live lines of a running command are cut to when the terminal does not say its own */
export const LIVE_COLUMNS = 80;
/** rows side by side commands' live lines share: each its call's line and its last lines (one at least) */
export const LIVE_ROWS = 8;

/**
 * Of `lines` live lines, how many (the last ones) are drawn in a window `height` rows high (0:
 * unknown, all of them): the height less the spinner's row and the `below` rows under it (what is typed during the turn), none
 * in a window of one row. A row pushed off the screen's top is in the scrollback, where the next frame cannot clear it.
 */
export function liveRowsFor(lines: number, height: number, below = 0): number {
  if (height <= 0) return lines;
  return Math.max(0, Math.min(lines, height - 1 - below));
}

/**
 * The live lines of the commands `running`, in the order they were called: each command's last lines (side by side, an equal
 * share of LIVE_ROWS, under its call's line when `labelled`), each after `indent`.
 */
export function liveLines(running: readonly { label: string; lines: readonly string[] }[], labelled: boolean, indent: string): string[] {
  const each = running.length > 1 ? Math.max(1, Math.floor(LIVE_ROWS / running.length) - 1) : Number.POSITIVE_INFINITY;
  return running.flatMap((r) => [...(labelled ? [r.label] : []), ...r.lines.slice(-each).map((l) => indent + visible(l))]);
}

/**
 * What is written after the spinner's row (the cursor at its end, `at` columns in) to show `rows` under it, dim with colour, and
 * take the cursor back; rows drawn there before (`drawn`) are cleared first. Each row must fit the window's width, unwrapped.
 */
export function aheadBlock(rows: readonly string[], at: number, drawn: boolean, color: boolean): { text: string; drawn: boolean } {
  const clear = drawn || rows.length > 0 ? "\x1b[J" : "";
  if (rows.length === 0) return { text: clear, drawn: false };
  const block = rows.map((r) => `\n\r${color ? `\x1b[2m${r}\x1b[0m` : r}`).join("");
  return { text: `${clear}${block}\x1b[${rows.length}A\r${at > 0 ? `\x1b[${at}C` : ""}`, drawn: true };
}

/**
 * How many rows above the spinner's the first of the live lines drawn there is now: as many as were drawn (`cells`: each line's
 * characters' columns, drawn `drawnAt` columns wide), or as the terminal's reflow made them and the spinner's row (`spin`, its
 * cursor `spinWidth` columns in) after a resize to `columns`.
 */
export function liveRowsUp(cells: readonly number[][], drawnAt: number, spin: number[], spinWidth: number, columns: number): number {
  if (columns === drawnAt) return cells.length;
  return reflowedRow({ cells: [...cells, spin], line: cells.length, offset: spinWidth, cols: drawnAt }, columns);
}
