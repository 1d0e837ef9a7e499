// The real filesystem server from npm (@modelcontextprotocol/server-filesystem) over our stdio
// transport: its tools are listed and cached, reads and writes inside its root work, a path
// outside the root is refused by the server and that reaches the model as an error result.
// Started with no directory (as editors start it), it works in the roots hey names: the project root.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { FS_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";
import { eventLine } from "../../src/mcp/status.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { until } from "../helpers/wait.ts";

setDefaultTimeout(60_000);

let root: ReturnType<typeof tempDir>;
let cache: ReturnType<typeof tempDir>;
const managers: TestManager[] = [];
beforeEach(() => {
  root = tempDir("hey-fs-root-");
  cache = tempDir("hey-mcp-cache-");
  writeFileSync(join(root.path, "notes.txt"), "first line\nsecond line\n");
});
afterEach(async () => {
  for (const m of managers.splice(0)) await m.manager.close();
  root.remove();
  cache.remove();
});

const fsServer = () => serverSettings("fs", { command: "node", args: [FS_SERVER, realpathSync(root.path)] });
function open(startupWaitMs?: number): TestManager {
  // hey runs in another project: the server keeps to the directory its table names
  const m = testManager([fsServer()], { cacheDir: cache.path, roots: [realpathSync(cache.path)], ...(startupWaitMs !== undefined ? { startupWaitMs } : {}) });
  managers.push(m);
  return m;
}

test("the first request waits for the server and offers its tools; list, read and write inside the root work", async () => {
  const m = open();
  const names = (await m.tools()).map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["list_directory", "read_text_file", "write_file", "edit_file"]));
  expect(m.events).toEqual([{ type: "mcp", server: "fs", state: "connected", tools: names.length }]);

  expect(await m.call("list_allowed_directories")).toEqual({ output: `Allowed directories:\n${realpathSync(root.path)}` });
  const listing = await m.call("list_directory", { path: realpathSync(root.path) });
  expect(listing).toEqual({ output: "[FILE] notes.txt" });
  expect(await m.call("read_text_file", { path: join(realpathSync(root.path), "notes.txt") })).toEqual({ output: "first line\nsecond line\n" });

  const written = await m.call("write_file", { path: join(realpathSync(root.path), "new.txt"), content: "made by MCP\n" });
  expect(written.isError).toBeUndefined();
  expect(written.output).toContain("Successfully wrote");
  expect(readFileSync(join(root.path, "new.txt"), "utf8")).toBe("made by MCP\n");
});

test("started with no directory, it works in hey's roots (roots/list: the project root): list, read, and a path outside refused", async () => {
  const project = realpathSync(root.path);
  const m = testManager([serverSettings("fs", { command: "node", args: [FS_SERVER] })], { cacheDir: cache.path, roots: [project] });
  managers.push(m);
  // before: hey declared no roots, so the server had no directory: "Allowed directories:" and nothing else
  await until(async () => (await m.call("list_allowed_directories")).output.includes(project), "the server to take hey's roots");
  expect(await m.call("list_allowed_directories")).toEqual({ output: `Allowed directories:\n${project}` });
  expect(await m.call("read_text_file", { path: join(project, "notes.txt") })).toEqual({ output: "first line\nsecond line\n" });
  const outside = await m.call("read_text_file", { path: join(project, "..", "elsewhere.txt") });
  expect(outside.isError).toBe(true);
});

// x3 #4: hey started in the home directory names no roots (its own files are there): the server connects and every call fails
test("started with no directory where hey names no roots, a refused call says why, and how to give it a directory", async () => {
  const m = testManager([serverSettings("fs", { command: "node", args: [FS_SERVER] })], { cacheDir: cache.path, roots: [] });
  managers.push(m);
  const outside = await m.call("list_directory", { path: realpathSync(root.path) });
  expect(outside.isError).toBe(true);
  expect(outside.output).toContain(
    `[hey: MCP server fs asked hey for its roots and got none: hey runs in a directory that holds hey's own configuration (your home directory, or /), so a server that works in its client's roots may work nowhere; to give it one, name the directory in its table's args (e.g. args = [..., "/path/to/dir"]) and /reload]`,
  );
  // with roots named, a refusal is the server's alone
  const named = testManager([serverSettings("fs2", { command: "node", args: [FS_SERVER] })], { cacheDir: cache.path, roots: [realpathSync(cache.path)] });
  managers.push(named);
  await until(async () => (await named.call("list_allowed_directories")).output.includes(realpathSync(cache.path)), "the server to take hey's roots");
  const refused = await named.call("list_directory", { path: realpathSync(root.path) });
  expect(refused.isError).toBe(true);
  expect(refused.output).not.toContain("[hey:");
});

test("a server whose tools are narrowed by `tools` says how many of them are offered, not only how many it lists", async () => {
  const m = testManager([serverSettings("fs", { command: "node", args: [FS_SERVER, realpathSync(root.path)], tools: ["list_directory", "read_text_file"] })], {
    cacheDir: cache.path,
  });
  managers.push(m);
  expect((await m.tools()).map((t) => t.name).sort()).toEqual(["list_directory", "read_text_file"]);
  const [event] = m.events;
  expect(event).toMatchObject({ type: "mcp", server: "fs", state: "connected", offered: 2 });
  expect(event!.tools).toBeGreaterThan(2);
  expect(eventLine(event!)).toBe(`connected: fs (2 of its ${event!.tools} tools offered; /mcp lists them)`);
});

test("a path outside the root is refused by the server: an error result for the model", async () => {
  const m = open();
  const outside = await m.call("read_text_file", { path: "/etc/hostname" });
  expect(outside.isError).toBe(true);
  expect(outside.output).toMatch(/Access denied - path outside allowed directories/);
  const write = await m.call("write_file", { path: join(cache.path, "escape.txt"), content: "no" });
  expect(write.isError).toBe(true);
  expect(() => readFileSync(join(cache.path, "escape.txt"))).toThrow();
});

test("descriptions are cut to ~300 characters and schemas are passed through", async () => {
  const m = open();
  const tools = await m.tools();
  for (const t of tools) expect(t.description.length).toBeLessThanOrEqual(300);
  const read = tools.find((t) => t.name === "read_text_file")!;
  expect(read.parameters).toMatchObject({ type: "object", properties: { path: { type: "string" } }, required: ["path"] });
});

test("its read_file and write_file never replace hey's: they are offered as fs_read_file and fs_write_file, said once each (issue 26)", async () => {
  const m = testManager([fsServer()], { cacheDir: cache.path, builtins: ["bash", "read_file", "write_file", "edit", "grep"] });
  managers.push(m);
  const builtin = createReadFileTool();
  const tools = await m.tools([builtin]);
  expect(tools.filter((t) => t.name === "read_file")).toEqual([builtin]);
  const names = tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["fs_read_file", "fs_write_file", "read_text_file"]));
  expect(names).not.toContain("write_file");
  expect(m.warnings).toEqual([
    "MCP server fs's tool read_file is offered as fs_read_file: hey's own read_file keeps its name",
    "MCP server fs's tool write_file is offered as fs_write_file: hey's own write_file keeps its name",
  ]);
  // the prefixed tool is the server's: it reads through the server
  const read = await m.call("fs_read_file", { path: join(realpathSync(root.path), "notes.txt") });
  expect(read.output).toBe("first line\nsecond line\n");
  await m.tools([builtin]);
  expect(m.warnings).toHaveLength(2); // once
});

test("the tool list is cached: the next run offers it before the server has answered", async () => {
  const first = open();
  const listed = (await first.tools()).map((t) => t.name);
  await first.manager.close(); // waits for the cache write

  const second = open(0);
  const t0 = performance.now();
  const offered = (await second.tools()).map((t) => t.name);
  expect(performance.now() - t0).toBeLessThan(100);
  expect(offered).toEqual(listed);
  expect(second.events).toEqual([]); // not connected yet
  // a call waits for that server, then runs
  expect((await second.call("read_text_file", { path: join(realpathSync(root.path), "notes.txt") })).output).toBe("first line\nsecond line\n");
  expect(second.events.map((e) => e.state)).toEqual(["connected"]);
});
