// read_file against real files: numbering, windows, notes and refusals.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createReadFileTool, cutLineCommand } from "../../src/tools/read-file.ts";
import { callTool } from "../helpers/call-tool.ts";

let dir: string;
let ctx: ToolContext;
const read = (args: Record<string, unknown>) => callTool(createReadFileTool(), args, ctx);
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hey-read-"));
  ctx = { cwd: dir, signal: new AbortController().signal };
  writeFileSync(join(dir, "twelve.txt"), numbered(1, 12).join("\n") + "\n");
  writeFileSync(join(dir, "big.txt"), numbered(1, 2500).join("\n") + "\n");
  writeFileSync(join(dir, "crlf.txt"), "one\r\ntwo\r\nthree");
  writeFileSync(join(dir, "long.txt"), "a".repeat(2500) + "\nshort\n");
  writeFileSync(join(dir, "wide.txt"), Array.from({ length: 2000 }, () => "w".repeat(99)).join("\n"));
  writeFileSync(join(dir, "empty.txt"), "");
  writeFileSync(join(dir, "one.txt"), "only\n");
  writeFileSync(join(dir, "data.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 13]));
  writeFileSync(join(dir, "huge.txt"), numbered(1, 300_000).join("\n")); // ~3.5 MB, many stream chunks
  mkdirSync(join(dir, "sub"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("numbers lines from 1, padded to the widest number shown", async () => {
  const { output, isError } = await read({ path: "twelve.txt" });
  expect(isError).toBeUndefined();
  expect(output.split("\n").slice(0, 2)).toEqual([" 1\tline 1", " 2\tline 2"]);
  expect(output.split("\n").at(-1)).toBe("12\tline 12");
  expect(output.split("\n")).toHaveLength(12);
});

test("offset and limit choose a window; the note says how to continue", async () => {
  expect((await read({ path: "twelve.txt", offset: 3, limit: 2 })).output).toBe("3\tline 3\n4\tline 4\n… 8 more lines; use offset=5");
  expect((await read({ path: "twelve.txt", offset: 11 })).output).toBe("11\tline 11\n12\tline 12");
  expect((await read({ path: "twelve.txt", offset: 10, limit: 2 })).output).toBe("10\tline 10\n11\tline 11\n… 1 more line; use offset=12");
});

test("shows 2000 lines by default, then a continuation note", async () => {
  const lines = (await read({ path: "big.txt" })).output.split("\n");
  expect(lines).toHaveLength(2001);
  expect(lines[1999]).toBe("2000\tline 2000");
  expect(lines[2000]).toBe("… 500 more lines; use offset=2001");
  expect((await read({ path: "big.txt", offset: 2001 })).output.split("\n")).toHaveLength(500);
});

test("stops at ~100k characters whatever the limit, with the same note", async () => {
  const lines = (await read({ path: "wide.txt" })).output.split("\n");
  expect(lines.length).toBeLessThan(1000);
  expect(lines.at(-1)).toMatch(/^… \d+ more lines; use offset=\d+$/);
});

test("streams large files and counts every line", async () => {
  expect((await read({ path: "huge.txt", offset: 299_999 })).output).toBe("299999\tline 299999\n300000\tline 300000");
  expect((await read({ path: "huge.txt", offset: 150_000, limit: 1 })).output).toBe("150000\tline 150000\n… 150000 more lines; use offset=150001");
});

test("cuts very long lines, saying how long they are and how to see more", async () => {
  expect((await read({ path: "long.txt" })).output.split("\n")).toEqual([
    `1\t${"a".repeat(2000)}… [cut: 2000 of 2500 chars]`,
    "2\tshort",
    "[to see more of a cut line: sed -n 1p 'long.txt' | cut -c 2001-6000]",
  ]);
  // a minified bundle: one line of 3 MB read across many stream chunks, CRLF, then a short line
  writeFileSync(join(dir, "app's.min.js"), `${"var a=0;".repeat(400_000)}\r\nend\r\n`);
  expect((await read({ path: "app's.min.js", offset: 1 })).output.split("\n")).toEqual([
    `1\t${"var a=0;".repeat(250)}… [cut: 2000 of 3200000 chars]`,
    "2\tend",
    "[to see more of a cut line: sed -n 1p 'app'\\''s.min.js' | cut -c 2001-6000]",
  ]);
});

test("the way to see more of a cut line is a command the bash tool's shell has: it shows the next characters of that line", async () => {
  const line = `${"x".repeat(2000)}${"y".repeat(3000)}${"z".repeat(2000)}`;
  writeFileSync(join(dir, "it's wide.txt"), `first\n${line}\nlast\n`);
  const hint = (await read({ path: "it's wide.txt" })).output.split("\n").at(-1)!;
  expect(hint).toBe(`[to see more of a cut line: ${cutLineCommand("bash", "it's wide.txt", 2)}]`);
  const shown = Bun.spawnSync(["sh", "-c", hint.slice("[to see more of a cut line: ".length, -1)], { cwd: dir });
  expect(shown.stdout.toString()).toBe(`${"y".repeat(3000)}${"z".repeat(1000)}\n`);
  // PowerShell (no sed or cut there): the line's characters by index; cmd.exe asks PowerShell
  const powershell = await callTool(createReadFileTool({ shell: "powershell" }), { path: "it's wide.txt" }, ctx);
  expect(powershell.output.split("\n").at(-1)).toBe(
    "[to see more of a cut line: -join (@(Get-Content -LiteralPath 'it''s wide.txt' -TotalCount 2)[-1][2000..5999])]",
  );
  expect(cutLineCommand("cmd", "src\\app.min.js", 1)).toBe(
    `powershell -NoProfile -Command "-join (@(Get-Content -LiteralPath 'src\\app.min.js' -TotalCount 1)[-1][2000..5999])"`,
  );
});

test("hides the CR of CRLF line endings; a last line without newline is shown", async () => {
  expect((await read({ path: "crlf.txt" })).output).toBe("1\tone\n2\ttwo\n3\tthree");
});

test("a file with CR-only line ends (classic Mac) is one line holding its CRs, with a note saying so, and edit changes it keeping each byte", async () => {
  writeFileSync(join(dir, "mac.txt"), "one\rtwo\rthree\r");
  expect(await read({ path: "mac.txt" })).toEqual({
    output:
      "1\tone\rtwo\rthree\n[line 1 holds a carriage return (\\r) that ends no line: only \\n breaks lines here (a classic Mac file's CR line ends do not), so old_string must hold the \\r]",
  });
  expect((await read({ path: "crlf.txt" })).output).not.toContain("carriage return");
  expect((await callTool(createEditTool(), { path: "mac.txt", old_string: "one\rtwo", new_string: "one\rTWO" }, ctx)).isError).toBeUndefined();
  expect(readFileSync(join(dir, "mac.txt"), "utf8")).toBe("one\rTWO\rthree\r");
});

test("a file that is not UTF-8 is shown as Windows-1252 (Latin-1), with a note saying so", async () => {
  writeFileSync(join(dir, "latin1.txt"), Buffer.from("caf\xe9\r\nna\xefve \x80 \x93q\x94\n", "latin1"));
  expect(await read({ path: "latin1.txt" })).toEqual({
    output: "[latin1.txt is not UTF-8: shown as Windows-1252 (Latin-1), which edit keeps]\n1\tcafé\n2\tnaïve € “q”",
  });
  expect((await read({ path: "twelve.txt", limit: 1 })).output).toStartWith("1\tline 1\n");
});

test("a UTF-16 file (Windows PowerShell's > writes them) is decoded, with a note saying so", async () => {
  const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  writeFileSync(join(dir, "out.log"), utf16le("Name  Größe\r\n----  -----\r\nlog   12\r\n"));
  expect(await read({ path: "out.log", offset: 2 })).toEqual({
    output: "[out.log is not UTF-8: shown as UTF-16 LE, which edit keeps]\n2\t----  -----\n3\tlog   12",
  });
  writeFileSync(join(dir, "be.txt"), Buffer.from([0xfe, 0xff, 0, 0x68, 0, 0x69, 0, 0x0a]));
  expect(await read({ path: "be.txt" })).toEqual({ output: "[be.txt is not UTF-8: shown as UTF-16 BE, which edit keeps]\n1\thi" });
});

test("an empty file says so", async () => {
  expect(await read({ path: "empty.txt" })).toEqual({ output: "empty.txt is empty" });
});

test("absolute paths work", async () => {
  expect((await read({ path: join(dir, "crlf.txt"), limit: 1 })).output).toBe("1\tone\n… 2 more lines; use offset=2");
});

test.each([
  ["binary file", { path: "data.bin" }, "data.bin is a binary file (NUL byte in the first 8 KB); not shown"],
  ["directory", { path: "sub" }, "sub is a directory; list it with bash (ls) or search it with grep"],
  ["offset past the end", { path: "twelve.txt", offset: 13 }, "twelve.txt has 12 lines; offset 13 is past the end"],
  ["offset past the end of one line", { path: "one.txt", offset: 2 }, "one.txt has 1 line; offset 2 is past the end"],
  ["missing path", {}, "read_file: `path` must be a string, got nothing"],
  ["empty path", { path: "" }, "read_file: `path` must be a non-empty string"],
  ["path not a string", { path: 7 }, "read_file: `path` must be a string, got 7"],
  ["offset not a number", { path: "twelve.txt", offset: "ten" }, 'read_file: `offset` must be an integer, got "ten"'],
  ["negative limit", { path: "twelve.txt", limit: -5 }, "read_file: `limit` must be a positive integer, got -5"],
  ["zero limit", { path: "twelve.txt", limit: 0 }, "read_file: `limit` must be at least 1"],
] as const)("%s → error", async (_name, args, message) => {
  expect(await read(args)).toEqual({ output: message, isError: true });
});

test("numbers sent as strings are accepted", async () => {
  expect((await read({ path: "twelve.txt", offset: "12", limit: "1" })).output).toBe("12\tline 12");
});

test('a file\'s path with a "/" after it is refused, as a shell does ("Not a directory")', async () => {
  writeFileSync(join(dir, "slash.txt"), "text\n");
  expect(await read({ path: "slash.txt/" })).toEqual({
    output: 'read_file: slash.txt/ ends with "/", which names a directory; give the file\'s path',
    isError: true,
  });
});
