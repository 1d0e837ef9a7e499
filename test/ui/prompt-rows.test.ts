// Where the prompt and the line land on the terminal (issue 14): rows as the terminal wraps them,
// the cursor on the character it is at, and a window of rows for a line taller than the screen.
import { describe, expect, test } from "bun:test";
import { drawnLines, promptRows, reflowedRow, rowMove, windowTop } from "../../src/ui/prompt-rows.ts";

const width = (c: string) => (c === "\u200d" ? 0 : /[\u4e00-\u9fff]|\p{Extended_Pictographic}/u.test(c) ? 2 : 1);
const shown = (c: string) => (c === "\t" ? "    " : c);
const rows = (text: string, cursor: number, prompt = "> ") => promptRows(prompt, "… ", text, cursor, 10, shown, width, true);
const texts = (r: ReturnType<typeof rows>) => r.rows.map((row) => row.prompt + row.continuation + row.text);

test.each([
  ["short", "abc", 3, 0, 5, "> "],
  ["wraps at the width", "abcdefghij", 10, 1, 2, "> "],
  ["exactly full: the cursor goes to the next row", "abcdefgh", 8, 1, 0, "> "],
  ["a second line after the continuation prompt", "ab\ncd", 1, 0, 3, "> "],
  ["wide characters take two columns", "你好你好你", 5, 1, 2, "> "],
  ["on a wide character the terminal moved to the next row: the cursor is on it, not in the blank it left", "abcdefg你x", 7, 1, 0, "> "],
  ["a tab's spaces split at the edge as the terminal splits them", "abcdefg\tb", 9, 1, 4, "> "],
  ["an emoji family joined by ZWJ is two columns, as the terminal draws it", "👨‍👩‍👧b", "👨‍👩‍👧".length, 0, 4, "> "],
  ["a prompt wider than the terminal", "ab", 2, 1, 3, "(question) "],
])("%s", (_name, text, cursor, row, col, prompt) => {
  const r = rows(text, cursor, prompt);
  expect([r.cursorRow, r.cursorCol]).toEqual([row, col]);
  for (const line of texts(r)) expect([...line].reduce((n, c) => n + width(shown(c)), 0)).toBeLessThanOrEqual(10);
});

test("rows: what the terminal shows, a wrapped row marked so", () => {
  const r = rows("abcdefg你x\nyz", 0);
  expect(texts(r)).toEqual(["> abcdefg", "你x", "… yz"]);
  expect(r.rows.map((row) => row.wrapped)).toEqual([false, true, false]);
  expect(texts(rows("abcdefgh", 8))).toEqual(["> abcdefgh", ""]);
});

test("a window keeps the cursor's row in view and moves only when the cursor leaves it", () => {
  expect(windowTop(5, 4, 10, 3)).toBe(0); // all fit
  expect(windowTop(100, 99, 20, 0)).toBe(80); // at the end
  expect(windowTop(100, 85, 20, 80)).toBe(80); // still in view: unchanged
  expect(windowTop(100, 70, 20, 80)).toBe(70); // above it: the window follows
  expect(windowTop(30, 29, 20, 50)).toBe(10); // never past the last row
});

test("Up and Down go a row up or down the line as drawn, at the cursor's column or the nearest before it", () => {
  const text = "abcdefghijklmnopqrstuvwxyz\nshort"; // rows: "> abcdefgh", "ijklmnopqr", "stuvwxyz", "… short"
  expect(rowMove(rows(text, 12), -1)?.index).toBe(2); // m at column 4: c, on the row above
  expect(rowMove(rows(text, 12), 1)?.index).toBe(22); // w
  expect(rowMove(rows(text, 25), 1)?.index).toBe(text.length); // z at column 7: "… short" ends at 7
  expect(rowMove(rows(text, 9), -1)?.index).toBe(0); // j at column 1: the row above starts after the prompt
  expect(rowMove(rows(text, 3), -1)?.index).toBeUndefined(); // the first row: history
  expect(rowMove(rows(text, text.length), 1)?.index).toBeUndefined(); // the last row: history
  // wide characters: "> ab你好你" then "好cd"; under d (column 3) is b, under 你 (column 4) is the end of "好cd"
  expect(rowMove(rows("ab你好你好cd", 7), -1)?.index).toBe(1);
  expect(rowMove(rows("ab你好你好cd", 2), 1)?.index).toBe(8);
});

test("Up and Down keep to a goal column: through a short row and on, the cursor lands at the column the first of them left", () => {
  const text = "a long first\nx\na long third"; // rows "> a long first", "… x", "… a long third"; the cursor at its end, column 14
  const wide = (cursor: number) => promptRows("> ", "… ", text, cursor, 40, shown, width, true);
  const up = rowMove(wide(text.length), -1)!;
  expect(up).toEqual({ index: 14, goal: 14 }); // the end of "x", the nearest before column 14
  const again = rowMove(wide(up.index), -1, up.goal)!;
  expect(again.index).toBe(12); // the end of "a long first", not 1 in (x's column)
  expect(rowMove(wide(again.index), 1, again.goal)).toEqual({ index: 14, goal: 14 });
  expect(rowMove(wide(14), 1, 14)?.index).toBe(text.length);
  expect(rowMove(wide(14), 1)?.index).toBe(16); // with no goal: the column after x, after the third line's first character
});

describe("where a resize leaves the cursor", () => {
  const at = (text: string, cursor: number, cols: number) => {
    const r = promptRows(
      "› ",
      "… ",
      text,
      cursor,
      cols,
      (c) => c,
      () => 1,
    );
    return drawnLines(r.rows, (row) => row.wrapped && row.text !== "", cols, r.cursorRow, r.cursorCol);
  };
  test("a line the terminal wrapped reflows with it: narrower, the cursor is rows further down, wider, back up", () => {
    const d = at("x".repeat(50), 50, 20); // "› " + 50 = 52 columns: 3 rows at 20
    expect(d.cells.map((c) => c.length)).toEqual([52]);
    expect([d.line, d.offset]).toEqual([0, 52]);
    expect(reflowedRow(d, 10)).toBe(5);
    expect(reflowedRow(d, 80)).toBe(0);
  });
  test("the row of its own the cursor gets after a full row is a line hey ended: it stays a row below", () => {
    // "› first line", then "… " and 38 characters: exactly 40 columns, the cursor on the next row
    const d = at(`first line\n${"y".repeat(38)}`, 49, 40);
    expect(d.cells.map((c) => c.length)).toEqual([12, 40, 0]);
    expect([d.line, d.offset]).toEqual([2, 0]);
    expect(reflowedRow(d, 20)).toBe(3);
    expect(reflowedRow(d, 60)).toBe(2);
  });
  // 100 Chinese characters, as in a two-sentence request: two columns each
  const cjk = Array.from({ length: 100 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");
  const wide = (text: string, cursor: number, cols: number) => {
    const r = promptRows(
      "› ",
      "… ",
      text,
      cursor,
      cols,
      (c) => c,
      (c) => (c.codePointAt(0)! >= 0x1100 ? 2 : 1),
    );
    return drawnLines(r.rows, (row) => row.wrapped && row.text !== "", cols, r.cursorRow, r.cursorCol);
  };
  test("narrower, a wide character that no longer fits at a row's end goes whole to the next row: the cursor is that much further down", () => {
    // at 60 columns 202 columns take 4 rows; at 41 each row holds 20 characters and leaves a blank, so 6
    const d = wide(cjk, cjk.length, 60);
    expect(reflowedRow(d, 41)).toBe(5);
    expect(reflowedRow(d, 41)).toBe(promptRowsAt(cjk, 41));
  });
  test("wider, the blanks wide characters left at the old rows' ends are gone: the cursor is as many characters in", () => {
    const d = wide(cjk, cjk.length, 41); // 6 rows, each but the last with a blank at its end
    expect(reflowedRow(d, 90)).toBe(promptRowsAt(cjk, 90)); // 3 rows, the cursor after the last character
    // at 101 the rows are "› " and 49 characters, 50, then 1; tmux's join of the second row stopped
    // before that last one, which it then no longer counts as the same line: a cursor at the line's
    // end stays at the second row's end (measured in tmux 3.3a)
    expect(reflowedRow(d, 101)).toBe(1);
    const mid = wide(cjk, 60, 41); // on the 61st character: row 3 at 41 columns
    expect(reflowedRow(mid, 61)).toBe(2); // "› " and 29 characters, 30 characters, then the 61st
    expect(reflowedRow(mid, 200)).toBe(0);
  });
  test("the cursor mid-line stays as many columns into it", () => {
    const d = at("a".repeat(30), 10, 20); // at column 12 of a 32-column line
    expect(reflowedRow(d, 8)).toBe(1);
    expect(reflowedRow(d, 5)).toBe(2);
  });
});

/** the cursor's row when the whole of `text` (wide characters) is drawn at `cols`, the cursor at its end */
function promptRowsAt(text: string, cols: number): number {
  return promptRows(
    "› ",
    "… ",
    text,
    text.length,
    cols,
    (c) => c,
    (c) => (c.codePointAt(0)! >= 0x1100 ? 2 : 1),
  ).cursorRow;
}
