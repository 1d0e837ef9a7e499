// How a failure of `@anthropic-ai/sdk` is classified: the HTTP status and headers of its APIError,
// or the error type of an `event: error` inside a stream. Pure; the SDK's error classes are
// duck-typed, never imported.
import { ProviderError } from "../kernel/provider.ts";
import { classifyFailure, headerReader, netFailure, networkError, retryAfterOf, sdkWords } from "./common.ts";
import { errorWords } from "./error-words.ts";
import { midStreamFailure, statusIn } from "./mid-stream-errors.ts";
import type { ErrorContext } from "./common.ts";

/** The fields of the SDK's APIError we read, duck-typed: class names do not survive --minify. */
interface ErrorShape {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The HTTP status each Anthropic error type stands for, to classify an in-stream `event: error` like a response. */
const TYPE_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * Classifies any failure of a request or stream into a ProviderError, once, from the status, the
 * headers and the body `{type: "error", error: {type, message}}`. Pure; never throws.
 * - No status and no body (APIConnectionError, a reset while reading) → network.
 * - An `event: error` inside a 200 stream has a body but no status: its error type stands for
 *   one (overloaded_error and api_error → overloaded, rate_limit_error → rate_limit, a type
 *   Anthropic has not listed yet → a server error); one with no type is read by its code and
 *   words (mid-stream-errors.ts).
 * - A 5xx with `x-should-retry: false` is not retried: the server says it would fail again. The
 *   header is not trusted the other way (a 4xx stays unretried whatever it says).
 */
export function toProviderError(e: unknown, ctx: ErrorContext): ProviderError {
  if (e instanceof ProviderError) return e;
  const net = netFailure(e);
  if (net) return net;
  const err: ErrorShape = isObject(e) ? e : { message: String(e) };
  const inStream = typeof err.status !== "number";
  if (inStream && err.error === undefined) return networkError(typeof err.message === "string" ? err.message : "", err.cause, ctx.baseUrl);
  const { type, said, inner } = errorBody(err);
  let status = typeof err.status === "number" ? err.status : type === undefined ? undefined : (TYPE_STATUS[type] ?? 500);
  if (status === undefined) {
    // no type at all: not Anthropic's shape but a gateway's or a local server's own (a whole 200
    // body holding an error comes as this event too), read as every protocol reads an error chunk
    // rather than taken for a server error to retry ("model not found" was retried 5 times)
    const failure = midStreamFailure(inner, said, ctx);
    if (failure) return failure;
    status = statusIn(inner) as number;
  }
  const retryAfterMs = retryAfterOf(err.headers, ctx.now);
  return classifyFailure(
    {
      status,
      said,
      where: inStream ? `mid-stream (${type ?? "unknown error"})` : `(${status})`,
      quota: status === 402 || type === "billing_error" || isQuota(status, said),
      final: !inStream && headerReader(err.headers)("x-should-retry") === "false",
      noStatus: inStream,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    },
    ctx,
  );
}

/**
 * The error type and the provider's own words: Anthropic nests them in `error`; some gateways do
 * not, and the local servers with an Anthropic endpoint (LM Studio, llama-server) send their own
 * shapes (error-words.ts reads them all).
 */
function errorBody(err: ErrorShape): { type: string | undefined; said: string; inner: Record<string, unknown> } {
  const body = isObject(err.error) ? err.error : {};
  const inner = isObject(body.error) ? body.error : body;
  const type = typeof inner.type === "string" && inner.type !== "error" ? inner.type : undefined; // "error" is the envelope's type, never an error's
  return { type, said: errorWords(err.error) ?? sdkWords(err.message), inner };
}

/**
 * Retrying cannot help: billing/credit/quota wording on a 429, or Anthropic's 400 "Your credit
 * balance is too low to access the Anthropic API" (anthropics/claude-code#4684). Text matching
 * is the documented last resort here: neither carries a distinct type or code.
 */
function isQuota(status: number, said: string): boolean {
  if (status === 429) return /quota|billing|credit/i.test(said);
  return status === 400 && /credit balance/i.test(said);
}
