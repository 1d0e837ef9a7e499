// What one model request sends (SPEC §10). The history is append-only and never changed; before
// every request `buildContext` derives the request's view of it with the passes of passes.ts and
// budget.ts: summaries → dedup → error purge → read_file notes restored → large calls cut → handles → budget (trim, then the hard ceiling). The
// view is a pure function of its input; context/compaction.ts decides that input (which summaries,
// how far dedup and purge may look, whether handles show) so that requests repeat each other's
// prefix for the providers' prompt caches.
//
// Rules:
// - A TURN is one assistant message plus its tool results (one model request).
// - Protected — never pruned by dedup or purge, and dropped or cut only when the budget cannot be
//   met otherwise — are the first user message, the last user message (the current request) and
//   the last `protectTurns` turns with everything after the first of them. Pinned — never dropped
//   or summarized — are the first and the last user message and the newest turn, whose results
//   are cut only past the model's window. Dedup and purge also leave write_file, edit and compress
//   results alone. A first user message over half the budget keeps only its start and end once it
//   is answered. A tool call that has run with arguments over a quarter of the budget (a 600 KB
//   write_file) is sent with each long string cut to its first and last lines (call-cut.ts).
// - Summaries: the caller's compactions and the model's successful compress calls. Later ones win
//   over earlier ones they overlap; the caller's count as later than any compress call. Compress
//   calls already in the history apply even when the compress tool is now off; a call after
//   `rewriteUpTo` waits with the other rewrites (stats.pending).
// - Handles (compress tool on): every tool result ends with a line `[#k3f9a]`, the last 5 characters
//   of its message id (the whole id when two ids end alike): ~3 tokens per result.
import type { Message, ToolSpec } from "../kernel/ir.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { trimToBudget, type Hold } from "./budget.ts";
import { cutLargeCalls } from "./call-cut.ts";
import { addHandles, applySummaries, estimateTokens, historyFacts, PROTECT_TURNS, purgeErrors, tailStart, trimFirstPrompt, type Summary } from "./passes.ts";
import type { Resolved, SECTIONS } from "../config/keys.ts";
import { summarizableRange, summaryPins, type SummaryRange } from "./summary-range.ts";
import { restoreStubs } from "./read-stubs.ts";
import { compressSummaries } from "./compress-ranges.ts";
import { dedupView } from "./dedup-index.ts";

export { DEFAULT_TOKENS_PER_CHAR, estimateTokens, PROTECT_TURNS, protectedFrom, summaryMessage, type Summary } from "./passes.ts";
export { checkCompressRange, compressArgs, compressSummaries } from "./compress-ranges.ts";
export { KEEP_SHARE, SUMMARIZED_BELOW, summaryParts, type SummaryRange } from "./summary-range.ts";

/**
 * How requests are built: the `[compaction]` table as configured (config/keys.ts says what each key
 * does: `dedup`, `purgeErrorsAfter`, `nudgeThreshold`, `compressTool` — which also shows handles on
 * tool results), the budget, and the model's window when the configuration states it.
 * context/policy.ts makes one from the settings.
 */
export type ContextPolicy = Resolved<typeof SECTIONS.compaction> & {
  budgetTokens: number;
  /** `context_window` for the model in use, when the configuration states it */
  window?: number;
  /** turns kept verbatim at the end; default PROTECT_TURNS */
  protectTurns?: number;
};

export interface ContextInput {
  /** the full, append-only history; not modified */
  history: readonly Message[];
  /** compactions by the provider, oldest first; the model's compress calls are read from `history` */
  summaries: Summary[];
  policy: ContextPolicy;
  /** system prompt + tool schemas, already estimated by the caller */
  fixedTokens: number;
  /** DEFAULT_TOKENS_PER_CHAR, corrected by the caller with the provider's reported input tokens */
  tokensPerChar: number;
  /** .hey/task.md, re-injected after the first user message whenever anything was summarized or trimmed: its end and top within a share of the budget (budget.ts cutTaskNote) */
  taskNote?: string;
  /**
   * dedup and error purge judge the history as its first `rewriteUpTo` messages were (default: all),
   * and only the compress calls among them apply: rewrites that later messages would make wait,
   * leaving the cached prefix alone
   */
  rewriteUpTo?: number;
  /** what the model takes at most, when known: past it even the newest turn's results are cut */
  hardTokens?: number;
  /** what the previous request left out and cut (its ContextView.hold): left out and cut again, so the prefix stays */
  hold?: Hold;
}

export interface ContextView {
  /** what is sent; every tool call with exactly one result, as in the history */
  messages: readonly Message[];
  /** tokens of fixedTokens + messages */
  estimate: number;
  /** the same before the trim to the budget (what `compaction` trim events report as tokens_before) */
  untrimmedEstimate: number;
  /** still over budget with everything but the pinned messages dropped and their texts cut: the caller should summarize (see summarizable) */
  overBudget: boolean;
  /** messages left out that the hold kept, and texts cut that it did not: the budget was reached again, the caller should summarize (see summarizable) */
  newlyTrimmed: number;
  /** what this view left out and cut, for the next request's ContextInput.hold */
  hold: Hold;
  /**
   * What a summary should replace: the runs of whole units that are not pinned and not in the last
   * turns kept verbatim (at most KEEP_SHARE of the budget, at least the newest turn), two messages
   * or more each, in history ids. The last run is `fromId`…`toId`; the runs before it (split from
   * it by a pinned message: in a REPL the latest user message parts the work before it from the
   * work since) are `before`. `messages` are the view's messages from the first run's start to
   * the last run's end, pinned ones included (earlier summaries inside as their text): one summary
   * covers them all, so the next is not due a turn or two later for the run left over. When the
   * turns kept are over the budget by themselves (`stats.texts > 0`), the range takes in all but
   * the first and latest user message and the turn in progress (summary-range.ts). When
   * `newlyTrimmed > 0` or `overBudget`, a caller that can summarize should summarize it and call
   * buildContext again with the new Summaries appended (summaryParts); when summarizing fails it
   * sends this view (the deterministic trim). `/compact` uses it at any time.
   */
  summarizable: SummaryRange | undefined;
  /**
   * results pruned as duplicates, calls purged, messages replaced by compaction summaries (`/compact`,
   * the budget), ranges replaced by the compress tool, messages trimmed, results cut by the ceiling,
   * tool calls whose long arguments are sent cut (call-cut.ts), texts of the messages never left
   * out cut to their start and end (budget.ts stage 5)
   */
  stats: {
    deduped: number;
    purged: number;
    summarized: number;
    compressed: number;
    /** compress calls taken but not applied yet: they wait for the prompt cache to be rebuilt (rewriteUpTo) */
    pending: number;
    trimmed: number;
    cut: number;
    calls: number;
    texts: number;
  };
}

/** The last view built from the same input but `rewriteUpTo` (compaction.ts chooseView builds two): what dedup and purge made of it, and the view. */
export type BuiltView = { rewritten?: { input: ContextInput; messages: readonly Message[]; deduped: number; purged: number; view: ContextView } };

/**
 * The request's view of the history. Pure and deterministic; never throws for any history.
 * `built`: the view of another `rewriteUpTo`, returned again when dedup and purge rewrote the
 * same messages (the rest of the passes would give it again), and replaced by this one otherwise.
 */
export function buildContext(input: ContextInput, built: BuiltView = {}): ContextView {
  const { history, policy } = input;
  const turns = policy.protectTurns ?? PROTECT_TURNS;
  const facts = historyFacts(history, turns);
  const upTo = Math.min(input.rewriteUpTo ?? history.length, history.length);
  const then = upTo === history.length ? facts : historyFacts(history, turns, upTo);
  // compress calls after `rewriteUpTo` wait like dedup: applied at once they re-billed all after the range (x6 #2: +22-25 %)
  const compressed = compressSummaries(history, turns, upTo);
  const pending = upTo < history.length ? compressSummaries(history, turns).length - compressed.length : 0;
  const summarized = applySummaries(history, [...compressed, ...input.summaries], summaryPins(history, facts));
  const ranges = summarized.applied.filter((s) => compressed.includes(s)).length;
  const fitted = trimFirstPrompt(summarized.messages, policy.budgetTokens);
  const deduped = policy.dedup ? dedupView(history, fitted, then.protect, upTo) : { messages: fitted, count: 0 };
  const purged = purgeErrors(deduped.messages, policy.purgeErrorsAfter, then);
  const was = built.rewritten;
  if (was && sameInput(was.input, input) && was.deduped === deduped.count && was.purged === purged.count && sameObjects(was.messages, purged.messages))
    return was.view;
  // a resumed history lacks the ranges its summaries replaced: the results its notes point at come with them
  const results = input.summaries.flatMap((s) => s.results ?? []);
  const earlier = results.length > 0 ? [...results, ...history] : history;
  const restored = restoreStubs(purged.messages, earlier);
  const called = cutLargeCalls(restored.messages, policy.budgetTokens);
  const handled = policy.compressTool ? addHandles(called.messages, facts.handle) : called.messages;
  const budget = {
    budgetTokens: policy.budgetTokens,
    fixedTokens: input.fixedTokens,
    tokensPerChar: input.tokensPerChar,
    ...(input.taskNote !== undefined ? { taskNote: input.taskNote } : {}),
    ...(input.hardTokens !== undefined ? { hardTokens: input.hardTokens } : {}),
    ...(input.hold !== undefined ? { hold: input.hold } : {}),
  };
  const trimmed = trimToBudget(handled, facts, budget);
  // a note whose earlier result the trim left out or cut says so: the model reads the lines again if it needs them
  const messages = restoreStubs(trimmed.messages, earlier, true).messages;
  const estimate = input.fixedTokens + estimateTokens(messages, input.tokensPerChar);
  const changed = trimmed.trimmed > 0 || trimmed.cut > 0 || trimmed.calls > 0 || trimmed.texts > 0;
  const view: ContextView = {
    messages,
    estimate,
    untrimmedEstimate: changed ? trimmed.untrimmed : estimate,
    overBudget: trimmed.overBudget,
    newlyTrimmed: trimmed.newlyTrimmed,
    hold: trimmed.hold,
    summarizable: withCut(
      summarizableRange(handled, history, facts, summarized.applied, {
        turns,
        budgetTokens: policy.budgetTokens,
        tokensPerChar: input.tokensPerChar,
        crowded: trimmed.texts > 0,
      }),
      trimmed.hold.cut,
    ),
    stats: {
      deduped: deduped.count,
      purged: purged.count,
      summarized:
        summarized.replaced -
        replacedBy(
          history,
          summarized.applied.filter((s) => compressed.includes(s)),
        ),
      compressed: ranges,
      pending,
      trimmed: trimmed.trimmed,
      cut: trimmed.cut,
      calls: called.count + trimmed.calls,
      texts: trimmed.texts,
    },
  };
  built.rewritten = { input, messages: purged.messages, deduped: deduped.count, purged: purged.count, view };
  return view;
}

/** Whether two inputs are the same but for `rewriteUpTo` (the history as the passes left it is compared by sameObjects). */
function sameInput(a: ContextInput, b: ContextInput): boolean {
  const fields = (i: ContextInput) => [
    i.history,
    i.history.length,
    i.summaries,
    i.summaries.length,
    JSON.stringify(i.policy),
    i.fixedTokens,
    i.tokensPerChar,
    i.taskNote,
    i.hardTokens,
    i.hold,
  ];
  return sameObjects(fields(a), fields(b));
}

/** Whether `a` and `b` hold the same objects in the same order (the passes give an unchanged message back as itself). */
function sameObjects(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i]);
}

/** `range` with the results of it the request cut (`cut`: the hold's ids): the summary is all that can keep what they lost. */
function withCut(range: SummaryRange | undefined, cut: ReadonlyMap<string, number>): SummaryRange | undefined {
  const ids = range?.messages.filter((m) => m.role === "tool" && cut.has(m.id)).map((m) => m.id) ?? [];
  return range && ids.length > 0 ? { ...range, cut: new Set(ids) } : range;
}

/** How many messages of `history` these (applied, non-overlapping) summaries replace. */
function replacedBy(history: readonly Message[], summaries: readonly Summary[]): number {
  if (summaries.length === 0) return 0;
  const index = new Map(history.map((m, i) => [m.id, i]));
  return summaries.reduce((n, s) => n + index.get(s.toId)! - index.get(s.fromId)! + 1, 0);
}

/** What a `compaction` event of kind trim or window says the view left out and cut (kernel/output.ts). */
export function cutCounts(view: ContextView | undefined): { left_out?: number; texts_cut?: number } {
  return { ...(view?.stats.trimmed ? { left_out: view.stats.trimmed } : {}), ...(view?.stats.texts ? { texts_cut: view.stats.texts } : {}) };
}

/** The context use is told from this share of the budget on (or from the nudge threshold, when lower). */
export const NOTE_FROM = 0.5;

/**
 * The request's note (ModelRequest.note) on the context use, in 10 % steps, once it reaches
 * NOTE_FROM of the budget: the model hears how full its context is before the threshold where it
 * is nudged and long before anything is dropped; below that, nothing is said (it would be paid on
 * every request for nothing). Above `threshold` (a fraction of the budget) it adds a sentence
 * suggesting compress; pass Infinity when it is not to be suggested (the compress tool is off, or
 * hey's own summary is working: compaction.ts prepare). Undefined below NOTE_FROM or
 * for a budget ≤ 0.
 */
export function nudgeLine(estimate: number, budget: number, threshold: number): string | undefined {
  if (!(budget > 0)) return undefined;
  const ratio = estimate / budget;
  if (ratio < Math.min(NOTE_FROM, threshold)) return undefined;
  const step = Math.floor(ratio * 10) * 10;
  const line = ratio >= 1 ? `Context: over the ${tokens(budget)}-token budget.` : `Context: ${step}-${step + 10}% of the ${tokens(budget)}-token budget used.`;
  if (!(ratio > threshold)) return line;
  return `${line} Older messages are being left out to fit it: use compress on finished stretches of work (tool results show their [#handle]) to keep what matters of them.`;
}

/**
 * The request's line on the context use (nudgeLine), suggesting compress only when it could help: a stretch
 * to compress (compressibleIn), room for the rest once it is gone (the system prompt and tools, `fixedTokens`,
 * under the budget), no compress of the model's still waiting for the prompt cache (stats.pending: it is done,
 * its range goes at the next rebuild), and only once hey's own summary failed. While summaries work, a model that
 * obeyed the nudge from 70 % of the budget cost 25 % more over 150 steps (a turn of its own per compress, twice
 * the cache breaks), and still 18 % more from 95 % (x44's mock runs): hey's summary at the budget does the same job for less.
 */
export function contextNote(view: ContextView, policy: ContextPolicy, budgetTokens: number, fixedTokens: number, summaryFailed: boolean): string | undefined {
  const helps = summaryFailed && view.stats.pending === 0 && fixedTokens < budgetTokens && compressibleIn(view.messages, policy.protectTurns ?? PROTECT_TURNS);
  return nudgeLine(view.estimate, budgetTokens, policy.compressTool && helps ? policy.nudgeThreshold : Number.POSITIVE_INFINITY);
}

/**
 * Whether `messages` (a request's) hold a stretch the compress tool could replace: a turn's tool
 * results after the first user message and before the last `protectTurns` turns. Without one (a
 * first request over budget on its system prompt and tools alone) the nudge toward compress is
 * not given: it could not help.
 */
export function compressibleIn(messages: readonly Message[], protectTurns: number): boolean {
  const firstUser = messages.findIndex((m) => m.role === "user");
  const tail = tailStart(messages, Math.max(1, protectTurns), messages.length);
  return messages.some((m, i) => m.role === "tool" && i > firstUser && i < tail);
}

function tokens(n: number): string {
  return n < 1000 ? String(Math.round(n)) : `${Number((n / 1000).toFixed(1))}k`;
}

/**
 * The context policy for a request offering `tools`: results end with the `[#handle]` the compress
 * tool names them by, and the context note nudges toward it, only while compress is offered (a
 * permission list may refuse it, and the request then goes without it).
 */
export function offeredPolicy(policy: ContextPolicy, tools: readonly ToolSpec[]): ContextPolicy {
  return policy.compressTool && !tools.some((t) => t.name === TOOL.compress) ? { ...policy, compressTool: false } : policy;
}
