// OpenRouter's 402 when the credit left does not cover the output a request may ask for: with no
// max_tokens sent it reserves the model's whole output limit (64000 tokens for Claude Sonnet 4.5),
// so a small balance refuses even "hi" — "This request requires more credits, or fewer max_tokens.
// You requested up to 64000 tokens, but can only afford 1203." (can1357/oh-my-pi#9569). A lower
// max_tokens fixes it, not another model nor more credit. Pure.

/** The most output tokens hey suggests: enough for a long answer or file, little enough to keep working as the credit goes down. */
export const SUGGESTED_MAX_TOKENS = 8192;

/** Below this many tokens an answer with tool calls hardly fits: the credit is as good as spent. */
const TOO_FEW = 1000;

const FEWER_MAX_TOKENS = /fewer max_tokens[\s\S]*?can only afford (\d+)/i;

/**
 * The output tokens the credit still covers, when `said` is that refusal and a lower max_tokens
 * (at least TOO_FEW) would be answered; undefined otherwise (a spent credit stays a spent quota).
 */
export function affordableTokens(said: string): number | undefined {
  const n = Number(FEWER_MAX_TOKENS.exec(said)?.[1]);
  return Number.isFinite(n) && n >= TOO_FEW ? n : undefined;
}

/** The max_tokens to suggest for a credit that covers `afford` tokens: below it, rounded down to thousands, at most SUGGESTED_MAX_TOKENS. */
export function maxTokensWithin(afford: number): number {
  return Math.min(SUGGESTED_MAX_TOKENS, Math.floor(afford / 1000) * 1000);
}
