// A name the run has offered stays with its tool (issue: a server that connected 30 s late with
// the same tool names renamed `slow_call` to `weird_slow_call` under the model, whose next call by
// the old name failed): the newcomer is offered under its prefix instead, and the clash line says so.
import { expect, test } from "bun:test";
import { exposeTools, heldKey, holdNames, type McpTool } from "../../src/mcp/names.ts";

const tool = (name: string): McpTool => ({ name, inputSchema: { type: "object" } });

test("a server that joins with a name another's tool was offered under gets its prefix; the first keeps the plain name", () => {
  const slow = { server: "slow", tools: [tool("slow_call"), tool("empty_schema")] };
  const held = new Map<string, string>();
  holdNames(held, exposeTools([slow]).tools);
  const r = exposeTools([slow, { server: "weird", tools: [tool("slow_call"), tool("empty_schema"), tool("own")] }], [], held);
  expect(r.tools.map((e) => `${e.server}:${e.name}`)).toEqual([
    "slow:slow_call",
    "slow:empty_schema",
    "weird:weird_slow_call",
    "weird:weird_empty_schema",
    "weird:own",
  ]);
  expect(r.clashes.map((c) => c.line)).toEqual([
    "MCP servers slow and weird offer tools of the same names (slow_call and empty_schema): the model sees them as slow's own names and weird_…",
  ]);
});

test("without names held (a run's start), two servers sharing a name are both prefixed", () => {
  const r = exposeTools([
    { server: "slow", tools: [tool("slow_call")] },
    { server: "weird", tools: [tool("slow_call")] },
  ]);
  expect(r.tools.map((e) => e.name)).toEqual(["slow_slow_call", "weird_slow_call"]);
});

test("a tool offered under its prefix keeps it when the other server goes; a held name never beats a built-in's", () => {
  const both = [
    { server: "a", tools: [tool("search")] },
    { server: "b", tools: [tool("search")] },
  ];
  const held = new Map<string, string>();
  holdNames(held, exposeTools(both).tools);
  expect(exposeTools([both[1]!], [], held).tools.map((e) => e.name)).toEqual(["b_search"]);
  const own = new Map([[heldKey("a", tool("grep")), "grep"]]);
  expect(exposeTools([{ server: "a", tools: [tool("grep")] }], ["grep"], own).tools.map((e) => e.name)).toEqual(["a_grep"]);
});
