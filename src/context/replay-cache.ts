// `hey -c` within the prompt cache's lifetime (issue 23): the state of compaction.ts as the run
// before it left it, rebuilt from the session, so the first request after the resume goes on from
// the last request's prefix. Pure.
import type { Message } from "../kernel/ir.ts";
import { seenIn } from "./cut-notice.ts";
import { answered, asSent, chooseView, contextOf, summaryDue, type PrepareDeps } from "./compaction.ts";

/**
 * A resumed session's prompt cache as its last run left it (LoadedSession.cache): each request
 * since the one that began it (`from.upTo` messages: the session's first, a summary, a pause, another
 * model — not each run's start) replayed as `prepare` chose its view, as if made at `from.at`, what
 * it left out and cut (the hold) included, with the estimate's ratio it had then. Then the first request after the resume repeats the last
 * one before it where nothing forced a change, as the next request of one long run would, and the
 * provider's cached prefix serves it within its lifetime.
 */
export function replayCache(history: readonly Message[], deps: PrepareDeps, from: { upTo: number; at: number; ratios?: ReadonlyMap<string, number> }): void {
  const { state } = deps;
  const ratio = state.tokensPerChar; // the last response's: the next request's
  const note = deps.taskNote(history); // read once, not per request
  const replayed = { ...deps, taskNote: () => note };
  state.rewriteUpTo = undefined;
  state.sent = undefined;
  state.hold = undefined;
  state.seen = seenIn();
  for (let h = from.upTo; h < history.length; h++) {
    if (history[h]!.role !== "assistant") continue; // the answer of a request made with the first h messages
    const before = history.slice(0, h);
    state.tokensPerChar = from.ratios?.get(history[h]!.id) ?? ratio; // the budget and the cuts as they were reckoned then
    const { fixed, build, budgetTokens } = contextOf(before, replayed);
    const chosen = chooseView(before, replayed, fixed, { build, budgetTokens }, from.at);
    // a summary that request asked for failed (a summary's line would have begun the cache anew): the trim stood (prepare)
    const failed = (chosen.view.newlyTrimmed > 0 || chosen.view.overBudget || !!chosen.kept) && summaryDue(chosen.view, before, replayed, fixed, budgetTokens);
    const { view, upTo } = failed && chosen.kept ? chosen.kept : chosen;
    if (failed) state.summaryFailed = true;
    state.rewriteUpTo = upTo;
    state.hold = view.hold;
    state.last = asSent(view);
    state.sent = { messages: view.messages, count: view.messages.length, fixed, at: from.at };
    answered(state); // each replayed request is one the model answered
  }
  state.tokensPerChar = ratio;
}
