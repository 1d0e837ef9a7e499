// The status under an answer that has gone quiet (SPEC §17): a model that stalls mid-sentence, or
// streams a big tool call's arguments (nothing shows until the call is whole), still shows a sign
// of life. The spinner is drawn on the row under the text's last line, and taken away before the
// text goes on, the cursor back where the text stopped. Pure: it follows what was written and says
// what to write.

/** How long a stream may say nothing after its text before the status comes back: a healthy stream's pauses are shorter. */
export const QUIET_MS = 1000;

/** styles and other CSI sequences, which take no columns */
const CSI = /\x1b\[[0-9;?]*[@-~]/g;

export interface LineEnd {
  /** `text` was written to the terminal as it is (styles and all) */
  wrote(text: string): void;
  /**
   * What takes the cursor from where the text stopped to a row of its own for the status (nothing
   * when the text ended its line), and what takes it back once that row is cleared, at the width
   * the terminal has then (a resize meanwhile reflowed the text's last line); undefined when that
   * line's last row fills the `columns` (0: unknown) and the way back cannot be told.
   */
  status(columns: number): { below: string; back(columns: number): string } | undefined;
  /** the last line as written, styles and all; empty at a line's start: what is written again after a stop (Ctrl-Z, `fg`) */
  shown(): string;
}

/** `width`: the columns a string takes on the terminal. */
export function lineEnd(width: (text: string) => number): LineEnd {
  let styled = ""; // the last line written
  let tail = ""; // the same without its styles
  return {
    wrote(text) {
      const cut = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r")); // a style sequence holds neither
      styled = cut >= 0 ? text.slice(cut + 1) : styled + text;
      tail = styled.replace(CSI, "");
    },
    shown: () => styled,
    status(columns) {
      if (tail === "") return { below: "", back: () => "" };
      const cells = cellsOf(tail, width);
      if (columns > 0 && lastRowWidth(cells, columns) >= columns) return undefined;
      // the status's first row is right under the last row of the text's line, however the terminal reflowed it
      return { below: "\n", back: (now) => `\x1b[1A\x1b[${Math.min(lastRowWidth(cells, now) + 1, now > 0 ? now : Number.POSITIVE_INFINITY)}G` };
    },
  };
}

const ZWJ = "\u200d";

/** the columns of each character of `text` as the terminal places them (an emoji after a zero-width joiner shares the cell before) */
function cellsOf(text: string, width: (text: string) => number): number[] {
  const cells: number[] = [];
  let joined = false;
  for (const ch of text) {
    const w = joined ? 0 : width(ch);
    if (w > 0) cells.push(w);
    joined = ch === ZWJ;
  }
  return cells;
}

/**
 * The columns the last row of a line of `cells` fills at `columns` (0: no wrapping), a wide
 * character that does not fit going whole to the next row, as the terminal wraps and reflows it.
 * A full last row leaves the way back on its last cell: what follows the text there starts with
 * a line break (the stream's column is past the width), which writes over nothing.
 */
function lastRowWidth(cells: number[], columns: number): number {
  let used = 0;
  for (const w of cells) used = columns > 0 && used + w > columns && used > 0 ? w : used + w;
  return used;
}
