// The agent loop (SPEC §6). It reads like its pseudocode:
//   loop: completion = provider.stream(context(messages)); append it; stop if no tool calls;
//         run the tool calls; append their results in call order.
// Every dependency is passed in; the loop prints nothing and persists nothing (Outputs do).
import { retryDecision, type RetryPolicy } from "./retry.ts";
import { adaptHistory } from "./adapt-history.ts";
import { addUsage, emptyUsage, newId, textOf, userMessage, type Effort, type Message, type StopReason, type Usage } from "./ir.ts";
import { usageCounts, type Output, type RunStop } from "./output.ts";
import { ProviderError, type ModelRequest, type Provider } from "./provider.ts";
import { abortReason, type Tool } from "./tool.ts";
import { runToolCalls, withUniqueCallIds, type PermissionCheck } from "./tool-calls.ts";
import { errorText } from "./errors.ts";

export interface LoopDeps {
  provider: Provider;
  output: Output;
  /**
   * The system prompt, the messages and the tools of the next request, built fresh each time from
   * the full history (pruning, compaction and the context-usage line live there; tools of MCP
   * servers that connected meanwhile join). Throws only on abort.
   */
  context(history: Message[], signal: AbortSignal): Promise<RequestContext>;
  signal: AbortSignal;
  cwd: string;
  /** where a tool call's `path` points (ToolRunDeps.pathOf) */
  pathOf?(path: string): string;
  /** maxRunTokens: input + output tokens of the run's model responses after which it hands off; undefined = no cap */
  limits: { maxTurns: number; parallelTools: boolean; maxRunTokens?: number };
  retry: RetryPolicy;
  permission: PermissionCheck;
  /** sent with every request; undefined = the provider's configured default */
  effort: Effort | undefined;
  /** waits `ms` or rejects when `signal` aborts; and [0,1) randomness for jitter — injected for tests */
  clock: { sleep(ms: number, signal: AbortSignal): Promise<void>; random(): number };
}

/** What one request is built from; its tools are also the ones its calls run against. */
export interface RequestContext {
  system: string;
  messages: readonly Message[];
  tools: Tool[];
  /** ModelRequest.note: the context use, sent after the last message */
  note?: string;
  /** what building it cost (a summary request): part of the run's tokens, for its cap and its total */
  usage?: Usage;
}

export interface RunResult {
  stop: RunStop;
  turns: number;
  usage: Usage;
}

const HAND_OFF_PARTS =
  "no tools are available now. Reply with a short hand-off in exactly two parts:\n" +
  "Done so far: what is finished (files, decisions, test results).\nRemaining: the concrete next steps.";
/** Asked, without tools, when the turn limit is reached; the answer goes to .hey/task.md. */
export const MAX_TURNS_PROMPT = `You have reached the turn limit for this run; ${HAND_OFF_PARTS}`;
/** Asked, without tools, when the run's token limit is passed; the answer goes to .hey/task.md. */
export const MAX_RUN_TOKENS_PROMPT = `You have used up the token budget for this run; ${HAND_OFF_PARTS}`;
/** Asked once more when the hand-off came back without text (a model that called tools anyway, ignoring tool_choice "none"). */
export const PLAIN_HAND_OFF_PROMPT = `Tool calls cannot run any more and are ignored. Answer in plain text only; ${HAND_OFF_PARTS}`;
/** The `error` event of a run whose first reply was empty (no tool calls, no text: nothing, or only thinking). */
export const EMPTY_ANSWER = "the model's answer was empty";

/**
 * Runs the conversation in `messages` (appended to in place, each addition also emitted as a
 * `message` event for the session writer) until the model stops calling
 * tools, the turn or token limit is reached, the user aborts or a provider error cannot be recovered.
 * Never throws for provider or tool failures: they end as `error` events and a `done` event.
 */
export async function runLoop(messages: Message[], deps: LoopDeps): Promise<RunResult> {
  const { output } = deps;
  let turns = 0;
  let usage = emptyUsage();
  const append = (...added: Message[]) => {
    for (const m of added) {
      messages.push(m);
      output.emit({ type: "message", message: m });
    }
  };
  const finish = (stop: RunStop): RunResult => {
    output.emit({ type: "done", stop_reason: stop, turns, usage: usageCounts(usage) });
    return { stop, turns, usage };
  };

  let handOff: "max_turns" | "max_run_tokens" | undefined;
  let askedPlainly = false;
  for (;;) {
    // one extra request, without tools
    if (!handOff) {
      const spent = deps.limits.maxRunTokens !== undefined && usage.input + usage.output > deps.limits.maxRunTokens;
      handOff = turns >= deps.limits.maxTurns ? "max_turns" : spent ? "max_run_tokens" : undefined;
      if (handOff) append(userMessage(handOff === "max_turns" ? MAX_TURNS_PROMPT : MAX_RUN_TOKENS_PROMPT));
    }
    turns++;
    output.emit({ type: "turn_start", turn: turns });
    let context;
    try {
      context = await deps.context(messages, deps.signal);
    } catch (e) {
      if (deps.signal.aborted) return interrupted();
      throw e;
    }
    if (context.usage) usage = addUsage(usage, context.usage);
    const request: ModelRequest = {
      system: context.system,
      messages: adaptHistory(context.messages, deps.provider),
      tools: context.tools,
      // the hand-off must be text, but the tools stay described: some APIs reject a history with
      // tool calls when no tools are defined
      ...(handOff ? { toolChoice: "none" as const } : {}),
      ...(context.note ? { note: context.note } : {}),
      ...(deps.effort !== undefined ? { effort: deps.effort } : {}),
    };
    const reply = await requestWithRetry(request, deps);
    if (reply.partial) append(reply.partial);
    if (reply.error) {
      if (deps.signal.aborted) return interrupted();
      output.emit({ type: "error", kind: reply.error.kind, message: reply.error.message });
      return finish(handOff ?? "error"); // past the limit the run still ends there (the caller writes a hand-off of its own)
    }
    const answered = textOf(reply.message).trim() !== "";
    // a model that calls tools anyway in the hand-off: those calls will never run; with no text
    // besides, it is asked once more, plainly (the empty reply is not kept)
    if (handOff) delete reply.message.toolCalls;
    const message = withUniqueCallIds(reply.message, messages); // two calls with one id keep both results
    if (!handOff || answered) append(message);
    usage = addUsage(usage, reply.usage);
    output.emit({ type: "usage", ...usageCounts(reply.usage) });
    if (handOff && !answered && !askedPlainly) {
      askedPlainly = true;
      append(userMessage(PLAIN_HAND_OFF_PROMPT));
      continue;
    }
    if (handOff) return finish(handOff);
    const calls = message.toolCalls ?? [];
    // nothing at all for the request: a failure (exit 1), not a silent success; an answer without
    // text after the model worked with tools ends the run normally (its work is the result)
    if (calls.length === 0 && reply.stop !== "length" && !answered && turns === 1) {
      output.emit({ type: "error", kind: "empty_answer", message: EMPTY_ANSWER });
      return finish("error");
    }
    if (calls.length === 0) return finish(reply.stop === "length" ? "length" : "end");
    const results = await runToolCalls(calls, { ...deps, tools: context.tools, parallel: deps.limits.parallelTools });
    append(...results);
    if (deps.signal.aborted) return interrupted();
  }

  function interrupted(): RunResult {
    output.emit({ type: "error", kind: "interrupted", message: abortReason(deps.signal) });
    return finish("interrupted");
  }
}

type Reply =
  | { error?: undefined; partial?: undefined; message: Message; usage: Usage; stop: StopReason }
  | { error: ProviderError; partial?: Message };

/**
 * One model request with retries (SPEC §6). A failure before any delta is retried like the
 * request; after partial output it is not (no duplicated text): the partial text is returned
 * to be kept, with a `stream_interrupted` error.
 */
async function requestWithRetry(request: ModelRequest, deps: LoopDeps): Promise<Reply> {
  for (let attempt = 1; ; attempt++) {
    const partial = { text: "", thinking: "" };
    try {
      return await streamOnce(request, deps, partial);
    } catch (e) {
      const error = e instanceof ProviderError ? e : new ProviderError("network", errorText(e));
      const kept = partialMessage(partial);
      if (deps.signal.aborted) return { error, partial: kept };
      if (partial.text !== "" || partial.thinking !== "")
        return { error: new ProviderError("stream_interrupted", `the response broke off after partial output: ${error.message}`), partial: kept };
      const decision = retryDecision(error, attempt, deps.retry, deps.clock.random);
      if (!decision.retry) {
        const hint = error.kind === "quota_exhausted" ? " (switch models with /model or -m)" : "";
        return { error: decision.why ? new ProviderError(error.kind, `${error.message} — ${decision.why}`) : new ProviderError(error.kind, error.message + hint) };
      }
      deps.output.emit({ type: "retry", attempt, delay_ms: decision.delayMs, error: error.message });
      try {
        await deps.clock.sleep(decision.delayMs, deps.signal);
      } catch {
        return { error };
      }
    }
  }
}

/** Streams one response, forwarding deltas to the output and collecting them in `partial`. */
async function streamOnce(request: ModelRequest, deps: LoopDeps, partial: { text: string; thinking: string }): Promise<Reply> {
  for await (const event of deps.provider.stream(request, deps.signal)) {
    if (event.type === "text") {
      partial.text += event.delta;
      deps.output.emit({ type: "text_delta", text: event.delta });
    } else if (event.type === "thinking") {
      partial.thinking += event.delta;
      deps.output.emit({ type: "thinking_delta", text: event.delta });
    } else if (event.type === "done") return event;
  }
  throw new ProviderError("network", "the model's stream ended without a final message");
}

/** What survives of a broken response: its visible text (thinking without a signature cannot be replayed). */
function partialMessage(partial: { text: string }): Message | undefined {
  if (partial.text === "") return undefined;
  return { id: newId(), role: "assistant", content: [{ type: "text", text: partial.text }] };
}
