// How a failure of `@google/genai` is classified: its ApiError carries only a status and the JSON
// body in its message, so Google's error details (RetryInfo, QuotaFailure, ErrorInfo) decide, and
// the headers come from the factory's fetch wrapper. Pure; the SDK's error class is duck-typed,
// never imported.
import { ProviderError } from "../kernel/provider.ts";
import { asObject, classifyFailure, netFailure, networkError, retryAfterOf } from "./common.ts";
import { errorWords } from "./error-words.ts";
import { midStreamFailure, statusIn } from "./mid-stream-errors.ts";
import type { ErrorContext as CommonErrorContext, Failure } from "./common.ts";

export interface ErrorContext extends CommonErrorContext {
  /** The failed response's headers, when one arrived: a gateway may send Retry-After. */
  headers?: Headers;
}

/** `{error: {code, message, status, details}}`, Google's error body. */
export interface GoogleError {
  code?: unknown;
  message?: unknown;
  status?: unknown;
  details?: unknown;
}

/**
 * Classifies any failure into a ProviderError, once. Pure; never throws. The SDK's ApiError has
 * only `status` and a `message` holding the JSON body (prefixed with "got status: X. " for an
 * error chunk mid-stream); it has no headers. An error without a status is "network": a refused
 * connection, a reset, or a stream whose last bytes were no SSE event ("Incomplete JSON segment
 * at the end": midstream-503-unframed-error.fragment.sse read in one piece).
 */
export function toProviderError(e: unknown, ctx: ErrorContext): ProviderError {
  if (e instanceof ProviderError) return e;
  const net = netFailure(e);
  if (net) return net;
  const err = asObject(e) ?? { message: String(e) };
  const raw = typeof err.message === "string" ? err.message : String(e);
  const body = parseErrorBody(raw);
  const said = typeof body?.message === "string" && body.message ? body.message.trim() : raw || "(no message)";
  const status = typeof err.status === "number" ? err.status : undefined;
  if (status === undefined) return networkError(said, err.cause, ctx.baseUrl);

  return classifyFailure(googleFailure(status, said, body, retryAfterOf(ctx.headers, ctx.now)), ctx);
}

/**
 * The failure an error chunk the SDK let through stands for (google-finish.ts errorChunkOf: an
 * `error` without a numeric code): read by its code and words as every protocol reads an error
 * inside a 200 answer (mid-stream-errors.ts), the server's words in the message. Pure.
 */
export function errorChunkFailure(chunk: Record<string, unknown>, ctx: ErrorContext): ProviderError {
  const body = asObject(chunk.error) ?? {};
  const said = errorWords(chunk) ?? JSON.stringify(chunk);
  return midStreamFailure(body, said, ctx) ?? classifyFailure(googleFailure(statusIn(body) as number, said, body, undefined), ctx);
}

/**
 * The Failure of a Google error object (`{code, message, status, details}`) with HTTP `status`:
 * its details decide the key, the quota and the wait (a RetryInfo delay wins over `headerDelay`,
 * the response's Retry-After). Also read for Gemini's OpenAI-compatible endpoint, which answers
 * with the same objects (openai-errors.ts). Pure.
 */
export function googleFailure(status: number, said: string, body: GoogleError | undefined, headerDelay: number | undefined): Failure {
  const details = Array.isArray(body?.details) ? body.details.map(asObject) : [];
  const detail = (type: string) => details.filter((d): d is Record<string, unknown> => d?.["@type"] === `type.googleapis.com/google.rpc.${type}`);
  const delay = detail("RetryInfo")
    .map((d) => parseRetryDelay(d.retryDelay))
    .find((ms) => ms !== undefined);
  const retryAfterMs = delay ?? headerDelay;
  return {
    status,
    said,
    // A bad key is a 400 INVALID_ARGUMENT with reason API_KEY_INVALID on the Gemini API.
    badKey: detail("ErrorInfo").some((d) => d.reason === "API_KEY_INVALID"),
    quota: status === 429 && isQuotaExhausted(said, detail("QuotaFailure"), delay !== undefined),
    hosted: true,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** The `error` object of the JSON in an ApiError message, if any. */
function parseErrorBody(message: string): GoogleError | undefined {
  const start = message.indexOf("{");
  if (start < 0) return undefined;
  try {
    return asObject(asObject(JSON.parse(message.slice(start)))?.error);
  } catch {
    return undefined;
  }
}

/**
 * Gemini says "You exceeded your current quota" for per-minute limits too, so those words alone
 * decide nothing. A per-minute limit comes with RetryInfo (error-429-retry-info.json: quotaId
 * …PerMinute…, retryDelay "34.4s") and is a rate limit. It is exhausted when a QuotaFailure names
 * a daily window (quotaId/quotaMetric "…PerDay…"), when the plan has none for this model
 * ("limit: 0"), or when the quota wording comes without any retry delay: that is the daily quota,
 * which "is sticky and only resets midnight" (error-429-resource-exhausted.json, from
 * gke-labs/gemini-for-kubernetes-development#1215). Vertex's "Resource has been exhausted (e.g.
 * check quota)" is its shared-capacity limit: a rate limit.
 */
function isQuotaExhausted(said: string, failures: Record<string, unknown>[], hasDelay: boolean): boolean {
  const windows = failures.flatMap((f) => (Array.isArray(f.violations) ? f.violations : [])).map((v) => JSON.stringify(v));
  if (windows.some((w) => /PerDay/i.test(w))) return true;
  if (/\blimit: 0\b/.test(said)) return true;
  return /exceeded your current quota/i.test(said) && !hasDelay;
}

/** google.protobuf.Duration in JSON: "34.4s" → 34400. */
function parseRetryDelay(value: unknown): number | undefined {
  const m = typeof value === "string" ? /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(value) : null;
  return m ? Math.ceil(Number(m[1]) * 1000) : undefined;
}
