// How many of a running command's live lines fit on the screen above the spinner's row. Pure.

/** the width the live lines of a running command are cut to when the terminal does not say its own */
export const LIVE_COLUMNS = 80;
/** rows side by side commands' live lines share: each its call's line and its last lines (one at least) */
export const LIVE_ROWS = 8;

/**
 * Of `lines` live lines, how many (the last ones) are drawn in a window `height` rows high (0:
 * unknown, all of them): the height less the spinner's row, none in a window of one row. A row
 * pushed off the screen's top is in the scrollback, where the next frame cannot clear it.
 */
export function liveRowsFor(lines: number, height: number): number {
  if (height <= 0) return lines;
  return Math.max(0, Math.min(lines, height - 1));
}
