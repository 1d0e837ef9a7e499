// Reasoning effort (SPEC §5.5): one table, seven levels × every protocol, each mapped to its
// protocol's native meaning. Adapters read the row for their protocol and nothing else.
import type { Effort, Protocol } from "../kernel/ir.ts";
import { claudeStart } from "./claude-models.ts";

interface EffortRow {
  /** chat `reasoning_effort` / Responses `reasoning.effort`; "none" is OpenAI's official off */
  openai: string;
  /** Anthropic `output_config.effort` with adaptive thinking; undefined = thinking disabled */
  anthropic: string | undefined;
  /** thinking tokens for budget-based APIs: Anthropic legacy_thinking, Gemini 2.5 */
  budget: number;
  /** Gemini 3+ `thinkingLevel`; gemini 3 cannot switch thinking off, so off is the minimum */
  geminiLevel: "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";
}

export const EFFORT_TABLE: Record<Effort, EffortRow> = {
  off: { openai: "none", anthropic: undefined, budget: 0, geminiLevel: "MINIMAL" },
  minimal: { openai: "minimal", anthropic: "low", budget: 1024, geminiLevel: "MINIMAL" },
  low: { openai: "low", anthropic: "low", budget: 2048, geminiLevel: "LOW" },
  medium: { openai: "medium", anthropic: "medium", budget: 8192, geminiLevel: "MEDIUM" },
  high: { openai: "high", anthropic: "high", budget: 16384, geminiLevel: "HIGH" },
  xhigh: { openai: "xhigh", anthropic: "xhigh", budget: 24576, geminiLevel: "HIGH" },
  max: { openai: "max", anthropic: "max", budget: 32000, geminiLevel: "HIGH" },
};

/** OpenAI chat and Responses: the level verbatim, off → "none". */
export function openaiEffort(effort: Effort): string {
  return EFFORT_TABLE[effort].openai;
}

/** Anthropic output budget when the config sets none: enough for adaptive thinking plus an answer. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 32000;
/** Room for the answer above a legacy thinking budget: budget_tokens must be < max_tokens. */
const ANSWER_ROOM_TOKENS = 4096;

export interface AnthropicThinking {
  thinking?: { type: "adaptive" } | { type: "enabled"; budget_tokens: number } | { type: "disabled" };
  output_config?: { effort: string };
  max_tokens: number;
}

/** Anthropic's smallest `budget_tokens`: below it the API refuses budget thinking. */
const SMALLEST_BUDGET = 1024;

/**
 * Anthropic parameters for `effort` (undefined = the model's default thinking). Adaptive thinking
 * with `output_config.effort` by default; with `legacyThinking`, `thinking.enabled` with a budget
 * from the table and `max_tokens` raised above the budget whatever the config says. `limit`: the
 * most output tokens the model takes (a refusal stated it, output-limit.ts): `max_tokens` never
 * goes above it, and a budget that does not fit under it shrinks to leave ANSWER_ROOM_TOKENS (half
 * of a small limit) for the answer; a limit with no room for the smallest budget thinks not at all.
 */
export function anthropicEffort(effort: Effort | undefined, opts: { legacyThinking: boolean; maxTokens?: number; limit?: number }): AnthropicThinking {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const maxTokens = Math.min(opts.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS, limit);
  if (effort === undefined) return { max_tokens: maxTokens };
  const row = EFFORT_TABLE[effort];
  if (row.anthropic === undefined) return { thinking: { type: "disabled" }, max_tokens: maxTokens };
  if (!opts.legacyThinking) return { thinking: { type: "adaptive" }, output_config: { effort: row.anthropic }, max_tokens: maxTokens };
  const max_tokens = Math.min(Math.max(maxTokens, row.budget + ANSWER_ROOM_TOKENS), limit);
  const budget = Math.min(row.budget, max_tokens - Math.min(ANSWER_ROOM_TOKENS, Math.ceil(max_tokens / 2)));
  if (budget < SMALLEST_BUDGET) return { thinking: { type: "disabled" }, max_tokens };
  return { thinking: { type: "enabled", budget_tokens: budget }, max_tokens };
}

/**
 * Thinking tokens a request at each effort is expected to spend, within what it may spend: a budget
 * or max_tokens is a cap, not what is billed, and at high effort a model may think through a
 * summary's 4,096-token limit.
 */
const EXPECTED_THINKING: Record<Effort, number> = { off: 0, minimal: 512, low: 1024, medium: 2048, high: 4096, xhigh: 4096, max: 4096 };

/**
 * The output a request asking `maxTokens` at `effort` goes out with over `protocol` to `model`: the
 * `maxTokens` really sent and the thinking expected of it (an unset effort: none), for the room
 * and the cost of the cached summary (context/summary-request.ts). Claude's is what anthropicEffort
 * makes of it in the mode and output limit the adapter starts that model with (claude-models.ts):
 * budget thinking (4.5 and earlier) raises max_tokens to the budget plus ANSWER_ROOM_TOKENS and
 * caps the thinking at the budget; adaptive thinking sends `maxTokens` as asked. Other protocols
 * send `maxTokens`, their reasoning within it. Pure.
 */
export function outputSent(protocol: Protocol, model: string, effort: Effort | undefined, maxTokens: number): { maxTokens: number; thinking: number } {
  const expected = effort === undefined ? 0 : EXPECTED_THINKING[effort];
  if (protocol !== "anthropic") return { maxTokens, thinking: Math.min(expected, maxTokens) };
  const start = claudeStart(model);
  const sent = anthropicEffort(effort, {
    legacyThinking: start.legacyThinking ?? false,
    maxTokens,
    ...(start.outputLimit !== undefined ? { limit: start.outputLimit } : {}),
  });
  const cap = sent.thinking?.type === "enabled" ? sent.thinking.budget_tokens : sent.thinking?.type === "adaptive" ? sent.max_tokens : 0;
  return { maxTokens: sent.max_tokens, thinking: Math.min(expected, cap) };
}

export interface GeminiThinking {
  includeThoughts?: boolean;
  thinkingLevel?: EffortRow["geminiLevel"];
  thinkingBudget?: number;
}

/** Smallest budget of models that cannot turn thinking off (gemini-2.5-pro). */
const GEMINI_PRO_MIN_BUDGET = 128;

/**
 * Gemini thinking config. Gemini 3 and later (`gemini-N…`, N ≥ 3) take `thinkingLevel`
 * (xhigh/max → HIGH; off → MINIMAL, it cannot be turned off); 2.5 and other names take
 * `thinkingBudget` from the same table (off → 0, or the minimum where a pro model forbids 0).
 * With no effort configured, thoughts are asked for only from models that can think (≥ 2.5).
 */
export function geminiEffort(model: string, effort: Effort | undefined): GeminiThinking {
  // Models before 2.5 cannot think and answer 400 to includeThoughts (lobehub/lobehub#7985), or to a budget: an
  // effort chosen for another model (/model, -c -m) is not theirs
  const generation = geminiGeneration(model);
  if (effort === undefined || (generation > 0 && generation < 2.5)) return generation >= 2.5 ? { includeThoughts: true } : {};
  const row = EFFORT_TABLE[effort];
  if (geminiGeneration(model) >= 3) return { includeThoughts: true, thinkingLevel: row.geminiLevel };
  if (effort !== "off") return { includeThoughts: true, thinkingBudget: row.budget };
  return /-pro\b/.test(model) ? { includeThoughts: true, thinkingBudget: GEMINI_PRO_MIN_BUDGET } : { includeThoughts: false, thinkingBudget: 0 };
}

/** 3 for "gemini-3-pro-preview", 2.5 for "models/gemini-2.5-flash", 0 for anything else. */
export function geminiGeneration(model: string): number {
  const m = /(?:^|\/)gemini-(\d+(?:\.\d+)?)/.exec(model);
  return m ? Number(m[1]) : 0;
}

/** Effort levels in order, "none" (OpenAI's off) first: where a refused one finds its nearest. */
const LEVELS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

/** A level refused, and the one sent in its place from then on. */
export interface LearnedEffort {
  refused: string;
  nearest: string;
}

/**
 * How endpoints name the level they refuse: OpenAI "does not support 'none' with this model"
 * (Kilo-Org/cloud#3807; Responses says 'reasoning.effort'), GitHub Copilot's gateway
 * `output_config.effort "xhigh" is not supported by model claude-opus-4.7` (microsoft/vscode#312711),
 * Anthropic `output_config.effort 'xhigh' is not supported when thinking is disabled on this model`
 * (anthropics/claude-code#81084), Volcano Engine's "expected `low`, `medium`, `high` or `max`, but
 * got `xhigh` instead" (farion1231/cc-switch#2851), pydantic's literal_error (SGLang: "'msg': \"Input
 * should be 'low', 'medium' or 'high'\", 'input': 'xhigh'", router-for-me/CLIProxyAPI#1572).
 */
const REFUSED_LEVEL = [
  /does not support ['"`](\w+)['"`]/i,
  /['"`](\w+)['"`] (?:is )?not supported/i,
  /but got ['"`](\w+)['"`]/i,
  /['"]input['"]:\s*['"](\w+)['"]/i,
  // OpenAI's `Invalid value: 'max'. Supported values are: 'low', 'medium', and 'high'.` (param reasoning_effort,
  // or reasoning.effort on Responses: error-words.ts puts the param before the words); a validator's "received 'max'"
  /invalid value:?\s*['"`](\w+)['"`]/i,
  /\breceived:?\s*['"`](\w+)['"`]/i,
];

/**
 * The levels a refusal offers: quoted ('high', "low", `max`), in a bracketed list ([low medium high]),
 * or bare after a colon that follows "valid", "supported", "allowed" or "expected" (a gateway's
 * `level "max" not supported, valid levels: low, medium, high, xhigh`).
 */
function offeredLevels(said: string): string[] {
  const quoted = [...said.matchAll(/(['"`])(\w+)\1/g)].map((m) => m[2]!);
  const bracketed = [...said.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
  const named = [...said.matchAll(/\b(?:valid|supported|allowed|expected|accepted)\b[^:\n]{0,30}:([^.;\n]*)/gi)].map((m) => m[1]!);
  const listed = [...bracketed, ...named].flatMap((l) => l.split(/[^\w]+/));
  return [...quoted, ...listed].map((v) => v.toLowerCase()).filter((v) => LEVELS.includes(v));
}

/**
 * Learns from a 400 that refuses a reasoning effort and names the levels the model takes (all of
 * them, or "'high' or below"): `map` gets the refused level → the nearest offered one (a lower one
 * on a tie; so xhigh and max go to the highest the model takes below them), and every level that
 * went to the refused one follows. Returns what it learned, or undefined (not such a refusal, or
 * one already learned), so a retry loop ends. Mutates `map` only.
 */
export function learnEffort(map: Record<string, string>, message: string): LearnedEffort | undefined {
  if (!/effort/i.test(message)) return undefined;
  const refused = REFUSED_LEVEL.map((r) => r.exec(message)?.[1]?.toLowerCase()).find((v) => v !== undefined && LEVELS.includes(v));
  if (!refused || map[refused] !== undefined) return undefined;
  const offered = offeredLevels(message).filter((v) => v !== refused);
  if (offered.length === 0) return undefined;
  const distance = (v: string) => Math.abs(LEVELS.indexOf(v) - LEVELS.indexOf(refused));
  const nearest = offered.reduce((best, v) =>
    distance(v) < distance(best) || (distance(v) === distance(best) && LEVELS.indexOf(v) < LEVELS.indexOf(best)) ? v : best,
  );
  for (const [k, v] of Object.entries(map)) if (v === refused) map[k] = nearest;
  map[refused] = nearest;
  return { refused, nearest };
}

/** What the user is told, once, when a model refuses any reasoning effort (one chosen for another model: /model, -c -m). */
export const NO_EFFORT_NOTICE = "this model takes no reasoning effort: none is sent from now on";

/**
 * How OpenAI's chat completions refuses a reasoning effort together with tools, which the same
 * model takes over Responses: "Function tools with reasoning_effort are not supported for gpt-5.5
 * in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'."
 */
export const EFFORT_ONLY_OVER_RESPONSES = /tools with reasoning_?effort are not supported|reasoning_?effort[^.]*use \/v1\/responses/i;

const OVER_RESPONSES = "with tools, OpenAI takes reasoning effort only over Responses";

/**
 * What the user is told, once, of that refusal: the model does take effort, and where to ask for
 * it (`name`: the provider's table; "cli" is --base-url's, set by --protocol or HEY_PROTOCOL).
 */
export function effortOverResponsesNotice(name: string | undefined): string {
  const where = name && name !== "cli" ? `set protocol = "responses" in [provider.${name}]` : "use --protocol responses (HEY_PROTOCOL=responses)";
  return `${OVER_RESPONSES}: ${where}; until then no effort is sent`;
}

/** Whether a notice says no effort goes with any request of its provider from then on: /effort says it beside the level. */
export const saysNoEffortSent = (message: string): boolean => message === NO_EFFORT_NOTICE || message.startsWith(OVER_RESPONSES);

/** How a Responses model without reasoning refuses the field: "Unsupported parameter: 'reasoning.effort' is not supported with this model." */
export const REASONING_REFUSED = /'reasoning(?:\.effort)?'.{0,40}not supported|unsupported parameter:?\s*'reasoning/i;

/** What the user is told, once, of a level the model refused. */
export function effortNotice({ refused, nearest }: LearnedEffort): string {
  return `this model does not take effort ${refused}: ${nearest} is sent instead`;
}
