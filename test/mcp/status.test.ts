// What the user reads about MCP servers: /mcp and the background lines.
import { expect, test } from "bun:test";
import { eventLine, formatStatus } from "../../src/mcp/status.ts";
import type { ServerStatus } from "../../src/mcp/server.ts";

const tools = (...names: string[]) => names.map((name) => ({ name, inputSchema: {} }));

test("background lines: connected with its count, failures and stops as warnings with why", () => {
  expect(eventLine({ type: "mcp", server: "fs", state: "connected", tools: 14 })).toBe("connected: fs (14 tools)");
  expect(eventLine({ type: "mcp", server: "one", state: "connected", tools: 1 })).toBe("connected: one (1 tool)");
  expect(eventLine({ type: "mcp", server: "db", state: "failed", error: "it exited with code 3 before it was ready\n  fatal: no db" })).toBe(
    "hey: MCP server db failed, its tools are left out: it exited with code 3 before it was ready\n  fatal: no db",
  );
  expect(eventLine({ type: "mcp", server: "db", state: "stopped", error: "exited with code 1" })).toBe("hey: MCP server db stopped: exited with code 1");
});

test("/mcp: each server's state, why it failed, its tools as the model sees them", () => {
  const servers: ServerStatus[] = [
    { name: "fs", state: "connected", tools: tools("read_text_file", "list_directory"), cached: false },
    { name: "gh", state: "connecting", tools: tools("search"), cached: true },
    { name: "web", state: "connecting", tools: tools("search"), cached: true },
    { name: "db", state: "failed", tools: undefined, cached: false, error: "command \"pg-mcp\" not found on PATH" },
    { name: "slow", state: "connecting", tools: undefined, cached: false },
  ];
  expect(formatStatus(servers, false)).toBe(
    [
      "fs: connected · 2 tools",
      "  read_text_file, list_directory",
      "gh: connecting · 1 tool (cached)",
      "  gh_search",
      "web: connecting · 1 tool (cached)",
      "  web_search",
      "db: failed",
      '  command "pg-mcp" not found on PATH',
      "slow: connecting",
    ].join("\n"),
  );
});

test("/mcp with none configured, and with --no-mcp", () => {
  expect(formatStatus([], false)).toMatch(/^no MCP servers configured; add an \[mcp\.NAME\] table/);
  expect(formatStatus([], true)).toBe("MCP is off in this run (--no-mcp)");
});
