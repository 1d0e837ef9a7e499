// Markdown tables in an answer (issue 28): the rows of a `| a | b |` table with its `|---|` line,
// drawn with aligned columns that fit the terminal, or as one block of `header: value` lines per
// row when its columns cannot fit. No line is wider than the terminal. Pure.

import { withoutMarkers } from "./emphasis.ts";
import { breakUnits, wrapText as wrap } from "./line-breaks.ts";

const BOLD = "\x1b[1m";
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";
/** A column never gets narrower than this when the table is squeezed to the width. */
const MIN_COLUMN = 6;
const SEPARATOR = " │ ";
/** how far a value goes in under its header when the headers leave it too little room beside them */
const INDENT = 2;

/** The cells of a table line (`| a | b |`, outer pipes optional; `\|` is a literal pipe), or undefined when it is no table line. */
export function tableCells(line: string): string[] | undefined {
  const t = line.trim();
  if (!t.startsWith("|")) return undefined;
  const cells: string[] = [];
  let cell = "";
  for (let i = 1; i < t.length; i++) {
    if (t[i] === "\\" && t[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (t[i] === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += t[i];
  }
  if (cell.trim() !== "") cells.push(cell.trim());
  return cells;
}

/** `|---|:---:|` */
export const isDelimiterRow = (cells: string[]) => cells.length > 0 && cells.every((c) => /^:?-{1,}:?$/.test(c));

export type Alignment = "left" | "right" | "center";

/** The alignment a delimiter cell asks for: `---:` right, `:---:` centre, anything else left. */
export function alignmentOf(cell: string): Alignment {
  if (cell.endsWith(":")) return cell.startsWith(":") ? "center" : "right";
  return "left";
}

/**
 * The lines of a table (`lines` as written: a header, a delimiter row, body rows) drawn for a
 * terminal `width` columns wide (0: any width): cells padded to their column, columns separated by
 * ` │ `, the header bold over a rule, and when it does not fit, the widest columns narrowed and
 * their cells wrapped at spaces. When even columns of MIN_COLUMN do not fit, each row is drawn as a
 * block of `header: value` lines (records): a terminal wraps any line wider than itself, which
 * would break every row of a table in two. Undefined when `lines` are not a table (no delimiter
 * row second).
 */
export function renderTable(lines: string[], width: number, stringWidth: (s: string) => number, styled: boolean): string[] | undefined {
  const rows = lines.map(tableCells);
  if (rows.length < 2 || rows.some((r) => r === undefined) || !isDelimiterRow(rows[1]!)) return undefined;
  const header = rows[0]!;
  const body = rows.slice(2) as string[][];
  const alignments = rows[1]!.map(alignmentOf);
  const columns = Math.max(header.length, ...body.map((r) => r.length));
  const grid = [header, ...body].map((r) => Array.from({ length: columns }, (_, i) => withoutMarkers(r[i] ?? "")));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(1, ...grid.map((r) => stringWidth(r[i]!))));
  const room = width > 0 ? width - SEPARATOR.length * (columns - 1) : Number.POSITIVE_INFINITY;
  // narrow the widest column, one column at a time, until the table fits: first down to its longest
  // word (cells wrap at spaces, and between CJK characters), then words are cut, down to MIN_COLUMN
  const longestWord = (i: number) => Math.max(MIN_COLUMN, ...grid.flatMap((r) => r[i]!.split(/\s+/).flatMap(breakUnits).map(stringWidth)));
  const wordFloors = widths.map((_, i) => longestWord(i));
  const cutFloors = widths.map(() => MIN_COLUMN);
  narrow(widths, room, wordFloors);
  narrow(widths, room, cutFloors);
  if (widths.reduce((a, b) => a + b, 0) > room) return records(grid[0]!, grid.slice(1), width, stringWidth, styled);
  const out: string[] = [];
  grid.forEach((row, r) => {
    const wrapped = row.map((cell, i) => wrap(cell, widths[i]!, stringWidth));
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let k = 0; k < height; k++) {
      const line = wrapped
        .map((w, i) => pad(w[k] ?? "", widths[i]!, stringWidth, alignments[i] ?? "left"))
        .join(SEPARATOR)
        .trimEnd();
      out.push(r === 0 && styled ? BOLD + line + RESET : line);
    }
    if (r === 0) {
      const rule = widths.map((w) => "─".repeat(w)).join("─┼─");
      out.push(styled ? DIM + rule + RESET : rule);
    }
  });
  return out;
}

/** Narrows the widest of `widths` above its floor, one column at a time, until they sum to `room` at most (or none is above its floor). */
function narrow(widths: number[], room: number, floors: number[]): void {
  while (widths.reduce((a, b) => a + b, 0) > room) {
    const above = widths.map((w, i) => (w > floors[i]! ? w : 0));
    const widest = above.indexOf(Math.max(...above));
    if (above[widest] === 0) return;
    widths[widest]!--;
  }
}

/**
 * Each row of `body` as its block of `header: value` lines, values aligned and wrapped beside the
 * headers (or under them, indented, when the longest header leaves less than MIN_COLUMN), the
 * blocks apart by a rule; every line at most `width` columns.
 */
function records(header: string[], body: string[][], width: number, stringWidth: (s: string) => number, styled: boolean): string[] {
  const bold = (s: string) => (styled && s ? BOLD + s + RESET : s);
  const labelWidth = Math.max(0, ...header.map((h) => stringWidth(h) + (h ? 1 : 0))); // `name:`
  const beside = labelWidth + 1 + MIN_COLUMN <= width;
  const indent = beside ? labelWidth + 1 : width > INDENT + 1 ? INDENT : 0;
  const blocks = (body.length > 0 ? body : [header.map(() => "")]).map((row) => {
    const lines: string[] = [];
    header.forEach((h, i) => {
      const label = h ? `${h}:` : "";
      const value = wrap(row[i]!, width - indent, stringWidth);
      if (beside) {
        value.forEach((v, k) => {
          const left = k === 0 ? bold(label) + " ".repeat(indent - stringWidth(label)) : " ".repeat(indent);
          lines.push(v ? left + v : left.trimEnd());
        });
        return;
      }
      if (label) lines.push(...wrap(label, width, stringWidth).map(bold));
      for (const v of value) if (v) lines.push(" ".repeat(indent) + v);
    });
    return lines;
  });
  const widest = Math.max(1, ...blocks.flat().map((l) => stringWidth(l.replace(/\x1b\[[0-9;]*m/g, ""))));
  const rule = "─".repeat(Math.min(width, widest));
  return blocks.flatMap((lines, r) => (r === 0 ? lines : [styled ? DIM + rule + RESET : rule, ...lines]));
}

/** `text` filled out to `width` display columns, on the side(s) its column's alignment leaves empty (centre: the odd space on the right, as GitHub does). */
function pad(text: string, width: number, stringWidth: (s: string) => number, alignment: Alignment): string {
  const room = Math.max(0, width - stringWidth(text));
  const before = alignment === "right" ? room : alignment === "center" ? Math.floor(room / 2) : 0;
  return " ".repeat(before) + text + " ".repeat(room - before);
}
