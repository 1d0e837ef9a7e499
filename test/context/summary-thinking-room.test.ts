// The cached summary request (context/summary-request.ts askCached) is sized and priced by the
// output the adapter really sends: Claude thinking by budget goes out with max_tokens of the budget
// plus an answer's room (providers/effort.ts), so that is what must fit the window beside the
// conversation, and the budget sent is the thinking that request costs.
import { expect, test } from "bun:test";
import { compactRange } from "../../src/context/summary-request.ts";
import type { Effort, Message } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { toRequest } from "../../src/providers/anthropic.ts";
import { isCachedSummary } from "../helpers/summary-requests.ts";

/** A last request of `reads` 2 KB reads to `model` (a budget-thinking Claude unless said) at `effort`; what each summary request was sent with. */
async function summarize(opts: { reads: number; effort: Effort; window?: number; model?: string; protocol?: "anthropic" | "openai" }) {
  const model = opts.model ?? "claude-sonnet-4-5";
  const asked: { kind: string; max_tokens: number; budget?: number }[] = [];
  const p: Provider = {
    protocol: opts.protocol ?? "anthropic",
    model,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      const body = toRequest(request, { model, legacyThinking: model === "claude-sonnet-4-5" });
      const budget = body.thinking?.type === "enabled" ? body.thinking.budget_tokens : undefined;
      asked.push({ kind: isCachedSummary(request) ? "cached" : "transcript", max_tokens: body.max_tokens, ...(budget ? { budget } : {}) });
      const message: Message = { id: "s", role: "assistant", content: [{ type: "text", text: "SUMMARY" }] };
      yield { type: "done", message, usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, stop: "stop" };
    },
  };
  const messages: Message[] = [{ id: "u1", role: "user", content: [{ type: "text", text: "go" }] }];
  for (let i = 1; i <= opts.reads; i++)
    messages.push(
      { id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"f${i}.ts"}` }] },
      { id: `r${i}`, role: "tool", toolCallId: `c${i}`, content: [{ type: "text", text: "x".repeat(2_000) }] },
    );
  const request: ModelRequest = { system: "s", messages, tools: [], effort: opts.effort };
  const state = { summaries: [], tokensPerChar: 0.25, answered: { request, by: p, at: 0 } };
  const range = { fromId: "a1", toId: `r${opts.reads - 1}`, messages: messages.slice(1, -2) };
  const deps = { state, provider: p, budgetTokens: 200_000, now: () => 1, ...(opts.window ? { window: opts.window } : {}) };
  await compactRange(range, deps, new AbortController().signal);
  return asked;
}

test("at -t low, a window with room for 4,096 output tokens but not the 6,144 budget thinking sends gets the transcript, not a request past its margin", async () => {
  // 40 reads: ~20.3k tokens of conversation; 90 % of 28k leaves ~4.9k for the answer
  expect((await summarize({ reads: 40, effort: "low", window: 28_000 })).map((a) => a.kind)).toEqual(["transcript"]);
  // with room for the budget and the answer, the cache is read, with the budget the conversation was sent with
  expect(await summarize({ reads: 40, effort: "low", window: 32_000 })).toEqual([{ kind: "cached", max_tokens: 6_144, budget: 2_048 }]);
});

test("thinking is priced at what its effort is expected to spend, within the budget: a budget is a cap, not what Claude bills", async () => {
  // medium's 8,192-token budget priced in full made the transcript look cheaper; 2,048 expected does not
  expect((await summarize({ reads: 30, effort: "medium" })).map((a) => a.kind)).toEqual(["cached"]);
  expect((await summarize({ reads: 60, effort: "high" })).map((a) => a.kind)).toEqual(["cached"]);
  // a short range still goes as the transcript, which costs less than the cached read plus 1,024 thinking tokens
  expect((await summarize({ reads: 6, effort: "low" })).map((a) => a.kind)).toEqual(["transcript"]);
});

test("an adaptive Claude (after 4.5) is sent max_tokens 4,096 with no budget: its room and cost are not a budget-thinking one's", async () => {
  const adaptive = { model: "claude-opus-4-7" };
  expect(await summarize({ ...adaptive, reads: 30, effort: "medium" })).toEqual([{ kind: "cached", max_tokens: 4_096 }]);
  expect((await summarize({ ...adaptive, reads: 120, effort: "high" })).map((a) => a.kind)).toEqual(["cached"]);
  // a 34k window leaves room for 4,096 beside 40 reads, not for the 12,288 budget thinking would send
  expect((await summarize({ ...adaptive, reads: 40, effort: "medium", window: 34_000 })).map((a) => a.kind)).toEqual(["cached"]);
});

test("over OpenAI, thinking is priced at the effort's expected spend, not the budget table of budget-based APIs", async () => {
  const openai = { protocol: "openai" as const, model: "gpt-5" };
  expect((await summarize({ ...openai, reads: 8, effort: "minimal" })).map((a) => a.kind)).toEqual(["cached"]);
  expect((await summarize({ ...openai, reads: 16, effort: "low" })).map((a) => a.kind)).toEqual(["cached"]);
  expect((await summarize({ ...openai, reads: 20, effort: "medium" })).map((a) => a.kind)).toEqual(["cached"]);
});
