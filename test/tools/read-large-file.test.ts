// read_file of the head of a file over READ_TO_END_MAX_BYTES (a dump, a log) reads only as far as
// the window: the lines after it are said to follow, not counted, and write_file, after it, knows
// the file was not hashed whole.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createReadFileTool, READ_TO_END_MAX_BYTES } from "../../src/tools/read-file.ts";
import type { SeenFiles } from "../../src/tools/seen-files.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { callTool } from "../helpers/call-tool.ts";

let dir: string;
let ctx: ToolContext;
const ROW = (n: number) => `insert into t values (${n}, 'a row of the dump, padded to about sixty bytes');`;
let rows: number;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hey-read-large-"));
  ctx = { cwd: dir, signal: new AbortController().signal };
  rows = Math.ceil((READ_TO_END_MAX_BYTES + 1024 * 1024) / (ROW(1).length + 1));
  writeFileSync(join(dir, "dump.sql"), Array.from({ length: rows }, (_, i) => ROW(i + 1)).join("\n") + "\n");
  writeFileSync(join(dir, "small.sql"), Array.from({ length: 1000 }, (_, i) => ROW(i + 1)).join("\n") + "\n");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tools = () => {
  const seen: SeenFiles = new Map();
  const call = (tool: ReturnType<typeof createEditTool>) => (args: Record<string, unknown>) => callTool(tool, args, ctx);
  return { read: call(createReadFileTool({ seen })), edit: call(createEditTool({ seen })), write: call(createWriteFileTool({ seen })) };
};

test("the first 20 lines of a file just over READ_TO_END_MAX_BYTES: lines after them follow, not counted; of a small file they are counted", async () => {
  const { read } = tools();
  const lines = (await read({ path: "dump.sql", limit: 20 })).output.split("\n");
  expect(lines).toHaveLength(21);
  expect(lines[19]).toBe(`20\t${ROW(20)}`);
  const mb = (statSync(join(dir, "dump.sql")).size / 1048576).toFixed(1);
  expect(lines[20]).toBe(
    `… more lines follow in this ${mb} MB file (read_file counts lines only in files up to ${READ_TO_END_MAX_BYTES / 1048576} MB); use offset=21`,
  );
  expect((await read({ path: "small.sql", limit: 20 })).output.split("\n").at(-1)).toBe("… 980 more lines; use offset=21");
});

test("a window that reaches the end of a large file shows its last lines and says nothing follows; one past the end says how many lines there are", async () => {
  const { read } = tools();
  const lines = (await read({ path: "dump.sql", offset: rows - 1, limit: 20 })).output.split("\n");
  expect(lines).toEqual([`${rows - 1}\t${ROW(rows - 1)}`, `${rows}\t${ROW(rows)}`]);
  expect((await read({ path: "dump.sql", offset: rows + 5 })).output).toBe(`dump.sql has ${rows} lines; offset ${rows + 5} is past the end`);
});

test("after such a read (a file too large for edit too) write_file keeps the file and points to a command that streams it", async () => {
  const { read, edit, write } = tools();
  await read({ path: "dump.sql", limit: 5 });
  expect((await edit({ path: "dump.sql", old_string: ROW(3), new_string: "x" })).output).toContain("over edit's 64 MB limit");
  const written = await write({ path: "dump.sql", content: "only this\n" });
  expect(written).toEqual({
    isError: true,
    output:
      "dump.sql is too large for read_file to have read it to its end, so what it holds past the lines you saw is not known; not written, so it is kept: " +
      "change it with a command that streams it, e.g. sed -i 's/old/new/' dump.sql (edit and write_file hold a file this size in memory)",
  });
  expect(readFileSync(join(dir, "dump.sql"), "utf8").startsWith(ROW(1))).toBe(true);
});
