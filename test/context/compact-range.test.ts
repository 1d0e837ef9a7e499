// The summary request of compactRange against endpoints that refuse it: a refusal of its reasoning
// setting is asked once more without one; any other refusal is not asked twice (each try is paid).
import { expect, test } from "bun:test";
import { compactRange, newCompactionState } from "../../src/context/compaction.ts";
import { summaryMessage } from "../../src/context/passes.ts";
import { SUMMARIZED_BELOW } from "../../src/context/view.ts";
import type { Message } from "../../src/kernel/ir.ts";
import { type ModelRequest, type Provider, ProviderError, type StreamEvent } from "../../src/kernel/provider.ts";

const stretch: Message[] = [
  { id: "u1", role: "user", content: [{ type: "text", text: "fix the parser" }] },
  { id: "a1", role: "assistant", content: [{ type: "text", text: "Read parser.ts; the bug is in the tokenizer." }] },
];

/** A provider that refuses a summary request with reasoning set in `refusal`'s words, and answers one without. */
function refusing(refusal: string): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    protocol: "openai",
    model: "m",
    requests,
    async *stream(request): AsyncGenerator<StreamEvent> {
      requests.push(request);
      if (request.effort !== undefined) throw new ProviderError("bad_request", refusal, { status: 400 });
      yield {
        type: "done",
        message: { id: "s", role: "assistant", content: [{ type: "text", text: "the tokenizer was fixed" }] },
        usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        stop: "stop",
      };
    },
  };
}

const summarize = (provider: Provider) =>
  compactRange({ fromId: "u1", toId: "a1", messages: stretch }, { state: newCompactionState(), provider, budgetTokens: 40_000 }, new AbortController().signal);

test("a summary refused for its reasoning setting is asked once more without it", async () => {
  const p = refusing("Unsupported parameter: 'reasoning_effort' is not supported with this model.");
  expect((await summarize(p)).parts.at(-1)!.text).toBe("the tokenizer was fixed");
  expect(p.requests.map((r) => r.effort)).toEqual(["off", undefined]);
});

test("a summary refused for anything else is not asked again: one request, the endpoint's words", async () => {
  const p = refusing("messages[0].content: this endpoint does not take a system message here");
  await expect(summarize(p)).rejects.toThrow("does not take a system message");
  expect(p.requests).toHaveLength(1);
});

test("a summary request after a split summary reads the summary before it whole when the stretch is too long to show", async () => {
  // the view's stretch after a summary that covered the work on both sides of a user message: the
  // pointer left before the message, the message, the summary, then the work since (many results)
  const before = { fromId: "a0", toId: "r0", text: SUMMARIZED_BELOW };
  const summary = { fromId: "a1", toId: "r1", text: "EARLIER: the tokenizer was rewritten; parser.ts line 40 still fails" };
  const work: Message[] = Array.from({ length: 60 }, (_, i) => ({
    id: `w${i}`,
    role: "tool",
    toolCallId: `c${i}`,
    content: [{ type: "text", text: "x".repeat(600) }],
  }));
  const stretch: Message[] = [
    summaryMessage(before),
    { id: "u2", role: "user", content: [{ type: "text", text: "now the lexer" }] },
    summaryMessage(summary),
    ...work,
  ];
  const p = refusing("Unsupported parameter: 'reasoning_effort'");
  await compactRange(
    { fromId: "a0", toId: "w59", messages: stretch },
    { state: newCompactionState(), provider: p, budgetTokens: 4_000 },
    new AbortController().signal,
  );
  const asked = p.requests[0]!.messages[0]!.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  expect(asked).toContain("[earlier part of this stretch left out]"); // the stretch was too long to show whole
  expect(asked).toContain(summary.text); // the history before it is nowhere else: lost from the next summary without it
});
