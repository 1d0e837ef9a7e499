// One width rule for all hey lays out (finding x46-2): the answer's tables and wrapping measure text
// as the prompt does and as tmux and xterm draw it, a code point at a time, so columns line up.
import { expect, test } from "bun:test";
import { renderTable } from "../../src/ui/table.ts";
import { terminalWidth } from "../../src/ui/term.ts";

test.each([
  ["👍🏽", 4], // a thumb, then a skin tone: two cells each
  ["❤️", 1], // a heart, then a variation selector of no width
  ["1️⃣", 1], // 1, a variation selector, a combining keycap
  ["👨‍👩‍👧‍👦", 2], // a family: the joined emoji share the first one's cells
  ["東京", 4],
  ["e\u0301", 1],
  ["\x1b[1mbold\x1b[0m", 4], // colour takes no columns
  ["plain text", 10],
  // format characters: none, but those terminals draw (wcwidth, as tmux, xterm and VTE give them)
  ["Sil\u00adben\u00adtren\u00adnung", 17], // soft hyphens from a web page: a cell each
  ["\u0600\u0661\u0662", 3], // the Arabic number sign, before the digits it spans
  ["\u070f\u0710", 2], // the Syriac abbreviation mark
  ["\u06dd\u0661", 2], // the end of ayah
  ["a\u200bb\u200ec\u2066d\ufefff", 5], // a zero-width space, direction marks, a BOM: none
  ["\ufff9a\ufffab\ufffb", 2], // interlinear annotation marks: none (Bun counts them one)
  // a spacing vowel sign takes its own cell (a combining one, ्, none)
  ["किताब", 5],
  ["नमस्ते", 4],
])("%p is %p columns", (text, columns) => {
  expect(terminalWidth(text)).toBe(columns);
});

/** where each │ of a drawn row stands, counted as the terminal draws it */
const bars = (row: string) => {
  const at: number[] = [];
  let col = 0;
  for (const ch of row.replace(/\x1b\[[0-9;]*m/g, "")) {
    if (ch === "│") at.push(col);
    col += ch === "\u00ad" ? 1 : /\p{Mn}|\p{Me}|\u200d|\ufe0f/u.test(ch) ? 0 : Bun.stringWidth(ch); // as tmux 3.3 draws each code point
  }
  return at;
};

test("a table of emoji lines up: each column's │ in the same place on every row", () => {
  const table = ["| who | mood | note |", "|---|---|---|", "| ann | 👍🏽👍🏽 | ok |", "| bob | ❤️❤️ | ok |", "| cat | 1️⃣2️⃣ | ok |", "| dan | :) | ok |"];
  const rows = renderTable(table, 60, terminalWidth, false)!.filter((r) => r.includes("│"));
  expect(rows.length).toBe(5);
  for (const row of rows) expect(bars(row)).toEqual(bars(rows[0]!));
});

test("a table of words with soft hyphens (text from the web) lines up: the terminal gives each a cell", () => {
  const table = [
    "| Wort | Bedeutung |",
    "|---|---|",
    "| Sil\u00adben\u00adtren\u00adnung | die Tren\u00adnung von Wör\u00adtern |",
    "| Haus | ein Ge\u00adbäu\u00adde |",
  ];
  const rows = renderTable(table, 60, terminalWidth, false)!.filter((r) => r.includes("│"));
  expect(rows.length).toBe(3);
  for (const row of rows) expect(bars(row)).toEqual(bars(rows[0]!));
});
