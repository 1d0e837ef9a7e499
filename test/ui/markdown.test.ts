// Answers on a terminal (issue 14): light markdown and word wrap, applied as text streams in.
import { expect, test } from "bun:test";
import { createTextStream } from "../../src/ui/markdown.ts";

const ESC = "\x1b";
/** Feeds `text` in pieces of `step` characters, then finishes. */
function render(text: string, opts: { width?: number; markdown?: boolean; step?: number } = {}): string {
  const s = createTextStream({ width: () => opts.width ?? 0, stringWidth: (t) => [...t].length, markdown: opts.markdown ?? true });
  let out = "";
  const step = opts.step ?? 1;
  for (let i = 0; i < text.length; i += step) out += s.push(text.slice(i, i + step));
  return out + s.finish();
}
const plain = (t: string) => t.replace(/\x1b\[[0-9;]*m/g, "");

test.each([1, 3, 1000])("words wrap at the width, never mid-word (pieces of %p)", (step) => {
  const text = "The quick brown fox jumps over the lazy dog and keeps running far away";
  const out = render(text, { width: 20, markdown: false, step });
  expect(out).toBe("The quick brown fox\njumps over the lazy\ndog and keeps\nrunning far away\n");
});

test("a word is written once complete; the rest is held until finish", () => {
  const s = createTextStream({ width: () => 0, stringWidth: (t) => t.length, markdown: false });
  expect(s.push("Hel")).toBe("");
  expect(s.push("lo wor")).toBe("Hello");
  expect(s.push("ld")).toBe("");
  expect(s.finish()).toBe(" world\n");
  expect(s.atLineStart()).toBe(true);
});

test("the width is read per word, so a resize applies from the next word", () => {
  let width = 80;
  const s = createTextStream({ width: () => width, stringWidth: (t) => t.length, markdown: false });
  let out = s.push("aaaa bbbb cccc ");
  width = 9;
  out += s.push("dddd eeee ffff") + s.finish();
  expect(out).toBe("aaaa bbbb cccc\ndddd eeee\nffff\n");
});

test("headings, bold and inline code are styled and their markers dropped", () => {
  const out = render("# Title\nSome **bold** and `code` here.\n");
  expect(plain(out)).toBe("Title\nSome bold and code here.\n");
  expect(out).toContain(`${ESC}[1;35mTitle`);
  expect(out).toContain(`${ESC}[1mbold${ESC}[22m`);
  expect(out).toContain(`${ESC}[36mcode${ESC}[39m`);
});

test("lists get bullets and a hanging indent when they wrap", () => {
  expect(plain(render("- one two three four\n- five\n1. six\n", { width: 12 }))).toBe("• one two\n  three four\n• five\n1. six\n");
});

test("fenced code is coloured, kept as written and never wrapped", () => {
  const out = render("Look:\n```ts\nconst x = a ** b; // a long line of code\n```\nDone.\n", { width: 16 });
  expect(plain(out)).toBe("Look:\n```ts\nconst x = a ** b; // a long line of code\n```\nDone.\n");
  expect(out).toContain(`${ESC}[36mconst x = a ** b; // a long line of code${ESC}[39m`);
  expect(out).toContain(`${ESC}[2m\`\`\`ts${ESC}[0m`);
});

test("without markdown (NO_COLOR) the text stays as written, wrapped", () => {
  expect(render("# Title\n**b** `c`\n- item\n", { markdown: false })).toBe("# Title\n**b** `c`\n- item\n");
});

test("an unclosed style ends with its line", () => {
  const out = render("`never closed\nnext\n");
  expect(out).toBe(`${ESC}[36mnever closed${ESC}[0m\nnext\n`);
});

const ITALIC = (t: string) => `${ESC}[3m${t}${ESC}[23m`;
const BOLD = (t: string) => `${ESC}[1m${t}${ESC}[22m`;
/** a line that had a style ends with a reset */
const END = `${ESC}[0m\n`;

test.each([1, 4, 1000])("single * and _ are italics, ** bold, *** both (pieces of %p)", (step) => {
  const out = render("Hello *John* _Doe_, **bold** **too** and ***all***.\n", { step });
  expect(plain(out)).toBe("Hello John Doe, bold too and all.\n");
  expect(out).toContain(ITALIC("John"));
  expect(out).toContain(ITALIC("Doe"));
  expect(out).toContain(BOLD("bold"));
  expect(out).toContain(BOLD("too"));
  expect(out).toContain(`${ESC}[1m${ESC}[3mall${ESC}[22m${ESC}[23m.`);
});

test.each([
  ["spaced asterisks", "a * b * c"],
  ["arithmetic", "2*3*4 and 2**10 and x*y*z"],
  ["snake case", "snake_case_name and file_name.py"],
  ["a glob with no closer", "all *.py files"],
  ["an unmatched opener", "call f(*args, **kwargs) here"],
  ["markers inside words", "foo_bar_ and a**b"],
  ["a run of four", "****"],
  ["dunder names", "__init__ and __dirname__"],
  ["path globs", "src/*/index_*.ts, ~/.config/*/settings_*.json and C:\\Users\\*\\file_*.txt"],
])("%s stay as written", (_, text) => {
  const out = render(text + "\n");
  expect(out).toBe(text + "\n");
});

test("emphasis around a path still styles it: **/etc/hosts** is bold, *see src/app.ts* italic", () => {
  expect(render("edit **/etc/hosts** and *see src/app.ts*\n")).toBe(`edit ${BOLD("/etc/hosts")} and ${ITALIC("see src/app.ts")}${END}`);
});

test("emphasis works inside words where CommonMark allows it, and with CJK text", () => {
  expect(render("un_*frigging*_believable\n")).toContain(ITALIC("frigging"));
  expect(render("这是**重点：**内容\n")).toBe(`这是${BOLD("重点：")}内容${END}`);
});

test("a * list bullet is a bullet, its item's emphasis styled", () => {
  expect(render("* an *item*\n")).toBe(`• an ${ITALIC("item")}${END}`);
});

test("emphasis spans words, and markers inside code are text", () => {
  expect(render("_two words_ then `a_b_c *d*`\n")).toBe(`${ITALIC("two words")} then ${ESC}[36ma_b_c *d*${ESC}[39m${END}`);
});

test("a word that opens a style waits for its closer; a line without one shows its markers", () => {
  const s = createTextStream({ width: () => 0, stringWidth: (t) => t.length, markdown: true });
  expect(s.push("see *this ")).toBe("see");
  expect(s.push("one* ok")).toBe(` ${ESC}[3mthis one${ESC}[23m`);
  expect(s.push(" and *that\n")).toBe(` ok and *that${END}`);
});

test("a closer that does not come within the lookahead shows the opener as written", () => {
  const long = "word ".repeat(60);
  const out = render(`*${long}end*\n`, { step: 7 });
  expect(out).toBe(`*${long}end*\n`);
});

test("without markdown (NO_COLOR) emphasis stays as written", () => {
  expect(render("*a* _b_ **c**\n", { markdown: false })).toBe("*a* _b_ **c**\n");
});

test("a fence left open by one answer does not swallow the next", () => {
  const s = createTextStream({ width: () => 0, stringWidth: (t) => t.length, markdown: false });
  s.push("```\ncode");
  s.finish();
  expect(s.push("# after\n")).toBe("# after\n");
});
