// What a summary may replace (view.ts ContextView.summarizable; SPEC §10): the work before the last
// turns kept verbatim, in runs parted by the messages a summary never takes in. When even those
// turns are over the budget (budget.ts had to cut their texts: a 60 KB answer continued on a model
// of 8k tokens), the summary may take them in too — all but the first and the latest user message
// and the turn in progress — so `/compact` and the budget's summary can bring the session back
// within the window instead of finding nothing to summarize. Pure.
import type { Message } from "../kernel/ir.ts";
import { messageChars, summaryMessage, tailStart, unitEnd, type HistoryFacts, type Summary } from "./passes.ts";

/** A summary leaves at most this share of the budget verbatim at the end (at least the newest turn), so the next one is turns away. */
export const KEEP_SHARE = 0.4;

/** What one summary request replaces (ContextView.summarizable). */
export interface SummaryRange {
  fromId: string;
  toId: string;
  messages: readonly Message[];
  /** earlier runs the same summary covers, each replaced by a line pointing at it */
  before?: readonly { fromId: string; toId: string }[];
  /** results among `messages` the request had to cut (budget.ts): the summary reads them as far as its share allows */
  cut?: ReadonlySet<string>;
}

/** The summary's text in place of an earlier run it covers: the summary itself stands after the pinned message, where the work went on. */
export const SUMMARIZED_BELOW = "(summarized below, after the next user message, together with the work that followed it)";

/** The Summaries one summary `text` of `range` makes: a pointer for each earlier run, then the summary itself. */
export function summaryParts(range: SummaryRange, text: string): Summary[] {
  return [...(range.before ?? []).map((b) => ({ ...b, text: SUMMARIZED_BELOW })), { fromId: range.fromId, toId: range.toId, text }];
}

/**
 * What no summary may take in: the first and the latest user message, and the newest turn when it
 * came after the latest user message (the turn in progress). The newest turn before it — an answer
 * the user has replied to since — is pinned against being left out, not against a summary.
 */
export function summaryPins(history: readonly Message[], facts: HistoryFacts): ReadonlySet<string> {
  const latest = history.findLastIndex((m) => m.role === "user");
  const pins = new Set<string>();
  for (const [i, m] of history.entries()) if (facts.pinned.has(m.id) && (m.role === "user" || i > latest)) pins.add(m.id);
  return pins;
}

/** How the range is reckoned: the turns kept verbatim, and whether those turns alone are over the budget (`crowded`). */
export interface KeepRule {
  turns: number;
  budgetTokens: number;
  tokensPerChar: number;
  crowded: boolean;
}

/**
 * The runs of consecutive units of `view` a summary may take in, as history ranges: one summary
 * covers them all. Kept out: the pinned messages and the last turns that fit in KEEP_SHARE of the
 * budget (at least the newest, at most `turns`), runs of one message (a summary would save
 * nothing). `crowded`: only summaryPins are kept out, and a run of one message counts.
 */
export function summarizableRange(
  view: readonly Message[],
  history: readonly Message[],
  facts: HistoryFacts,
  applied: readonly Summary[],
  rule: KeepRule,
): SummaryRange | undefined {
  const keep = rule.crowded ? summaryPins(history, facts) : keptTurns(history, facts, rule);
  const runs: { start: number; end: number }[] = [];
  let run: { start: number; end: number } | undefined;
  for (let i = 0; i < view.length; ) {
    const end = unitEnd(view, i);
    if (view.slice(i, end).some((m) => keep.has(m.id))) run = undefined;
    else {
      if (!run) runs.push((run = { start: i, end }));
      run.end = end;
    }
    i = end;
  }
  const taken = runs.filter((r) => r.end - r.start >= (rule.crowded ? 1 : 2));
  const last = taken.at(-1);
  if (!last) return undefined;
  const bySummary = new Map(applied.map((s) => [summaryMessage(s).id, s]));
  const ids = (r: (typeof runs)[number]) => {
    const first = view[r.start]!.id;
    const end = view[r.end - 1]!.id;
    return { fromId: bySummary.get(first)?.fromId ?? first, toId: bySummary.get(end)?.toId ?? end };
  };
  const before = taken.slice(0, -1).map(ids);
  return { ...ids(last), messages: view.slice(taken[0]!.start, last.end), ...(before.length ? { before } : {}) };
}

/** The pinned messages and the last turns that fit in KEEP_SHARE of the budget (at least the newest, at most `turns`). */
function keptTurns(history: readonly Message[], facts: HistoryFacts, rule: KeepRule): ReadonlySet<string> {
  const room = (KEEP_SHARE * rule.budgetTokens) / rule.tokensPerChar;
  let keep = 1;
  for (; keep < rule.turns; keep++) {
    const from = tailStart(history, keep + 1, history.length);
    let chars = 0;
    for (let i = from; i < history.length; i++) chars += messageChars(history[i]!);
    if (chars > room || from === tailStart(history, keep, history.length)) break;
  }
  const protect = new Set(facts.pinned);
  for (let i = tailStart(history, keep, history.length); i < history.length; i++) protect.add(history[i]!.id);
  return protect;
}
