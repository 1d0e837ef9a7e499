// What to do when an answer was cut at the output token limit (SPEC §5.1: a `length` stop is
// reported, not silently accepted): the setting that sets the limit, where it is, and what it is
// now. Shown after the `length` error by the display. Pure.
import type { ProviderSettings } from "../config/settings.ts";
import { ANTHROPIC_DEFAULT_MAX_TOKENS } from "../providers/effort.ts";

/**
 * One line naming `max_tokens` of the provider in use: in its config file with the limit the
 * request went with (`sent`, where hey chose it: the error event's `max_tokens`), else its
 * configured value; hey's own default for Anthropic (which always sends one) — or, when the
 * endpoint refused that default and hey went down to the limit it stated, that no setting raises
 * it; otherwise the model's own limit, which no setting raises. `userFile` is the user config file
 * this run reads.
 */
export function lengthHint(provider: ProviderSettings, userFile = "~/.config/hey/config.toml", sent?: number): string {
  const anthropicDefault = provider.maxTokens === undefined && provider.protocol === "anthropic";
  if (anthropicDefault && sent !== undefined && sent < ANTHROPIC_DEFAULT_MAX_TOKENS)
    return `the endpoint takes at most ${sent} output tokens for this model (it refused hey's default of ${ANTHROPIC_DEFAULT_MAX_TOKENS}), so no setting raises the limit: ask for the answer in parts`;
  const limit = sent ?? provider.maxTokens ?? (anthropicDefault ? ANTHROPIC_DEFAULT_MAX_TOKENS : undefined);
  const now = limit === undefined ? undefined : `now ${limit}${anthropicDefault ? ", hey's default for Anthropic" : ""}`;
  if (now === undefined) return "max_tokens is not set, so the model's own output limit was reached: ask for the answer in parts";
  if (provider.source) return `raise max_tokens in [provider.${provider.name}] of ${provider.source} (${now})`;
  if (provider.name === "cli") return `a --base-url run has no max_tokens of its own (${now}): set one in a [provider.NAME] table of ${userFile}`;
  return `set max_tokens in a [provider.${provider.name}] table of ${userFile} (${now})`;
}
