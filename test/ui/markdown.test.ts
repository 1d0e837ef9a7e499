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
  const out = render("**never closed\nnext\n");
  expect(out).toBe(`${ESC}[1mnever closed${ESC}[0m\nnext\n`);
});

test("a fence left open by one answer does not swallow the next", () => {
  const s = createTextStream({ width: () => 0, stringWidth: (t) => t.length, markdown: false });
  s.push("```\ncode");
  s.finish();
  expect(s.push("# after\n")).toBe("# after\n");
});
