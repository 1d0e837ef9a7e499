// What to do when an answer was cut at the output token limit (SPEC §5.1: a `length` stop is
// reported, not silently accepted): the setting that sets the limit, where it is, and what it is
// now. Shown after the `length` error by the display. Pure.
import type { ProviderSettings } from "../config/settings.ts";
import { maxTokensWithin } from "../providers/afford.ts";
import { ANTHROPIC_DEFAULT_MAX_TOKENS } from "../providers/effort.ts";

/**
 * One line naming `max_tokens` of the provider in use: in its config file with the limit the
 * request went with (`sent`, where hey chose it: the error event's `max_tokens`), else its
 * configured value; the bound hey set to fit the window (an endpoint that counts the answer's limit in
 * it, with no max_tokens set); hey's own default for Anthropic (which always sends one) — or, when the
 * endpoint refused that default and hey went down to the limit it stated, that no setting raises
 * it; otherwise the model's own limit, which no setting raises. `userFile` is the user config file
 * this run reads.
 */
export function lengthHint(provider: ProviderSettings, userFile = "~/.config/hey/config.toml", sent?: number): string {
  const anthropicDefault = provider.maxTokens === undefined && provider.protocol === "anthropic";
  if (anthropicDefault && sent !== undefined && sent < ANTHROPIC_DEFAULT_MAX_TOKENS)
    return `the endpoint takes at most ${sent} output tokens for this model (it refused hey's default of ${ANTHROPIC_DEFAULT_MAX_TOKENS}), so no setting raises the limit: ask for the answer in parts`;
  // no max_tokens of the user's and none an adapter chose: hey bounded the answer to fit the window beside the conversation (context/output-cap.ts)
  if (sent !== undefined && provider.maxTokens === undefined && provider.protocol !== "anthropic")
    return `hey limited the answer to ${sent} tokens to fit the model's window beside the conversation: /compact or a shorter request leaves it more, or ask for the answer in parts`;
  const limit = sent ?? provider.maxTokens ?? (anthropicDefault ? ANTHROPIC_DEFAULT_MAX_TOKENS : undefined);
  const now = limit === undefined ? undefined : `now ${limit}${anthropicDefault ? ", hey's default for Anthropic" : ""}`;
  if (now === undefined) return "max_tokens is not set, so the model's own output limit was reached: ask for the answer in parts";
  if (provider.source) return `raise max_tokens in [provider.${provider.name}] of ${provider.source} (${now})`;
  if (provider.name === "cli") return `a --base-url run has no max_tokens of its own (${now}): set one in a [provider.NAME] table of ${userFile}`;
  return `set max_tokens in a [provider.${provider.name}] table of ${userFile} (${now})`;
}

/**
 * One line for a request the credit left does not cover at its output limit (providers/afford.ts,
 * OpenRouter's 402 "fewer max_tokens … can only afford N"): the max_tokens to set, and where — a
 * lower limit is answered, where another model or "quota exhausted" sends the user the wrong way.
 */
export function creditHint(provider: ProviderSettings, afford: number, userFile = "~/.config/hey/config.toml"): string {
  const set = `set max_tokens = ${maxTokensWithin(afford)}`;
  const why =
    provider.maxTokens === undefined
      ? `with no max_tokens the endpoint counts the model's whole output limit against the credit, which covers ${afford} tokens`
      : `max_tokens = ${provider.maxTokens} is more than the credit left covers (${afford} tokens)`;
  if (provider.source) return `${why}: ${set} in [provider.${provider.name}] of ${provider.source} (or add credit)`;
  if (provider.name === "cli")
    return `${why}: a --base-url run has no max_tokens of its own, so ${set} in a [provider.NAME] table of ${userFile} (or add credit)`;
  return `${why}: ${set} in a [provider.${provider.name}] table of ${userFile} (or add credit)`;
}
