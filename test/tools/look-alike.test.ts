// edit's old_string as a model writes text it cannot copy exactly — a plain space, quote or hyphen
// for the file's no-break space, curly quote or dash, accents composed where the file decomposes
// them, line breaks escaped twice — is found, the file's characters kept in what new_string leaves
// unchanged, and the result says what was matched; what cannot be matched is named.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { callTool } from "../helpers/call-tool.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const dir = eachTempDir("hey-alike-");
const edit = (args: Record<string, unknown>) => callTool(createEditTool(), args, { cwd: dir.path, signal: new AbortController().signal } as ToolContext);
const file = (name: string) => readFileSync(join(dir.path, name), "utf8");

test.each([
  [
    "a space for the file's no-break space",
    "price:\u00a0100 EUR\n",
    ["price: 100 EUR", "price: 200 EUR"],
    "price:\u00a0200 EUR\n",
    "[matched where the file has U+00A0 NO-BREAK SPACE for your U+0020 SPACE; new_string keeps the file's characters where it keeps old_string's text]",
  ],
  [
    "straight quotes for the file's curly ones",
    "say “quoted” here\n",
    ['say "quoted" here', 'say "x" there'],
    "say “x” there\n",
    "[matched where the file has U+201C LEFT DOUBLE QUOTATION MARK and U+201D RIGHT DOUBLE QUOTATION MARK for your U+0022 QUOTATION MARK; new_string keeps the file's characters where it keeps old_string's text]",
  ],
  [
    "a hyphen for the file's en dash",
    "pages 1–5 of the “guide”\n",
    ['pages 1-5 of the "guide"', 'pages 1-6 of the "guide"'],
    "pages 1–6 of the “guide”\n",
    "[matched where the file has U+2013 EN DASH for your U+002D HYPHEN-MINUS; U+201C LEFT DOUBLE QUOTATION MARK and U+201D RIGHT DOUBLE QUOTATION MARK for your U+0022 QUOTATION MARK; new_string keeps the file's characters where it keeps old_string's text]",
  ],
  [
    "composed accents for the file's decomposed (NFD) ones",
    "cafe\u0301 au lait\n",
    ["café au lait", "café noir"],
    "cafe\u0301 noir\n",
    "[matched the file's accented letters, which it writes decomposed (NFD: a letter, then a combining accent); new_string is written so too]",
  ],
  [
    "line breaks escaped twice (a backslash and an n)",
    "a\n\tb\nc\n",
    ["a\\n\\tb", "a\\n\\tB"],
    "a\n\tB\nc\n",
    "[old_string had \\n (a backslash and an n) where the file has line breaks, as text escaped twice; read as line breaks and tabs, in new_string too]",
  ],
])("old_string written with %s: edited, the file's characters kept, and said", async (_, before, [old_string, new_string], after, note) => {
  writeFileSync(join(dir.path, "f.txt"), before);
  const result = await edit({ path: "f.txt", old_string, new_string });
  expect(result.output.split("\n").slice(0, 2)).toEqual(["edited f.txt: 1 replacement", note]);
  expect(file("f.txt")).toBe(after);
});

test("a change between curly quotes keeps them curly, apostrophe too", async () => {
  writeFileSync(join(dir.path, "m.py"), "msg = “it’s ok”\n");
  expect((await edit({ path: "m.py", old_string: `msg = "it's ok"`, new_string: `msg = "it's fine, 'really'"` })).isError).toBeUndefined();
  expect(file("m.py")).toBe("msg = “it’s fine, ‘really’”\n");
});

test("new_string that only turns old_string's plain quotes into the curly ones the file already has: nothing to change, said so", async () => {
  writeFileSync(join(dir.path, "c.txt"), "a “b”\n");
  expect(await edit({ path: "c.txt", old_string: 'a "b"', new_string: "a “b”" })).toEqual({
    isError: true,
    output: "edit: c.txt already holds new_string (old_string matched it with look-alike characters); nothing to change",
  });
});

test("with replace_all, every place written alike is edited; places written differently are named by line, not guessed between", async () => {
  writeFileSync(join(dir.path, "r.txt"), "a “x”\nb “x”\n");
  expect((await edit({ path: "r.txt", old_string: '"x"', new_string: '"y"', replace_all: true })).output).toStartWith("edited r.txt: 2 replacements\n");
  expect(file("r.txt")).toBe("a “y”\nb “y”\n");
  writeFileSync(join(dir.path, "d.txt"), "a “x”\nb „x“\n");
  expect(await edit({ path: "d.txt", old_string: '"x"', new_string: '"y"', replace_all: true })).toEqual({
    isError: true,
    output:
      "old_string not found in d.txt; it matches at lines 1, 2 when look-alike quotes, dashes and spaces are read as plain ones, but each place writes them differently: copy the exact text of the one to change",
  });
});

test("look-alikes keep a CRLF file's line ends", async () => {
  writeFileSync(join(dir.path, "w.txt"), "it’s\r\nhere\r\n");
  expect((await edit({ path: "w.txt", old_string: "it's\nhere", new_string: "it's\nthere" })).isError).toBeUndefined();
  expect(file("w.txt")).toBe("it’s\r\nthere\r\n");
});

test("an invisible character the model could not copy is named, with its line", async () => {
  writeFileSync(join(dir.path, "z.txt"), "const foo\u200bbar = 1;\n");
  expect(await edit({ path: "z.txt", old_string: "const foobar = 1;", new_string: "const foobar = 2;" })).toEqual({
    isError: true,
    output:
      "old_string not found in z.txt, but it matches when whitespace is ignored, at line 1:\n1\tconst foo\u200bbar = 1;\n" +
      "the file has U+200B ZERO WIDTH SPACE there, which old_string does not; copy the exact text (indentation, tabs, line breaks) into old_string",
  });
});

test("old_string holding read_file's mark of a cut line is told why it cannot match", async () => {
  writeFileSync(join(dir.path, "min.js"), `${"x".repeat(2510)}\n`);
  expect((await edit({ path: "min.js", old_string: `${"x".repeat(2000)}… [cut: 2000 of 2510 chars]`, new_string: "y" })).output).toBe(
    'old_string not found in min.js: it has "… [cut: 2000 of 2510 chars]", read_file\'s mark where it cut a long line, which the file does not hold; ' +
      "end old_string before the mark (the start of the line is enough to match), or see the rest of the line with the command read_file gave",
  );
});

test("in a file of mixed line ends, a look-alike old_string matches across either kind, as an exact one does, and each line keeps its own", async () => {
  writeFileSync(join(dir.path, "mix.txt"), "a\nb\nc\nd\n“hello”\r\nworld\r\ne\n");
  const result = await edit({ path: "mix.txt", old_string: '"hello"\nworld', new_string: '"bye"\nworld' });
  expect(result.output.split("\n")[0]).toBe("edited mix.txt: 1 replacement");
  expect(file("mix.txt")).toBe("a\nb\nc\nd\n“bye”\r\nworld\r\ne\n");
  // two places written differently, one of CRLF lines, one of LF: both named
  writeFileSync(join(dir.path, "two.txt"), "a\nb\nc\n“x”\r\ny\r\n„x“\ny\n");
  expect((await edit({ path: "two.txt", old_string: '"x"\ny', new_string: '"z"\ny' })).output).toBe(
    "old_string not found in two.txt; it matches at lines 4, 6 when look-alike quotes, dashes and spaces are read as plain ones, but each place writes them differently: copy the exact text of the one to change",
  );
});
