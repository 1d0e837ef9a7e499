// The context of each request (SPEC §10, issue 23): the pure view of view.ts, built so requests
// repeat each other's prefix for the providers' prompt caches (cache.ts decides when rewrites of
// earlier messages may happen), the token estimate corrected by what the provider reports, the
// model's window (window.ts), and summary compaction through the provider with a deterministic
// fallback. The agent calls `prepare` before every model request.
import type { Message, ToolSpec, Usage } from "../kernel/ir.ts";
import type { Output } from "../kernel/output.ts";
import { cacheLifetime, cachePrices, rewritePays, sharedPrefix, unchangedThrough, fullAt } from "./cache.ts";
import type { Hold } from "./budget.ts";
import { heldText, holdNote, type HeldNote } from "./held-note.ts";
import { FEWEST_TOKENS_PER_CHAR, type Provider } from "../kernel/provider.ts";
import { estimateTokens, willBeCut } from "./passes.ts";
import { compactRange, summaryCost } from "./summary-request.ts";
import type { AnsweredRequest } from "./summary-cached.ts";
import { summaryWorth } from "./summary-worth.ts";
import { pdfsOverBudget } from "./pdf-budget.ts";
import { buildContext, contextNote, type BuiltView, DEFAULT_TOKENS_PER_CHAR, type ContextPolicy, type ContextView, type Summary } from "./view.ts";
import { effectiveBudget, fixedText, hardTokens, latestOverWindow, roomyBudget, toolsText } from "./window.ts";
import { cutNotices, seenIn, type Seen } from "./cut-notice.ts";
import { errorText } from "../kernel/errors.ts";
import { summaryEvent, tokensBefore, trimmedTokens } from "./compaction-events.ts";

export { compactRange, summaryCost } from "./summary-request.ts";

/** The correction factor moves at most this far per response, so one odd count cannot swing it. */
const MAX_CORRECTION_STEP = 2;
/**
 * Bounds of tokens per character across tokenizers and languages; a gateway that reports a
 * constant or made-up count must not talk the estimate down until the budget never applies.
 */
const TOKENS_PER_CHAR_RANGE = [FEWEST_TOKENS_PER_CHAR, 1] as const;
export interface CompactionState {
  /** compactions in this session, oldest first (also in the session file) */
  summaries: Summary[];
  /** tokens per character of our estimate, corrected by the provider's reported input tokens */
  tokensPerChar: number;
  /** the last view sent, for /usage and the correction */
  last: ContextView | undefined;
  /** the model's window (prompt tokens), learned from a context-length error or stated by the endpoint; kept for the session */
  window: number | undefined;
  /** where `window` came from, for `/usage` ("a context-length error", "the endpoint's model list (GET /models)") */
  windowFrom?: string;
  /** a limit on one request (ContextOverflow.ceiling) the resumed session learned: not applied, as a raised tier lifts it; a refusal teaches it again */
  limitBefore?: { window: number; limit: string };
  /**
   * ContextInput.rewriteUpTo of the requests now: dedup and error purge see the history as it was
   * then, and the compress calls made since wait. Moved on when the prompt cache is broken anyway, or when the rewrites pay for themselves;
   * undefined before the first request (resume included)
   */
  rewriteUpTo: number | undefined;
  /**
   * the previous request: the first `count` messages of `messages`, the system prompt and tools, when; `note`: the
   * `.hey/task.md` text it took anew ("" for none), which its usage line records for `hey -c`'s replay (held-note.ts)
   */
  sent: { messages: readonly Message[]; count: number; fixed: string; at: number; note?: string } | undefined;
  /** what the model has seen (the last request it answered: `answered`) and the cut notices said since */
  seen: Seen;
  /** what the previous request left out and cut (ContextView.hold): the next one leaves out and cuts the same first */
  hold: Hold | undefined;
  /** the task note the requests send after a compaction, taken where the prefix is rebuilt anyway (held-note.ts); undefined before the first request */
  note?: HeldNote;
  /** the last summary request failed: older messages are left out instead, and the model is nudged to compress */
  summaryFailed?: boolean;
  /** the last request the model answered, as sent (with `sent.at`): a summary is asked after it, from the provider's cache */
  answered?: AnsweredRequest;
}

/** One model's prompt-cache state: its last request, what that deferred and held, the last request it answered (agent.ts keeps one per model). */
export type ModelCache = Pick<CompactionState, "sent" | "rewriteUpTo" | "hold" | "answered" | "note">;
export const cacheOf = ({ sent, rewriteUpTo, hold, answered, note }: CompactionState): ModelCache => ({ sent, rewriteUpTo, hold, answered, note });
/** a model not used yet: its cache is cold, so its first request rewrites what was deferred, for free */
export const COLD_CACHE: ModelCache = { sent: undefined, rewriteUpTo: undefined, hold: undefined, answered: undefined, note: undefined };

/** `tokensPerChar`: a resumed session's corrected ratio (kept within TOKENS_PER_CHAR_RANGE); default DEFAULT_TOKENS_PER_CHAR. */
export function newCompactionState(summaries: Summary[] = [], tokensPerChar = DEFAULT_TOKENS_PER_CHAR): CompactionState {
  const [low, high] = TOKENS_PER_CHAR_RANGE;
  const ratio = Number.isFinite(tokensPerChar) ? Math.min(high, Math.max(low, tokensPerChar)) : DEFAULT_TOKENS_PER_CHAR;
  return {
    summaries: [...summaries],
    tokensPerChar: ratio,
    last: undefined,
    window: undefined,
    rewriteUpTo: undefined,
    sent: undefined,
    seen: seenIn(),
    hold: undefined,
  };
}

/** The model answered the request `prepare` built last (`request`, sent to `by`): it has seen what that request held (cut notices). */
export function answered(state: CompactionState, sent?: Omit<AnsweredRequest, "at">): void {
  state.seen = seenIn(state.sent?.messages);
  // a copy: a request's messages may be the history array itself, which grows after it
  state.answered = sent && state.sent ? { by: sent.by, request: { ...sent.request, messages: sent.request.messages.slice() }, at: state.sent.at } : undefined;
}

export interface PrepareDeps {
  state: CompactionState;
  policy: ContextPolicy;
  provider: Provider;
  output: Output;
  tools: ToolSpec[];
  /** the system prompt; `sent`: the messages of the request it goes with, once chosen (a skills list may catch up then: prompt/source.ts) */
  system(sent?: readonly Message[]): string;
  /** `.hey/task.md` as it is now when it is `history`'s (context/task-note.ts sessionNote), or undefined */
  taskNote(history: readonly Message[]): string | undefined;
  /** milliseconds since the epoch: a prefix older than the provider's cache lifetime (cache.ts cacheLifetime) is gone anyway */
  now(): number;
}

/** What the next request is built from. */
export interface Prepared {
  system: string;
  messages: readonly Message[];
  /** the context use (and the compress nudge) for ModelRequest.note */
  note?: string;
  /** ModelRequest.onceTail: the request's tail goes this once (a first prompt cut in every request after, a view over the budget) */
  onceTail?: true;
  /** ModelRequest.unchangedThrough: the last message as the previous request to this model sent it, where its cached prefix ends */
  unchangedThrough?: string;
  /** what a summary request spent, when one was made */
  usage?: Usage;
}

/** The budget and the view builder of one request, from the deps and the state. */
export function contextOf(history: readonly Message[], deps: PrepareDeps) {
  const { state, policy } = deps;
  const window = minDefined(state.window, policy.window);
  const configured = effectiveBudget(policy.budgetTokens, window);
  const hard = hardTokens(window);
  const fixed = fixedText({ system: deps.system(), tools: deps.tools });
  const fixedTokens = Math.ceil(fixed.length * state.tokensPerChar);
  const budgetTokens = roomyBudget(configured, fixedTokens, window);
  // the system prompt and tools leave the messages less than their floor of the budget: a trim says so, with the numbers
  const crowded =
    budgetTokens > configured
      ? { budget_tokens: configured, fixed_tokens: fixedTokens, tool_tokens: Math.ceil(toolsText(deps.tools).length * state.tokensPerChar) }
      : {};
  const file = deps.taskNote(history);
  const held = heldText(state.note, file);
  const built: BuiltView = {}; // the views of two `rewriteUpTo` that dedup and purge make alike are one (chooseView builds both)
  // `fresh`: with the task note as the file is now, where the prefix is rebuilt anyway; else as the requests before sent it
  const build = (rewriteUpTo: number, fresh = false) => {
    const taskNote = fresh ? file : held;
    return buildContext(
      {
        history,
        summaries: state.summaries,
        policy: { ...policy, budgetTokens },
        fixedTokens,
        tokensPerChar: state.tokensPerChar,
        rewriteUpTo,
        ...(taskNote ? { taskNote } : {}),
        ...(hard !== undefined ? { hardTokens: hard } : {}),
        ...(state.hold !== undefined ? { hold: state.hold } : {}),
      },
      built,
    );
  };
  return { budgetTokens, fixed, build, crowded, file };
}

/**
 * The system prompt, messages and note of the next request. Dedup, error purge and the model's compress calls rewrite earlier
 * messages only when the prompt cache is broken anyway (the first request of a run — a resumed one
 * goes on from its last request's, replay-cache.ts — a changed system
 * prompt or tool list, a trim or summary, a pause past the cache's lifetime) or when the tokens a
 * rewrite saves pay for the cache miss it causes (cache.ts). When the budget forces dropping
 * history, the stretch before the last turns is summarized by the provider first (the previous
 * summary with the new stretch); if that fails, the deterministic trim stands and the turn goes on.
 * `deterministic`: no summary request (a retry after a context-length error). `handOn`: a failed
 * summary it accepts is thrown, nothing trimmed, for another model (a fallback) to summarize — a trim
 * would drop the older messages from that model's request too; `failed`: the summary failed so
 * already (no fallback was left): the trim stands at once, no summary asked again. `.hey/task.md` is
 * re-injected after any compaction, as it was when the prefix was last rebuilt (held-note.ts). Throws only when `signal` aborts or `handOn` takes the failure: a
 * summary request it began was billed all the same, and the error carries what it cost (summaryCost).
 */
export async function prepare(
  history: readonly Message[],
  deps: PrepareDeps,
  signal: AbortSignal,
  opts: { deterministic?: boolean; handOn?: (e: unknown) => boolean; failed?: Error } = {},
): Promise<Prepared> {
  const { state, policy } = deps;
  const { budgetTokens, fixed, build, crowded, file } = contextOf(history, deps);
  const now = deps.now();
  const held = heldBefore(history, state.last, state.tokensPerChar);
  // a request that leaves out more than the one before is rebuilt (chooseView finds the prefix broken): the task note is taken anew with it
  let { view, upTo, kept, fresh = false } = chooseView(history, deps, fixed, { build, budgetTokens }, now);

  let usage: Usage | undefined;
  // a summary when the budget forces leaving out more than the previous request did: it replaces
  // what would be dropped (nothing is dropped first), and what the hold left out stays out; not one that saves next to nothing
  // (nor one for a latest message that alone is over the window: no request can hold it)
  const summarizable = summaryDue(view, history, deps, fixed, budgetTokens) ? view.summarizable : undefined;
  /** asks for the summary of `range` and rebuilds the view on it; what failed, when it did (and was not handed on) */
  async function summarize(range: NonNullable<typeof summarizable>): Promise<unknown> {
    deps.output.emit({ type: "summarizing" });
    try {
      const done = await compactRange(range, { ...deps, budgetTokens, ...windowOf(deps) }, signal);
      usage = done.usage;
      state.summaryFailed = false;
      const before = view;
      [view, fresh] = [build((upTo = history.length), true), true];
      deps.output.emit(summaryEvent(done.parts, tokensBefore(before, held), view));
      return undefined;
    } catch (e) {
      if (signal.aborted || opts.handOn?.(e)) throw e; // with what it cost, when it began (summaryCost): the caller counts it
      usage = summaryCost(e);
      return e ?? new Error("the summary request failed");
    }
  }
  if (!opts.deterministic && (view.newlyTrimmed > 0 || view.overBudget || kept) && summarizable) {
    const failed = opts.failed ?? (await summarize(summarizable));
    if (failed) {
      // the trim stands, as without dedup: what it leaves out stays out (the hold), so the next requests extend its prefix instead of asking again
      if (kept) ({ view, upTo } = kept);
      state.summaryFailed = true;
      deps.output.emit({
        type: "compaction",
        kind: "trim",
        ...trimmedTokens(view, held),
        ...crowded,
        error: `summary failed, older messages dropped instead: ${errorText(failed)}`,
      });
    }
  } else if ((view.stats.trimmed || view.stats.texts) && (view.stats.trimmed !== state.last?.stats.trimmed || view.stats.texts !== state.last?.stats.texts)) {
    // said when what is left out or cut changes (once the budget is reached again), not on every request
    deps.output.emit({ type: "compaction", kind: "trim", ...trimmedTokens(view, held), ...crowded });
  }
  for (const line of cutNotices(history, view.messages, state.seen)) deps.output.emit({ type: "notice", message: line });
  state.last = asSent(view);
  state.rewriteUpTo = upTo;
  state.hold = view.hold;
  const { note: taken, record } = holdNote(state.note, file, fresh);
  state.note = taken;
  // asked once the summary or trim is chosen: a list catching up goes out with it, not a request later (a second cache miss)
  const system = deps.system(view.messages);
  const through = unchangedThrough(state.sent, view.messages, fixed);
  const sentNote = record !== undefined ? { note: record } : {};
  state.sent = { messages: view.messages, count: view.messages.length, fixed: fixedText({ system, tools: deps.tools }), at: now, ...sentNote };
  const heavy = pdfsOverBudget(history, budgetTokens, state.tokensPerChar);
  for (const line of heavy) deps.output.emit({ type: "notice", message: line });
  const nudge = contextNote(view, policy, budgetTokens, fixed.length * state.tokensPerChar, state.summaryFailed === true);
  const note = [...heavy, ...(nudge ? [nudge] : [])].join("\n") || undefined;
  const once = fullAt(view, budgetTokens) || (view.messages.length === 1 && view.messages[0]!.role === "user" && willBeCut(view.messages[0]!, budgetTokens));
  const tail = { ...(once ? { onceTail: true as const } : {}), ...(through ? { unchangedThrough: through } : {}) };
  return { system, messages: view.messages, ...(note ? { note } : {}), ...tail, ...(usage ? { usage } : {}) };
}

/**
 * A rewrite the budget forces (dedup over the whole history) stands instead of a summary only when
 * it leaves the context no fuller than a summary would: about KEEP_SHARE of the budget kept
 * verbatim, with the summary and the system prompt on top. Fuller, the next turn or two would be
 * over again and rewrite again, each a cache miss.
 */
const REWRITE_ROOM = 0.6;

/**
 * The view the next request holds before any summary, and the ContextInput.rewriteUpTo it is built
 * with: the earlier messages as the previous request sent them, unless the prompt cache is broken
 * anyway or the tokens a rewrite saves pay for the miss (cache.ts). `kept`, the view keeping the
 * earlier messages, when it would have to leave out more than the previous request did and the
 * rebuilt view (dedup over the whole history) fits but leaves little room (REWRITE_ROOM): a
 * summary is due, as it would be without dedup, and if it fails `kept` (its trim) is sent.
 * Without it, near the budget each request pruned the earlier copy of the file just read again, a
 * rewrite a little later in the history every turn, and the cache missed on nearly every request
 * instead of once per summary (x44). Pure.
 */
export function chooseView(
  history: readonly Message[],
  deps: PrepareDeps,
  fixed: string,
  { build, budgetTokens }: { build: (rewriteUpTo: number, fresh?: boolean) => ContextView; budgetTokens: number },
  now: number,
): { view: ContextView; upTo: number; kept?: { view: ContextView; upTo: number }; fresh?: true } {
  const { state } = deps;
  const sent = state.sent;
  const upTo = state.rewriteUpTo;
  const view = upTo === undefined ? undefined : build(upTo);
  const broken =
    !view ||
    !sent ||
    sent.fixed !== fixed ||
    now - sent.at > cacheLifetime(deps.provider) ||
    sharedPrefix(sent.messages, view.messages, sent.count) < sent.count;
  if (!view || broken) {
    // the prefix is rebuilt: the task note as the file is now comes with it (held-note.ts)
    const rebuilt = build(history.length, true);
    const full = !!view && (view.newlyTrimmed > 0 || view.overBudget) && rebuilt.estimate > REWRITE_ROOM * budgetTokens;
    return { view: rebuilt, upTo: history.length, fresh: true, ...(full ? { kept: { view: build(upTo!, true), upTo: upTo! } } : {}) };
  }
  if (upTo! >= history.length) return { view, upTo: upTo! };
  const next = build(history.length);
  const shared = sharedPrefix(view.messages, next.messages);
  const same = shared === view.messages.length && shared === next.messages.length;
  const rebilled = estimateTokens(next.messages.slice(shared, sent!.count), state.tokensPerChar);
  if (same || rewritePays(view.estimate - next.estimate, rebilled, cachePrices(deps.provider.protocol))) return { view: next, upTo: history.length };
  return { view, upTo: upTo! };
}

/**
 * `/compact`: summarizes the stretch a summary may replace now, whatever the budget says; false
 * when there is none. Throws like compactRange.
 */
export async function compactNow(
  history: readonly Message[],
  deps: PrepareDeps,
  signal: AbortSignal,
  instructions?: string,
): Promise<{ usage: Usage } | false> {
  const { budgetTokens, build } = contextOf(history, deps);
  const before = build(history.length);
  if (!before.summarizable) return false;
  // the context as /usage showed it: an old result cut to head and tail counts as cut, not whole
  const shown = previewContext(history, deps).estimate;
  deps.output.emit({ type: "summarizing" }); // as in a turn: the 10-30 s wait shows what it is (x117: /compact showed nothing)
  const { parts, usage } = await compactRange(before.summarizable, { ...deps, budgetTokens, ...windowOf(deps) }, signal, instructions);
  deps.state.rewriteUpTo = undefined; // the prefix changed: the next request may rewrite all it likes
  deps.state.last = asSent(build(history.length)); // what the next request holds now (`/usage` reads it)
  deps.output.emit(summaryEvent(parts, shown, deps.state.last));
  return { usage };
}

/**
 * The context the next request would hold were it built now from `history`, without building it:
 * the same system prompt, tools, budget, estimate and earlier messages as `prepare` — the latest
 * answer included, which the last request's view lacks (`/usage`). Over the budget it is the trim
 * (the summary `prepare` would ask for is not asked for). Pure: the state is not changed.
 */
export function previewContext(history: readonly Message[], deps: PrepareDeps): ContextView {
  const { fixed, build, budgetTokens } = contextOf(history, deps);
  return chooseView(history, deps, fixed, { build, budgetTokens }, deps.now()).view;
}

/** Whether `view` has a stretch worth summarizing, and the latest message alone is not over the window (no request could hold it). */
export function summaryDue(view: ContextView, history: readonly Message[], deps: PrepareDeps, fixed: string, budgetTokens: number): boolean {
  return !!view.summarizable && summaryWorth(view.summarizable, budgetTokens, deps.state.tokensPerChar) && !doomed(history, fixed, deps);
}

/** Whether the latest user message of `history`, with the system prompt and tools (`fixed`), is alone over a window known now. */
function doomed(history: readonly Message[], fixed: string, { state, policy }: PrepareDeps): boolean {
  return latestOverWindow(history, fixed, state.tokensPerChar, minDefined(state.window, policy.window)) !== undefined;
}

/** The model's window as far as it is known (compactRange's `window`), or nothing. */
function windowOf({ state, policy }: PrepareDeps): { window?: number } {
  const window = minDefined(state.window, policy.window);
  return window === undefined ? {} : { window };
}

const minDefined = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

/**
 * What the context held before this request, when an earlier request of this run tells: that
 * request's context and the messages added since (its newest message is the history's newest
 * then). Undefined on a run's first request.
 */
function heldBefore(history: readonly Message[], last: ContextView | undefined, tokensPerChar: number): number | undefined {
  const newest = last?.messages.at(-1);
  const at = newest === undefined ? -1 : history.findLastIndex((m) => m.id === newest.id);
  return at < 0 ? undefined : last!.estimate + estimateTokens(history.slice(at + 1), tokensPerChar);
}

/**
 * The view as CompactionState.last keeps it: its messages are the history array itself when
 * nothing was left out or changed (buildContext), and the history grows after the request; held
 * apart, heldBefore finds what came since.
 */
export const asSent = (view: ContextView): ContextView => ({ ...view, messages: view.messages.slice() });

/**
 * Corrects the estimate with the provider's count for the request just sent: the ratio of
 * reported to estimated input tokens, limited per step. A count under FEWEST_TOKENS_PER_CHAR of
 * the characters sent is of part of the request (an endpoint that counts only what its prompt
 * cache lacked): followed, it would have the budget apply at several times the real size.
 */
export function correctEstimate(state: CompactionState, reportedInput: number): void {
  const estimated = state.last?.estimate;
  if (!estimated || reportedInput <= 0) return;
  if (reportedInput < (estimated / state.tokensPerChar) * FEWEST_TOKENS_PER_CHAR) return;
  const ratio = Math.min(MAX_CORRECTION_STEP, Math.max(1 / MAX_CORRECTION_STEP, reportedInput / estimated));
  const [low, high] = TOKENS_PER_CHAR_RANGE;
  // to the 4 digits the session keeps (sessions/writer.ts): `hey -c` replays each request with the ratio it was built with
  state.tokensPerChar = Number(Math.min(high, Math.max(low, state.tokensPerChar * ratio)).toPrecision(4));
}
