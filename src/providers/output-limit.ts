// The output limit an endpoint states when it refuses hey's `max_tokens` as too large. Pure; text
// matching is the documented last resort here: no API gives the limit a field of its own.

/** Below this a number in the words is taken for something else (an index, a version), not a limit. */
const SMALLEST_LIMIT = 1024;

/**
 * The largest number below `sent` (and at least SMALLEST_LIMIT) in a refusal that names max_tokens,
 * or undefined. Worded by each endpoint its own way: Anthropic "max_tokens: 32000 > 8192, which is
 * the maximum allowed number of output tokens for claude-3-5-haiku-20241022", DeepSeek "the valid
 * range of max_tokens is [1, 8192]", DashScope "Range of max_tokens should be [1, 8192]", another
 * gateway "max_tokens (current value: 4096) must be between 0 and 4000"
 * (nickscamara/open-deep-research#19, open-webui/open-webui#10507, neavo/KeywordGacha#111).
 */
export function statedOutputLimit(message: string, sent: number): number | undefined {
  if (!/max_tokens/i.test(message)) return undefined;
  const numbers = [...message.matchAll(/\d+/g)].map((m) => Number(m[0])).filter((n) => n >= SMALLEST_LIMIT && n < sent);
  return numbers.length > 0 ? Math.max(...numbers) : undefined;
}

/**
 * What the user is told when a stated output limit cut the thinking budget they chose (effort.ts
 * anthropicEffort fits it under the limit), or true (a change to send again with, nothing to say):
 * `budget` is the budget sent, `next` the thinking the next request sends.
 */
export function limitNotice(limit: number, budget: number | undefined, next: { type: string; budget_tokens?: number } | undefined): true | string {
  if (budget === undefined) return true;
  const now = next?.type === "enabled" ? next.budget_tokens : undefined;
  if (now !== undefined && now >= budget) return true;
  const thinks = now === undefined ? "no room is left for thinking: none is asked for" : `thinking gets a budget of ${now} tokens in place of ${budget}`;
  return `this model takes at most ${limit} output tokens: ${thinks}`;
}
