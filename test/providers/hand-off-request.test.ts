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

test.each([
  ["openai", () => openai(request, { model: "m" }), (b: Record<string, unknown>) => b.tool_choice, "none"],
  ["responses", () => responses(request, { model: "m" }), (b: Record<string, unknown>) => b.tool_choice, "none"],
  ["anthropic", () => anthropic(request, { model: "m" }), (b: Record<string, unknown>) => b.tool_choice, { type: "none" }],
  ["google", () => google(request, { model: "gemini-3-pro-preview" }), (b: Record<string, unknown>) => (b.config as Record<string, unknown>).toolConfig, { functionCallingConfig: { mode: "NONE" } }],
] as const)("%s: tools described, tool use switched off", (_name, build, choice, expected) => {
  const body = build() as unknown as Record<string, unknown>;
  expect(choice(body)).toEqual(expected);
  expect(JSON.stringify(body)).toContain('"bash"');
});

test("without toolChoice nothing is said about tool choice", () => {
  const body = openai({ ...request, toolChoice: undefined }, { model: "m" }) as unknown as Record<string, unknown>;
  expect(body.tool_choice).toBeUndefined();
});
