// The thinking a Gemini model takes, fitted from the effort table (effort.ts geminiEffort) to what
// Google documents for the model, and to what its refusals taught: a thinking level it does not
// take goes as the nearest it may, a budget out of its range as the nearest end of it. Pure.
// (ai.google.dev/gemini-api/docs/thinking: Gemini 3 Pro takes LOW and HIGH, Gemini 3 Flash MINIMAL,
// LOW, MEDIUM and HIGH; budgets: 2.5 Pro 128–32768 (thinking cannot be off), 2.5 Flash 0–24576,
// 2.5 Flash-Lite 512–24576 or 0.)
import type { Effort } from "../kernel/ir.ts";
import { ProviderError, type StreamEvent } from "../kernel/provider.ts";
import { adaptingStream } from "./adapting-stream.ts";
import { geminiEffort, type GeminiThinking } from "./effort.ts";

type Level = NonNullable<GeminiThinking["thinkingLevel"]>;
const LEVELS: Level[] = ["MINIMAL", "LOW", "MEDIUM", "HIGH"];

/** What a model's refusals taught, for the rest of the run (google.ts RequestOptions.thinking). */
export interface GeminiLearned {
  /** thinking levels the model refused */
  refused?: Level[];
  /** the budget range a refusal stated: [lowest, highest] */
  range?: [number, number];
}

/** The levels Google documents per model; a model not named here may take any, until it refuses one. */
const DOCUMENTED_LEVELS: [RegExp, Level[]][] = [
  [/(?:^|\/)gemini-3-pro\b/, ["LOW", "HIGH"]],
  [/(?:^|\/)gemini-3-flash\b/, LEVELS],
];

/** Budget ranges Google documents per model: [lowest above 0, highest, whether 0 (off) is taken]. */
const DOCUMENTED_BUDGETS: [RegExp, [number, number, boolean]][] = [
  [/(?:^|\/)gemini-2\.5-flash-lite\b/, [512, 24576, true]],
  [/(?:^|\/)gemini-2\.5-flash\b/, [1, 24576, true]],
  [/(?:^|\/)gemini-2\.5-pro\b/, [128, 32768, false]],
];

/**
 * The thinking config hey sends `model` for `effort`: the table's (effort.ts geminiEffort), its
 * level moved to the nearest the model takes (a lower one on a tie) and its budget into the model's
 * range (`max`: the top of it) — as documented, or as a refusal stated (`learned`). Undefined when
 * the model gets none (before 2.5, no effort and no thoughts to ask for), or when every level was refused.
 */
export function geminiThinking(model: string, effort: Effort | undefined, learned: GeminiLearned = {}): GeminiThinking | undefined {
  const thinking = geminiEffort(model, effort);
  if (Object.keys(thinking).length === 0) return undefined;
  const { thinkingLevel: level, thinkingBudget: budget } = thinking;
  if (level) {
    const documented = DOCUMENTED_LEVELS.find(([m]) => m.test(model))?.[1] ?? LEVELS;
    const allowed = documented.filter((l) => !learned.refused?.includes(l));
    if (allowed.length === 0) return undefined;
    const distance = (l: Level) => Math.abs(LEVELS.indexOf(l) - LEVELS.indexOf(level));
    return { ...thinking, thinkingLevel: allowed.reduce((best, l) => (distance(l) < distance(best) ? l : best)) };
  }
  if (budget === undefined) return thinking;
  const documented = DOCUMENTED_BUDGETS.find(([m]) => m.test(model))?.[1];
  const [low, high] = learned.range ?? documented ?? [0, Number.POSITIVE_INFINITY];
  const off = budget === 0 && (learned.range ? low === 0 : (documented?.[2] ?? true));
  const fitted = off ? 0 : effort === "max" && high !== Number.POSITIVE_INFINITY ? high : Math.min(Math.max(budget, low, 1), high);
  return { ...thinking, thinkingBudget: fitted, includeThoughts: fitted !== 0 };
}

/** The SDK's `thinkingConfig` for `geminiThinking`'s answer, or none. */
export function thinkingConfigOf(thinking: GeminiThinking | undefined): { thinkingConfig?: GeminiThinking } {
  return thinking ? { thinkingConfig: thinking } : {};
}

/**
 * Learns from Gemini's 400 that refuses the thinking sent (`sent`), into `learned`: "Thinking level
 * MEDIUM is not supported for this model. Please retry with other thinking level." (the level is
 * never sent again: the nearest left goes) and "The thinking budget 32000 is invalid. Please choose
 * a value between 0 and 24576." (the range). Returns what to tell the user of the change, or false
 * when it is no such refusal, or nothing is left to send instead.
 */
export function learnGeminiThinking(learned: GeminiLearned, said: string, model: string, effort: Effort | undefined): string | false {
  const before = geminiThinking(model, effort, learned);
  const level = /thinking level (\w+) is not supported/i.exec(said)?.[1]?.toUpperCase() as Level | undefined;
  const range = /thinking budget (-?\d+) is invalid.*?between (-?\d+) and (\d+)/i.exec(said);
  if (level && LEVELS.includes(level)) learned.refused = [...(learned.refused ?? []), level];
  else if (range) learned.range = [Number(range[2]), Number(range[3])];
  else return false;
  const after = geminiThinking(model, effort, learned);
  if (!after || (after.thinkingLevel ?? after.thinkingBudget) === (before?.thinkingLevel ?? before?.thinkingBudget)) return false;
  const asked = effort ? `effort ${effort}` : "the effort";
  if (level) return `this model does not take thinking level ${level}: ${after.thinkingLevel} is sent instead for ${asked} (/effort or -t picks another)`;
  return `this model takes a thinking budget of ${range![2]} to ${range![3]} tokens: ${after.thinkingBudget} is sent instead of ${range![1]} for ${asked}`;
}

/**
 * `attempt`'s stream, sent again with the nearest thinking the model takes while it refuses the one
 * sent (common.ts adaptingStream). A refusal that stands (every level refused) says what sets another.
 */
export async function* fittingThinking(
  attempt: () => AsyncIterable<StreamEvent>,
  learned: GeminiLearned,
  model: string,
  effort: Effort | undefined,
): AsyncGenerator<StreamEvent> {
  try {
    yield* adaptingStream(
      attempt,
      (e) => learnGeminiThinking(learned, e.message, model, effort),
      () => learned,
    );
  } catch (e) {
    if (!(e instanceof ProviderError) || e.kind !== "bad_request" || !/thinking (?:level|budget)/i.test(e.message)) throw e;
    throw new ProviderError("bad_request", `${e.message} — /effort (or -t) sets another effort`, {
      ...(e.status !== undefined ? { status: e.status } : {}),
      cause: e,
    });
  }
}
