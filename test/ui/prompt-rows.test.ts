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
  expect(rowMove(rows(text, 12), -1)).toBe(2); // m at column 4: c, on the row above
  expect(rowMove(rows(text, 12), 1)).toBe(22); // w
  expect(rowMove(rows(text, 25), 1)).toBe(text.length); // z at column 7: "… short" ends at 7
  expect(rowMove(rows(text, 9), -1)).toBe(0); // j at column 1: the row above starts after the prompt
  expect(rowMove(rows(text, 3), -1)).toBeUndefined(); // the first row: history
  expect(rowMove(rows(text, text.length), 1)).toBeUndefined(); // the last row: history
  // wide characters: "> ab你好你" then "好cd"; under d (column 3) is b, under 你 (column 4) is the end of "好cd"
  expect(rowMove(rows("ab你好你好cd", 7), -1)).toBe(1);
  expect(rowMove(rows("ab你好你好cd", 2), 1)).toBe(8);
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
    expect(d).toEqual({ widths: [52], line: 0, offset: 52 });
    expect(reflowedRow(d, 10)).toBe(5);
    expect(reflowedRow(d, 80)).toBe(0);
  });
  test("the row of its own the cursor gets after a full row is a line hey ended: it stays a row below", () => {
    // "› first line", then "… " and 38 characters: exactly 40 columns, the cursor on the next row
    const d = at(`first line\n${"y".repeat(38)}`, 49, 40);
    expect(d).toEqual({ widths: [12, 40, 0], line: 2, offset: 0 });
    expect(reflowedRow(d, 20)).toBe(3);
    expect(reflowedRow(d, 60)).toBe(2);
  });
  test("the cursor mid-line stays as many columns into it", () => {
    const d = at("a".repeat(30), 10, 20); // at column 12 of a 32-column line
    expect(reflowedRow(d, 8)).toBe(1);
    expect(reflowedRow(d, 5)).toBe(2);
  });
});
