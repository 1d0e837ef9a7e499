// What a terminal does to lines it holds when its width changes, as tmux (3.3) does it, so that a
// redraw after a resize knows where the cursor went (prompt-rows.ts reflowedRow). Each row is the
// columns of the characters on it and whether it goes on into the next (the terminal wrapped it).
// Narrower, a line is split at the new width, a wide character that does not fit going whole to the
// next row; wider, rows are joined while characters fit. The cursor keeps its place in its line's
// characters, and a cursor after the last character stays after the last character of its line.
// Two of tmux's ways are kept because they decide the row: a joined row that stopped before a wide
// character that did not fit, having taken whole the row before it, loses its mark of going on (so
// a cursor at the line's end stays on it), and the blank a wide character left is no character. Pure.

export interface GridRow {
  /** the columns of each character on the row */
  cells: number[];
  /** the row goes on into the next: the terminal wrapped it */
  wrapped: boolean;
}

const sum = (cells: number[]) => cells.reduce((a, b) => a + b, 0);

/** `rows` at `cols` columns, and where the cursor at (`col`, `row`) then is: [row, col]. */
export function reflowGrid(rows: GridRow[], cols: number, col: number, row: number): { rows: GridRow[]; cursor: [number, number] } {
  const at = unwrapped(rows, col, row);
  const out = reflowRows(rows, Math.max(1, cols));
  return { rows: out, cursor: wrappedAgain(out, at) };
}

type Place = { line: number; col: number | "end" };

/** The cursor as its line and its column in that line's characters ("end" when after all on its row). */
function unwrapped(rows: GridRow[], col: number, row: number): Place {
  let before = 0;
  let line = 0;
  for (let y = 0; y < row; y++) {
    if (rows[y]!.wrapped) before += sum(rows[y]!.cells);
    else [before, line] = [0, line + 1];
  }
  return { line, col: col >= sum(rows[row]?.cells ?? []) ? "end" : before + col };
}

/** The row and column of `at` in `rows`. */
function wrappedAgain(rows: GridRow[], at: Place): [number, number] {
  let y = 0;
  for (let line = 0; line < at.line && y < rows.length - 1; y++) if (!rows[y]!.wrapped) line++;
  let col = at.col;
  if (col === "end") {
    while (rows[y]?.wrapped && y < rows.length - 1) y++;
    return [y, sum(rows[y]?.cells ?? [])];
  }
  while (rows[y]?.wrapped && y < rows.length - 1 && col >= sum(rows[y]!.cells)) col -= sum(rows[y++]!.cells);
  return [y, col];
}

function reflowRows(source: GridRow[], cols: number): GridRow[] {
  const rows = source.map((r) => ({ cells: [...r.cells], wrapped: r.wrapped, gone: false }));
  const out: GridRow[] = [];
  /** joins the rows after `y` onto the last row out while they fit */
  const join = (y: number, width: number) => {
    const target = out.at(-1)!;
    let wrapped = true;
    let lines = 0;
    let from: (typeof rows)[number] | undefined;
    let want = 0;
    for (;;) {
      const line = rows[y + 1 + lines];
      if (!line) break;
      if (!line.wrapped) wrapped = false;
      if (line.cells.length === 0) {
        if (!wrapped) break;
        lines++;
        continue;
      }
      if (width + line.cells[0]! > cols) break;
      from = line;
      for (want = 0; want < line.cells.length && width + line.cells[want]! <= cols; want++) width += line.cells[want]!;
      target.cells.push(...line.cells.slice(0, want));
      lines++;
      if (!wrapped || want !== line.cells.length || width === cols) break;
    }
    if (lines === 0 || !from) return;
    if (want < from.cells.length) {
      from.cells = from.cells.slice(want);
      lines--;
    } else if (!wrapped) target.wrapped = false;
    for (let i = y + 1; i < y + 1 + lines; i++) rows[i]!.gone = true;
  };
  for (let y = 0; y < rows.length; y++) {
    const row = rows[y]!;
    if (row.gone) continue;
    const width = sum(row.cells);
    if (width === cols) out.push({ cells: row.cells, wrapped: row.wrapped });
    else if (width > cols) {
      let used = 0;
      out.push({ cells: [], wrapped: false });
      for (const w of row.cells) {
        if (used + w > cols && used > 0) {
          out.at(-1)!.wrapped = true;
          out.push({ cells: [], wrapped: false });
          used = 0;
        }
        out.at(-1)!.cells.push(w);
        used += w;
      }
      out.at(-1)!.wrapped = row.wrapped;
      if (used < cols && row.wrapped) join(y, used);
    } else {
      out.push({ cells: row.cells, wrapped: row.wrapped });
      if (row.wrapped) join(y, width);
    }
  }
  return out;
}
