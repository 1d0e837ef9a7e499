// Markdown tables in an answer (issue 28): the rows of a `| a | b |` table with its `|---|` line,
// drawn with aligned columns that fit the terminal. Pure.

import { withoutMarkers } from "./emphasis.ts";

const BOLD = "\x1b[1m";
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";
/** A column never gets narrower than this when the table is squeezed to the width. */
const MIN_COLUMN = 6;
const SEPARATOR = " │ ";

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

/**
 * The lines of a table (`lines` as written: a header, a delimiter row, body rows) drawn for a
 * terminal `width` columns wide (0: any width): cells padded to their column, columns separated by
 * ` │ `, the header bold over a rule, and when it does not fit, the widest columns narrowed and
 * their cells wrapped at spaces. Undefined when `lines` are not a table (no delimiter row second).
 */
export function renderTable(lines: string[], width: number, stringWidth: (s: string) => number, styled: boolean): string[] | undefined {
  const rows = lines.map(tableCells);
  if (rows.length < 2 || rows.some((r) => r === undefined) || !isDelimiterRow(rows[1]!)) return undefined;
  const header = rows[0]!;
  const body = rows.slice(2) as string[][];
  const columns = Math.max(header.length, ...body.map((r) => r.length));
  const grid = [header, ...body].map((r) => Array.from({ length: columns }, (_, i) => withoutMarkers(r[i] ?? "")));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(1, ...grid.map((r) => stringWidth(r[i]!))));
  const room = width > 0 ? width - SEPARATOR.length * (columns - 1) : Number.POSITIVE_INFINITY;
  // narrow the widest column, one column at a time, until the table fits (or every column is at its minimum)
  while (widths.reduce((a, b) => a + b, 0) > room) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]!--;
  }
  const out: string[] = [];
  grid.forEach((row, r) => {
    const wrapped = row.map((cell, i) => wrap(cell, widths[i]!, stringWidth));
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let k = 0; k < height; k++) {
      const line = wrapped
        .map((w, i) => pad(w[k] ?? "", widths[i]!, stringWidth))
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

function pad(text: string, width: number, stringWidth: (s: string) => number): string {
  return text + " ".repeat(Math.max(0, width - stringWidth(text)));
}

/** `text` in lines of at most `width` columns, broken at spaces (a longer word is cut). */
function wrap(text: string, width: number, stringWidth: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let w = word;
    while (stringWidth(w) > width) {
      if (line) lines.push(line), (line = "");
      let head = "";
      for (const ch of w) {
        if (stringWidth(head + ch) > width) break;
        head += ch;
      }
      lines.push(head);
      w = w.slice(head.length);
    }
    if (w === "") continue;
    if (line === "") line = w;
    else if (stringWidth(line + " " + w) <= width) line += " " + w;
    else lines.push(line), (line = w);
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}
