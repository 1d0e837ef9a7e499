// Tool names and descriptions as the model sees them (SPEC §14, seed §6.2).
import { expect, test } from "bun:test";
import { exposeTools, mergeTools, sanitizeName, shortDescription, type McpTool } from "../../src/mcp/names.ts";

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
  expect(r.warnings).toEqual(["MCP servers alpha and beta both offer a tool named search; the model sees alpha_search and beta_search"]);
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

test("an MCP tool named like a built-in replaces it, with a warning naming both", () => {
  const builtins: { name: string; server?: string }[] = [{ name: "bash" }, { name: "grep" }];
  const r = mergeTools(builtins, [
    { name: "grep", server: "code" },
    { name: "lint", server: "code" },
  ]);
  expect(r.tools).toEqual([{ name: "bash" }, { name: "grep", server: "code" }, { name: "lint", server: "code" }]);
  expect(r.warnings).toEqual(["MCP server code's tool grep replaces the built-in grep"]);
});
