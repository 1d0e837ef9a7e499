// OpenRouter's `reasoning_details` (openrouter.ai/docs/use-cases/reasoning-tokens, "Preserving
// reasoning blocks"): the model's reasoning as typed blocks — `reasoning.text` (with a `signature`:
// Claude's thinking), `reasoning.summary`, `reasoning.encrypted` (`data`: Gemini's thought signatures,
// OpenAI's encrypted reasoning) — each with `id`, `format` and `index`, streamed in
// `delta.reasoning_details` a piece at a time. They go back on the assistant message, unchanged and
// in order: Gemini through OpenRouter refuses a tool loop without them ("Gemini models require
// OpenRouter reasoning details to be preserved in each request"), and Claude refuses one whose
// thinking is missing. Pure.

/** One block, as OpenRouter sent it: hey reads its text and keeps the rest unread. */
export type ReasoningDetail = Record<string, unknown>;

/** The fields a streamed piece adds to, rather than replaces. */
const GROWING = ["text", "summary"];

/**
 * Adds the blocks of one chunk's `delta.reasoning_details` to `into`: a block with the `index` (and
 * type) of the last one continues it — its text and summary appended, any other field set as it
 * comes (a signature comes last) — else it is a new block. Returns the readable reasoning the
 * pieces add (text and summaries), for a server that sends no `reasoning` beside them.
 */
export function addDetails(into: ReasoningDetail[], streamed: unknown): string {
  if (!Array.isArray(streamed)) return "";
  let shown = "";
  for (const piece of streamed) {
    if (typeof piece !== "object" || piece === null) continue;
    const detail = piece as ReasoningDetail;
    for (const key of GROWING) if (typeof detail[key] === "string") shown += detail[key];
    const last = into.at(-1);
    if (!last || detail.index === undefined || last.index !== detail.index || last.type !== detail.type) {
      into.push({ ...detail });
      continue;
    }
    for (const [key, value] of Object.entries(detail)) {
      if (value === null || value === undefined) continue;
      last[key] = GROWING.includes(key) && typeof last[key] === "string" ? `${last[key]}${value}` : value;
    }
  }
  return shown;
}
