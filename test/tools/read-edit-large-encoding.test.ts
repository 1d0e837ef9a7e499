// A file of 16–64 MB (a dump, a log) that edit changes is one read_file reads to its end: both
// decide its encoding on all of its bytes, so the text read_file shows is text edit finds, and edit
// can tell the model the file changed since it was read.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import type { SeenFiles } from "../../src/tools/seen-files.ts";
import { callTool } from "../helpers/call-tool.ts";

let dir: string;
let ctx: ToolContext;
const ROW = (n: number) => `insert into t values (${n}, 'a row of the dump, padded to about sixty bytes');`;
const ROWS = 230_000; // about 17 MB

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hey-read-edit-large-"));
  ctx = { cwd: dir, signal: new AbortController().signal };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tools = () => {
  const seen: SeenFiles = new Map();
  const call = (tool: ReturnType<typeof createEditTool>) => (args: Record<string, unknown>) => callTool(tool, args, ctx);
  return { read: call(createReadFileTool({ seen })), edit: call(createEditTool({ seen })) };
};

test("a 17 MB file with UTF-8 on line 1 and Windows-1252 bytes at its end: edit finds line 1 as read_file showed it", async () => {
  const rows = Array.from({ length: ROWS }, (_, i) => ROW(i + 2)).join("\n");
  const latin = Buffer.from(Array.from({ length: 10 }, () => "r\xe9sum\xe9 d\xe9j\xe0").join("\n") + "\n", "latin1");
  writeFileSync(join(dir, "big.txt"), Buffer.concat([Buffer.from(`naïve café\n${rows}\n`), latin]));
  const { read, edit } = tools();
  const shown = (await read({ path: "big.txt", limit: 2 })).output.split("\n");
  const first = shown.find((l) => l.startsWith("1\t"))!.slice(2);
  const edited = await edit({ path: "big.txt", old_string: first, new_string: "plain" });
  expect(edited.isError).toBeUndefined();
  expect(readFileSync(join(dir, "big.txt")).subarray(0, 6).toString()).toBe("plain\n");
});

test("a 17 MB file changed by the user after read_file showed its first lines: edit says so", async () => {
  const file = join(dir, "dump.sql");
  writeFileSync(file, `${Array.from({ length: ROWS }, (_, i) => ROW(i + 1)).join("\n")}\n`);
  const { read, edit } = tools();
  await read({ path: "dump.sql", limit: 5 });
  writeFileSync(file, readFileSync(file, "utf8").replace(ROW(2), ROW(2).replace("a row", "B ROW")));
  const edited = await edit({ path: "dump.sql", old_string: ROW(3), new_string: ROW(3).replace("a row", "A ROW") });
  expect(edited.output).toContain("note: dump.sql had changed since you last read it");
});
