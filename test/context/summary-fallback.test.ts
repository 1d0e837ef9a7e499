// When the summary asked after the cached conversation (context/summary-cached.ts) is no summary —
// refused by the server, no text (thinking used the whole output limit), words cut by the limit or a
// refusal — the transcript is asked instead, and every request paid is counted, an interrupted one too.
import { expect, test } from "bun:test";
import { compactRange, summaryCost } from "../../src/context/summary-request.ts";
import type { Effort, Message, StopReason } from "../../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { isCachedSummary } from "../helpers/summary-requests.ts";

const usage = (input: number) => ({ input, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 });

type Answer = { text: string; stop: StopReason } | ProviderError | "abort";

/** A last request of six 2 KB reads at `effort`; the provider answers the cached summary with `cached` and the transcript with `transcript`. */
function setup(cached: Answer, opts: { effort?: Effort; transcript?: Answer; protocol?: "anthropic" | "openai" } = {}) {
  const controller = new AbortController();
  const asked: string[] = [];
  const answer = async function* (a: Answer, input: number): AsyncGenerator<StreamEvent> {
    if (a === "abort") {
      controller.abort();
      throw new DOMException("The operation was aborted.", "AbortError");
    }
    if (a instanceof ProviderError) throw a;
    yield { type: "done", message: { id: "s", role: "assistant", content: a.text ? [{ type: "text", text: a.text }] : [] }, usage: usage(input), stop: a.stop };
  };
  const p: Provider = {
    protocol: opts.protocol ?? "anthropic",
    model: "m",
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      const kind = isCachedSummary(request) ? `cached(effort=${request.effort ?? "-"},max=${request.maxTokens})` : "transcript";
      asked.push(kind);
      yield* kind === "transcript" ? answer(opts.transcript ?? { text: "TRANSCRIPT SUMMARY", stop: "stop" }, 5_000) : answer(cached, 9_999);
    },
  };
  const messages: Message[] = [{ id: "u1", role: "user", content: [{ type: "text", text: "go" }] }];
  for (let i = 1; i <= 6; i++)
    messages.push(
      { id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"f${i}.ts"}` }] },
      { id: `r${i}`, role: "tool", toolCallId: `c${i}`, content: [{ type: "text", text: "x".repeat(2_000) }] },
    );
  const request: ModelRequest = { system: "s", messages, tools: [], ...(opts.effort ? { effort: opts.effort } : {}) };
  const state = { summaries: [], tokensPerChar: 0.25, answered: { request, by: p, at: 0 } };
  const range = { fromId: "a1", toId: "r5", messages: messages.slice(1, 11) };
  const run = () => compactRange(range, { state, provider: p, budgetTokens: 40_000, now: () => 1 }, controller.signal);
  return { asked, run };
}

test("a cached summary request the server refuses (Mistral's 400 on a user turn after tool results) falls back to the transcript", async () => {
  const refused = new ProviderError("bad_request", "Unexpected role 'user' after role 'tool'", { status: 400 });
  const s = setup(refused);
  const done = await s.run();
  expect(s.asked).toEqual(["cached(effort=-,max=4096)", "transcript"]);
  expect(done.parts[0]!.text).toContain("TRANSCRIPT SUMMARY");
});

test("a cached answer of thinking only, no text, falls back to the transcript asked with reasoning off; both are counted", async () => {
  const s = setup({ text: "", stop: "length" }, { protocol: "openai" }); // a reasoning model thinking at the server's default
  const done = await s.run();
  expect(s.asked).toEqual(["cached(effort=-,max=4096)", "transcript"]);
  expect(done.parts[0]!.text).toContain("TRANSCRIPT SUMMARY");
  expect(done.usage.input).toBe(9_999 + 5_000);
});

test.each(["length", "refusal"] as const)("a cached summary whose words stopped at %s is not taken: the transcript is asked", async (stop) => {
  const s = setup({ text: "Files read: f1.ts (parser), f2.ts, and the user asked never to", stop });
  const done = await s.run();
  expect(s.asked.at(-1)).toBe("transcript");
  expect(done.parts[0]!.text).not.toContain("asked never to");
});

test("a transcript summary cut by its output limit fails, with its cost, instead of replacing the range with half of it", async () => {
  const s = setup({ text: "", stop: "stop" }, { transcript: { text: "Files read: f1.ts, and the user asked never to", stop: "length" } });
  const failed = await s.run().catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(ProviderError);
  expect(String((failed as Error).message)).toContain("cut by its output limit");
  expect(summaryCost(failed)?.input).toBe(9_999 + 5_000);
});

test("Ctrl-C before the transcript request: the cached request's usage is still counted", async () => {
  const s = setup({ text: "", stop: "stop" }, { transcript: "abort" });
  const failed = await s.run().catch((e: unknown) => e);
  expect((failed as Error).name).toBe("AbortError"); // still an abort to whoever tells one
  expect(summaryCost(failed)?.input).toBe(9_999);
});

test("at high effort the thinking the cached request may add is counted: a short range goes as the transcript", async () => {
  const off = setup({ text: "CACHED SUMMARY", stop: "stop" });
  await off.run();
  expect(off.asked).toEqual(["cached(effort=-,max=4096)"]); // five 2 KB results: the cache serves them for less
  const high = setup({ text: "CACHED SUMMARY", stop: "stop" }, { effort: "high" });
  await high.run();
  expect(high.asked).toEqual(["transcript"]); // up to 4,096 thinking tokens at the output price outweigh the ~3k the transcript costs
});
