// What one model request cost where its provider did not say it all (Usage.estimated): a stream
// without usage, or one cut or interrupted after it began, which is billed all the same. Every
// request is counted this way — the loop's turns (agent.ts) and summary requests
// (summary-request.ts) alike. The counts a provider sent before the break (StreamEvent `usage`:
// Anthropic's message_start, Gemini's usageMetadata) are taken as they came, the input with its
// cache reads and writes; only the rest is hey's estimate: the request as the context estimate
// counted it, and the answer's characters at the same ratio.
import { emptyUsage, type Usage } from "../kernel/ir.ts";
import { errorText } from "../kernel/errors.ts";
import { ProviderError, type StreamEvent } from "../kernel/provider.ts";
import { messageChars } from "./passes.ts";

/** One request as the estimate counts it: its input tokens, and the tokens per character its answer is counted at. */
export interface RequestEstimate {
  input: number;
  tokensPerChar: number;
}

/**
 * The usage of a request whose provider's counts are missing or partial (`reported`: what it sent
 * before the end, if anything), with `outChars` characters of answer received: the reported input
 * and cache counts stand; the output is the larger of what was reported and the answer's estimate.
 * Always marked estimated. Pure.
 */
export function estimatedUsage(reported: Usage | undefined, estimate: RequestEstimate, outChars: number): Usage {
  const output = Math.ceil(outChars * estimate.tokensPerChar);
  if (!reported || reported.estimated) return { ...emptyUsage(), input: estimate.input, output, estimated: true };
  return { ...reported, output: Math.max(reported.output, output), estimated: true };
}

/**
 * `events` passed on, counted: a `done` without counts gets estimatedUsage; a failure after the
 * answer began (any event but a notice, the provider's early counts included) or an empty answer
 * is thrown as a ProviderError whose `usage` says what it cost — aborts too, which callers still
 * tell by their signal. A failure before it began is thrown as it came: nothing was billed.
 */
export async function* costedStream(events: AsyncIterable<StreamEvent>, estimate: RequestEstimate): AsyncGenerator<StreamEvent> {
  let started = false;
  let chars = 0; // of the answer so far: what a cut stream is estimated by
  let reported: Usage | undefined;
  try {
    for await (const event of events) {
      started ||= event.type !== "notice"; // a notice is no part of an answer: the request may still be built again
      if (event.type === "text" || event.type === "thinking") chars += event.delta.length;
      if (event.type === "usage") reported = event.usage;
      yield event.type === "done" && event.usage.estimated ? { ...event, usage: estimatedUsage(reported, estimate, messageChars(event.message)) } : event;
    }
  } catch (e) {
    if (!started && !(e instanceof ProviderError && e.kind === "empty_answer")) throw e;
    const error = e instanceof ProviderError ? e : new ProviderError("network", errorText(e), { cause: e });
    if (!error.usage || error.usage.estimated) error.usage = estimatedUsage(reported, estimate, chars);
    throw error;
  }
}
