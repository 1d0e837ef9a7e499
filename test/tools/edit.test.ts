// edit against real files: exact matching, its error messages, line endings and the diff.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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

test("replacement text is literal ($& and $1 are not patterns); a BOM survives", async () => {
  writeFileSync(join(dir, "bom.txt"), "\uFEFFprice: X\n");
  await edit({ path: "bom.txt", old_string: "X", new_string: "$& $1 $$" });
  expect(file("bom.txt")).toBe("\uFEFFprice: $& $1 $$\n");
});

test("atomic write: keeps the mode, leaves no temp file", async () => {
  writeFileSync(join(dir, "run.sh"), "#!/bin/sh\necho old\n", { mode: 0o755 });
  await edit({ path: "run.sh", old_string: "old", new_string: "new" });
  expect(statSync(join(dir, "run.sh")).mode & 0o777).toBe(0o755);
  expect(readdirSync(dir).sort()).toEqual(["a.txt", "run.sh"]);
});

test("long diffs are capped", async () => {
  writeFileSync(join(dir, "many.txt"), "x\n".repeat(100));
  const lines = (await edit({ path: "many.txt", old_string: "x", new_string: "y", replace_all: true })).output.split("\n");
  expect(lines).toHaveLength(42);
  expect(lines.at(-1)).toBe("… 161 more diff lines");
  // 20 changed lines are 41 diff lines (a hunk header, then - and + each): one past what is shown
  writeFileSync(join(dir, "twenty.txt"), "x\n".repeat(20));
  const one = (await edit({ path: "twenty.txt", old_string: "x", new_string: "y", replace_all: true })).output.split("\n");
  expect(one.at(-1)).toBe("… 1 more diff line");
});

test.each([
  ["empty old_string", { path: "a.txt", old_string: "", new_string: "x" }, "edit: `old_string` is empty; use write_file to create a file or replace all of it"],
  ["identical strings", { path: "a.txt", old_string: "line 1", new_string: "line 1" }, "edit: old_string and new_string are identical; nothing to change"],
  ["missing file", { path: "new.txt", old_string: "a", new_string: "b" }, "file not found: new.txt; use write_file to create it"],
  ["missing old_string", { path: "a.txt", new_string: "b" }, "edit: `old_string` must be a string, got nothing"],
  ["new_string not a string", { path: "a.txt", old_string: "a", new_string: 3 }, "edit: `new_string` must be a string, got 3"],
  ["bad replace_all", { path: "a.txt", old_string: "a", new_string: "b", replace_all: "yes" }, 'edit: `replace_all` must be true or false, got "yes"'],
  ["a directory", { path: ".", old_string: "a", new_string: "b" }, ". is not a regular file"],
] as const)("%s → error", async (_name, args, message) => {
  expect(await edit(args)).toEqual({ output: message, isError: true });
});

test("binary and non-UTF-8 files are refused untouched", async () => {
  writeFileSync(join(dir, "bin"), Buffer.from([1, 0, 2]));
  writeFileSync(join(dir, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  expect(await edit({ path: "bin", old_string: "a", new_string: "b" })).toEqual({
    output: "bin is a binary file; edit only changes text files",
    isError: true,
  });
  expect((await edit({ path: "latin1.txt", old_string: "caf", new_string: "x" })).output).toBe(
    "latin1.txt is not valid UTF-8; edit would corrupt it (use bash instead)",
  );
  expect(readFileSync(join(dir, "latin1.txt"))).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  // what Windows PowerShell 5.1's `>` writes: refused as what it is, not as binary
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("ok\r\n", "utf16le")]);
  writeFileSync(join(dir, "ps.txt"), utf16);
  expect(await edit({ path: "ps.txt", old_string: "ok", new_string: "no" })).toEqual({
    output: "ps.txt is UTF-16 text; edit only changes UTF-8 files (write_file rewrites it whole, as UTF-8)",
    isError: true,
  });
  expect(readFileSync(join(dir, "ps.txt"))).toEqual(utf16);
});
