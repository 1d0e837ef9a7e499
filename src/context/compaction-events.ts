// The `compaction` events a request's context says (docs/json-events.md): a trim's and a summary's
// sizes before and after, and a summary's parts. Pure.
import type { AgentEvent } from "../kernel/output.ts";
import { cutCounts, type ContextView, type Summary } from "./view.ts";

/**
 * A compaction event's `tokens_before`, the same for a trim and a summary (docs/json-events.md): the
 * context the request would have held before the step — system prompt, tools and messages, nothing
 * left out — and no more than the last request held with what came since (`held`): a result
 * only ever sent cut to the model's window counts as sent, not whole.
 */
export const tokensBefore = (view: ContextView, held: number | undefined) => Math.min(view.untrimmedEstimate, held ?? Number.POSITIVE_INFINITY);
export const trimmedTokens = (view: ContextView, held: number | undefined) => ({
  tokens_before: tokensBefore(view, held),
  tokens_after: view.estimate,
  ...cutCounts(view),
});

/** The `compaction` event of one summary's `parts` (summaryParts: the summary last): `before` is the context before it (tokensBefore), `after` the view with it. */
export function summaryEvent(parts: readonly Summary[], before: number, after: ContextView): AgentEvent {
  const summary = parts.at(-1)!;
  const earlier = parts.slice(0, -1).map((p) => ({ from_id: p.fromId, to_id: p.toId, summary: p.text }));
  return {
    type: "compaction",
    kind: "summary",
    from_id: summary.fromId,
    to_id: summary.toId,
    summary: summary.text,
    ...(earlier.length ? { before: earlier } : {}),
    tokens_before: before,
    tokens_after: after.estimate,
  };
}
