// The context of each request (SPEC §10): the pure view of view.ts, the token estimate
// corrected by what the provider reports, and summary compaction through the provider with a
// deterministic fallback. The agent calls `prepare` before every model request.
import { emptyUsage, textOf, type Message, type Usage } from "../kernel/ir.ts";
import type { Output } from "../kernel/output.ts";
import { ProviderError, type ModelRequest, type Provider } from "../kernel/provider.ts";
import type { ToolSpec } from "../kernel/ir.ts";
import { SUMMARY_ID } from "./passes.ts";
import { buildContext, DEFAULT_TOKENS_PER_CHAR, nudgeLine, type ContextPolicy, type ContextView, type Summary } from "./view.ts";

/** Output budget of a summary request: it must be short to be worth anything. */
const SUMMARY_MAX_TOKENS = 4096;
/** Characters of one message shown to the summarizer; long tool output matters little there. */
const SUMMARY_MESSAGE_CHARS = 2000;
/** The correction factor moves at most this far per response, so one odd count cannot swing it. */
const MAX_CORRECTION_STEP = 2;
/**
 * Bounds of tokens per character across tokenizers and languages; a gateway that reports a
 * constant or made-up count must not talk the estimate down until the budget never applies.
 */
const TOKENS_PER_CHAR_RANGE = [0.1, 1] as const;
/** The summarizer sees at most this many budgets' worth of the stretch (its latest part). */
const SUMMARY_INPUT_BUDGETS = 2;

const SUMMARY_SYSTEM =
  "You compress a coding agent's working history for the agent itself. Write a summary that lets it continue without the original: " +
  "keep file paths, line numbers, commands, decisions and why, errors and how they were fixed, test results, and what remains to do. " +
  "Be exact and terse; no preamble.";

export interface CompactionState {
  /** compactions in this session, oldest first (also in the session file) */
  summaries: Summary[];
  /** tokens per character of our estimate, corrected by the provider's reported input tokens */
  tokensPerChar: number;
  /** the last view sent, for /usage and the correction */
  last: ContextView | undefined;
}

export function newCompactionState(summaries: Summary[] = []): CompactionState {
  return { summaries: [...summaries], tokensPerChar: DEFAULT_TOKENS_PER_CHAR, last: undefined };
}

export interface PrepareDeps {
  state: CompactionState;
  policy: ContextPolicy;
  nudgeThreshold: number;
  provider: Provider;
  output: Output;
  tools: ToolSpec[];
  /** the system prompt without the context line */
  system: string;
  /** `.hey/task.md` as it is now (context/task-note.ts), or undefined when there is none */
  taskNote(): string | undefined;
}

/**
 * The system prompt and messages for the next request. When the budget forces dropping history,
 * the droppable stretch is summarized by the provider first; if that fails the deterministic
 * trim stands and the turn goes on. `.hey/task.md` is re-injected after any compaction.
 */
export async function prepare(
  history: readonly Message[],
  deps: PrepareDeps,
  signal: AbortSignal,
): Promise<{ system: string; messages: readonly Message[]; /** what a summary request spent, when one was made */ usage?: Usage }> {
  const { state, policy } = deps;
  const fixedChars = deps.system.length + JSON.stringify(deps.tools).length;
  const taskNote = deps.taskNote();
  const once = (handles: boolean) =>
    buildContext({
      history,
      summaries: state.summaries,
      policy: { ...policy, compressTool: handles },
      fixedTokens: Math.ceil(fixedChars * state.tokensPerChar),
      tokensPerChar: state.tokensPerChar,
      ...(taskNote ? { taskNote } : {}),
    });
  // Handles for the compress tool cost ~3 tokens per result and change every earlier result (a
  // prompt-cache miss), so they appear only once the context is past the nudge threshold.
  const build = () => {
    const plain = once(false);
    return policy.compressTool && plain.estimate > deps.nudgeThreshold * policy.budgetTokens ? once(true) : plain;
  };
  let view = build();
  let usage: Usage | undefined;
  if ((view.stats.trimmed > 0 || view.overBudget) && view.summarizable) {
    try {
      usage = (await compactRange(history, view.summarizable, { ...deps, budgetTokens: policy.budgetTokens }, signal)).usage;
      view = build();
    } catch (e) {
      if (signal.aborted) throw e;
      usage = (e as { usage?: Usage }).usage;
      deps.output.emit({ type: "compaction", kind: "trim", ...trimmedTokens(view), error: `summary failed, older messages dropped instead: ${(e as Error).message}` });
    }
  } else if (view.stats.trimmed > 0 && view.stats.trimmed !== state.last?.stats.trimmed) {
    // said when what is left out changes (it does in steps), not again on every request
    deps.output.emit({ type: "compaction", kind: "trim", ...trimmedTokens(view) });
  }
  state.last = view;
  const line = nudgeLine(view.estimate, policy.budgetTokens, policy.compressTool ? deps.nudgeThreshold : Number.POSITIVE_INFINITY);
  return { system: line ? `${deps.system}\n${line}` : deps.system, messages: view.messages, ...(usage ? { usage } : {}) };
}

/** A trim event's tokens: the view's estimate before and after the trim. */
const trimmedTokens = (view: ContextView) => ({ tokens_before: view.untrimmedEstimate, tokens_after: view.estimate });

/**
 * Summarizes `range` of `history` with the provider (reasoning off, its own output budget) and
 * records the summary; emits a `compaction` event the session writer persists. Returns it with
 * the tokens the summary request cost (they count like any request's). Throws when the provider
 * fails or returns nothing (an empty summary: with the `usage` it cost on the error).
 */
export async function compactRange(
  history: readonly Message[],
  range: { fromId: string; toId: string },
  deps: Pick<PrepareDeps, "state" | "provider" | "output"> & { budgetTokens: number },
  signal: AbortSignal,
  instructions?: string,
): Promise<{ summary: Summary; usage: Usage }> {
  const from = history.findIndex((m) => m.id === range.fromId);
  const to = history.findIndex((m) => m.id === range.toId);
  if (from < 0 || to < from) throw new Error("the range to summarize is not in the history");
  // the latest part of a very long stretch (a resumed session far over budget): the summarizer's
  // own context is bounded, and older work there is usually covered by an earlier summary
  const maxChars = Math.ceil((SUMMARY_INPUT_BUDGETS * deps.budgetTokens) / deps.state.tokensPerChar);
  const parts = history.slice(from, to + 1).map(describe);
  // an earlier summary at the start (a resumed session's) is kept whole: it is all that is left of older work
  const kept = history[from]!.id.startsWith(SUMMARY_ID) ? `${parts.shift()!}\n\n` : "";
  let transcript = parts.join("\n\n");
  if (kept.length + transcript.length > maxChars) transcript = `[earlier part of this stretch left out]\n\n${transcript.slice(transcript.length - Math.max(0, maxChars - kept.length))}`;
  transcript = kept + transcript;
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
    // models without reasoning reject any reasoning setting (gpt-4o: reasoning_effort): once more without it
    if (!(e instanceof ProviderError) || e.kind !== "bad_request") throw e;
    reply = await collect(deps.provider, request(), signal);
  }
  const { text } = reply;
  const usage = reply.usage ?? emptyUsage();
  if (text === "") throw Object.assign(new Error("the model returned an empty summary"), { usage });
  const summary: Summary = { ...range, text };
  deps.state.summaries.push(summary);
  const before = Math.ceil(transcript.length * deps.state.tokensPerChar);
  deps.output.emit({ type: "compaction", kind: "summary", from_id: range.fromId, to_id: range.toId, summary: text, tokens_before: before, tokens_after: reply.usage?.output ?? Math.ceil(text.length / 4) });
  return { summary, usage };
}

async function collect(provider: Provider, request: ModelRequest, signal: AbortSignal): Promise<{ text: string; usage: Usage | undefined }> {
  for await (const event of provider.stream(request, signal)) if (event.type === "done") return { text: textOf(event.message).trim(), usage: event.usage };
  return { text: "", usage: undefined };
}

/**
 * Corrects the estimate with the provider's count for the request just sent: the ratio of
 * reported to estimated input tokens, limited per step.
 */
export function correctEstimate(state: CompactionState, reportedInput: number): void {
  const estimated = state.last?.estimate;
  if (!estimated || reportedInput <= 0) return;
  const ratio = Math.min(MAX_CORRECTION_STEP, Math.max(1 / MAX_CORRECTION_STEP, reportedInput / estimated));
  const [low, high] = TOKENS_PER_CHAR_RANGE;
  state.tokensPerChar = Math.min(high, Math.max(low, state.tokensPerChar * ratio));
}

function describe(m: Message): string {
  const cut = (s: string) => (s.length > SUMMARY_MESSAGE_CHARS ? `${s.slice(0, SUMMARY_MESSAGE_CHARS)} …(${s.length - SUMMARY_MESSAGE_CHARS} more characters)` : s);
  if (m.role === "tool") return `[${m.toolName ?? "tool"} result${m.isError ? ", failed" : ""}] ${cut(textOf(m))}`;
  const calls = (m.toolCalls ?? []).map((c) => `[calls ${c.name} ${cut(c.arguments)}]`).join("\n");
  return `[${m.role}] ${cut(textOf(m))}${calls ? `\n${calls}` : ""}`;
}
