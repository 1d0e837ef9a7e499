// The summary request (SPEC §10): a stretch of the conversation, as a transcript within a share of
// the budget, sent to the provider with reasoning off and its own output budget, for a summary the
// agent can go on from. compaction.ts decides when; this file asks.
import { textOf, type Usage } from "../kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider } from "../kernel/provider.ts";
import { costedStream, type RequestEstimate } from "./request-cost.ts";
import { summaryParts, type SummaryRange } from "./summary-range.ts";
import { summaryTranscript } from "./summary-transcript.ts";
import type { Summary } from "./passes.ts";

/** Output budget of a summary request: it must be short to be worth anything. */
const SUMMARY_MAX_TOKENS = 4096;
/** A summary request's transcript fills at most this share of the budget (its answer and prompt need the rest). */
const SUMMARY_INPUT_SHARE = 0.6;

const SUMMARY_SYSTEM =
  "You compress a coding agent's working history for the agent itself. Write a summary that lets it continue without the original: " +
  "keep every request and constraint of the user's (what to do and what never to do, in their words), file paths, line numbers, commands, " +
  "decisions and why, errors and how they were fixed, test results, and what remains to do. " +
  "Be exact and terse; no preamble. An earlier summary in the history is part of it: carry over what still matters.";

/**
 * Summarizes `range` (its messages as the view shows them: an earlier summary in it is its text, so
 * each summary carries the last one forward instead of reading the whole history again) with the
 * provider (reasoning off, its own output budget), and records the summary; the caller emits its
 * `compaction` event (summaryEvent, which the session writer persists) once it has built the view
 * with it. The transcript (summary-transcript.ts) fills at most SUMMARY_INPUT_SHARE of the
 * budget: past that, the oldest messages of the new stretch are left out (every earlier summary in
 * it is kept whole, wherever it stands). Returns the summary with the tokens the request cost (they
 * count like any request's, estimated where the provider did not report them: request-cost.ts).
 * Throws a ProviderError when the provider fails, or "empty_answer" when it returns nothing; its
 * `usage` says what the request cost when it was billed (it began, or came back empty), an
 * interrupted one too: summaryCost.
 */
export async function compactRange(
  range: SummaryRange,
  deps: { state: { summaries: Summary[]; tokensPerChar: number; summaryFailed?: boolean }; provider: Provider; budgetTokens: number },
  signal: AbortSignal,
  instructions?: string,
): Promise<{ parts: Summary[]; usage: Usage }> {
  // after a failed one, half: each failed request is billed, and the stretch it would cover only grows
  const maxChars = Math.ceil((SUMMARY_INPUT_SHARE * deps.budgetTokens) / deps.state.tokensPerChar / (deps.state.summaryFailed ? 2 : 1));
  const transcript = summaryTranscript(range.messages, maxChars);
  const ask = `Summarize this part of the work${instructions ? ` (${instructions})` : ""}:\n\n${transcript}`;
  const request = (effort?: "off"): ModelRequest => ({
    system: SUMMARY_SYSTEM,
    messages: [{ id: "summary-request", role: "user", content: [{ type: "text", text: ask }] }],
    tools: [],
    ...(effort ? { effort } : {}),
    maxTokens: SUMMARY_MAX_TOKENS,
  });
  const estimate = { input: Math.ceil((SUMMARY_SYSTEM.length + ask.length) * deps.state.tokensPerChar), tokensPerChar: deps.state.tokensPerChar };
  let reply: { text: string; usage: Usage };
  try {
    reply = await collect(deps.provider, request("off"), estimate, signal);
  } catch (e) {
    // models without reasoning reject any reasoning setting (gpt-4o: reasoning_effort): once more without it;
    // another refusal would only be paid for twice
    if (!(e instanceof ProviderError) || e.kind !== "bad_request" || !REASONING_REFUSAL.test(e.message)) throw e;
    reply = await collect(deps.provider, request(), estimate, signal);
  }
  const { text, usage } = reply;
  if (text === "") throw new ProviderError("empty_answer", "the model returned an empty summary", { usage });
  const parts = summaryParts(range, text);
  deps.state.summaries.push(...parts);
  return { parts, usage };
}

/** How a refusal names the reasoning setting: OpenAI's reasoning_effort / reasoning.effort, Anthropic's thinking. */
const REASONING_REFUSAL = /reasoning|effort|thinking/i;

/** What a failed summary request cost, when it was billed (compactRange's errors carry it): to be counted like any request's. */
export function summaryCost(e: unknown): Usage | undefined {
  return e instanceof ProviderError ? e.usage : undefined;
}

async function collect(provider: Provider, request: ModelRequest, estimate: RequestEstimate, signal: AbortSignal): Promise<{ text: string; usage: Usage }> {
  for await (const event of costedStream(provider.stream(request, signal), estimate))
    if (event.type === "done") return { text: textOf(event.message).trim(), usage: event.usage };
  throw new ProviderError("network", "the model's stream ended without a final message"); // as the loop says it (kernel/turns.ts)
}
