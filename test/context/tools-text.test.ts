// The tool list's JSON is made once per list (tools-text.ts) though hey wraps every tool anew for
// each request. Any change a user can make to the list — /reload with an edited description, an MCP
// server's tools added or removed, a skill, another model's list — must give the text JSON.stringify
// gives, and so the prompt-cache check (CompactionState.sent.fixed) and the estimate see the change.
import { expect, test } from "bun:test";
import { toolsText } from "../../src/context/tools-text.ts";
import { answered, newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import type { Message, ToolSpec } from "../../src/kernel/ir.ts";
import { testPolicy } from "../helpers/settings.ts";

const schema = { type: "object", properties: { path: { type: "string" } } };
const base: (ToolSpec & { run?: () => void; server?: string })[] = [
  { name: "read_file", description: "reads a file", parameters: schema, run: () => {} },
  { name: "bash", description: "runs a command", parameters: { type: "object", properties: { command: { type: "string" } } }, run: () => {} },
];
/** the list as a request gets it: every tool a new object with the same fields (and new functions) */
const rewrapped = (tools: typeof base) => tools.map((t) => ({ ...t, run: () => {} }));

test.each([
  ["the same tools wrapped anew", rewrapped(base)],
  ["a description edited (/reload)", [{ ...base[0]!, description: "reads a file, 2000 lines at most" }, base[1]!]],
  ["a schema replaced", [{ ...base[0]!, parameters: { type: "object", properties: { file: { type: "string" } } } }, base[1]!]],
  ["an MCP server's tool added", [...base, { name: "mcp__docs__search", description: "searches", parameters: schema, server: "docs" }]],
  ["a tool removed", [base[1]!]],
  ["the order changed", [base[1]!, base[0]!]],
  [
    "a field moved from one tool to the next",
    [
      { name: "read_file", description: "reads a file" },
      { parameters: schema, name: "bash", description: "runs a command" },
    ],
  ],
  ["no tools", []],
] as const)("%s: the text is JSON.stringify's", (_, tools) => {
  expect(toolsText(base)).toBe(JSON.stringify(base));
  expect(toolsText(tools as never)).toBe(JSON.stringify(tools));
  expect(toolsText(base)).toBe(JSON.stringify(base));
});

test("a tool list changed between requests breaks the prompt cache's prefix check, as it did when the text was made each time", async () => {
  const history: Message[] = [{ id: "u0", role: "user", content: [{ type: "text", text: "go" }] }];
  const deps: PrepareDeps = {
    state: newCompactionState(),
    policy: testPolicy({ budgetTokens: 50_000 }),
    provider: { protocol: "openai", model: "m", stream: async function* () {} },
    output: { emit: () => {} },
    tools: rewrapped(base),
    system: () => "system",
    taskNote: () => undefined,
    now: () => 1_000,
  };
  const signal = new AbortController().signal;
  await prepare(history, deps, signal);
  answered(deps.state);
  expect(deps.state.sent!.fixed).toBe(`system\u0000${JSON.stringify(deps.tools)}`);
  deps.tools = [{ ...base[0]!, description: "reads a file, edited" }, base[1]!];
  await prepare(history, deps, signal);
  expect(deps.state.sent!.fixed).toBe(`system\u0000${JSON.stringify(deps.tools)}`);
});
