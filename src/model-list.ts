// The endpoint's model list (GET <base>/models) and the raw requests beside it that the adapters
// never make: `hey doctor` checks the model against it, `/model NAME` a name not in the
// configuration, and a run reads the context window the list states for its model, after the
// first answer (providers/server-window.ts), so that no request overflows it and none is built to
// less than it. Each answer outcome goes to doctor/checks.ts to be judged.
import type { ProviderSettings } from "./config/settings.ts";
import { oneLine } from "./providers/common.ts";
import { errorWords } from "./providers/error-words.ts";
import { apiUrl } from "./providers/api-root.ts";
import { errorText } from "./kernel/errors.ts";
import { bodyText, MAX_BODY_BYTES } from "./net/body-text.ts";
import { NetError } from "./net/errors.ts";

/**
 * What one probe came back with. `kind` is a ProviderError kind (or "network" for a socket check);
 * `proxy`: the proxy failed the request (refused it, wanted other credentials), so the endpoint never saw it;
 * `silent`: the server took the request and sent not a byte of an answer before the probe gave up.
 */
export type Outcome<T = object> = ({ ok: true } & T) | { ok: false; kind: string; status?: number; message: string; proxy?: true; silent?: true };

/** the model list is one cheap GET: a working server answers it in a second */
export const LIST_TIMEOUT_MS = 15_000;

/** The URL of `path` under the endpoint's API root, and the headers that authenticate like the adapter does. */
export function rawTarget(s: ProviderSettings, path: string): { url: string; headers: Record<string, string> } {
  const key = s.apiKey || undefined;
  const url = apiUrl(s, path);
  switch (s.protocol) {
    case "anthropic":
      return {
        url,
        headers: { "anthropic-version": "2023-06-01", ...(key ? { "x-api-key": key, authorization: `Bearer ${key}` } : {}), ...s.headers },
      };
    case "google":
      return { url, headers: { ...(key ? { "x-goog-api-key": key } : {}), ...s.headers } };
    default:
      return { url, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...s.headers } };
  }
}

/**
 * The whole list in one page where it is paged: Anthropic's `/v1/models` gives 20 models unless
 * `limit` says up to 1,000 (docs.anthropic.com/en/api/models-list), Gemini's 50 unless `pageSize`
 * does (ai.google.dev/api/rest/v1beta/models/list); the model in use may be past the first page.
 */
const ONE_PAGE: Partial<Record<ProviderSettings["protocol"], string>> = { anthropic: "?limit=1000", google: "?pageSize=1000" };

/**
 * GET the model list: the ids, or `listed` undefined when the endpoint has none (404, 405); and
 * `window`, the context window the list states for `model`. Also what `/model NAME` checks a name
 * against; `signal` ends the wait early (Ctrl-C). No answer within `limitMs` is a `silent` outcome.
 * Never throws.
 */
export async function listModels(
  s: ProviderSettings,
  model: string,
  fetchImpl: typeof fetch,
  signal?: AbortSignal,
  limitMs = LIST_TIMEOUT_MS,
): Promise<Outcome<{ listed?: string[]; window?: number }>> {
  const { url, headers } = rawTarget(s, `models${ONE_PAGE[s.protocol] ?? ""}`);
  const timeout = AbortSignal.timeout(limitMs);
  let heard = false;
  try {
    const res = await fetchImpl(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    heard = true;
    const { text, cut } = await bodyText(res);
    if (cut)
      return {
        ok: false,
        kind: "protocol",
        status: res.status,
        message: `GET ${url}: the answer is over ${MAX_BODY_BYTES / 1024 / 1024} MB, not a model list`,
      };
    if (res.status === 404 || res.status === 405) return { ok: true };
    if (res.status === 401 || res.status === 403)
      return { ok: false, kind: "auth", status: res.status, message: `GET ${url}: ${res.status} ${shortBody(text)}` };
    if (!res.ok) return { ok: false, kind: "bad_request", status: res.status, message: `GET ${url}: ${res.status} ${shortBody(text)}` };
    const entries = listedModels(JSON.parse(text));
    const window = listedWindow(entries.find(([id]) => id === model)?.[1]);
    return { ok: true, listed: entries.map(([id]) => id).filter(Boolean), ...(window !== undefined ? { window } : {}) };
  } catch (e) {
    if (timeout.aborted && !signal?.aborted)
      return { ok: false, kind: "network", message: `no answer to GET ${url} in ${limitMs / 1000} s`, ...(heard ? {} : { silent: true as const }) };
    return thrown(e);
  }
}

/** A model list entry, with the fields servers state a model's context window in. */
type ListedModel = Record<string, unknown>;

/**
 * The entries of a model list body, each with its id: OpenAI's `{"object": "list", "data": [{"id"}]}`
 * (and every server copying it: vLLM, OpenRouter, Groq, Mistral, Anthropic's `/v1/models`);
 * Gemini's `{"models": [{"name": "models/…"}]}`; Together's bare array `[{"id"}]` (its OpenAPI
 * spec, togethercomputer/openapi openapi.yaml `ModelInfoList: type: array`; helixml/helix#386
 * wraps it for OpenAI clients). Nothing for any other shape.
 */
export function listedModels(body: unknown): [id: string, entry: ListedModel][] {
  const o = typeof body === "object" && body !== null ? (body as { data?: unknown; models?: unknown }) : {};
  const entries = (v: unknown): ListedModel[] => (Array.isArray(v) ? v.filter((m) => typeof m === "object" && m !== null) : []);
  const idOf = (v: unknown) => (typeof v === "string" ? v : "");
  return [
    ...entries(Array.isArray(body) ? body : o.data).map((m) => [idOf(m.id), m] as [string, ListedModel]),
    ...entries(Array.isArray(body) ? [] : o.models).map((m) => [idOf(m.name).replace(/^models\//, ""), m] as [string, ListedModel]),
  ];
}

/**
 * The fields a model list entry states the model's context window in, each as real answers show it:
 * vLLM's and SGLang's `max_model_len` (modal-labs/modal-examples#843; sgl-project/sglang#4809 copies
 * vLLM's name), OpenRouter's and Together's `context_length` (the model's own, not its
 * `top_provider.context_length`: OpenRouter routes a long prompt to a provider that takes it,
 * anomalyco/models.dev#2796; Together's `ModelInfo.context_length` in its OpenAPI spec), Groq's
 * `context_window` (anomalyco/models.dev#1276), Mistral's `max_context_length`
 * (simonw/llm-mistral#23), Gemini's `inputTokenLimit` and Anthropic's `max_input_tokens` (their
 * SDKs' Model types).
 */
const WINDOW_FIELDS = ["max_model_len", "context_length", "context_window", "max_context_length", "inputTokenLimit", "max_input_tokens"];

/** The context window a model list entry states (WINDOW_FIELDS, the first that holds a positive integer); undefined when none does. */
export function listedWindow(m: ListedModel | undefined): number | undefined {
  for (const key of WINDOW_FIELDS) {
    const v = m?.[key];
    if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}

/** The outcome of a request whose fetch threw: hey's NetError when a proxy refused (auth when it wanted credentials), else a network failure. */
export function thrown(e: unknown): Outcome & { ok: false } {
  if (!(e instanceof NetError)) return { ok: false, kind: "network", message: errorText(e) };
  return { ok: false, kind: e.kind === "proxy_auth" ? "auth" : "network", message: e.message, proxy: true };
}

/** The server's own words from an error body (any of its shapes: providers/error-words.ts), as one short line. */
export function shortBody(text: string): string {
  const line = oneLine(errorWords(text) ?? "");
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
