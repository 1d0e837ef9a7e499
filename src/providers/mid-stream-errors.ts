// An error reported inside a 200 answer, with no HTTP status to classify it by: an error chunk of a
// chat completions or Responses stream (openai-errors.ts), an Anthropic `event: error` of a type
// Anthropic does not have or of none (anthropic-errors.ts), a Gemini error chunk without the
// numeric code its SDK throws on (google-errors.ts) — or a whole 200 body holding an `error`, which
// create.ts hands each SDK as such a chunk. Every protocol reads them the same way: a status code
// in the body is that status (a Google status name is its HTTP status); else its code, type and
// words decide, as the documented last resort.
// Also the OpenRouter readings its HTTP errors share (quota words, the wait and reset it names). Pure.
import { ProviderError } from "../kernel/provider.ts";
import { formatWait } from "../kernel/retry.ts";
import { asObject, authMessage, type ErrorContext } from "./common.ts";
import { ceilingWords, contextOverflow } from "./context-length.ts";
import { parseRetryAfter, retryHintOf } from "./retry-after.ts";

/** An error body's fields read here; any of them may be missing or of another type. */
export type ErrorFields = Record<string, unknown>;

/**
 * The failure an in-answer error stands for, from its error object `body` and the server's words
 * `said` (`own`: the words that decide, when `said` adds a gateway's upstream's to them): a context
 * overflow; a spent quota or credit (final); a refused key or account ("Incorrect API key",
 * `authentication_error`, "expired", "suspended": auth, final, naming the key as a 401 does); a
 * request the server will refuse again ("model not found", a bad argument: a bad request, final);
 * anything else — a rate limit, an overload, a gateway's timeout or cut connection, or words not
 * known here — a server failure, retried after the wait the body names, as a failure with no HTTP
 * status always was. Words of a final failure decide unless the error also names a limit or an
 * overload: "Invalid API key. Please check your key and try again" is not retried. undefined when
 * the body carries a status (OpenRouter sends `{"code": 502}`, Gemini `{"status": "UNAVAILABLE"}`):
 * the caller classifies it as statusIn's. Pure.
 */
export function midStreamFailure(body: ErrorFields, said: string, ctx: ErrorContext, own = said): ProviderError | undefined {
  const overflow = contextOverflow(said, body);
  const what = overflow?.ceiling ? ceilingWords(overflow) : "the request is larger than the model's context window";
  if (overflow) return new ProviderError("context_length", `${what}: ${said}`, { overflow });
  if (statusIn(body) !== undefined) return undefined;
  if (isQuota(body, own)) return new ProviderError("quota_exhausted", `quota exhausted: ${said}${resetOf(body, ctx.now)}`);
  const words = wordsOf(body, own);
  if (!PASSING.test(words) && REFUSED_KEY.test(words)) return new ProviderError("auth", authMessage("mid-stream", said, ctx));
  if (!PASSING.test(words) && REFUSED.test(words)) return new ProviderError("bad_request", `the model failed mid-stream: ${said}`);
  const retryAfterMs = gatewayRetryAfter(body, ctx.now) ?? retryHintOf(said);
  return new ProviderError("overloaded", `the model failed mid-stream: ${said}`, retryAfterMs === undefined ? {} : { retryAfterMs });
}

/**
 * Words of a failure that passes, which outweigh any word of a final one ("API key rate limit
 * reached", "RPM limit exceeded for api key", "该令牌请求过于频繁", "Bad Gateway: invalid upstream
 * response"): a limit, a wait to retry after, an overload, a timeout, a server's own failure. Not "try again", "gateway", "connection" or "internal" alone: a refused key's or a
 * bad request's message says them too.
 */
const PASSING =
  /rate.?limit|limit (exceeded|reached)|usage.?limit|\b[RT]PM\b|requests per|too many requests|too frequent|retry (in|after)|please retry|overload|capacity|temporar|busy|time[ds]?.?out|deadline exceeded|\bEOF\b|bad.?gateway|service.?unavailable|internal.?server.?error|server_error|频繁|稍后|限流|过多/i;

/**
 * Words of a key or account the server refuses (as a 401 or 403 would): OpenAI's "Incorrect API
 * key provided" and `invalid_api_key`, Anthropic's `authentication_error`, gRPC's `unauthenticated`,
 * an expired, revoked or suspended key or account, one-api's and new-api's "无效的令牌" (invalid token).
 */
const REFUSED_KEY = new RegExp(
  [
    "authenticat|unauthori[sz]ed|forbidden|permission|access.?denied|credential|api.?key|secret.?key|bearer",
    "\\b(invalid|incorrect|expired|revoked|missing) (access |auth |api )?token\\b(?! ?(id|count|limit))",
    "\\b(account|key|token|organi[sz]ation|project|subscription)\\b.{0,40}\\b(expired|revoked|suspended|deactivated|disabled|banned|blocked)",
    "令牌|密钥|未授权|无权|封禁",
  ].join("|"),
  "i",
);

/** Words of a request the server will refuse again however often it is sent. */
const REFUSED =
  /not.?found|does not exist|no such|invalid|incorrect|unsupported|not supported|bad.?request|malformed|unknown (model|parameter|field|argument)|not allowed|denied|expired|revoked|suspended|banned|too (long|large|many)|policy|safety/i;

/**
 * Google's canonical status names (google.rpc.Code, as its error objects carry them in `status`)
 * as the HTTP status each stands for: RESOURCE_EXHAUSTED is Gemini's 429, a per-minute limit as
 * often as a spent quota, and its details decide which.
 */
const GOOGLE_STATUS: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** The HTTP status an error body names: a numeric code of 400-599, else a Google status name; undefined when it names none. Pure. */
export function statusIn(body: ErrorFields): number | undefined {
  const code = Number(body.code);
  if (code >= 400 && code < 600) return code;
  return typeof body.status === "string" ? GOOGLE_STATUS[body.status] : undefined;
}

/**
 * The wait a gateway names inside the error body when its HTTP headers name none, or when there
 * are no headers (an error chunk in a 200 stream): OpenRouter's `metadata.retry_after_seconds`,
 * else the upstream's `Retry-After` it copies into `metadata.headers`. Its limit's reset time is
 * not one: only a 429's, and only after the wait its words state (limitReset).
 */
export function gatewayRetryAfter(body: ErrorFields, now: number | undefined): number | undefined {
  const meta = asObject(body.metadata);
  const seconds = meta?.retry_after_seconds;
  if (typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const get = metadataHeaders(body);
  return get && parseRetryAfter(get, now ?? Date.now());
}

/**
 * The wait until the limit a 429 hit resets, when it names no other: `X-RateLimit-Reset` of the
 * response (`get`), else of the upstream headers a gateway copies into the body (OpenRouter's
 * free-models-per-min 429 says nothing else of when to try again). `serverNow`: the response's own
 * `Date` when it has one (serverClock), so a local clock behind the server's does not stretch a
 * per-minute limit past what hey waits.
 */
export function limitReset(body: ErrorFields, get: (name: string) => string | null | undefined, serverNow: number | undefined): number | undefined {
  const upstream = metadataHeaders(body);
  return resetWait(get, serverNow) ?? (upstream && resetWait(upstream, serverNow));
}

/** The server's time by its response's `Date` header (`get`), else `now` (the local clock). */
export function serverClock(get: (name: string) => string | null | undefined, now: number | undefined): number | undefined {
  const date = Date.parse(get("date") ?? "");
  return Number.isFinite(date) ? date : now;
}

/** A reader of the upstream headers a gateway copies into the error body's `metadata.headers`, any case; undefined when there are none. */
function metadataHeaders(body: ErrorFields): ((name: string) => string | undefined) | undefined {
  const headers = asObject(asObject(body.metadata)?.headers);
  if (!headers) return undefined;
  return (name: string) => {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    const v = key === undefined ? undefined : headers[key];
    return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
  };
}

/** Past this a reset time is taken as no time at all: a misread stamp, or a clock far off the server's (a daily limit resets within it). */
const RESET_HORIZON_MS = 25 * 60 * 60_000;

/**
 * The milliseconds until a rate limit resets, from `X-RateLimit-Reset` (`get` reads a header by
 * its lower-case name): epoch milliseconds as OpenRouter sends it, or epoch seconds as some
 * gateways do. Undefined when it names no time to come (a delta of seconds reads as a past time)
 * or one past RESET_HORIZON_MS, and when `X-RateLimit-Remaining` says requests are left: the
 * header is then about another limit than the one hit (an hourly count beside a per-minute one).
 */
export function resetWait(get: (name: string) => string | null | undefined, now: number | undefined): number | undefined {
  const remaining = get("x-ratelimit-remaining");
  if (remaining !== null && remaining !== undefined && remaining.trim() !== "" && Number(remaining) > 0) return undefined;
  const stamp = Number(get("x-ratelimit-reset") ?? Number.NaN);
  const at = stamp < 1e11 ? stamp * 1000 : stamp;
  const wait = at - (now ?? Date.now());
  return Number.isFinite(wait) && wait > 0 && wait <= RESET_HORIZON_MS ? Math.ceil(wait) : undefined;
}

function wordsOf(body: ErrorFields, said: string): string {
  return [body.code, body.type, said].filter((w) => typeof w === "string").join(" ");
}

/**
 * `insufficient_quota` (OpenAI), billing/credit wording from gateways, or OpenRouter's daily cap on
 * free models ("Rate limit exceeded: free-models-per-day", also "…-per-day-high-balance", which
 * names no credits; openrouter.ai/docs/api/reference/limits): retrying cannot help. Not a
 * `rate_limit_exceeded` code, nor words only in a link: Groq's per-minute 429 (code
 * rate_limit_exceeded) ends "Need more tokens? Upgrade to Dev Tier today at
 * https://console.groq.com/settings/billing" (continuedev/continue#10920, elizaOS/eliza#4040).
 */
export function isQuota(body: ErrorFields, said: string): boolean {
  if (body.code === "rate_limit_exceeded") return false;
  return /insufficient_quota|quota|billing|credit|free-models-per-day|额度|余额/i.test(wordsOf(body, said).replace(/https?:\/\/\S+/g, ""));
}

/**
 * When a spent limit comes back, as a clause for its message: OpenRouter copies its
 * `X-RateLimit-Reset` (epoch milliseconds) into `metadata.headers` of the free-models-per-day 429,
 * beside X-RateLimit-Limit and -Remaining (Gitlawb/openclaude#936, Avarok-Cybersecurity/atlas#543).
 * "" when the body names no future reset.
 */
export function resetOf(body: ErrorFields, now: number | undefined): string {
  const get = metadataHeaders(body);
  const wait = get && resetWait(get, now);
  return wait === undefined ? "" : ` — the limit resets in ${formatWait(wait)}`;
}
