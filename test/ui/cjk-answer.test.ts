// CJK answers on a terminal: text without spaces streams as it arrives and wraps between characters
// (never before closing punctuation), keeping a list item's indent and a quote's marker on every row.
import { expect, test } from "bun:test";
import { createTextStream } from "../../src/ui/markdown.ts";

const PARAGRAPH = "这是一个没有空格的中文段落，模型正在逐字输出。";
const plain = (t: string) => t.replace(/\x1b\[[0-9;]*m/g, "");
const stream = (width: number, markdown = true) => createTextStream({ width: () => width, stringWidth: Bun.stringWidth, markdown });

/** Feeds `text` in pieces of `step` characters, then finishes. */
function render(text: string, width: number, step = 3): string {
  const s = stream(width);
  let out = "";
  for (let i = 0; i < text.length; i += step) out += s.push(text.slice(i, i + step));
  return out + s.finish();
}

/** The rows a terminal `width` columns wide shows for `out`: a character that does not fit goes to the next row (a wide one leaves a blank). */
function screen(out: string, width: number): string[] {
  const rows = [""];
  let col = 0;
  for (const { segment: g } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(plain(out))) {
    if (g === "\n") {
      rows.push("");
      col = 0;
      continue;
    }
    const w = Bun.stringWidth(g);
    if (col + w > width) rows.push(""), (col = 0);
    rows[rows.length - 1] += g;
    col += w;
  }
  return rows.at(-1) === "" ? rows.slice(0, -1) : rows;
}

test("CJK text is written as it arrives, before its paragraph ends, a piece of 3 characters at a time", () => {
  const s = stream(0);
  const pieces = PARAGRAPH.repeat(3).match(/.{1,3}/gu)!;
  let out = "";
  for (const piece of pieces) {
    const written = s.push(piece);
    out += written;
    expect(written).not.toBe(""); // each piece shows something: at most the last character waits for the next
  }
  expect(plain(out)).toBe(PARAGRAPH.repeat(3).slice(0, -2)); // all but 出。: a line may not break before 。, and what follows 。 is not known yet
  expect(plain(out + s.finish())).toBe(PARAGRAPH.repeat(3) + "\n");
});

test("Chinese thinking (no markdown) streams the same way", () => {
  const s = stream(0, false);
  expect(s.push("让我想")).toBe("让我");
  expect(s.push("一想")).toBe("想一");
});

test("English still streams word by word, each word whole", () => {
  const s = stream(80);
  expect(s.push("Hello wor")).toBe("Hello");
  expect(s.push("ld")).toBe("");
  expect(s.finish()).toBe(" world\n");
});

test.each([1, 3, 1000])("a CJK paragraph fills each row to the width, no row starting with ，or 。 (pieces of %p)", (step) => {
  const rows = screen(render(PARAGRAPH.repeat(4), 30, step), 30);
  expect(rows.join("")).toBe(PARAGRAPH.repeat(4));
  for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
  for (const row of rows.slice(0, -1)) expect(Bun.stringWidth(row)).toBeGreaterThanOrEqual(28); // no half-empty row: a run is not pushed whole
  for (const row of rows) expect(row).not.toMatch(/^[，。]/);
});

test("a CJK list item keeps its hanging indent on every row, a quote its marker", () => {
  const item = "- 第一点：这是一个很长的列表项，内容全部是中文，没有任何空格，所以每一行都要在字符之间断开。\n";
  const rows = screen(render(item, 40), 40);
  expect(rows.length).toBeGreaterThan(2);
  expect(rows[0]).toStartWith("• 第一点：");
  for (const row of rows.slice(1)) expect(row).toMatch(/^ {2}\S/);
  for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);

  const quote = screen(render(`> ${PARAGRAPH.repeat(3)}\n`, 40), 40);
  expect(quote.length).toBeGreaterThan(2);
  for (const row of quote) expect(row).toMatch(/^│ \S/);
  expect(quote.map((r) => r.slice(2)).join("")).toBe(PARAGRAPH.repeat(3));
});

test("bold text in a wrapped quote stays bold on the next row", () => {
  const out = render(`> **${"重要".repeat(30)}**\n`, 40);
  const second = out.split("\n")[1]!;
  expect(second).toMatch(/^\x1b\[2m│\x1b\[22m \x1b\[1m[重要]/);
});

test("English words beside CJK text stay whole", () => {
  const rows = screen(render("请先运行 npm install 然后再执行 internationalization 检查，最后提交。\n", 20, 1), 20);
  const words = rows.join(" ").split(/\s+/);
  expect(words).toContain("install");
  expect(words).toContain("internationalization");
});

test("after a run of wide characters the terminal wrapped, the column counts the blank it left", () => {
  // 30 emoji make one run (no break inside) of 60 columns: at 41 the terminal shows 20 on a row, a blank at its end
  const rows = screen(render(`${"🎉".repeat(30)} abcdefghijklmnopqrstu next words\n`, 41), 41);
  expect(rows).toEqual(["🎉".repeat(20), "🎉".repeat(10), "abcdefghijklmnopqrstu next words"]);
});

test("on a terminal, CJK deltas show as they arrive, and the spinner goes on while a first word is still incomplete", async () => {
  const { createTerminalOutput } = await import("../../src/ui/terminal.ts");
  const writes: string[] = [];
  const tty = { write: (t: string) => void writes.push(t), color: false, tty: true, columns: () => 80 };
  const terminal = createTerminalOutput(tty, tty, { stringWidth: Bun.stringWidth });
  try {
    terminal.emit({ type: "turn_start", turn: 1 });
    terminal.emit({ type: "text_delta", text: "Hel" });
    expect(writes.at(-1)).toContain("working…"); // nothing to show yet: the spinner is still the last thing drawn
    terminal.emit({ type: "text_delta", text: "lo 这是一" });
    expect(writes.join("").split("\r\x1b[K").at(-1)).toBe("Hello 这是");
    terminal.emit({ type: "text_delta", text: "个没有" });
    expect(writes.join("").split("\r\x1b[K").at(-1)).toBe("Hello 这是一个没");
  } finally {
    terminal.stopSpinner();
  }
});

test("an address, a path or inline code with CJK in it is never broken inside: a terminal's link and a copied path stay whole", () => {
  const rows = screen(render("见 https://example.com/路径/文件 和 src/中文文件名很长很长很长.ts 还有 `中文变量名很长` 好。", 40), 40);
  expect(rows.some((r) => r.includes("https://example.com/路径/文件"))).toBe(true);
  expect(rows.some((r) => r.includes("src/中文文件名很长很长很长.ts"))).toBe(true);
  expect(rows.some((r) => r.includes("中文变量名很长"))).toBe(true);
});

test("a paragraph holding a path or inline code still streams: the text after it shows before the paragraph ends", () => {
  const s = stream(0);
  const text = `请修改\`config.ts\`里的设置，再看src/a.ts${PARAGRAPH.repeat(3)}`;
  let out = "";
  for (const piece of text.match(/.{1,3}/gu)!) out += s.push(piece);
  expect(plain(out)).toContain("config.ts");
  expect(plain(out)).toContain("src/a.ts");
  expect(plain(out)).toContain(PARAGRAPH.repeat(2)); // before the paragraph's end
});
