// Markdown tables drawn for the terminal (issue 28): aligned columns, a rule under the header,
// squeezed and wrapped to the width; lines that are no table stay as written.
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

test("a table that fits: padded columns, a rule under the header, markdown markers dropped", () => {
  expect(renderTable(TABLE, 80, width, false)).toEqual([
    "file       │ lines │ status",
    "───────────┼───────┼───────────────",
    "src/cli.ts │ 270   │ ok",
    "src/run.ts │ 398   │ near the limit",
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
    "Sizes:\nfile       │ lines │ status\n───────────┼───────┼───────────────\nsrc/cli.ts │ 270   │ ok\nsrc/run.ts │ 398   │ near the limit\nAll fine.\n",
  );
  const asWritten = createTextStream({ width: () => 60, stringWidth: width, markdown: false });
  expect(asWritten.push(`${TABLE[0]}\n`) + asWritten.finish()).toBe(`${TABLE[0]}\n`); // NO_COLOR: as written
});
