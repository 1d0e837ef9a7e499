// The context a local Ollama really runs a model with. Ollama loads a model with a small context
// unless the user raises it ("< 24 GiB VRAM: 4k context"; OLLAMA_CONTEXT_LENGTH, the app's slider:
// https://github.com/ollama/ollama/blob/main/docs/context-length.mdx), and cuts a longer chat from
// its start without an error (ollama's server/prompt.go chatPrompt drops the oldest messages but
// the system ones and the last; `truncate` defaults to true in server/routes.go ChatHandler, and
// the /v1 endpoint never turns it off). So hey asks the server: GET /api/ps lists the loaded
// models, each with `context_length` (api/types.go ProcessModelResponse, since ollama 0.9.7: "API/CLI
// context enhancements", ollama/ollama#11331) — the context the runner was started with, after
// Ollama's own clamps (to the model's training context, or lowered to fit memory: server/sched.go).
// A model is loaded by its first request, so hey asks after the first answer. Pure.
import { isLoopback } from "../net/proxy.ts";

/** "Ollama binds 127.0.0.1 port 11434 by default" (https://github.com/ollama/ollama/blob/main/docs/faq.mdx): a host serving there is Ollama. */
const OLLAMA_PORT = "11434";
/**
 * Below this many tokens a context is too small for an agent: hey's system prompt and tools take
 * ~1,200 of them, and a few file reads fill the rest (Ollama's own docs ask at least 64000 of
 * agents and coding tools, in the page above).
 */
export const AGENT_MIN_CONTEXT = 16_384;
/** The context the notice suggests: room for a working session at a memory cost most machines bear. */
const SUGGESTED_CONTEXT = 32_768;

/**
 * The server root to ask about a model's context, when `baseUrl` may be a local Ollama: a loopback
 * host or Ollama's port. Undefined for any other host, which is never asked anything extra. The
 * root is `baseUrl` without its `/v1` (Ollama's OpenAI-compatible path:
 * https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx).
 */
export function ollamaRoot(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (!isLoopback(url.hostname) && url.port !== OLLAMA_PORT) return undefined;
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${url.origin}${path}`;
}

/**
 * The context `model` runs with, from a GET /api/ps body (https://github.com/ollama/ollama/blob/main/docs/api.md, "List Running Models":
 * `{"models":[{"name":"mistral:latest","model":"mistral:latest",…}]}`, `context_length` per entry
 * since 0.9.7). A name without a tag is Ollama's `:latest`. Undefined when the body is not that
 * shape, the model is not loaded, or the server is older than the field.
 */
export function loadedContext(body: unknown, model: string): number | undefined {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return undefined;
  const names = model.includes(":") ? [model] : [model, `${model}:latest`];
  for (const entry of models as Record<string, unknown>[]) {
    if (!names.includes(String(entry?.name)) && !names.includes(String(entry?.model))) continue;
    const n = entry.context_length;
    if (typeof n === "number" && Number.isInteger(n) && n > 0) return n;
  }
  return undefined;
}

/** The one line a user is told when Ollama runs the model with less than AGENT_MIN_CONTEXT (`about`: as its usage shows); undefined otherwise. */
export function smallContextNotice(context: number, model: string, provider: string, about = false): string | undefined {
  if (context >= AGENT_MIN_CONTEXT) return undefined;
  const n = context.toLocaleString("en-US");
  return `Ollama runs ${model} with a context of ${about ? "about " : ""}${n} tokens, too small for an agent (it cuts longer requests from the start without an error); hey keeps each request within it. Raise it: ${raiseContext(provider)}`;
}

/** How to give the model more context, for the provider table named `provider`. */
export function raiseContext(provider: string): string {
  return `OLLAMA_CONTEXT_LENGTH=${SUGGESTED_CONTEXT} ollama serve (or the Ollama app's context slider), or set context_window in [provider.${provider}] if the server runs it with more`;
}

/** One answer of the model: the characters hey sent, and the prompt tokens the server said it read. */
export interface Sample {
  chars: number;
  input: number;
}
/** A context is never smaller than this (`context_window`'s lower bound): a smaller flat count is a gateway's made-up one. */
const MIN_CONTEXT = 1024;
/** What hey sent grew this far past what the server read, by the ratio of the first answer: the rest was cut. */
const CUT_SHARE = 1.25;
/** Ollama cuts whole messages, so a cut prompt fills its context only to within a message: this share of it at least. */
const FILLED_SHARE = 0.75;

/**
 * The context an Ollama that does not tell it (older than /api/ps's `context_length`) runs the
 * model with, from its usage: its last two answers each read at most about the same count
 * (within FILLED_SHARE of the larger) while hey sent CUT_SHARE more than that by the first answer's
 * tokens per character — the server cut the prompt to fit. The larger count; undefined until then.
 * (A prompt whose last message alone overflows is cut to half the context, ollama/ollama#17427:
 * then the count found is about half, and hey builds smaller requests than it could.)
 */
export function cappedContext(samples: readonly Sample[]): number | undefined {
  const first = samples[0];
  const last = samples.slice(-2);
  if (!first || first.chars <= 0 || first.input <= 0 || samples.length < 3) return undefined;
  const cap = Math.max(...last.map((s) => s.input));
  if (cap < MIN_CONTEXT) return undefined;
  const perChar = first.input / first.chars;
  return last.every((s) => s.input >= FILLED_SHARE * cap && perChar * s.chars >= CUT_SHARE * cap) ? cap : undefined;
}
