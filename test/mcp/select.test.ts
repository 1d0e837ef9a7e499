// Tool selection per server and what a request offers (issue 27).
import { expect, test } from "bun:test";
import { offerTools } from "../../src/mcp/offer.ts";
import { leftOutBy, selectionWarnings, selectTools } from "../../src/mcp/select.ts";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
const everything = ["echo", "get-sum", "get-tiny-image", "trigger-long-running-operation", "zip-resources"].map(tool);

test.each([
  [{}, ["echo", "get-sum", "get-tiny-image", "trigger-long-running-operation", "zip-resources"]],
  [{ tools: ["echo", "get-sum"] }, ["echo", "get-sum"]],
  [{ excludeTools: ["zip-resources"] }, ["echo", "get-sum", "get-tiny-image", "trigger-long-running-operation"]],
  [{ tools: ["get-*"] }, ["get-sum", "get-tiny-image"]],
  [{ tools: ["get-*"], excludeTools: ["get-tiny-image"] }, ["get-sum"]],
  [{ excludeTools: ["*"] }, []],
  [{ tools: [] }, []],
] as const)("selection %j offers %j", (sel, want) => {
  expect(selectTools(everything, { ...sel } as never).map((t) => t.name)).toEqual([...want]);
});

test("a name matches the server's own name or the one the model sees; the reason says which key left a tool out", () => {
  const dotted = tool("github.search issues");
  expect(leftOutBy(dotted, { tools: ["github_search_issues"] }, [])).toBeUndefined();
  expect(leftOutBy(dotted, { tools: ["github.search issues"] }, [])).toBeUndefined();
  expect(leftOutBy(dotted, { tools: ["other"] }, [])).toBe("tools");
  expect(leftOutBy(dotted, { excludeTools: ["github.*"] }, [])).toBe("exclude_tools");
  expect(leftOutBy(tool("a+b"), { tools: ["a+b"] }, [])).toBeUndefined(); // regex characters are literal
  expect(leftOutBy(tool("aab"), { tools: ["a+b"] }, [])).toBe("tools");
});

test("a name one of the server's tools has as its own names that tool only, not another whose model name is the same (get.user)", () => {
  const both = [tool("get_user"), tool("get.user"), tool("list.users")];
  expect(selectTools(both, { tools: ["get_user"] }).map((t) => t.name)).toEqual(["get_user"]);
  expect(selectTools(both, { excludeTools: ["get_user"] }).map((t) => t.name)).toEqual(["get.user", "list.users"]);
  expect(selectTools(both, { tools: ["get.user"] }).map((t) => t.name)).toEqual(["get.user"]);
  // a name that is none of its own still names a tool by the name the model sees
  expect(selectTools(both, { tools: ["list_users"] }).map((t) => t.name)).toEqual(["list.users"]);
});

test("names that match no tool are warned about, per key, with what the server offers", () => {
  expect(selectionWarnings("everything", everything, { tools: ["echo", "ecko"], excludeTools: ["zip"] })).toEqual([
    '[mcp.everything] tools names "ecko", which the server does not offer to hey (it offers: echo, get-sum, get-tiny-image, trigger-long-running-operation, zip-resources)',
    '[mcp.everything] exclude_tools names "zip", which the server does not offer to hey (it offers: echo, get-sum, get-tiny-image, trigger-long-running-operation, zip-resources)',
  ]);
  expect(selectionWarnings("everything", everything, { tools: ["get-*"] })).toEqual([]);
});

test("the offer: selection before naming (an excluded tool causes no clash), then the rules' refusals", () => {
  const lists = [
    { server: "a", tools: [tool("search"), tool("read")], selection: { excludeTools: ["search"] } },
    { server: "b", tools: [tool("search"), tool("delete_all")], selection: {} },
  ];
  const offer = offerTools(lists, (name) => name === "delete_all");
  expect(offer.tools.map((e) => `${e.server}:${e.name}`)).toEqual(["a:read", "b:search"]); // no a_search / b_search prefixes
  expect(offer.leftOut).toEqual([
    { server: "a", name: "search", why: "exclude_tools" },
    { server: "b", name: "delete_all", why: "permission", origin: { server: "b", name: "delete_all", qualified: "b_delete_all" } },
  ]);
  expect(offer.warnings).toEqual([]);
  // without the selection the clash prefixes both, and the rules name the prefixed tool
  const clash = offerTools([{ ...lists[0]!, selection: {} }, lists[1]!], (name) => name === "a_search");
  expect(clash.tools.map((e) => e.name)).toEqual(["read", "b_search", "delete_all"]);
  expect(clash.leftOut).toEqual([{ server: "a", name: "a_search", why: "permission", origin: { server: "a", name: "search", qualified: "a_search" } }]);
});

test("a tool renamed for one of hey's own is said to be offered only when it is: the rules judge, and /mcp names, the name the model would see", () => {
  const fs = [{ server: "fs", tools: [tool("read_file"), tool("write_file"), tool("list_directory")], selection: {} }];
  const builtins = ["read_file", "write_file"];
  const offer = offerTools(fs, (name) => name === "fs_read_file", builtins);
  expect(offer.tools.map((e) => e.name)).toEqual(["fs_write_file", "list_directory"]);
  expect(offer.renamed).toEqual([
    { servers: ["fs"], line: "MCP server fs's tool write_file is offered as fs_write_file: hey's own write_file keeps its name" },
  ]);
  expect(offer.leftOut).toEqual([
    { server: "fs", name: "fs_read_file", why: "permission", origin: { server: "fs", name: "read_file", qualified: "fs_read_file" } },
  ]);
});

test("a wildcard matches a tool by its own name or by the model's, whatever other tools match it by their own: `get_*` selects get_item and get.user", () => {
  const tools = [tool("get_item"), tool("get.user"), tool("list.users")];
  expect(selectTools(tools, { tools: ["get_*"] }).map((t) => t.name)).toEqual(["get_item", "get.user"]);
  expect(selectTools(tools, { excludeTools: ["get_*"] }).map((t) => t.name)).toEqual(["list.users"]);
});
