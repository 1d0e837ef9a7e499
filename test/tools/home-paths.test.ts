// A leading `~` in the file tools' paths is the home directory (SPEC §7), never a directory
// literally named `~` in the project; `~user` is refused without touching the disk.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { callTool } from "../helpers/call-tool.ts";

let home: string;
let project: string;
let ctx: ToolContext;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "hey-home-"));
  project = mkdtempSync(join(tmpdir(), "hey-project-"));
  ctx = { cwd: project, signal: new AbortController().signal };
  writeFileSync(join(home, "hf.txt"), "hello from home\n");
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

test("read_file, edit, grep and write_file read `~/…` and `~` as the home directory", async () => {
  const read = await callTool(createReadFileTool({ home }), { path: "~/hf.txt" }, ctx);
  expect(read).toEqual({ output: "1\thello from home" });

  const edited = await callTool(createEditTool({ home }), { path: "~/hf.txt", old_string: "hello", new_string: "hi" }, ctx);
  expect(edited.isError).toBeUndefined();
  expect(readFileSync(join(home, "hf.txt"), "utf8")).toBe("hi from home\n");

  const grep = createGrepTool({ rg: null, home });
  expect(await callTool(grep, { pattern: "from home", path: "~" }, ctx)).toEqual({ output: `${join(home, "hf.txt")}:1: hi from home` });
  expect(await callTool(grep, { pattern: "from home", path: "~/hf.txt" }, ctx)).toEqual({ output: `${join(home, "hf.txt")}:1: hi from home` });

  const wrote = await callTool(createWriteFileTool({ home }), { path: "~/notes/wf.txt", content: "new\n" }, ctx);
  expect(wrote).toEqual({ output: "created ~/notes/wf.txt (1 line, 4 bytes)" });
  expect(readFileSync(join(home, "notes", "wf.txt"), "utf8")).toBe("new\n");
  expect(existsSync(join(project, "~"))).toBe(false);
});

test("`~user` paths are refused with a clear error and nothing is created", async () => {
  const message = '"~bob" paths (another user\'s home) are not supported; give the full path, or ./~bob/x.txt for a file in the project';
  expect(await callTool(createWriteFileTool({ home }), { path: "~bob/x.txt", content: "x" }, ctx)).toEqual({
    output: `write_file: ~bob/x.txt: ${message}`,
    isError: true,
  });
  expect(await callTool(createReadFileTool({ home }), { path: "~bob/x.txt" }, ctx)).toEqual({ output: `read_file: ~bob/x.txt: ${message}`, isError: true });
  expect((await callTool(createEditTool({ home }), { path: "~bob/x.txt", old_string: "a", new_string: "b" }, ctx)).output).toStartWith("edit: ~bob/x.txt: ");
  expect((await callTool(createGrepTool({ rg: null, home }), { pattern: "a", path: "~bob/x.txt" }, ctx)).output).toStartWith("grep: ~bob/x.txt: ");
  expect(existsSync(join(project, "~bob"))).toBe(false);
});

test("`./~/x` still means a file in the project named so", async () => {
  const wrote = await callTool(createWriteFileTool({ home }), { path: "./~/x.txt", content: "x" }, ctx);
  expect(wrote.isError).toBeUndefined();
  expect(readFileSync(join(project, "~", "x.txt"), "utf8")).toBe("x");
  rmSync(join(project, "~"), { recursive: true });
});
