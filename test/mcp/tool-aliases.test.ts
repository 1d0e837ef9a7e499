// Another agent's spelling of an MCP tool (mcp/tool-aliases.ts): Claude Code's `mcp__SERVER__TOOL`,
// `SERVER.TOOL` and the like, and `get_sum` for `get-sum`, mean the tool the model was shown, and a
// tool the permission rules refuse is meant under the name they judged, so its call reads their refusal.
import { expect, test } from "bun:test";
import type { ToolOrigin } from "../../src/kernel/tool-calls.ts";
import type { McpTool } from "../../src/mcp/names.ts";
import { offerTools } from "../../src/mcp/offer.ts";
import { mcpCallName, meantTool } from "../../src/mcp/tool-aliases.ts";

const tool = (name: string): McpTool => ({ name, inputSchema: { type: "object" } });
const all = { tools: undefined, excludeTools: undefined } as never;
const lists = [
  { server: "everything", tools: [tool("echo"), tool("get-sum"), tool("get-env")], selection: all },
  { server: "fs", tools: [tool("read_file"), tool("list_directory"), tool("search")], selection: all },
  { server: "web", tools: [tool("search")], selection: all },
];
// allow = […, no get-env]: the rules refuse it whatever it is called
const refused = (_name: string, origin: ToolOrigin) => origin.name === "get-env";
const offer = offerTools(lists, refused, ["read_file", "bash"]);

test("Claude Code's mcp__SERVER__TOOL, SERVER.TOOL, SERVER:TOOL, SERVER/TOOL and SERVER_TOOL name the tool as offered", () => {
  expect(offer.tools.map((e) => e.name)).toEqual(["echo", "get-sum", "fs_read_file", "list_directory", "fs_search", "web_search"]);
  for (const n of [
    "mcp__everything__get-sum",
    "MCP__Everything__get-sum",
    "everything.get-sum",
    "everything:get-sum",
    "everything/get-sum",
    "everything_get-sum",
  ])
    expect(mcpCallName(n, offer)).toBe("get-sum");
  expect(mcpCallName("mcp__fs__read_file", offer)).toBe("fs_read_file"); // the server's own name, offered under its prefix
  expect(mcpCallName("mcp__fs__list_directory", offer)).toBe("list_directory");
  expect(mcpCallName("mcp__web__search", offer)).toBe("web_search");
  expect(mcpCallName("web.search", offer)).toBe("web_search");
});

test("`get_sum` for get-sum, when one tool matches without regard to case, `_` and `-`; the name itself or an ambiguous one: none", () => {
  expect(mcpCallName("get_sum", offer)).toBe("get-sum");
  expect(mcpCallName("mcp__everything__get_sum", offer)).toBe("get-sum");
  expect(mcpCallName("get-sum", offer)).toBeUndefined(); // already the name
  expect(mcpCallName("search", offer)).toBeUndefined(); // two servers': renamedTo (late-tool.ts) says which
  expect(mcpCallName("mcp__nope__echo", offer)).toBeUndefined(); // no such server
  expect(mcpCallName("mcp__everything__sum", offer)).toBeUndefined();
  expect(mcpCallName("everything", offer)).toBeUndefined();
});

test("a tool the rules refuse is meant under the name they judged: the call reads their refusal", () => {
  expect(offer.leftOut).toContainEqual(expect.objectContaining({ name: "get-env", why: "permission" }));
  expect(mcpCallName("mcp__everything__get-env", offer)).toBe("get-env");
  expect(mcpCallName("everything.get_env", offer)).toBe("get-env");
});

test("the longest server name is tried first", () => {
  const tools = [
    { server: "fs", own: "extra_read", name: "extra_read" },
    { server: "fs_extra", own: "read", name: "read" },
  ];
  expect(meantTool("fs_extra.read", tools)?.name).toBe("read");
  expect(meantTool("mcp__fs__extra_read", tools)?.name).toBe("extra_read");
});
