// One model request with its retries (SPEC §6): the stream read into the output as it comes, a
// failure retried as the policy (kernel/retry.ts) says, what a broken stream leaves kept. turns.ts
// makes every request of a run through it. Every dependency is passed in.
import { errorText } from "./errors.ts";
import { newId, unreportedUsage, type Message, type StopReason, type Usage } from "./ir.ts";
import type { Output } from "./output.ts";
import { ProviderError, type ModelRequest, type Provider } from "./provider.ts";
import { countStuckTries, retryDecision, type RetryPolicy, type StuckTries } from "./retry.ts";

/** What a request with retries needs of the loop's dependencies (LoopDeps has them all). */

/** A gateway's words for a stream it ended for taking too long (an error chunk, not a cut connection). */
const TIMED_OUT = /time[ds]?.?out|deadline exceeded|\b504\b/i;
export interface RetryDeps {
  provider: Provider;
  output: Output;
  signal: AbortSignal;
  retry: RetryPolicy;
  /** waits `ms` or rejects when `signal` aborts; and [0,1) randomness for jitter */
  clock: { sleep(ms: number, signal: AbortSignal): Promise<void>; random(): number };
}

/** A request's answer (its message, usage and stop), or the error it ended with and the text that came before it. */
export type Reply =
  | { error?: undefined; partial?: undefined; message: Message; usage: Usage; stop: StopReason; detail?: string; maxTokens?: number }
  | { error: ProviderError; partial?: Message };

/**
 * One model request with retries (SPEC §6). A failure before any word of the answer is retried like
 * the request, also after thinking alone (a reasoning model thinks before every call: a dropped
 * connection there was never retried), the thinking shown so far dropped; after answer text it is
 * not (no duplicated text): the partial text is returned to be kept, with a `stream_interrupted`
 * error. An answer of thinking alone that its provider calls empty (kind "empty_answer" after
 * thinking) and that is still so when the retries are spent is taken as the answer: its reasoning
 * as text (reasoningAnswer). Silent and answerless tries (ProviderError.silent, .answerless) are
 * counted in a row for the policy's SILENT_TRIES (countStuckTries), tries cut after thinking alone
 * for its THOUGHT_CUT_TRIES. What a failed try cost (an empty
 * answer is billed its input) goes to `spend` as the try fails, retried or not; a returned error's
 * usage is the caller's.
 */
export async function requestWithRetry(request: ModelRequest, deps: RetryDeps, spend: (u: Usage) => void): Promise<Reply> {
  let stuck: StuckTries = { silent: 0, answerless: 0 };
  const row = { thoughtCuts: 0, reasoned: 0 }; // tries in a row cut after thinking; tries answered with reasoning alone
  for (let attempt = 1; ; attempt++) {
    const partial = { text: "", thinking: "" };
    try {
      return await streamOnce(request, deps, partial);
    } catch (e) {
      const error = e instanceof ProviderError ? e : new ProviderError("network", errorText(e));
      const kept = partialMessage(partial);
      if (deps.signal.aborted) return { error, partial: kept };
      if (partial.text !== "") {
        const message = `the response broke off after partial output: ${error.message}`;
        return { error: new ProviderError("stream_interrupted", message, error.usage ? { usage: error.usage } : {}), partial: kept };
      }
      stuck = countStuckTries(stuck, error);
      const thought = partial.thinking.trim() !== "";
      // a cut connection, or a gateway's timeout of the long thinking (its error chunk): an overload, a rate limit or a failed stop keeps the normal budget
      const cut = error.kind === "network" || error.kind === "stream_interrupted" || (error.kind === "overloaded" && TIMED_OUT.test(error.message));
      row.thoughtCuts = thought && cut ? row.thoughtCuts + 1 : 0;
      if (thought && error.kind === "empty_answer") row.reasoned++;
      const next = retryOrGiveUp(error, attempt, stuck, deps, row.thoughtCuts);
      const reasoned = "error" in next ? reasoningAnswer(error, partial.thinking, { reasoned: row.reasoned, tries: attempt }, deps.output) : undefined;
      if (reasoned) return reasoned; // its usage is the reply's
      if (error.usage) spend(error.usage);
      error.usage = undefined; // counted once
      if ("error" in next) return next;
      try {
        await deps.clock.sleep(next.delayMs, deps.signal);
      } catch {
        return { error };
      }
    }
  }
}

/**
 * After try number `attempt` failed with `error` (`stuck`: the silent and answerless tries in a
 * row; `thoughtCutTries`: the ones cut after thinking alone): the wait before the next, said as a `retry` event; or the error to give up with, which
 * names the endpoint that failed and why no more tries are made.
 */
export function retryOrGiveUp(
  error: ProviderError,
  attempt: number,
  stuck: StuckTries,
  deps: RetryDeps,
  thoughtCutTries = 0,
): { delayMs: number } | { error: ProviderError } {
  const failure = {
    kind: error.kind,
    final: error.final,
    silentTries: stuck.silent,
    answerlessTries: stuck.answerless,
    thoughtCutTries,
    stalledMs: error.stalledMs,
  };
  const decision = retryDecision(
    error.retryAfterMs !== undefined ? { ...failure, retryAfterMs: error.retryAfterMs } : failure,
    attempt,
    deps.retry,
    deps.clock.random,
  );
  if (!decision.retry) {
    const said = error.endpoint ? `${error.endpoint}: ${error.message}` : error.message; // which of several endpoints failed
    // what a fallback is chosen by; what the run's end advises and keeps of the exchange (a prompt refused for its content)
    const kept = {
      ...(error.missingModel ? { missingModel: true } : {}),
      ...(decision.waitTooLong ? { waitTooLong: true } : {}),
      ...(error.refusedPrompt ? { refusedPrompt: true } : {}),
    };
    return { error: new ProviderError(error.kind, decision.why ? `${said} — ${decision.why}` : said, kept) };
  }
  const fewer = decision.retries !== undefined ? { retries: decision.retries } : {};
  deps.output.emit({ type: "retry", attempt, delay_ms: decision.delayMs, error: error.message, ...fewer });
  return { delayMs: decision.delayMs };
}

/**
 * What the user is told when an answer of thinking alone is taken as the answer after `tries` tries,
 * `reasoned` of them answered so (the others failed otherwise: a dropped connection, a 503).
 */
export const reasoningTaken = ({ reasoned, tries }: { reasoned: number; tries: number }) => {
  const which = tries === 1 ? "its only try" : reasoned === tries ? `all ${tries} tries` : `${reasoned} of ${tries} tries`;
  return `the model answered with only reasoning on ${which}: its reasoning is taken as the answer`;
};

/**
 * The answer of a request given up on as empty (`error`, kind "empty_answer") after `thinking` and
 * no text: that thinking as the answer's text, streamed and said (a notice), so the screen, stdout
 * and the session all hold what the model said instead of "empty" under its words. Undefined for
 * any other failure: a stream cut after thinking is no answer, and thinking before a tool call that
 * never came (ProviderError.lostCall) is its plan.
 */
function reasoningAnswer(error: ProviderError, thinking: string, tries: { reasoned: number; tries: number }, output: Output): Reply | undefined {
  const said = thinking.trim();
  if (error.kind !== "empty_answer" || error.lostCall || said === "") return undefined;
  output.emit({ type: "notice", message: reasoningTaken(tries) });
  output.emit({ type: "text_delta", text: said });
  const message: Message = { id: newId(), role: "assistant", content: [{ type: "text", text: said }] };
  return { message, usage: error.usage ?? unreportedUsage(), stop: "stop" };
}

/** Streams one response, forwarding deltas to the output and collecting them in `partial`. */
async function streamOnce(request: ModelRequest, deps: RetryDeps, partial: { text: string; thinking: string }): Promise<Reply> {
  for await (const event of deps.provider.stream(request, deps.signal)) {
    if (event.type === "text") {
      partial.text += event.delta;
      deps.output.emit({ type: "text_delta", text: event.delta });
    } else if (event.type === "thinking") {
      partial.thinking += event.delta;
      deps.output.emit({ type: "thinking_delta", text: event.delta });
    } else if (event.type === "notice") deps.output.emit(event);
    else if (event.type === "done") return event;
  }
  throw new ProviderError("network", "the model's stream ended without a final message");
}

/** What survives of a broken response: its visible text (thinking without a signature cannot be replayed); `empty`: a message even without any. */
export function partialMessage(partial: { text: string }, empty = false): Message | undefined {
  if (partial.text === "" && !empty) return undefined;
  return { id: newId(), role: "assistant", content: [{ type: "text", text: partial.text }] };
}
