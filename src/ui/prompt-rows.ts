// Where the prompt and the line being edited land on the terminal (issue 14): the rows as the
// terminal wraps them, a character at a time — a wide character that does not fit goes whole to
// the next row and leaves a blank, a tab (shown as spaces) and a control shown as ^X split like
// any text, an emoji joined to the one before by a zero-width joiner shares its cell (a family is
// two columns, as tmux and current terminals draw it) — and where the cursor stands: on the
// character it is at, never in the blank a wide character left. A text taller than the screen is shown as a window of rows around the cursor,
// so a redraw never scrolls copies of it into the scrollback. Pure.
import { reflowGrid, type GridRow } from "./reflow.ts";

const ZWJ = "\u200d";

export interface Row {
  /** the part of the prompt on this row (a prompt wider than the terminal takes more than one) */
  prompt: string;
  /** the continuation mark that starts a line after the first */
  continuation: string;
  /** the line's text on this row, as shown */
  text: string;
  /** the row goes on from the one above (the terminal wrapped it): no newline between them */
  wrapped: boolean;
  /** the columns it fills */
  width: number;
  /** the columns of each character written on it, in order (what a resize reflows; the blank a wide character left is not one) */
  cells: number[];
}

export interface PromptRows {
  rows: Row[];
  cursorRow: number;
  cursorCol: number;
  /** where each place the cursor can stand in `text` lands: [index, row, column], in order (when asked for) */
  stops: [number, number, number][];
}

/**
 * `prompt`, then `text` with each line after the first behind `continuation`, in rows of
 * `columns`; `shown` is how a character of `text` is written, `width` its columns. When the
 * cursor is at the end of an exactly full row it gets a row of its own below.
 */
export function promptRows(
  prompt: string,
  continuation: string,
  text: string,
  cursor: number,
  columns: number,
  shown: (ch: string) => string,
  width: (ch: string) => number,
  /** collect `stops` (only Up and Down need them; a huge paste makes them costly on every key) */
  withStops = false,
): PromptRows {
  const cols = Math.max(1, columns);
  const rows: Row[] = [];
  let row: Row = { prompt: "", continuation: "", text: "", wrapped: false, width: 0, cells: [] };
  let col = 0;
  const next = (wrapped: boolean) => {
    rows.push({ ...row, width: col });
    row = { prompt: "", continuation: "", text: "", wrapped, width: 0, cells: [] };
    col = 0;
  };
  /** a code point of what is shown onto the row, or the next when it does not fit */
  const put = (part: "prompt" | "continuation" | "text", ch: string) => {
    const w = width(ch);
    if (col + w > cols && col > 0) next(true);
    row[part] += ch;
    if (w > 0) row.cells.push(w);
    col += w;
  };
  let cursorAt: [number, number] | undefined;
  /** the cursor here: on the next character, which goes to the next row when it does not fit */
  const mark = (nextWidth: number) => {
    if (cursorAt || col + nextWidth <= cols) return void (cursorAt ??= [rows.length, col]);
    next(true);
    cursorAt = [rows.length, col];
  };
  for (const ch of prompt) put("prompt", ch);
  let i = 0;
  let joined = false; // after a zero-width joiner: the terminal draws this emoji in the one before's cell
  const stops: [number, number, number][] = [];
  for (const ch of text) {
    const cells = ch === "\n" ? [] : [...shown(ch)];
    const w = cells.length > 0 ? Math.max(1, width(cells[0]!)) : 1;
    if (withStops && !joined && (cells.length === 0 || width(cells[0]!) > 0)) stops.push(col + w > cols ? [i, rows.length + 1, 0] : [i, rows.length, col]);
    if (!cursorAt && i >= cursor) mark(w);
    if (ch === "\n") {
      next(false);
      for (const c of continuation) put("continuation", c);
    } else if (joined && shown(ch) === ch) row.text += ch;
    else for (const c of cells) put("text", c);
    joined = ch === ZWJ;
    i += ch.length;
  }
  if (withStops) stops.push(col + 1 > cols ? [i, rows.length + 1, 0] : [i, rows.length, col]);
  if (!cursorAt) mark(1);
  rows.push({ ...row, width: col });
  const [cursorRow, cursorCol] = cursorAt!;
  return { rows, cursorRow, cursorCol, stops };
}

/**
 * Up (-1) or Down (1) on the screen: the place in the text on the row above or below, at column
 * `goal` or the nearest before it (the row's end when it is shorter), and that goal. The goal is the
 * cursor's column unless given: Up and Down in a row keep the column the first left from, as editors
 * do, so passing a short row does not pull the cursor to the start of the long ones after it.
 * Undefined on the first or last row (the key then goes through history).
 */
export function rowMove(at: PromptRows, dir: -1 | 1, goal = at.cursorCol): { index: number; goal: number } | undefined {
  const row = at.cursorRow + dir;
  let best: [number, number, number] | undefined;
  for (const stop of at.stops) {
    if (stop[1] !== row) continue;
    if (best === undefined || stop[2] <= goal) best = stop;
  }
  return best && { index: best[0], goal };
}

/**
 * The first of `total` rows to show when `height` fit on the screen: `top` as it was, moved just
 * enough to keep `cursorRow` in view; 0 when all fit.
 */
export function windowTop(total: number, cursorRow: number, height: number, top: number): number {
  if (total <= height) return 0;
  return Math.max(0, Math.min(Math.max(top, cursorRow - height + 1), cursorRow, total - height));
}

/** The drawn prompt as the terminal holds it: its lines (rows it wrapped joined) and where the cursor is in them. */
export interface DrawnLines {
  /**
   * each line's characters, the columns of each in order: a row the terminal wrapped adds its
   * characters only (the blank a wide character left at its end is not held, and a reflow drops it)
   */
  cells: number[][];
  /** the cursor's line, and its column counted from that line's start (the blanks above not counted) */
  line: number;
  offset: number;
  /** the width they were drawn at */
  cols: number;
}

/**
 * `rows` as drawn `cols` wide, the cursor on `cursorRow` (an index into `rows`) at `cursorCol`; a
 * row goes on the line above when `continues` says so (the draw wrote no newline before it).
 */
export function drawnLines(rows: Row[], continues: (row: Row) => boolean, cols: number, cursorRow: number, cursorCol: number): DrawnLines {
  const cells: number[][] = [];
  let line = 0;
  let offset = 0;
  let before = 0; // columns of the line's characters on the rows above this one
  rows.forEach((row, i) => {
    if (i > 0 && continues(row)) before += rows[i - 1]!.width;
    else {
      before = 0;
      cells.push([]);
    }
    cells[cells.length - 1]!.push(...row.cells);
    if (i === cursorRow) [line, offset] = [cells.length - 1, before + cursorCol];
  });
  return { cells, line, offset, cols };
}

/**
 * A line of characters `cells` wide as the terminal wraps it at `cols`: a wide character that does
 * not fit goes whole to the next row, leaving a blank.
 */
function wrapCells(cells: number[], cols: number): number[][] {
  const rows: number[][] = [[]];
  let used = 0;
  for (const w of cells) {
    if (used + w > cols && used > 0) [used] = [0, rows.push([])];
    rows.at(-1)!.push(w);
    used += w;
  }
  return rows;
}

/**
 * The cursor's row within the drawn prompt once the terminal has reflowed its lines to `cols` (as
 * tmux, and most terminals, do on a resize: reflow.ts).
 */
export function reflowedRow(d: DrawnLines, cols: number): number {
  const grid: GridRow[] = [];
  let at: [number, number] = [0, 0];
  d.cells.forEach((line, i) => {
    const rows = wrapCells(line, Math.max(1, d.cols));
    let offset = d.offset;
    rows.forEach((cells, k) => {
      const used = cells.reduce((a, b) => a + b, 0);
      if (i === d.line && offset >= 0 && (offset < used || k === rows.length - 1)) [at, offset] = [[grid.length, offset], -1];
      else offset -= used;
      grid.push({ cells, wrapped: k < rows.length - 1 });
    });
  });
  return reflowGrid(grid, cols, at[1], at[0]).cursor[0];
}
