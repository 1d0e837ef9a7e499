// How a failure of the `openai` SDK is classified, for both OpenAI protocols (chat completions and
// Responses): the HTTP status and headers of its APIError, else the error chunk a stream carried.
// Pure; the SDK's error classes are duck-typed, never imported.
import { ProviderError } from "../kernel/provider.ts";
import { contextOverflow } from "./context-length.ts";
import { classifyFailure, netFailure, networkError, retryAfterOf, sdkWords } from "./common.ts";
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
  const body = typeof err.error === "object" && err.error !== null ? (err.error as ErrorShape) : {};
  const said = providerMessage(err, body);
  let status = typeof err.status === "number" ? err.status : undefined;

  if (status === undefined) {
    if (err.error === undefined) return networkError(said, err.cause, ctx.baseUrl);
    // An SSE `data: {"error": …}` chunk mid-stream: no HTTP status. A numeric code is one (OpenRouter
    // sends {"code": 502}); else, as a documented last resort, the code/type/message words decide.
    const code = Number(body.code);
    const overflow = contextOverflow(said, body as Record<string, unknown>);
    if (overflow) return new ProviderError("context_length", `the request is larger than the model's context window: ${said}`, { overflow });
    if (code >= 400 && code < 600) status = code;
    else if (isQuota(body, said)) return new ProviderError("quota_exhausted", `quota exhausted: ${said}`);
    else if (/rate.?limit|overload|server_error|internal|unavailable|capacity|timeout/i.test(wordsOf(body, said)))
      return new ProviderError("overloaded", `the model failed mid-stream: ${said}`);
    else return new ProviderError("bad_request", `the model failed mid-stream: ${said}`);
  }

  const retryAfterMs = retryAfterOf(err.headers, ctx.now);
  const quota = status === 402 || (status === 429 && isQuota(body, said));
  return classifyFailure({ status, said, quota, body: body as Record<string, unknown>, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }, ctx);
}

/** The provider's own words: the body's message, else the SDK's message minus its status prefix. */
function providerMessage(err: ErrorShape, body: ErrorShape): string {
  if (typeof body.message === "string" && body.message) return body.message;
  return sdkWords(err.message);
}

function wordsOf(body: ErrorShape, said: string): string {
  return [body.code, body.type, said].filter((w) => typeof w === "string").join(" ");
}

/** `insufficient_quota` (OpenAI), or billing/credit wording from gateways: retrying cannot help. */
function isQuota(body: ErrorShape, said: string): boolean {
  return /insufficient_quota|quota|billing|credit/i.test(wordsOf(body, said));
}
