// How a failure of the `openai` SDK is classified, for both OpenAI protocols (chat completions and
// Responses): the HTTP status and headers of its APIError, else the error chunk a stream carried.
// Pure; the SDK's error classes are duck-typed, never imported.
import { ProviderError } from "../kernel/provider.ts";
import { affordableTokens } from "./afford.ts";
import { asObject, classifyFailure, headerReader, netFailure, networkError, retryAfterOf, sdkWords } from "./common.ts";
import { errorWords } from "./error-words.ts";
import { failedCallOf } from "./failed-call.ts";
import { googleFailure, type GoogleError } from "./google-errors.ts";
import { gatewayRetryAfter, isQuota, limitReset, midStreamFailure, resetOf, serverClock, statusIn, type ErrorFields } from "./mid-stream-errors.ts";
import { retryHintOf } from "./retry-after.ts";
import type { ErrorContext } from "./common.ts";

/** The fields of the SDK's APIError we read, duck-typed: class names do not survive --minify. */
interface ErrorShape {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  code?: unknown;
  type?: unknown;
  message?: unknown;
  cause?: unknown;
}

/**
 * Classifies any failure of a request or stream into a ProviderError, once, from the status, the
 * headers and the body. Pure; never throws. An error without a status and without a body
 * (APIConnectionError, APIConnectionTimeoutError, a socket error while reading) is "network".
 */
export function toProviderError(e: unknown, ctx: ErrorContext): ProviderError {
  if (e instanceof ProviderError) return e;
  const net = netFailure(e);
  if (net) return net;
  const err: ErrorShape = typeof e === "object" && e !== null ? e : { message: String(e) };
  const google = googleErrorIn(err);
  if (google && typeof err.status === "number") {
    const said = typeof google.message === "string" && google.message ? google.message : sdkWords(err.message);
    return classifyFailure(googleFailure(err.status, said, google, retryAfterOf(err.headers, ctx.now)), ctx);
  }
  const body: ErrorFields = typeof err.error === "object" && err.error !== null ? (err.error as ErrorFields) : {};
  const own = providerMessage(err);
  const upstream = gatewayWords(body);
  const said = upstream ? `${own} (${upstream})` : own;
  let status = typeof err.status === "number" ? err.status : undefined;
  // the model's own malformed call, whatever the status (Groq's 400, Ollama's and llama-server's 500): it is asked to make it again
  const failedCall = failedCallOf(body, own);
  if (failedCall) return new ProviderError("bad_request", `the model's tool call could not be parsed: ${said}`, { ...(status ? { status } : {}), failedCall });

  if (status === undefined) {
    if (err.error === undefined) return networkError(said, err.cause, ctx.baseUrl);
    // An SSE `data: {"error": …}` chunk mid-stream: no HTTP status. A numeric code is one (OpenRouter
    // sends {"code": 502}); else the code/type/message words decide (mid-stream-errors.ts).
    const failure = midStreamFailure(body, said, ctx, own);
    if (failure) return failure;
    status = statusIn(body) as number;
  }

  // a 429's limit reset time last, after any wait the server states: OpenRouter's per-minute 429 names no other (limitReset)
  const now = serverClock(headerReader(err.headers), ctx.now);
  const stated = retryAfterOf(err.headers, ctx.now) ?? gatewayRetryAfter(body, ctx.now) ?? (status === 429 ? retryHintOf(said) : undefined);
  const reset = status === 429 && stated === undefined ? limitReset(body, headerReader(err.headers), now) : undefined;
  const retryAfterMs = stated ?? reset;
  // the gateway's own words decide: an upstream's 429 may say "check quota" of a per-minute limit
  // but OpenRouter's "fewer max_tokens … can only afford N": a lower max_tokens is answered (ui/setup-help.ts names it)
  const quota = (status === 402 && affordableTokens(own) === undefined) || (status === 429 && isQuota(body, own));
  return classifyFailure(
    {
      status,
      // a retry's line says when the limit resets too, unless that is the wait: the retry's and give-up's lines say it (kernel/retry.ts)
      said: quota || (status === 429 && reset === undefined) ? `${said}${resetOf(body, now)}` : said,
      quota,
      body,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    },
    ctx,
  );
}

/**
 * The error object of a body shaped as Gemini's OpenAI-compatible endpoint sends it, Google's own
 * error in a one-element array: `[{"error": {"code": 429, "message": "Resource has been exhausted
 * (e.g. check quota).", "status": "RESOURCE_EXHAUSTED"}}]` (n4ze3m/page-assist#406; with `details`,
 * bytedance/deer-flow#1515). The SDK keeps the whole array as the error; undefined for any other body.
 */
function googleErrorIn(err: ErrorShape): GoogleError | undefined {
  if (!Array.isArray(err.error)) return undefined;
  return asObject(asObject(err.error[0])?.error);
}

/**
 * The provider's own words: the message of its error body in whatever shape it came (error-words.ts),
 * else the SDK's message minus its status prefix (a body that is no JSON: text, an HTML page, nothing).
 */
function providerMessage(err: ErrorShape): string {
  return errorWords(err.error) ?? sdkWords(err.message);
}

/**
 * What OpenRouter's error says of the model's own provider: `metadata.raw`, the upstream's error
 * (its body as a string, or its words), after `metadata.provider_name` — the `message` is only
 * "Provider returned error" (openrouter.ai/docs/api/reference/errors-and-debugging; a recorded 429:
 * `{"message":"Provider returned error","code":429,"metadata":{"raw":"meta-llama/…:free is
 * temporarily rate-limited upstream. Please retry shortly, …","provider_name":"Venice",
 * "retry_after_seconds":17,"headers":{"Retry-After":"17"}}}`). Undefined without a `raw`.
 */
function gatewayWords(body: ErrorShape): string | undefined {
  const meta = asObject((body as { metadata?: unknown }).metadata);
  const raw = meta?.raw;
  if (raw === undefined || raw === null || raw === "") return undefined;
  const text = errorWords(raw) ?? JSON.stringify(raw);
  return typeof meta?.provider_name === "string" && meta.provider_name ? `${meta.provider_name}: ${text}` : text;
}
