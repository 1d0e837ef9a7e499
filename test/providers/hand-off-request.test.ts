// The max-turns hand-off request (SPEC §6): the tools stay described (some APIs reject a history
// with tool calls and no tools) but each protocol is told the answer must be text.
import { expect, test } from "bun:test";
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { toRequest as anthropic } from "../../src/providers/anthropic.ts";
import { toRequest as google } from "../../src/providers/google.ts";
import { toRequest as openai } from "../../src/providers/openai.ts";
import { toRequest as responses } from "../../src/providers/responses.ts";

const request: ModelRequest = {
  system: "s",
  messages: [{ id: "u", role: "user", content: [{ type: "text", text: "sum up" }] }],
  tools: [{ name: "bash", description: "run", parameters: { type: "object", properties: {} } }],
  toolChoice: "none",
};

type Body = Record<string, unknown>;
/** Each protocol's request body, where it says how tools may be used, and what it must say there. */
const ROWS: { name: string; build: () => unknown; choice: (b: Body) => unknown; expected: unknown }[] = [
  { name: "openai", build: () => openai(request, { model: "m" }), choice: (b) => b.tool_choice, expected: "none" },
  { name: "responses", build: () => responses(request, { model: "m" }), choice: (b) => b.tool_choice, expected: "none" },
  { name: "anthropic", build: () => anthropic(request, { model: "m" }), choice: (b) => b.tool_choice, expected: { type: "none" } },
  {
    name: "google",
    build: () => google(request, { model: "gemini-3-pro-preview" }),
    choice: (b) => (b.config as Body).toolConfig,
    expected: { functionCallingConfig: { mode: "NONE" } },
  },
];

test.each(ROWS.map((row) => ({ ...row, shown: JSON.stringify(row.expected) })))(
  "$name: tools described, tool use switched off ($shown)",
  ({ build, choice, expected }) => {
    const body = build() as Body;
    expect(choice(body)).toEqual(expected);
    expect(JSON.stringify(body)).toContain('"bash"');
  },
);

test("without toolChoice nothing is said about tool choice", () => {
  const body = openai({ ...request, toolChoice: undefined }, { model: "m" }) as unknown as Record<string, unknown>;
  expect(body.tool_choice).toBeUndefined();
});
