// A tool the permission rules refuse whatever it is called takes no part in the names the model
// sees (mcp/offer.ts): a server denied whole (`deny = ["mcp__d"]`) sharing a name with another's
// tool renamed that tool `a_only_a`, out of the user's `allow = ["only_a"]`; and a call of the
// refused name reads the rules' refusal, not "started but has no tool".
import { expect, test } from "bun:test";
import type { ToolOrigin } from "../../src/kernel/tool-calls.ts";
import { refusedTool } from "../../src/mcp/late-tool.ts";
import type { McpTool } from "../../src/mcp/names.ts";
import { offerTools } from "../../src/mcp/offer.ts";

const tool = (name: string): McpTool => ({ name, inputSchema: { type: "object" } });
const all = { tools: undefined, excludeTools: undefined } as never;
// allow = ["only_a", "mcp__b", "read_file"], deny = ["mcp__d"], as the rules judge an MCP tool
const refused = (name: string, origin: ToolOrigin) => origin.server === "d" || !(name === "only_a" || origin.server === "b");
const lists = [
  { server: "a", tools: [tool("only_a"), tool("other")], selection: all },
  { server: "b", tools: [tool("search")], selection: all },
  { server: "d", tools: [tool("only_a"), tool("search")], selection: all },
];

test("a server the rules refuse whole renames no other server's tool, and its names are in no clash line", () => {
  const offer = offerTools(lists, refused, ["read_file"]);
  expect(offer.tools.map((e) => `${e.server}:${e.name}`)).toEqual(["a:only_a", "b:search"]);
  expect(offer.renamed).toEqual([]);
  expect(offer.leftOut.filter((l) => l.why === "permission").map((l) => `${l.server}:${l.name}`)).toEqual(["a:other", "d:d_only_a", "d:d_search"]);
});

test("a call of a name the rules refuse in every server that has it reads the rules' refusal", async () => {
  const offer = offerTools(lists, (_name, origin) => origin.server !== "b", ["read_file"]);
  expect(offer.tools.map((e) => e.name)).toEqual(["search"]);
  const stand = refusedTool("only_a", { offer: () => offer, status: () => [] })!;
  expect((await stand.run({}, {} as never)).output).toBe("only_a (MCP server a's only_a) is not offered: the permission rules refuse it");
});
