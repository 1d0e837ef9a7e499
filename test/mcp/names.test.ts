// Tool names and descriptions as the model sees them (SPEC §14, seed §6.2).
import { expect, test } from "bun:test";
import { exposeTools, sanitizeName, shortDescription, toolsChanged, type McpTool } from "../../src/mcp/names.ts";

const tool = (name: string, description?: string): McpTool => ({ name, ...(description ? { description } : {}), inputSchema: { type: "object" } });

test.each([
  ["read_file", "read_file"],
  ["get-tiny-image", "get-tiny-image"],
  ["github.search issues", "github_search_issues"],
  ["名前", "__"],
  ["", "_"],
  ["x".repeat(80), "x".repeat(64)],
])("sanitizeName(%j) = %j", (name, want) => {
  expect(sanitizeName(name)).toBe(want);
});

test("descriptions: whitespace folded, cut at 300 characters with an ellipsis", () => {
  expect(shortDescription("  Reads\n\n a   file.  ")).toBe("Reads a file.");
  expect(shortDescription(undefined)).toBe("");
  const cut = shortDescription("word ".repeat(100));
  expect(cut.length).toBeLessThanOrEqual(300);
  expect(cut.endsWith("word…")).toBe(true);
  expect(shortDescription("y".repeat(300))).toBe("y".repeat(300));
});

test("one name offered by two servers: both prefixed with their server, and a warning", () => {
  const r = exposeTools([
    { server: "alpha", tools: [tool("search"), tool("only_alpha")] },
    { server: "beta", tools: [tool("search")] },
  ]);
  expect(r.tools.map((t) => [t.server, t.tool.name, t.name])).toEqual([
    ["alpha", "search", "alpha_search"],
    ["alpha", "only_alpha", "only_alpha"],
    ["beta", "search", "beta_search"],
  ]);
  expect(r.clashes).toEqual([
    { servers: ["alpha", "beta"], line: "MCP servers alpha and beta both offer a tool named search; the model sees alpha_search and beta_search" },
  ]);
});

test("names still taken after that get a number; nothing is lost", () => {
  const r = exposeTools([
    { server: "a", tools: [tool("x.y"), tool("x y")] },
    { server: "b", tools: [tool("a_q")] },
    { server: "a", tools: [] },
  ]);
  expect(r.tools.map((t) => t.name)).toEqual(["x_y", "x_y_2", "a_q"]);
  const long = exposeTools([
    { server: "s", tools: [tool("n".repeat(70))] },
    { server: "t", tools: [tool("n".repeat(70))] },
  ]);
  expect(long.tools.map((t) => t.name)).toEqual([`s_${"n".repeat(62)}`, `t_${"n".repeat(62)}`]);
});

test("an MCP tool named like a built-in never replaces it: it is offered as <server>_<name>, said once per tool (issue 26)", () => {
  const r = exposeTools(
    [
      { server: "fs", tools: [tool("write_file"), tool("read_text_file"), tool("read.file")] },
      { server: "code", tools: [tool("grep"), tool("lint")] },
    ],
    ["bash", "read_file", "write_file", "edit", "grep"],
  );
  expect(r.tools.map((t) => [t.server, t.tool.name, t.name])).toEqual([
    ["fs", "write_file", "fs_write_file"],
    ["fs", "read_text_file", "read_text_file"],
    ["fs", "read.file", "fs_read_file"], // sanitized first, then kept off the built-in's name
    ["code", "grep", "code_grep"],
    ["code", "lint", "lint"],
  ]);
  expect(r.renamed).toEqual([
    { servers: ["fs"], line: "MCP server fs's tool write_file is offered as fs_write_file: hey's own write_file keeps its name" },
    { servers: ["fs"], line: "MCP server fs's tool read_file is offered as fs_read_file: hey's own read_file keeps its name" },
    { servers: ["code"], line: "MCP server code's tool grep is offered as code_grep: hey's own grep keeps its name" },
  ]);
  expect(r.clashes).toEqual([]);
});

test("a prefixed name that is itself taken by a built-in or another tool gets a number", () => {
  const r = exposeTools([{ server: "x", tools: [tool("edit"), tool("x_edit")] }], ["edit", "x_edit"]);
  expect(r.tools.map((t) => t.name)).toEqual(["x_edit_2", "x_x_edit"]);
});

test("a changed tool list is said by what came and went, with the count; the same names say nothing", () => {
  expect(toolsChanged("gh", ["a", "b"], ["b", "c", "d"])).toBe("MCP server gh's tools changed: + c, + d, − a (3 tools now)");
  expect(toolsChanged("gh", ["a", "b"], ["a"])).toBe("MCP server gh's tools changed: − b (1 tool now)");
  expect(toolsChanged("gh", ["a", "b"], ["b", "a"])).toBeUndefined();
});

test("servers sharing many names: one line per set of servers, counting the names and showing a few", () => {
  const shared = ["read_file", "write_file", "edit_file", "list_directory", "search_files", "move_file"];
  const r = exposeTools([
    { server: "fs", tools: shared.map((n) => tool(n)) },
    { server: "work", tools: [...shared.map((n) => tool(n)), tool("own")] },
  ]);
  expect(r.clashes).toEqual([
    {
      servers: ["fs", "work"],
      line: "MCP servers fs and work offer tools of the same names (read_file, write_file, edit_file, …; 6 in all): the model sees them as fs_… and work_…",
    },
  ]);
});

test("three servers sharing a name: one line, each named once", () => {
  const r = exposeTools([
    { server: "a", tools: [tool("search")] },
    { server: "b", tools: [tool("search")] },
    { server: "c", tools: [tool("search"), tool("fetch")] },
    { server: "d", tools: [tool("fetch")] },
  ]);
  expect(r.clashes.map((c) => c.line)).toEqual([
    "MCP servers a, b and c all offer a tool named search; the model sees a_search, b_search and c_search",
    "MCP servers c and d both offer a tool named fetch; the model sees c_fetch and d_fetch",
  ]);
});
