// What to do when an answer was cut at the output token limit (SPEC §5.1: a `length` stop is
// reported, not silently accepted): the setting that sets the limit, where it is, and what it is
// now. Shown after the `length` error by the display. Pure.
import type { ProviderSettings } from "../config/settings.ts";
import { ANTHROPIC_DEFAULT_MAX_TOKENS } from "../providers/effort.ts";

/**
 * One line naming `max_tokens` of the provider in use: in its config file with its value when it
 * has one; hey's own default for Anthropic (which always sends one); otherwise the model's own
 * limit, which no setting raises. `userFile` is the user config file this run reads.
 */
export function lengthHint(provider: ProviderSettings, userFile = "~/.config/hey/config.toml"): string {
  const now =
    provider.maxTokens !== undefined
      ? `now ${provider.maxTokens}`
      : provider.protocol === "anthropic"
        ? `now ${ANTHROPIC_DEFAULT_MAX_TOKENS}, hey's default for Anthropic`
        : undefined;
  if (now === undefined) return "max_tokens is not set, so the model's own output limit was reached: ask for the answer in parts";
  if (provider.source) return `raise max_tokens in [provider.${provider.name}] of ${provider.source} (${now})`;
  if (provider.name === "cli") return `a --base-url run has no max_tokens of its own (${now}): set one in a [provider.NAME] table of ${userFile}`;
  return `set max_tokens in a [provider.${provider.name}] table of ${userFile} (${now})`;
}
