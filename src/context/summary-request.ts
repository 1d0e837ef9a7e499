// The summary request (SPEC §10): a stretch of the conversation, as a transcript within a share of
// the budget, sent to the provider with reasoning off and its own output budget, for a summary the
// agent can go on from. compaction.ts decides when; this file asks.
import { emptyUsage, textOf, type Usage } from "../kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider } from "../kernel/provider.ts";
import { summaryParts, type SummaryRange } from "./summary-range.ts";
import { summaryTranscript } from "./summary-transcript.ts";
import type { Summary } from "./passes.ts";

/** Output budget of a summary request: it must be short to be worth anything. */
const SUMMARY_MAX_TOKENS = 4096;
/** A summary request's transcript fills at most this share of the budget (its answer and prompt need the rest). */
const SUMMARY_INPUT_SHARE = 0.6;

const SUMMARY_SYSTEM =
  "You compress a coding agent's working history for the agent itself. Write a summary that lets it continue without the original: " +
  "keep file paths, line numbers, commands, decisions and why, errors and how they were fixed, test results, and what remains to do. " +
  "Be exact and terse; no preamble. An earlier summary in the history is part of it: carry over what still matters.";

/** A summary request that failed after it cost tokens (the model answered, with nothing). */
export class SummaryError extends Error {
  readonly usage: Usage;
  constructor(message: string, usage: Usage) {
    super(message);
    this.name = "SummaryError";
    this.usage = usage;
  }
}

/**
 * Summarizes `range` (its messages as the view shows them: an earlier summary in it is its text, so
 * each summary carries the last one forward instead of reading the whole history again) with the
 * provider (reasoning off, its own output budget), and records the summary; the caller emits its
 * `compaction` event (summaryEvent, which the session writer persists) once it has built the view
 * with it. The transcript (summary-transcript.ts) fills at most SUMMARY_INPUT_SHARE of the
 * budget: past that, the oldest messages of the new stretch are left out (every earlier summary in
 * it is kept whole, wherever it stands). Returns the summary with the tokens the request cost (they
 * count like any request's). Throws when the provider fails, or a SummaryError (with what it cost) when it
 * returns nothing.
 */
export async function compactRange(
  range: SummaryRange,
  deps: { state: { summaries: Summary[]; tokensPerChar: number }; provider: Provider; budgetTokens: number },
  signal: AbortSignal,
  instructions?: string,
): Promise<{ parts: Summary[]; usage: Usage }> {
  const maxChars = Math.ceil((SUMMARY_INPUT_SHARE * deps.budgetTokens) / deps.state.tokensPerChar);
  const transcript = summaryTranscript(range.messages, maxChars);
  const ask = `Summarize this part of the work${instructions ? ` (${instructions})` : ""}:\n\n${transcript}`;
  const request = (effort?: "off"): ModelRequest => ({
    system: SUMMARY_SYSTEM,
    messages: [{ id: "summary-request", role: "user", content: [{ type: "text", text: ask }] }],
    tools: [],
    ...(effort ? { effort } : {}),
    maxTokens: SUMMARY_MAX_TOKENS,
  });
  let reply: { text: string; usage: Usage | undefined };
  try {
    reply = await collect(deps.provider, request("off"), signal);
  } catch (e) {
    // models without reasoning reject any reasoning setting (gpt-4o: reasoning_effort): once more without it;
    // another refusal would only be paid for twice
    if (!(e instanceof ProviderError) || e.kind !== "bad_request" || !REASONING_REFUSAL.test(e.message)) throw e;
    reply = await collect(deps.provider, request(), signal);
  }
  const { text } = reply;
  const usage = reply.usage ?? emptyUsage();
  if (text === "") throw new SummaryError("the model returned an empty summary", usage);
  const parts = summaryParts(range, text);
  deps.state.summaries.push(...parts);
  return { parts, usage };
}

/** How a refusal names the reasoning setting: OpenAI's reasoning_effort / reasoning.effort, Anthropic's thinking. */
const REASONING_REFUSAL = /reasoning|effort|thinking/i;

async function collect(provider: Provider, request: ModelRequest, signal: AbortSignal): Promise<{ text: string; usage: Usage | undefined }> {
  for await (const event of provider.stream(request, signal)) if (event.type === "done") return { text: textOf(event.message).trim(), usage: event.usage };
  return { text: "", usage: undefined };
}
