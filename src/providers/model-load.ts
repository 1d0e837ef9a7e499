// A model server that is loading the model, or cannot: in its own words, read as the documented
// last resort (no protocol has a field for either). Loading is waited for (kernel/retry.ts, kind
// "loading"), not retried as a failing server; a model that does not fit in memory is final, and
// the message says what to change. Pure.
import { ProviderError } from "../kernel/provider.ts";

/**
 * A server still loading the model: llama-server's 503 `{"error":{"code":503,"message":"Loading
 * model","type":"unavailable_error"}}` (its tools/server/README.md, every endpoint while it loads),
 * Hugging Face TGI and Inference Endpoints' 503 "Model … is currently loading". Ollama and LM Studio
 * hold the request until the model is loaded instead (a silence: create.ts says so).
 */
const LOADING = /^loading model\b|\bmodel (?:\S+ )?is (?:currently |still )?loading\b/i;

/**
 * A model too large for the memory the server has: Ollama's 500 "model requires more system memory
 * (10.2 GiB) than is available (6.0 GiB)" (ollama/ollama#10920), a runner's "out of memory"
 * ("cudaMalloc failed: out of memory"), "insufficient memory", "failed to allocate … buffer".
 */
const NO_MEMORY = /requires more (?:system |gpu )?memory|out of memory|insufficient (?:system )?memory|not enough memory|(?:failed|unable) to allocate/i;

/** What to change when the model does not fit: a context costs memory as it grows, on every server. */
const NO_MEMORY_HINT =
  " — the model does not fit in the server's memory, and asking again only makes it try to load once more: use a smaller model (or a smaller quantization of it) or a smaller context, which costs memory as it grows (Ollama: OLLAMA_CONTEXT_LENGTH; llama-server: -c), or free memory on that machine";

/**
 * The error of a 5xx whose words say the model is loading (kind "loading") or does not fit in
 * memory (final, kind "bad_request"); undefined for any other. `where` names the status; `opts`
 * carries the status and the server's Retry-After, for the wait.
 */
export function modelLoadError(status: number, said: string, where: string, opts: { status?: number; retryAfterMs?: number }): ProviderError | undefined {
  if (status < 500) return undefined;
  if (LOADING.test(said)) return new ProviderError("loading", `the server is still loading the model ${where}: ${said}`, opts);
  if (NO_MEMORY.test(said))
    return new ProviderError("bad_request", `the server cannot load the model ${where}: ${said}${NO_MEMORY_HINT}`, { status: opts.status });
  return undefined;
}
