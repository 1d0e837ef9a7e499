// Where the cursor is after the terminal reflowed the drawn prompt to a new width (ui/reflow.ts,
// prompt-rows.ts reflowedRow): the rows each case gives were measured in tmux 3.3a, the text written
// as hey writes it (rows the terminal wrapped) and the pane resized.
import { expect, test } from "bun:test";
import { drawnLines, promptRows, reflowedRow } from "../../src/ui/prompt-rows.ts";
import { reflowGrid } from "../../src/ui/reflow.ts";

/** `n` characters of two columns but every seventh, which is `a` */
const mixed = (n: number) => Array.from({ length: n }, (_, i) => (i % 7 === 3 ? "a" : String.fromCodePoint(0x4e00 + i))).join("");
const width = (c: string) => (c.codePointAt(0)! >= 0x1100 ? 2 : 1);

test.each([
  [100, 41, 101, 1],
  [99, 41, 101, 1],
  [50, 41, 101, 0],
  [100, 60, 41, 4],
  [100, 41, 90, 2],
  [100, 101, 41, 4],
  [80, 30, 77, 1],
  [120, 53, 31, 7],
  [120, 31, 53, 4],
  [45, 41, 30, 2],
  [33, 41, 20, 3],
  [200, 41, 120, 3],
  [200, 120, 41, 9],
  [200, 100, 21, 18],
])("%p characters drawn at %p columns, the cursor at the end, resized to %p: on row %p", (n, from, to, row) => {
  const text = mixed(n);
  const r = promptRows("› ", "… ", text, text.length, from, (c) => c, width);
  expect(
    reflowedRow(
      drawnLines(r.rows, (x) => x.wrapped && x.text !== "", from, r.cursorRow, r.cursorCol),
      to,
    ),
  ).toBe(row);
});

test("a row whose join stopped before a wide character, having taken the row before whole, ends its line for the cursor (tmux 3.3a)", () => {
  // three rows of 4 columns drawn 5 wide (each left a blank), the cursor after the last character
  const rows = [
    { cells: [2, 2], wrapped: true },
    { cells: [2, 2], wrapped: true },
    { cells: [2], wrapped: false },
  ];
  const wider = reflowGrid(rows, 9, 2, 2);
  expect(wider.rows.map((r) => r.cells.length)).toEqual([4, 1]);
  expect(wider.cursor).toEqual([0, 8]);
  // narrower, each character its own row, the cursor after the last one
  expect(reflowGrid(rows, 2, 2, 2).cursor).toEqual([4, 2]);
});
