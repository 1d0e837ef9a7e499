// Whether a summary is worth the request it costs (SPEC §10). The budget asks for one when it must
// leave work out, but what a summary can replace is only the work before the turns kept verbatim:
// when those hold most of the context — a newest result bigger than the budget by itself, as after
// Esc in the turn that read it — the summary replaced a few hundred tokens with about as many
// (~8,942 → ~8,877) and cost a request and its wait. Pure.
import { estimateTokens, SUMMARY_ID } from "./passes.ts";
import type { SummaryRange } from "./summary-range.ts";

/**
 * A summary replaces at least this share of the budget in work no earlier summary holds, or it is
 * not asked for: the trim stands, as when a summary fails (its messages are left out, and a later
 * summary takes them in). A summary forced by the budget (60 % of it and more) is far above this.
 */
export const MIN_SUMMARY_SHARE = 0.1;

/** Whether summarizing `range` can save a meaningful share of `budgetTokens`: its messages but the earlier summaries in it (carried over, not saved) count. */
export function summaryWorth(range: SummaryRange, budgetTokens: number, tokensPerChar: number): boolean {
  const fresh = range.messages.filter((m) => !m.id.startsWith(SUMMARY_ID));
  return estimateTokens(fresh, tokensPerChar) >= MIN_SUMMARY_SHARE * budgetTokens;
}
