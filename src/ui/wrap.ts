// Command output at the interactive prompt (/help, /sessions, /mcp, /usage…) word-wrapped to the
// terminal, so a narrow window does not break words and lose the columns. Pure.

import { wrapText } from "./line-breaks.ts";

/** A line's last column is used as the hanging indent only when at least this much room is left. */
const MIN_ROOM = 24;

/**
 * An indented line of a config snippet to paste (`  [provider.NAME]`, `  base_url = "…"`, `  # why`):
 * never broken. A break of ours is a newline in what the user copies, and its second row pasted into
 * config.toml is no TOML (`base_url =` / `"…"`); the terminal's own wrap of a long row copies back as one line.
 */
const PASTE_LINE = /^ {2,}(\[[\w.\-"]+\]|[\w\-"]+(\.[\w\-"]+)* = \S.*|# .*)$/;

/**
 * `text` with every line wider than `columns` broken at spaces (and between CJK characters: line-breaks.ts). The continuation lines start
 * under the line's last column (after its last run of two or more spaces, as in `/help` and the
 * session table); when that column leaves too little room it goes under the columns before it,
 * indented two more than the line, so each entry of a table reads the same way (a narrow
 * terminal); prose goes on under its own indentation. A word wider than the room is left whole
 * (the terminal breaks it), and so is a config line to paste (PASTE_LINE). `columns` 0: unchanged.
 */
export function wrapColumns(text: string, columns: number, width: (s: string) => number): string {
  if (columns <= 0) return text;
  const lines = text.split("\n");
  // a column that leaves too little room in one line goes below in every line that has it (a table reads the same all through)
  const below = new Set<number>();
  for (const line of lines) {
    const at = lastColumn(line, width);
    if (at > 0 && width(line) > columns && at > columns - MIN_ROOM) below.add(at);
  }
  const whole = (line: string) => PASTE_LINE.test(line) || (width(line) <= columns && !below.has(lastColumn(line, width)));
  return lines.map((line) => (whole(line) ? line : wrapLine(line, columns, width))).join("\n");
}

/** Where a line's last column starts (after its last run of two or more spaces), as an index; 0 when it has none. */
function columnIndex(line: string): number {
  let cut = 0;
  for (const m of line.matchAll(/\S( {2,})(?=\S)/g)) cut = m.index + 1 + m[1]!.length;
  return cut;
}

/** The terminal column where a line's last column starts; 0 when it has none. */
const lastColumn = (line: string, width: (s: string) => number) => width(line.slice(0, columnIndex(line)));

function wrapLine(line: string, columns: number, width: (s: string) => number): string {
  const lead = line.length - line.trimStart().length;
  let cut = columnIndex(line) || lead;
  if (width(line.slice(0, cut)) > columns - MIN_ROOM) {
    if (cut > lead) {
      const head = line.slice(0, cut).trimEnd();
      const rest = " ".repeat(lead + 2) + line.slice(cut);
      return [head, rest].map((l) => (width(l) <= columns ? l : wrapLine(l, columns, width))).join("\n");
    }
    cut = lead;
  }
  const indent = " ".repeat(width(line.slice(0, cut)));
  const rows = wrapText(line.slice(cut), columns - indent.length, width, false);
  return [line.slice(0, cut) + rows[0], ...rows.slice(1).map((r) => indent + r)].join("\n");
}

/**
 * `text` cut with "…" to at most `room` columns as `width` counts them (`trim`: without the spaces
 * the cut leaves before the "…"); whole when it fits.
 */
export function cutToWidth(text: string, room: number, width: (s: string) => number, trim = false): string {
  if (width(text) <= room) return text;
  let out = "";
  for (const ch of text) {
    if (width(out + ch) > room - 1) break;
    out += ch;
  }
  return (trim ? out.trimEnd() : out) + "…";
}
