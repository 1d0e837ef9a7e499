// Markdown tables drawn for the terminal (issue 28): aligned columns, a rule under the header,
// squeezed and wrapped to the width, or each row a block of `header: value` lines when the columns
// cannot fit; no line wider than the width; lines that are no table stay as written.
import { expect, test } from "bun:test";
import { createTextStream } from "../../src/ui/markdown.ts";
import { renderTable, tableCells } from "../../src/ui/table.ts";

const width = (s: string) => [...s].length;
const TABLE = ["| file | lines | status |", "|---|--:|:---:|", "| src/cli.ts | 270 | ok |", "| src/run.ts | 398 | **near the limit** |"];

test("cells: outer pipes optional, an escaped pipe is text", () => {
  expect(tableCells("| a | b \\| c |")).toEqual(["a", "b | c"]);
  expect(tableCells("| a | b")).toEqual(["a", "b"]);
  expect(tableCells("a | b")).toBeUndefined();
});

test("a table that fits: padded columns aligned as the delimiter row asks, a rule under the header, markdown markers dropped", () => {
  expect(renderTable(TABLE, 80, width, false)).toEqual([
    "file       │ lines │     status",
    "───────────┼───────┼───────────────",
    "src/cli.ts │   270 │       ok",
    "src/run.ts │   398 │ near the limit",
  ]);
});

test("a right-aligned column of figures lines up on the right, wide characters counted by their cells", () => {
  const cells = (s: string) => [...s].reduce((n, c) => n + (/[\u3000-\u9fff]/.test(c) ? 2 : 1), 0);
  const rows = ["| Name | Size | Mid |", "|------|-----:|:---:|", "| alpha | 1 | 日本 |", "| 日本語 | 22 | a |", "| b | 333 | abcdef |"];
  expect(renderTable(rows, 80, cells, false)).toEqual([
    "Name   │ Size │  Mid",
    "───────┼──────┼───────",
    "alpha  │    1 │  日本",
    "日本語 │   22 │   a",
    "b      │  333 │ abcdef",
  ]);
});

test("cells lose the markers of emphasis as answer text does, and keep what only looks like it", () => {
  const rows = ["| option | default |", "|---|---|", "| *timeout* | _none_ |", "| max_line_len | 2**10 |", "| `a*b*c` | ***all*** |"];
  expect(renderTable(rows, 80, width, false)!.slice(2)).toEqual(["timeout      │ none", "max_line_len │ 2**10", "a*b*c        │ all"]);
});

test("a cell that holds a path glob shows it whole: its asterisks are no emphasis", () => {
  const rows = ["| files | where |", "|---|---|", "| src/*/index_*.ts | each package |"];
  expect(renderTable(rows, 80, width, false)!.slice(2)).toEqual(["src/*/index_*.ts │ each package"]);
});

test("a table wider than the terminal: the widest column narrows, its cells wrap at spaces", () => {
  const rows = ["| name | what it does |", "|---|---|", "| hey | a minimal terminal coding agent that talks to any model endpoint |"];
  const lines = renderTable(rows, 40, width, false)!;
  for (const l of lines) expect(width(l)).toBeLessThanOrEqual(40);
  expect(lines[0]).toBe("name │ what it does");
  expect(
    lines
      .slice(2)
      .map((l) => l.split(" │ ")[1]!.trim())
      .join(" "),
  ).toBe("a minimal terminal coding agent that talks to any model endpoint");
  expect(lines.length).toBeGreaterThan(3);
});

test("no delimiter row: not a table", () => {
  expect(renderTable(["| a |", "| b |"], 80, width, false)).toBeUndefined();
});

test("streamed: the table is held until its last row, then drawn; text around it flows as before", () => {
  const stream = createTextStream({ width: () => 60, stringWidth: width, markdown: true });
  const text = `Sizes:\n${TABLE.join("\n")}\nAll fine.\n`;
  let out = "";
  for (const piece of text.match(/[\s\S]{1,7}/g)!) out += stream.push(piece);
  out += stream.finish();
  const plain = out.replace(/\x1b\[[0-9;]*m/g, "");
  expect(plain).toBe(
    "Sizes:\nfile       │ lines │     status\n───────────┼───────┼───────────────\nsrc/cli.ts │   270 │       ok\nsrc/run.ts │   398 │ near the limit\nAll fine.\n",
  );
  const asWritten = createTextStream({ width: () => 60, stringWidth: width, markdown: false });
  expect(asWritten.push(`${TABLE[0]}\n`) + asWritten.finish()).toBe(`${TABLE[0]}\n`); // NO_COLOR: as written
});

// The reporter's table: six columns that fit 80 columns but not 40 even at MIN_COLUMN each.
const SIX = ["| a | b | c | d | e | f |", "|---|---|---|---|---|---|", "| aaaaaa | bbbbbb | cccccc | dddddd | eeeeee | ffffff |", "| 1 | 2 | 3 | 4 | 5 | 6 |"];
const display = (s: string) => Bun.stringWidth(s);
/** every word of every cell of `rows` (a header, a delimiter row, body rows), as written */
const wordsOf = (rows: string[]) => rows.flatMap((r, i) => (i === 1 ? [] : tableCells(r)!.flatMap((c) => c.split(/\s+/).filter(Boolean))));

test("a table too wide even at its narrowest columns: each row a block of `header: value` lines, none wider than the terminal", () => {
  const at40 = renderTable(SIX, 40, display, false)!;
  expect(at40).toEqual([
    "a: aaaaaa",
    "b: bbbbbb",
    "c: cccccc",
    "d: dddddd",
    "e: eeeeee",
    "f: ffffff",
    "─────────",
    "a: 1",
    "b: 2",
    "c: 3",
    "d: 4",
    "e: 5",
    "f: 6",
  ]);
  for (const cols of [10, 40]) {
    const lines = renderTable(SIX, cols, display, false)!;
    for (const l of lines) expect(display(l)).toBeLessThanOrEqual(cols);
    const text = lines.join(" ");
    for (const word of wordsOf(SIX)) expect(text).toContain(word);
  }
  // at 80 it fits: the columns as before
  expect(renderTable(SIX, 80, display, false)).toEqual([
    "a      │ b      │ c      │ d      │ e      │ f",
    "───────┼────────┼────────┼────────┼────────┼───────",
    "aaaaaa │ bbbbbb │ cccccc │ dddddd │ eeeeee │ ffffff",
    "1      │ 2      │ 3      │ 4      │ 5      │ 6",
  ]);
});

test("ten columns of data at 80 columns never make a line wider than 80, headers bold when styled", () => {
  const names = Array.from({ length: 10 }, (_, i) => `column${i + 1}`);
  const rows = [`| ${names.join(" | ")} |`, `|${"---|".repeat(10)}`, `| ${names.map((n) => `value of ${n}`).join(" | ")} |`];
  const lines = renderTable(rows, 80, display, true)!;
  for (const l of lines) expect(display(l)).toBeLessThanOrEqual(80);
  expect(lines[0]).toBe("\x1b[1mcolumn1:\x1b[0m  value of column1");
  expect(lines.at(-1)).toBe("\x1b[1mcolumn10:\x1b[0m value of column10");
});

test("a long value wraps beside its header; headers too long for the width put their values under them", () => {
  const rows = ["| name | what it does | x | y | z |", "|---|---|---|---|---|", "| hey | a minimal terminal coding agent | 1 | 2 | 3 |"];
  expect(renderTable(rows, 24, display, false)).toEqual([
    "name:         hey",
    "what it does: a minimal",
    "              terminal",
    "              coding",
    "              agent",
    "x:            1",
    "y:            2",
    "z:            3",
  ]);
  const narrow = renderTable(rows, 12, display, false)!;
  expect(narrow.slice(0, 4)).toEqual(["name:", "  hey", "what it", "does:"]);
  for (const l of narrow) expect(display(l)).toBeLessThanOrEqual(12);
});

test("wide characters count two columns: CJK and emoji cells fit the width, whole, at any width", () => {
  const rows = ["| 名前 | 説明 | 状態 | 備考 |", "|---|---|---|---|", "| 日本語の名前 | とても長い説明の文章です | 完了 ✅ | 👩‍👩‍👧 家族 |"];
  for (const cols of [10, 20, 40, 80]) {
    const lines = renderTable(rows, cols, display, false)!;
    for (const l of lines) expect(display(l)).toBeLessThanOrEqual(cols);
    const text = lines.join("").replace(/[\s│─┼:]/g, "");
    for (const word of wordsOf(rows)) for (const ch of word) expect(text).toContain(ch);
    expect(text).toContain("👩‍👩‍👧"); // the family emoji is never cut apart
  }
  expect(renderTable(rows, 80, display, false)![0]).toBe("名前         │ 説明                     │ 状態    │ 備考");
});

test("a column narrows to its longest word before any word is cut, while another column can give", () => {
  const rows = ["| see | then |", "|---|---|", "| the internationalization guide first | a b c d e f g h i j k l m n o p q |"];
  const lines = renderTable(rows, 40, display, false)!;
  for (const l of lines) expect(display(l)).toBeLessThanOrEqual(40);
  expect(lines.slice(2).map((l) => l.split("│")[0]!.trim())).toEqual(["the", "internationalization", "guide first"]);
});

test("a CJK cell wraps between characters, never starting a row with a full-width comma", () => {
  const rows = ["| 项目 | 说明 |", "|---|---|", "| 解析器 | 这是一个很长的说明文字没有，任何空格需要在字符之间断开。 |"];
  const lines = renderTable(rows, 36, display, false)!;
  expect(lines.slice(2).map((l) => l.split("│")[1]!.trim())).toEqual(["这是一个很长的说明文字没", "有，任何空格需要在字符之间", "断开。"]);
  for (const l of lines) expect(display(l)).toBeLessThanOrEqual(36);
});
