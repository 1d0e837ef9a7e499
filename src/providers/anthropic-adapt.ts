// What the next request to an Anthropic endpoint changes after the endpoint refused one (common.ts
// adaptingStream). Pure apart from changing `options`; each change is made for good, so each is
// tried once and the retries end:
// - thinking sent back whose prefix a summary or a trim changed is dropped by the API (anthropic-binding.ts);
// - a turn refused for ending in thinking: earlier turns go without their thinking, as with thinking
//   off. hey sends no such turn (anthropic-turns.ts), but a gateway may change what it sends, and the
//   session goes on rather than failing every request after;
// - a level of `output_config.effort` the model does not take goes as the nearest it names (effort.ts), and the user is told;
// - hey's own max_tokens (its default, or the room it adds above a thinking budget; never the
//   user's) comes down to a limit the endpoint states, and a thinking budget fits under it: an
//   Anthropic-compatible gateway or an older model may allow less (claude-opus-4-1: 32000; output-limit.ts);
// - thinking off is `disabled`, which Claude Fable 5, Mythos 5 and Mythos Preview (always
//   thinking) and Sonnet 5.5 ("between_tools" instead) refuse: off goes as the model's default;
// - Claude 4.5 and earlier refuse adaptive thinking, 4.7 and later budget thinking: the other mode.
// (platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting, "rejected configurations
// by model"; the words of those 400s are not documented, so a refusal naming the mode is taken as one.)
import { boundElsewhere } from "./anthropic-binding.ts";
import { effortNotice, learnEffort, NO_EFFORT_NOTICE } from "./effort.ts";
import { limitNotice, statedOutputLimit } from "./output-limit.ts";

/** The request options a refusal may change (anthropic.ts RequestOptions, which documents them). */
export interface AnthropicAdaptable {
  legacyThinking?: boolean;
  noDisabledThinking?: boolean;
  noThinking?: boolean;
  effortFor?: Record<string, string>;
  dropMismatched?: boolean;
  outputLimit?: number;
  /** the thinking mode was switched once already: a refusal of the other one means the model takes none */
  modeSwitched?: boolean;
  noEarlierThinking?: boolean;
}

/** What the refused request sent. */
export interface SentThinking {
  /** its `thinking.type`, if any */
  type: string | undefined;
  maxTokens: number;
  /** its `budget_tokens`, with budget thinking */
  budget: number | undefined;
}

/**
 * Changes `options` as the refusal `said` asks; true when it changed something (send again), or
 * what to tell the user of it. `userMax`: the user's own max_tokens; `next()`: the thinking the
 * next request would send, as changed.
 */
export function adaptToAnthropicRefusal(
  options: AnthropicAdaptable,
  sent: SentThinking,
  said: string,
  ctx: { userMax: number | undefined; next: () => { type: string; budget_tokens?: number } | undefined },
): boolean | string {
  if (!options.dropMismatched && boundElsewhere(said)) return (options.dropMismatched = true);
  if (!options.noEarlierThinking && ENDS_IN_THINKING.test(said)) return (options.noEarlierThinking = true);
  const learned = learnEffort((options.effortFor ??= {}), said);
  if (learned) return effortNotice(learned);
  const stated = ctx.userMax === undefined || sent.maxTokens > ctx.userMax ? statedOutputLimit(said, sent.maxTokens) : undefined;
  if (stated !== undefined) return limitNotice((options.outputLimit = stated), sent.budget, ctx.next());
  if (sent.type === "disabled") return THINKING_REFUSED.test(said) && (options.noDisabledThinking = true);
  const refusedMode = sent.type === "adaptive" ? /adaptive/i : sent.type === "enabled" ? /adaptive|budget_tokens/i : undefined;
  // neither mode, or no thinking at all (Claude 3.5 Haiku given an effort chosen for another model: /model, -c -m)
  const named = refusedMode?.test(said) && /thinking/i.test(said);
  const none = sent.type && !options.noThinking && ((options.modeSwitched && named) || NO_THINKING.test(said));
  if (none) return (options.noThinking = true) && NO_EFFORT_NOTICE;
  if (!named) return false;
  options.legacyThinking = sent.type === "adaptive";
  return (options.modeSwitched = true);
}

/** A 400's words that refuse thinking as such, not one mode of it ("… does not support thinking"). */
const NO_THINKING = /does not support (?:extended )?thinking|(?<!adaptive |budget )thinking (?:is )?not supported/i;

/** A 400's words that may be the refusal of `thinking: {type: "disabled"}` (not any 400 naming thinking: a bad signature is another). */
const THINKING_REFUSED = /between_tools|disabled/i;

/** A 400 refusing an assistant turn whose last block is thinking ("messages.3: The final block in an assistant message cannot be `thinking`."). */
const ENDS_IN_THINKING = /final block in an assistant message cannot be\W+(?:redacted_)?thinking/i;
