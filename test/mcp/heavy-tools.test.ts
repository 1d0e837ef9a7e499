// A server whose tools take more than a quarter of the context budget is named once, with its
// largest tools and the [mcp.NAME] keys that leave them out (mcp/heavy-tools.ts); servers within
// it are not.
import { expect, test } from "bun:test";
import { heavyToolWarnings, serverCosts } from "../../src/mcp/heavy-tools.ts";
import { mcpSpec, offerTools, specTokens } from "../../src/mcp/offer.ts";
import { FAKE_SERVER, BUN, serverSettings, testManager } from "../helpers/mcp.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const wide = (name: string, n: number) => ({
  name,
  inputSchema: { type: "object", properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, { type: "string" }])) },
});
const small = (name: string) => ({ name, description: "echoes", inputSchema: { type: "object", properties: { text: { type: "string" } } } });
const offer = offerTools(
  [
    { server: "huge", tools: [small("echo"), wide("huge.tool", 2000)], selection: {} },
    { server: "fs", tools: [small("read"), small("write")], selection: {} },
  ],
  () => false,
);
const costs = offer.tools.map((e) => ({ server: e.server, name: e.name, own: e.tool.name, tokens: specTokens(mcpSpec(e)) }));

test("each server's cost is the sum of its tools', largest server and tool first", () => {
  const [huge, fs] = serverCosts(costs);
  expect(huge!.server).toBe("huge");
  expect(huge!.tools.map((t) => [t.name, t.own])).toEqual([
    ["huge_tool", "huge.tool"],
    ["echo", "echo"],
  ]);
  expect(huge!.tokens).toBe(huge!.tools[0]!.tokens + huge!.tools[1]!.tokens);
  expect(fs!.server).toBe("fs");
});

test("only a server over a quarter of the budget is named, with its largest tools and the keys that leave them out", () => {
  const [huge] = serverCosts(costs);
  const n = (x: number) => x.toLocaleString("en-US");
  expect(heavyToolWarnings(offer, 40_000)).toEqual([
    `MCP server huge's tools take ~${n(huge!.tokens)} tokens of every request, more than a quarter of the 40k budget (huge_tool ~${n(huge!.tools[0]!.tokens)}); ` +
      'leave tools out with [mcp.huge] exclude_tools = ["huge.tool"] (or tools = [...], the ones to keep)',
  ]);
  expect(heavyToolWarnings(offer, 4 * huge!.tokens)).toEqual([]); // exactly a quarter: not more
  expect(heavyToolWarnings(offer, 1_000_000)).toEqual([]);
});

const dir = eachTempDir("hey-heavy-tools-");

test("the manager warns once when such a server connects, however many requests follow", async () => {
  const m = testManager([serverSettings("huge", { command: BUN, args: [FAKE_SERVER, "wide", "2000"] })], { cacheDir: dir.path, budget: 40_000 });
  try {
    await m.tools();
    await m.tools();
    expect(m.warnings.filter((w) => w.includes("MCP server huge's tools take"))).toHaveLength(1);
    expect(m.warnings[0]).toContain('[mcp.huge] exclude_tools = ["wide"]');
  } finally {
    await m.manager.close();
  }
});

test("a server of many tools alike in size: the hint is the list of those to keep, not three names that would save little", () => {
  const many = offerTools([{ server: "big", tools: Array.from({ length: 120 }, (_, i) => small(`tool_${i}`)), selection: {} }], () => false);
  const [warning] = heavyToolWarnings(many, 4_000);
  expect(warning).toMatch(
    /; its 120 tools are alike in size, so leaving out the largest saves little \(~[\d,]+\): list the ones to keep in \[mcp\.big\] tools = \[\.\.\.\], or set enabled = false$/,
  );
});
