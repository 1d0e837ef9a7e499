// A server whose tools a deny entry refuses (`deny = ["mcp__d"]`): deny wins over allow, so the
// lines that say it is refused name that entry and where it is written, and never advise an allow
// entry that could not help (mcp/offer.ts); the rules give that entry (permission/refused.ts).
import { expect, test } from "bun:test";
import type { ToolOrigin } from "../../src/kernel/tool-calls.ts";
import type { McpTool } from "../../src/mcp/names.ts";
import { offerTools, refusedServerLine, refusedServerNote } from "../../src/mcp/offer.ts";
import { refusedBy } from "../../src/permission/refused.ts";
import { compileRules } from "../../src/permission/rules.ts";

const tool = (name: string): McpTool => ({ name, inputSchema: { type: "object" } });
const all = { tools: undefined, excludeTools: undefined } as never;
const origin = (server: string, name: string): ToolOrigin => ({ server, name, qualified: `${server}_${name}` });
const DENY = "deny entry `mcp__d` in ~/.config/hey/config.toml:7";

test.each([
  ["Claude Code's spelling", "mcp__d"],
  ["hey's prefix glob", "d_*"],
])("the rules name the deny entry, and its file, that refuses a whole server's tool: %s", (_, entry) => {
  const { rules } = compileRules({ allow: ["mcp__d", "mcp__e"], deny: [entry], denyAt: { [entry]: "~/.config/hey/config.toml:7" } });
  expect(refusedBy("search", [rules], origin("d", "search"))).toBe(`deny entry \`${entry}\` in ~/.config/hey/config.toml:7`);
  expect(refusedBy("search", [rules], origin("e", "search"))).toBe(false);
});

test("an allow list that leaves a tool out refuses it without naming a deny entry", () => {
  const { rules } = compileRules({ allow: ["read_file"], deny: [] });
  expect(refusedBy("search", [rules], origin("d", "search"))).toBe(true);
});

test("all of a server's tools denied: the user reads the deny entry, the model that the user's deny entry refuses them; no allow entry is advised", () => {
  const offer = offerTools([{ server: "d", tools: [tool("search"), tool("other")], selection: all }], (_n, o) => (o.server === "d" ? DENY : false));
  expect(offer.warnings).toEqual([
    `MCP server d: ${DENY} refuses all 2 of its tools, so the agent is offered none; to let it use them, remove that from the deny list (deny wins over allow: an allow entry would not)`,
  ]);
  expect(offer.selection).toEqual([
    `MCP server d is running, but the user's ${DENY} refuses all 2 of its tools, so you are offered none; only the user can change that (deny wins: no allow entry lifts it)`,
  ]);
});

test("some denied, the others left out by the allow list: the deny entry is named for its own, the allow entry for the rest", () => {
  expect(refusedServerLine("d", 3, [DENY])).toBe(
    `MCP server d: [permission] refuses all 3 of its tools, so the agent is offered none; ${DENY} refuses 1 of them whatever allow says; for the others, add "mcp__d" to [permission] allow (or "mcp__d__NAME" for one tool)`,
  );
  expect(refusedServerNote("d", 3, [DENY])).toContain('ask them to add "mcp__d" to [permission] allow');
});

test("two deny entries, one per tool: both named once", () => {
  const a = "deny entry `mcp__d__a` in F:3";
  const b = "deny entry `mcp__d__b` in F:3";
  expect(refusedServerLine("d", 2, [a, b])).toStartWith("MCP server d: deny entries `mcp__d__a` in F:3 and `mcp__d__b` in F:3 refuse all 2 of its tools");
});
