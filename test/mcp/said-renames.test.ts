// The rename notices are said once per change of the lists they are about (src/mcp/said-renames.ts),
// remembered in the tool-list cache (src/mcp/store.ts): a later run with the same lists is quiet, a
// changed list or a new server says its notices again.
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { McpTool, Renaming } from "../../src/mcp/names.ts";
import { renameNotices } from "../../src/mcp/said-renames.ts";
import type { ServerStatus } from "../../src/mcp/server.ts";
import { createToolStore } from "../../src/mcp/store.ts";
import { tempDir } from "../helpers/e2e.ts";
import { serverSettings } from "../helpers/mcp.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("hey-said-renames-");
});
afterEach(() => dir.remove());

const tools = (...names: string[]): McpTool[] => names.map((name) => ({ name, inputSchema: { type: "object" } }));
const fs = serverSettings("fs", { command: "fs-server" });
const web = serverSettings("web", { command: "web-server" });
const WRITE: Renaming = { servers: ["fs"], line: "MCP server fs's tool write_file is offered as fs_write_file: hey's own write_file keeps its name" };
const SEARCH: Renaming = { servers: ["fs", "web"], line: "MCP servers fs and web both offer a tool named search; the model sees fs_search and web_search" };

/** One run: a new store over the same cache, the servers offering `lists`; what it said, once its writes are done. */
async function run(lists: Record<string, McpTool[]>, renamed: Renaming[]): Promise<string[]> {
  const store = createToolStore(dir.path);
  const said: string[] = [];
  const writes: Promise<void>[] = [];
  const servers = [fs, web]
    .filter((s) => lists[s.name])
    .map((settings) => ({ settings, status: (): ServerStatus => ({ name: settings.name, state: "connected", tools: lists[settings.name], cached: false }) }));
  for (const s of servers) await store.save(s.settings, lists[s.settings.name]!);
  const say = renameNotices({ store, servers: () => servers, warn: (l) => void said.push(l), track: (w) => void writes.push(w) });
  say(renamed);
  say(renamed); // asked again in the same run (each request, each connection): said once
  await Promise.all(writes);
  return said;
}

test("a renaming is said on the first run, not on the next with the same list, and again once the server's list changed", async () => {
  expect(await run({ fs: tools("write_file", "read") }, [WRITE])).toEqual([WRITE.line]);
  expect(await run({ fs: tools("write_file", "read") }, [WRITE])).toEqual([]);
  expect(await run({ fs: tools("read", "write_file") }, [WRITE])).toEqual([]); // the same names in another order
  expect(await run({ fs: tools("write_file", "read", "grep") }, [WRITE])).toEqual([WRITE.line]);
  expect(await run({ fs: tools("write_file", "read", "grep") }, [WRITE])).toEqual([]);
});

test("a clash of two servers is said when either one's list is new, and a new renaming of an unchanged list is said", async () => {
  expect(await run({ fs: tools("search", "write_file"), web: tools("search") }, [SEARCH, WRITE])).toEqual([SEARCH.line, WRITE.line]);
  expect(await run({ fs: tools("search", "write_file"), web: tools("search") }, [SEARCH, WRITE])).toEqual([]);
  expect(await run({ fs: tools("search", "write_file"), web: tools("search", "fetch") }, [SEARCH, WRITE])).toEqual([SEARCH.line]);
  // the same lists, a renaming not said before (a tool the permission rules refused is now offered)
  const read: Renaming = { servers: ["fs"], line: "MCP server fs's tool read_file is offered as fs_read_file: hey's own read_file keeps its name" };
  expect(await run({ fs: tools("search", "write_file"), web: tools("search", "fetch") }, [SEARCH, WRITE, read])).toEqual([read.line]);
});

test("a server with no list (none cached, not listed yet) has its renamings said", async () => {
  const store = createToolStore(dir.path);
  const said: string[] = [];
  const servers = [{ settings: fs, status: (): ServerStatus => ({ name: "fs", state: "connecting", tools: undefined, cached: false }) }];
  renameNotices({ store, servers: () => servers, warn: (l) => void said.push(l), track: () => {} })([WRITE]);
  expect(said).toEqual([WRITE.line]);
});
