// How long an endpoint keeps a prompt prefix it cached (issue 23): context/cache.ts takes a prefix
// older than that as gone, so the rewrites it held back to keep the prefix cost nothing then. Too
// short turns a ~90 % cache hit into a full miss; too long sends the held-back content once more at
// full price, a fraction of the context. So the lifetime is the vendor's where it is documented,
// and generous where it is not. Pure.
import type { Protocol } from "../kernel/ir.ts";
import { takesCacheMarks } from "./chat-cache-marks.ts";

/** Anthropic's cache (`cache_control: {type: "ephemeral"}`, no `ttl`: the default), refreshed on each hit. */
export const ANTHROPIC_CACHE_MS = 5 * 60_000;
/**
 * api.openai.com: extended retention (24 h) is the default for gpt-5.5 and newer, and for older
 * models that support it (gpt-4.1, gpt-5.x) in organisations without zero data retention; hey sends
 * no `prompt_cache_retention`. The in-memory cache of the rest goes within the hour.
 */
export const OPENAI_CACHE_MS = 24 * 60 * 60_000;
/**
 * Every other endpoint: OpenAI's in-memory cache is removed within an hour at most, DeepSeek's disk
 * cache lives hours, Gemini's implicit caching states no lifetime, and a local server (llama.cpp,
 * vLLM, Ollama) keeps a prefix until other requests evict it.
 */
export const DEFAULT_CACHE_MS = 60 * 60_000;

/**
 * The prompt-cache lifetime of an endpoint (Provider.cacheLifetimeMs): Anthropic's, on its API or
 * on a chat-completions gateway in front of Claude that is sent its breakpoints (`cacheControl`:
 * `[provider.X] cache_control`, else openai.ts's default); OpenAI's on api.openai.com; else DEFAULT_CACHE_MS.
 */
export function cacheLifetimeOf(e: { protocol: Protocol; baseUrl: string; model: string; cacheControl?: boolean | undefined }): number {
  const host = URL.canParse(e.baseUrl) ? new URL(e.baseUrl).hostname : "";
  if (e.protocol === "anthropic") return ANTHROPIC_CACHE_MS;
  if (e.protocol === "openai" && (e.cacheControl ?? takesCacheMarks(host, e.model))) return ANTHROPIC_CACHE_MS;
  if ((e.protocol === "openai" || e.protocol === "responses") && host === "api.openai.com") return OPENAI_CACHE_MS;
  return DEFAULT_CACHE_MS;
}
