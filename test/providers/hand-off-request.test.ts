// The max-turns hand-off request (SPEC §6): the tools stay described (some APIs reject a history
// with tool calls and no tools) and the answer must be text. Where the API keys its prompt cache on
// the tool choice (Anthropic, Gemini), the request says nothing of it, so it reads the cached
// prefix of the turn before; OpenAI's chat and Responses APIs are told `tool_choice: "none"`.
import { expect, test } from "bun:test";
import { MAX_TURNS_PROMPT } from "../../src/kernel/hand-off.ts";
import { userMessage, type Message } from "../../src/kernel/ir.ts";
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { toRequest as anthropic } from "../../src/providers/anthropic.ts";
import { toRequest as google } from "../../src/providers/google.ts";
import { toRequest as openai } from "../../src/providers/openai.ts";
import { toRequest as responses } from "../../src/providers/responses.ts";
import { anthropicBlocks, anthropicCache } from "../../scripts/cache-emulator.ts";

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
  { name: "anthropic", build: () => anthropic(request, { model: "m" }), choice: (b) => b.tool_choice, expected: undefined },
  // Claude behind a gateway, with Anthropic's cache marks: its tool choice keys the cache there too
  {
    name: "openai with cache marks",
    build: () => openai(request, { model: "anthropic/claude-sonnet-4.5", cacheMarks: true }),
    choice: (b) => b.tool_choice,
    expected: undefined,
  },
  { name: "google", build: () => google(request, { model: "gemini-3-pro-preview" }), choice: (b) => (b.config as Body).toolConfig, expected: undefined },
];

test.each(ROWS.map((row) => ({ ...row, shown: JSON.stringify(row.expected) ?? "nothing" })))(
  "$name: tools described, tool choice said as $shown",
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

/** A tool loop of `turns` reads of ~9 KB each, as the requests the loop makes, then the hand-off's. */
function session(turns: number): ModelRequest[] {
  const tools = request.tools;
  const messages: Message[] = [userMessage("read the files")];
  const requests: ModelRequest[] = [{ system: "You are hey. ".repeat(200), messages: [...messages], tools }];
  for (let i = 0; i < turns; i++) {
    const id = `call_${i}`;
    messages.push({ id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id, name: "bash", arguments: `{"command":"cat f${i}"}` }] });
    messages.push({ id: `t${i}`, role: "tool", toolCallId: id, content: [{ type: "text", text: `file ${i}: ${"x".repeat(9000)}` }] });
    requests.push({ ...requests[0]!, messages: [...messages] });
  }
  requests.push({ ...requests[0]!, messages: [...messages, userMessage(MAX_TURNS_PROMPT)], toolChoice: "none" });
  return requests;
}

test("anthropic: the hand-off reads the whole conversation from the cache and writes only its own prompt", () => {
  const counts = anthropicCache(session(6).map((r) => anthropicBlocks(anthropic(r, { model: "claude-sonnet-4-5" }) as Parameters<typeof anthropicBlocks>[0])));
  const [before, handOff] = counts.slice(-2) as [(typeof counts)[0], (typeof counts)[0]];
  expect(handOff.read).toBe(before.sent); // everything the last turn sent
  expect(handOff.write).toBeLessThan(100); // the hand-off prompt, not the conversation again at 1.25×
});

test("google: the hand-off's tools and settings are the turn before's, so the cached prefix holds", () => {
  const [before, handOff] = session(2)
    .slice(-2)
    .map((r) => google(r, { model: "gemini-3-pro-preview" }));
  expect(JSON.stringify(handOff!.config)).toBe(JSON.stringify(before!.config));
  expect(JSON.stringify(handOff!.contents)).toStartWith(JSON.stringify(before!.contents).slice(0, -1));
});
