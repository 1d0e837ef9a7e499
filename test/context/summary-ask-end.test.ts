// Where the cached summary's ask (context/summary-cached.ts summaryAsk) says the part to summarize
// ends. The ask follows the last message sent (inside it or a message of its own), so that message is
// never named as the end (x102: "through the user's message starting «read b.txt»", with the ask right
// after it), and alike messages are counted from the first over all the model sees (x104).
import { expect, test } from "bun:test";
import { cachedSummaryRequest, summaryAsk, type AnsweredRequest } from "../../src/context/summary-cached.ts";
import type { Message } from "../../src/kernel/ir.ts";
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { toRequest as anthropicRequest } from "../../src/providers/anthropic.ts";
import { toRequest as geminiRequest } from "../../src/providers/google.ts";
import { toRequest as chatRequest } from "../../src/providers/openai.ts";
import { toRequest as responsesRequest } from "../../src/providers/responses.ts";

const user = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const reply = (id: string, text: string): Message => ({ id, role: "assistant", content: [{ type: "text", text }] });
const rangeOf = (sent: Message[], from: number, to: number) => ({ fromId: sent[from]!.id, toId: sent[to]!.id, messages: sent.slice(from, to + 1) });

test("a range that runs to the message holding the ask ends 'up to this note', not at that message, and no kept messages are promised after it", () => {
  const sent: Message[] = [
    user("u1", "read a.txt"),
    { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.txt"}' }] },
    { id: "r1", role: "tool", toolCallId: "c1", content: [{ type: "text", text: "lines" }] },
    reply("a2", "a.txt has 250 lines"),
    user("u2", "read b.txt"),
  ];
  const ask = summaryAsk(sent, rangeOf(sent, 1, 4));
  expect(ask).toContain('from your turn calling read_file {"path":"a.txt"} to the end, up to this note: your summary replaces that part.');
  expect(ask).not.toContain("«read b.txt»");
  expect(ask).not.toContain("messages after it stay");
});

test("of 25 alike prompts, the range's end at the 23rd is the 23rd of the 25 the model sees, the 25th ending the request", () => {
  const sent: Message[] = [];
  for (let i = 1; i <= 25; i++) sent.push(user(`u${i}`, "say 3000"), reply(`a${i}`, `Answer ${i}: ${"x".repeat(80)}`));
  sent.pop(); // the last request ends with the 25th prompt, and the ask follows it
  const ask = summaryAsk(sent, rangeOf(sent, 0, 44)); // through the 23rd reply's prompt
  expect(ask).toContain(
    "through the user's message starting «say 3000» (the 23rd of 25 alike): your summary replaces that part, and the messages after it stay",
  );
  expect(ask).toContain("from the user's message starting «say 3000» (the 1st of 25 alike)");
});

// the agent loop re-runs `npm test` five times; the range ends at the 4th result
const reruns: Message[] = [user("u1", "fix the tests")];
for (let i = 1; i <= 5; i++)
  reruns.push(
    { id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id: `c${i}`, name: "bash", arguments: '{"command":"npm test"}' }] },
    { id: `r${i}`, role: "tool", toolCallId: `c${i}`, content: [{ type: "text", text: `3 tests failed on run ${i}` }] },
  );
const last: AnsweredRequest = {
  request: { system: "s", messages: reruns, tools: [] },
  by: { protocol: "anthropic", model: "m", stream: async function* () {} },
  at: 0,
};
const made = cachedSummaryRequest(last, rangeOf(reruns, 1, 8), { provider: last.by, now: 1 })!;
const shapes: [string, (r: ModelRequest) => unknown][] = [
  ["Anthropic (the note inside the last result's turn)", (r) => anthropicRequest(r, { model: "claude-sonnet-4-5" })],
  ["chat (the note inside the last result)", (r) => chatRequest(r, { model: "gpt-5" })],
  ["Responses (the note a message of its own)", (r) => responsesRequest(r, { model: "gpt-5" })],
  ["Gemini (the note a message of its own)", (r) => geminiRequest(r, { model: "gemini-2.5-pro" })],
];

test.each(shapes)("over %s, the range's end is named by its place among the alike results the model sees", (_, toRequest) => {
  const seen = [...JSON.stringify(toRequest(made.request)).matchAll(/failed on run (\d)/g)].map((m) => m[1]);
  expect(seen).toEqual(["1", "2", "3", "4", "5"]);
  expect(made.request.note).toContain(`through the result of your bash {"command":"npm test"} call (the 4th of ${seen.length} alike)`);
});

test("a range that starts at the last message sent names it by its place before the note, true of every protocol", () => {
  const ask = summaryAsk(reruns, rangeOf(reruns, 10, 10));
  expect(ask).toContain("Summarize the part of this conversation from the last message before this note to the end, up to this note:");
});
