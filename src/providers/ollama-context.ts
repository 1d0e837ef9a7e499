// The context a local Ollama really runs a model with. Ollama loads a model with a small context
// unless the user raises it ("< 24 GiB VRAM: 4k context"; OLLAMA_CONTEXT_LENGTH, the app's slider:
// https://github.com/ollama/ollama/blob/main/docs/context-length.mdx), and cuts a longer chat from
// its start without an error (ollama's server/prompt.go chatPrompt drops the oldest messages but
// the system ones and the last; `truncate` defaults to true in server/routes.go ChatHandler, and
// the /v1 endpoint never turns it off). So hey asks the server: GET /api/ps lists the loaded
// models, each with `context_length` (api/types.go ProcessModelResponse, since ollama 0.9.7: "API/CLI
// context enhancements", ollama/ollama#11331) — the context the runner was started with, after
// Ollama's own clamps (to the model's training context, or lowered to fit memory: server/sched.go).
// A model is loaded by its first request: hey asks before it (a model loaded already, or a Modelfile
// num_ctx: modelfileContext) and again after the first answer, whose usage shows a cut all the same
// (cutContext). Pure; what the user is told, and the other servers' answers, are in served-context.ts.
import { FEWEST_TOKENS_PER_CHAR } from "../kernel/provider.ts";

/**
 * The names one model goes by: Ollama's name without a tag is its `:latest` (`ollama run llama3.2`
 * runs llama3.2:latest, which /v1/models and /api/ps list), and the other way round. One rule for
 * every list a model name is looked up in (the endpoint's model list, /api/ps).
 */
export function modelNames(model: string): string[] {
  if (model.endsWith(":latest")) return [model, model.slice(0, -":latest".length)];
  return model.includes(":") ? [model] : [model, `${model}:latest`];
}

/** The name `listed` holds `model` by (modelNames), or undefined when it holds none of them. */
export const listedAs = (listed: readonly string[], model: string): string | undefined => modelNames(model).find((n) => listed.includes(n));

/**
 * The context `model` runs with, from a GET /api/ps body (https://github.com/ollama/ollama/blob/main/docs/api.md, "List Running Models":
 * `{"models":[{"name":"mistral:latest","model":"mistral:latest",…}]}`, `context_length` per entry
 * since 0.9.7), by any of its names (modelNames). Undefined when the body is not that
 * shape, the model is not loaded, or the server is older than the field.
 */
export function loadedContext(body: unknown, model: string): number | undefined {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return undefined;
  const names = modelNames(model);
  for (const entry of models as Record<string, unknown>[]) {
    if (!names.includes(String(entry?.name)) && !names.includes(String(entry?.model))) continue;
    const n = entry.context_length;
    if (typeof n === "number" && Number.isInteger(n) && n > 0) return n;
  }
  return undefined;
}

/**
 * One answer of the model: the characters hey sent, of them those Ollama never drops (the system
 * prompt, the tool definitions and the last message), and the prompt tokens the server said it read.
 */
export interface Sample {
  chars: number;
  kept: number;
  input: number;
}
/** A context is never smaller than this (`context_window`'s lower bound): a smaller flat count is a gateway's made-up one. */
const MIN_CONTEXT = 1024;
/** What hey sent grew this far past what the server read, by the ratio of the first answer: the rest was cut. */
const CUT_SHARE = 1.25;
/** Ollama cuts whole messages, so a cut prompt fills its context only to within a message: this share of it at least. */
const FILLED_SHARE = 0.75;
/**
 * What Ollama never drops was this far past what it read: it did not drop messages but cut inside
 * them. A prompt read whole reads all of that part (a ratio near 1); one cut inside reads half the
 * context while that part alone was more than the whole context (near 2 or more).
 */
const HALVED_SHARE = 1.5;
/**
 * The tokens the runner keeps of a prompt longer than its context: numKeep + (numCtx − numKeep) / 2,
 * so half the context and a few (65,536 → 32,770 and 32,768 → 16,387 read, in ollama/ollama#17427).
 */
const halfOf = (input: number) => 2 * (input - 2);

/**
 * The context an Ollama that does not tell it (older than /api/ps's `context_length`) runs the
 * model with, from its usage, by the first answer's tokens per character (an answer read whole):
 * - the last answer read far less than what Ollama never drops of it (HALVED_SHARE): the last
 *   message alone overflowed, and the runner kept half the context of it (ollama/ollama#17427):
 *   twice what it read, not the half that a cap on the count would find;
 * - else its last two answers each read at most about the same count (within FILLED_SHARE of the
 *   larger) while hey sent CUT_SHARE more than that: the server dropped messages to fit. The
 *   larger count.
 * Undefined until then.
 */
export function cappedContext(samples: readonly Sample[]): number | undefined {
  const first = samples[0];
  const latest = samples.at(-1);
  if (!first || !latest || first.chars <= 0 || first.input <= 0 || samples.length < 2) return undefined;
  const perChar = first.input / first.chars;
  if (latest !== first && perChar * latest.kept >= HALVED_SHARE * latest.input && halfOf(latest.input) >= MIN_CONTEXT) return halfOf(latest.input);
  const last = samples.slice(-2);
  if (samples.length < 3) return undefined;
  const cap = Math.max(...last.map((s) => s.input));
  if (cap < MIN_CONTEXT) return undefined;
  return last.every((s) => s.input >= FILLED_SHARE * cap && perChar * s.chars >= CUT_SHARE * cap) ? cap : undefined;
}

/**
 * The context Ollama will load `model` with, from a POST /api/show body (Ollama's API docs, "Show Model
 * Information"), asked while the model is not loaded yet (GET /api/ps lists only loaded ones): its
 * Modelfile's `num_ctx` (`parameters`, one "name value" a line), which wins over the server's
 * default (OLLAMA_CONTEXT_LENGTH, else one by VRAM), no more than the context the model was
 * trained for (`model_info["<architecture>.context_length"]`: Ollama lowers a larger one to it).
 * Undefined without a `num_ctx`: no API says the server's default before the model is loaded.
 */
export function modelfileContext(body: unknown): number | undefined {
  const show = body as { parameters?: unknown; model_info?: Record<string, unknown> } | null;
  if (typeof show?.parameters !== "string") return undefined;
  const m = /^num_ctx\s+(\d+)\s*$/m.exec(show.parameters);
  const asked = m ? Number(m[1]) : undefined;
  if (asked === undefined || asked <= 0) return undefined;
  const arch = show.model_info?.["general.architecture"];
  const trained = typeof arch === "string" ? show.model_info?.[`${arch}.context_length`] : undefined;
  return typeof trained === "number" && trained > 0 ? Math.min(asked, trained) : asked;
}

/** Contexts are set in these steps (2,048, 4,096, 40,960; OLLAMA_CONTEXT_LENGTH=64000 in Ollama's docs): a count that falls on one is the whole context. */
const round = (n: number) => n >= MIN_CONTEXT && (n % 256 === 0 || n % 1000 === 0);

/**
 * The context Ollama cut one request to, from its answer: the prompt tokens it read (`input`) are
 * far fewer than the `chars` characters sent can count (FEWEST_TOKENS_PER_CHAR), and fill the context —
 * `served`, when the server said it (GET /api/ps), else a round one, read whole or halved (halfOf:
 * the runner keeps half the context of a prompt whose last message alone overflows). Undefined for
 * an answer that read what was sent.
 */
export function cutContext(chars: number, input: number, served?: number): number | undefined {
  if (input <= 0) return undefined;
  const contexts = served === undefined ? [input, halfOf(input)].filter(round) : [served];
  return contexts.find((context) => input <= context && chars * FEWEST_TOKENS_PER_CHAR > context);
}
