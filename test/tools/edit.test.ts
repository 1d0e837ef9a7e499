// edit against real files: exact matching, its error messages, line endings and the diff.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { callTool } from "../helpers/call-tool.ts";

let dir: string;
let ctx: ToolContext;
const dirs: string[] = [];
const edit = (args: Record<string, unknown>) => callTool(createEditTool(), args, ctx);
const file = (name: string) => readFileSync(join(dir, name), "utf8");
const SOURCE = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hey-edit-"));
  dirs.push(dir);
  ctx = { cwd: dir, signal: new AbortController().signal };
  writeFileSync(join(dir, "a.txt"), SOURCE);
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("replaces one exact match and shows a unified diff with context", async () => {
  expect(await edit({ path: "a.txt", old_string: "line 10", new_string: "ten\nTEN" })).toEqual({
    output: [
      "edited a.txt: 1 replacement",
      "@@ -7,7 +7,8 @@",
      " line 7",
      " line 8",
      " line 9",
      "-line 10",
      "+ten",
      "+TEN",
      " line 11",
      " line 12",
      " line 13",
    ].join("\n"),
  });
  expect(file("a.txt")).toBe(SOURCE.replace("line 10", "ten\nTEN"));
});

test("deleting whole lines shows only the removed ones; context stops at the file's edges", async () => {
  expect((await edit({ path: "a.txt", old_string: "line 1\nline 2\n", new_string: "" })).output).toBe(
    ["edited a.txt: 1 replacement", "@@ -1,5 +1,3 @@", "-line 1", "-line 2", " line 3", " line 4", " line 5"].join("\n"),
  );
  expect((await edit({ path: "a.txt", old_string: "line 20\n", new_string: "end\n" })).output).toBe(
    ["edited a.txt: 1 replacement", "@@ -15,4 +15,4 @@", " line 17", " line 18", " line 19", "-line 20", "+end"].join("\n"),
  );
});

test("an empty file: the error says so and names the tool that fills it", async () => {
  writeFileSync(join(dir, "__init__.py"), "");
  expect(await edit({ path: "__init__.py", old_string: "x", new_string: "y" })).toEqual({
    output: "__init__.py is empty, so old_string cannot match; use write_file to give it content",
    isError: true,
  });
});

test("0 matches: an error naming the file", async () => {
  expect(await edit({ path: "a.txt", old_string: "line 99", new_string: "x" })).toEqual({
    output: "old_string not found in a.txt; read the file again and copy the exact text",
    isError: true,
  });
});

test("0 matches, but a whitespace-insensitive match exists: the hint names its line and shows it", async () => {
  writeFileSync(join(dir, "code.ts"), "function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n");
  expect(await edit({ path: "code.ts", old_string: "  if (x) {\n    return 1;", new_string: "y" })).toEqual({
    output:
      "old_string not found in code.ts, but it matches when whitespace is ignored, at line 2:\n2\t\tif (x) {\n3\t\t\treturn 1;\n" +
      "copy the exact text (indentation, tabs, line breaks) into old_string",
    isError: true,
  });
  expect(file("code.ts")).toBe("function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n");
});

test("0 matches because old_string carries read_file's line numbers: the error says to leave them out", async () => {
  writeFileSync(join(dir, "f.py"), "def f():\n    x = 1\n    return x\n");
  const hint = 'old_string not found in f.py: its lines start with read_file\'s line numbers ("2\\t"); leave them out of old_string and new_string';
  expect(await edit({ path: "f.py", old_string: "2\t    x = 1\n3\t    return x", new_string: "2\t    x = 2\n3\t    return x" })).toEqual({
    output: hint,
    isError: true,
  });
  writeFileSync(join(dir, "g.py"), "pad\n".repeat(9) + "    x = 1\n");
  expect((await edit({ path: "g.py", old_string: "10\t    x = 1\n", new_string: "" })).output).toContain('line numbers ("10\\t")');
  expect(file("f.py")).toBe("def f():\n    x = 1\n    return x\n");
});

test("new_string carrying read_file's line numbers is refused, the file unchanged; a table of numbers in the file or old_string is edited", async () => {
  writeFileSync(join(dir, "view.js"), "/*!\n * express\n */\n\n'use strict';\n");
  expect(await edit({ path: "view.js", old_string: "'use strict';\n", new_string: "  9\t'use strict';\n 10\t// added\n" })).toEqual({
    output:
      "new_string's lines start with read_file's line numbers (\"  9\\t\"); view.js not changed: leave the numbers out and give only each line's text " +
      "(if the numbers and tabs belong in the file, make the same call again)",
    isError: true,
  });
  expect(file("view.js")).toBe("/*!\n * express\n */\n\n'use strict';\n");
  writeFileSync(join(dir, "counts.tsv"), "id\tn\n1\t10\n");
  expect((await edit({ path: "counts.tsv", old_string: "id\tn\n", new_string: "id\tn\n0\t0\n" })).isError).toBeUndefined();
  expect((await edit({ path: "counts.tsv", old_string: "1\t10\n", new_string: "1\t10\n2\t20\n" })).isError).toBeUndefined();
  expect(file("counts.tsv")).toBe("id\tn\n0\t0\n1\t10\n2\t20\n");
});

test("0 matches because old_string ends with a line break the file's last line lacks: the error says so", async () => {
  writeFileSync(join(dir, "nonl.txt"), "one\r\ntwo");
  expect(await edit({ path: "nonl.txt", old_string: "one\ntwo\n", new_string: "1\n2\n" })).toEqual({
    output: "old_string not found in nonl.txt: it ends with a line break, but the file's last line has none; leave it out",
    isError: true,
  });
  expect((await edit({ path: "nonl.txt", old_string: "one\ntwo", new_string: "1\n2" })).isError).toBeUndefined();
  expect(file("nonl.txt")).toBe("1\r\n2");
});

test("2+ matches without replace_all: an error with the count and the line numbers", async () => {
  expect(await edit({ path: "a.txt", old_string: "line 1", new_string: "x" })).toEqual({
    output:
      "old_string matches 11 times in a.txt (lines 1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19); include more surrounding lines to pick one, or set replace_all to change every one",
    isError: true,
  });
  expect(file("a.txt")).toBe(SOURCE);
});

test("replace_all replaces every match; neighbouring changes share one hunk", async () => {
  writeFileSync(join(dir, "r.txt"), "foo foo\nbar\nfoo\n" + "-\n".repeat(10) + "foo\n");
  expect((await edit({ path: "r.txt", old_string: "foo", new_string: "baz", replace_all: true })).output).toBe(
    [
      "edited r.txt: 4 replacements",
      "@@ -1,6 +1,6 @@",
      "-foo foo",
      "+baz baz",
      " bar",
      "-foo",
      "+baz",
      " -",
      " -",
      " -",
      "@@ -11,4 +11,4 @@",
      " -",
      " -",
      " -",
      "-foo",
      "+baz",
    ].join("\n"),
  );
  expect(file("r.txt")).toBe("baz baz\nbar\nbaz\n" + "-\n".repeat(10) + "baz\n");
});

test("replace_all sent as a string is accepted", async () => {
  await edit({ path: "a.txt", old_string: "line 2", new_string: "L2", replace_all: "true" });
  expect(file("a.txt")).toContain("L20");
});

test("a CRLF file stays CRLF when the model sends \\n", async () => {
  writeFileSync(join(dir, "win.txt"), "one\r\ntwo\r\nthree\r\n");
  const result = await edit({ path: "win.txt", old_string: "one\ntwo", new_string: "uno\ndos\ndos bis" });
  expect(result.output).toBe(["edited win.txt: 1 replacement", "@@ -1,3 +1,4 @@", "-one", "-two", "+uno", "+dos", "+dos bis", " three"].join("\n"));
  expect(file("win.txt")).toBe("uno\r\ndos\r\ndos bis\r\nthree\r\n");
});

test("a file mixing CRLF and LF lines: old_string's line breaks match either kind; new_string's keep the line ends the lines had, one for one", async () => {
  writeFileSync(join(dir, "mixed.cs"), "class A\r\n{\r\n  int x;\n  int y;\r\n}\r\n");
  expect((await edit({ path: "mixed.cs", old_string: "{\n  int x;\n  int y;", new_string: "{\n  long x;\n  long y;" })).output).toBe(
    ["edited mixed.cs: 1 replacement", "@@ -1,5 +1,5 @@", " class A", " {", "-  int x;", "-  int y;", "+  long x;", "+  long y;", " }"].join("\n"),
  );
  expect(file("mixed.cs")).toBe("class A\r\n{\r\n  long x;\n  long y;\r\n}\r\n");
  // fewer lines than the match had, mostly LF: new_string's line breaks are LF
  writeFileSync(join(dir, "mixed2.txt"), "a\r\nb\nc\n(d)\r\n");
  await edit({ path: "mixed2.txt", old_string: "a\nb\nc\n(d)", new_string: "A\nB\nC" });
  expect(file("mixed2.txt")).toBe("A\nB\nC\r\n");
});

test("replacement text is literal ($& and $1 are not patterns); a BOM survives, unseen in the diff as in read_file", async () => {
  writeFileSync(join(dir, "bom.txt"), "\uFEFFprice: X\n");
  expect(await edit({ path: "bom.txt", old_string: "X", new_string: "$& $1 $$" })).toEqual({
    output: "edited bom.txt: 1 replacement\n@@ -1,1 +1,1 @@\n-price: X\n+price: $& $1 $$",
  });
  expect(file("bom.txt")).toBe("\uFEFFprice: $& $1 $$\n");
});

test("atomic write: keeps the mode, leaves no temp file", async () => {
  writeFileSync(join(dir, "run.sh"), "#!/bin/sh\necho old\n");
  chmodSync(join(dir, "run.sh"), 0o755); // not writeFileSync's mode, which the umask cuts
  await edit({ path: "run.sh", old_string: "old", new_string: "new" });
  expect(statSync(join(dir, "run.sh")).mode & 0o777).toBe(0o755);
  expect(readdirSync(dir).sort()).toEqual(["a.txt", "run.sh"]);
});

test("long diffs are capped", async () => {
  writeFileSync(join(dir, "many.txt"), "x\n".repeat(100));
  const lines = (await edit({ path: "many.txt", old_string: "x", new_string: "y", replace_all: true })).output.split("\n");
  expect(lines).toHaveLength(41); // 19 lines shown with what each became, in 39 diff lines
  expect(lines.at(-1)).toBe("… 162 more diff lines");
  // 20 changed lines are 41 diff lines (a hunk header, then - and + each): one past what is shown, so the last pair is left out
  writeFileSync(join(dir, "twenty.txt"), "x\n".repeat(20));
  const one = (await edit({ path: "twenty.txt", old_string: "x", new_string: "y", replace_all: true })).output.split("\n");
  expect(one.at(-1)).toBe("… 2 more diff lines");
  // 19 are 39: all shown, the old lines before the new ones
  writeFileSync(join(dir, "nineteen.txt"), "x\n".repeat(19));
  const all = (await edit({ path: "nineteen.txt", old_string: "x", new_string: "y", replace_all: true })).output.split("\n");
  expect(all.slice(1)).toEqual(["@@ -1,19 +1,19 @@", ...Array<string>(19).fill("-x"), ...Array<string>(19).fill("+y")]);
});

test("replace_all on many neighbouring lines shows each changed line beside what it became, within the cap", async () => {
  writeFileSync(join(dir, "cfg.ts"), Array.from({ length: 60 }, (_, i) => `export const opt${i} = getFoo("opt${i}");\n`).join(""));
  const lines = (await edit({ path: "cfg.ts", old_string: "getFoo", new_string: "getBar", replace_all: true })).output.split("\n");
  expect(lines.slice(0, 6)).toEqual([
    "edited cfg.ts: 60 replacements",
    "@@ -1,60 +1,60 @@",
    '-export const opt0 = getFoo("opt0");',
    '+export const opt0 = getBar("opt0");',
    '-export const opt1 = getFoo("opt1");',
    '+export const opt1 = getBar("opt1");',
  ]);
  expect(lines.filter((l) => l.startsWith("+"))).toHaveLength(19);
  expect(lines.at(-2)).toBe('+export const opt18 = getBar("opt18");');
  expect(lines.at(-1)).toBe("… 82 more diff lines");
  // one line become two, 50 times: the cap is shared, so the new lines show too
  writeFileSync(join(dir, "grow.txt"), "x\n".repeat(50));
  const grown = (await edit({ path: "grow.txt", old_string: "x\n", new_string: "y\nz\n", replace_all: true })).output.split("\n");
  expect(grown.filter((l) => l.startsWith("-"))).toHaveLength(20);
  expect(grown.filter((l) => l.startsWith("+")).slice(0, 2)).toEqual(["+y", "+z"]);
  expect(grown.at(-1)).toBe("… 111 more diff lines");
});

test.each([
  ["empty old_string", { path: "a.txt", old_string: "", new_string: "x" }, "edit: `old_string` is empty; use write_file to create a file or replace all of it"],
  ["identical strings", { path: "a.txt", old_string: "line 1", new_string: "line 1" }, "edit: old_string and new_string are identical; nothing to change"],
  ["missing old_string", { path: "a.txt", new_string: "b" }, "edit: `old_string` must be a string, got nothing"],
  ["new_string not a string", { path: "a.txt", old_string: "a", new_string: 3 }, "edit: `new_string` must be a string, got 3"],
  ["bad replace_all", { path: "a.txt", old_string: "a", new_string: "b", replace_all: "yes" }, 'edit: `replace_all` must be true or false, got "yes"'],
  ["a directory", { path: ".", old_string: "a", new_string: "b" }, ". is not a regular file"],
] as const)("%s → error", async (_name, args, message) => {
  expect(await edit(args)).toEqual({ output: message, isError: true });
});

test("binary files are refused untouched", async () => {
  writeFileSync(join(dir, "bin"), Buffer.from([1, 0, 2]));
  expect(await edit({ path: "bin", old_string: "a", new_string: "b" })).toEqual({
    output: "bin is a binary file; edit only changes text files",
    isError: true,
  });
  expect(readFileSync(join(dir, "bin"))).toEqual(Buffer.from([1, 0, 2]));
});

test("a file that is not UTF-8 (a Latin-1 .properties) is edited in its own encoding; what it cannot hold is refused", async () => {
  const latin1 = (text: string) => Buffer.from(text, "latin1");
  writeFileSync(join(dir, "messages.properties"), Buffer.concat([latin1("greeting=Ol\xe1\r\nitem=caf\xe9\r\n"), Buffer.from([0x80, 0x81, 0x0a])]));
  expect(await edit({ path: "messages.properties", old_string: "item=café\n", new_string: "item=caffè €\n" })).toEqual({
    output: [
      "edited messages.properties: 1 replacement (kept in Windows-1252 (Latin-1))",
      "@@ -1,3 +1,3 @@",
      " greeting=Olá",
      "-item=café",
      "+item=caffè €",
      " \u20ac\u0081",
    ].join("\n"),
  });
  const after = Buffer.concat([latin1("greeting=Ol\xe1\r\nitem=caff\xe8 "), Buffer.from([0x80, 0x0d, 0x0a, 0x80, 0x81, 0x0a])]);
  expect(readFileSync(join(dir, "messages.properties"))).toEqual(after);
  expect(await edit({ path: "messages.properties", old_string: "Olá", new_string: "Olá ✓ 😀" })).toEqual({
    output: "messages.properties is not UTF-8 but Windows-1252 (Latin-1), which cannot hold ✓ 😀 of new_string; not changed",
    isError: true,
  });
  expect(readFileSync(join(dir, "messages.properties"))).toEqual(after);
  // old_string copied from cat's output, where each Latin-1 letter was U+FFFD
  expect(await edit({ path: "messages.properties", old_string: "greeting=Ol\uFFFD", new_string: "greeting=Oi" })).toEqual({
    output:
      "old_string not found in messages.properties: it has U+FFFD (�), the mark of a byte shown as if it were UTF-8 (cat in bash); read_file shows the file's own characters, copy them",
    isError: true,
  });
});

test("a UTF-16 file is edited in UTF-16, its byte-order mark and CRLF kept", async () => {
  const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  writeFileSync(join(dir, "app.rc"), utf16le('CAPTION "Über"\r\nFONT 8\r\n'));
  expect((await edit({ path: "app.rc", old_string: "FONT 8\n", new_string: "FONT 9\nSTYLE ✓\n" })).output).toStartWith(
    "edited app.rc: 1 replacement (kept in UTF-16 LE)\n",
  );
  expect(readFileSync(join(dir, "app.rc"))).toEqual(utf16le('CAPTION "Über"\r\nFONT 9\r\nSTYLE ✓\r\n'));
});

test("a read-only file is left alone, also through a link: the model is told why and how to go on", async () => {
  writeFileSync(join(dir, "gen.lock"), "version 1\n");
  chmodSync(join(dir, "gen.lock"), 0o444); // not writeFileSync's mode, which the umask cuts
  symlinkSync("gen.lock", join(dir, "lock-link"));
  for (const path of ["gen.lock", "lock-link"])
    expect(await edit({ path, old_string: "1", new_string: "2" })).toEqual({
      output: `${path} is read-only (mode 444); not changed. If it really should change, make it writable first (chmod u+w)`,
      isError: true,
    });
  expect(file("gen.lock")).toBe("version 1\n");
  chmodSync(join(dir, "gen.lock"), 0o644);
  expect((await edit({ path: "gen.lock", old_string: "1", new_string: "2" })).isError).toBeUndefined();
});

test('a path ending in "/" names a directory: the file of that name is not edited', async () => {
  expect(await edit({ path: "a.txt/", old_string: "line 10", new_string: "ten" })).toEqual({
    output: 'edit: a.txt/ ends with "/", which names a directory; give the file\'s path',
    isError: true,
  });
  expect(file("a.txt")).toBe(SOURCE);
});

test("a change far into a long line (a minified bundle) is shown on both sides of the diff, with the text around it", async () => {
  const text = `${"var a=1;".repeat(5000)}export default a;`;
  writeFileSync(join(dir, "min.js"), `${text}\n`);
  const result = await edit({ path: "min.js", old_string: "export default a;", new_string: "export default b;" });
  const [, , minus, plus] = result.output.split("\n");
  const before = text.slice(-102, -2); // the 100 characters before the change
  expect(before).toEndWith("var a=1;export default ");
  expect(minus).toBe(`-…${before}a;`);
  expect(plus).toBe(`+…${before}b;`);
});

test("replace_all of whole lines (old_string and new_string ending in a line break): the lines between them are context, not changed", async () => {
  writeFileSync(join(dir, "pairs.txt"), Array.from({ length: 3 }, (_, i) => `x=1\nuser data ${i}\n`).join(""));
  expect((await edit({ path: "pairs.txt", old_string: "x=1\n", new_string: "x=2\n", replace_all: true })).output).toBe(
    [
      "edited pairs.txt: 3 replacements",
      "@@ -1,6 +1,6 @@",
      "-x=1",
      "+x=2",
      " user data 0",
      "-x=1",
      "+x=2",
      " user data 1",
      "-x=1",
      "+x=2",
      " user data 2",
    ].join("\n"),
  );
  // deleting whole lines at the start of the file: only they are shown removed
  expect((await edit({ path: "pairs.txt", old_string: "x=2\nuser data 0\n", new_string: "" })).output).toBe(
    ["edited pairs.txt: 1 replacement", "@@ -1,5 +1,3 @@", "-x=2", "-user data 0", " x=2", " user data 1", " x=2"].join("\n"),
  );
});
