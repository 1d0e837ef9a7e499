// toProviderError as a table: what each failure shape of the openai SDK is classified as.
import { describe, expect, test } from "bun:test";
import type { ProviderErrorKind } from "../../src/kernel/provider.ts";
import { retryDecision } from "../../src/kernel/retry.ts";
import { toProviderError } from "../../src/providers/openai-errors.ts";

const NOW = Date.parse("Wed, 02 Dec 2026 12:00:00 GMT");
const ctx = { baseUrl: "https://api.example.test/v1", keyVar: "EXAMPLE_API_KEY", now: NOW };

/** The fields of the SDK's APIError, as it builds them from an HTTP error response. */
const apiError = (status: number | undefined, body?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`${status ?? ""} ${String(body?.message ?? "")}`.trim()), {
    status,
    headers: new Headers(headers),
    error: body,
    code: body?.code,
    type: body?.type,
  });

/** [what fails, the error, the kind it is classified as, the Retry-After delay it carries] */
const CASES: [string, unknown, ProviderErrorKind, number | undefined][] = [
  ["401", apiError(401, { message: "bad key" }), "auth", undefined],
  ["403", apiError(403, { message: "forbidden" }), "auth", undefined],
  ["402 payment required", apiError(402, { message: "Insufficient credits" }), "quota_exhausted", undefined],
  // OpenRouter's, with no max_tokens sent: a lower max_tokens is answered (ui/setup-help.ts names it); a credit as good as spent is spent
  [
    "402 'fewer max_tokens … can only afford 1203'",
    apiError(402, {
      message: "This request requires more credits, or fewer max_tokens. You requested up to 64000 tokens, but can only afford 1203.",
      code: 402,
    }),
    "bad_request",
    undefined,
  ],
  [
    "402 'fewer max_tokens … can only afford 90'",
    apiError(402, { message: "This request requires more credits, or fewer max_tokens. You requested up to 64000 tokens, but can only afford 90.", code: 402 }),
    "quota_exhausted",
    undefined,
  ],
  ["429 plain", apiError(429, { message: "slow down" }, { "retry-after-ms": "1500" }), "rate_limit", 1500],
  ["429 with an HTTP date", apiError(429, { message: "slow down" }, { "retry-after": "Wed, 02 Dec 2026 12:01:00 GMT" }), "rate_limit", 60_000],
  ["429 insufficient_quota code", apiError(429, { message: "You exceeded…", code: "insufficient_quota" }), "quota_exhausted", undefined],
  ["429 billing wording", apiError(429, { message: "Your credit balance is too low" }), "quota_exhausted", undefined],
  ["408", apiError(408, { message: "timeout" }), "network", undefined],
  ["400", apiError(400, { message: "bad" }), "bad_request", undefined],
  ["404", apiError(404, { message: "model not found" }), "bad_request", undefined],
  ["413", apiError(413, { message: "too large" }), "bad_request", undefined],
  ["422", apiError(422, { message: "unprocessable" }), "bad_request", undefined],
  ["500", apiError(500, { message: "oops" }), "overloaded", undefined],
  ["529", apiError(529, { message: "overloaded" }, { "retry-after": "4" }), "overloaded", 4000],
  ["an unknown 5xx", apiError(599, undefined), "overloaded", undefined],
  ["APIConnectionError shape (no status, no body)", apiError(undefined, undefined), "network", undefined],
  ["a socket error while reading", Object.assign(new TypeError("The socket connection was closed unexpectedly"), { code: "ECONNRESET" }), "network", undefined],
  ["a mid-stream error chunk, server_error", apiError(undefined, { message: "boom", type: "server_error" }), "overloaded", undefined],
  ["a mid-stream error chunk, insufficient_quota", apiError(undefined, { message: "no", code: "insufficient_quota" }), "quota_exhausted", undefined],
  ["a mid-stream error chunk, unknown words", apiError(undefined, { message: "nope", type: "invalid_request_error" }), "bad_request", undefined],
  ["a thrown string", "weird", "network", undefined],
];
const titled = CASES.map(([name, error, kind, retryAfterMs]) => ({
  title: `${name} → ${kind}${retryAfterMs === undefined ? "" : ` after ${retryAfterMs} ms`}`,
  error,
  kind,
  retryAfterMs,
}));

test.each(titled)("$title", ({ error, kind, retryAfterMs }) => {
  const err = toProviderError(error, ctx);
  expect(err.kind).toBe(kind);
  expect(err.retryAfterMs).toBe(retryAfterMs);
});

test("a bad request carries the provider's words; a 404 also names the base URL", () => {
  expect(toProviderError(apiError(422, { message: "messages[3]: bad role" }), ctx).message).toBe("request rejected (422): messages[3]: bad role");
  expect(toProviderError(apiError(404, { message: "The model `gpt-9` does not exist" }), ctx).message).toContain("https://api.example.test/v1");
});

test("a body without a message falls back to the SDK's text, minus its status prefix", () => {
  const e = Object.assign(new Error("502 Bad Gateway"), { status: 502, headers: new Headers(), error: undefined });
  expect(toProviderError(e, ctx).message).toBe("the provider is failing (502): Bad Gateway");
});

test.each([
  { name: "a key from a known variable", context: { ...ctx }, message: "authentication failed (401): bad key — check EXAMPLE_API_KEY" },
  { name: "a key from no known variable", context: { baseUrl: ctx.baseUrl }, message: "authentication failed (401): bad key — check the provider's api_key" },
  {
    name: "no key",
    context: { ...ctx, hasKey: false },
    message:
      "authentication failed (401): bad key — no API key was sent to https://api.example.test/v1; set EXAMPLE_API_KEY (api_key in the provider's config, --api-key or HEY_API_KEY)",
  },
])("auth messages say what to fix: $name → $message", ({ context, message }) => {
  expect(toProviderError(apiError(401, { message: "bad key" }), context).message).toBe(message);
});

describe("OpenRouter", () => {
  // A recorded 429 of a :free model (the body as one client logged it): OpenRouter's own message
  // says nothing; the upstream's words and the wait are in `metadata`, not in the HTTP headers.
  const upstream429 = {
    message: "Provider returned error",
    code: 429,
    metadata: {
      raw: "meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations",
      provider_name: "Venice",
      is_byok: false,
      retry_after_seconds: 17,
      retry_after_seconds_raw: 16.007,
      headers: { "Retry-After": "17" },
    },
  };

  test("an upstream's 429: its words and its provider are said, and its wait in metadata is kept", () => {
    const err = toProviderError(apiError(429, upstream429), ctx);
    expect(err.kind).toBe("rate_limit");
    expect(err.retryAfterMs).toBe(17_000);
    expect(err.message).toStartWith(
      "rate limited (429): Provider returned error (Venice: meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream.",
    );
    // a header of the response itself wins
    expect(toProviderError(apiError(429, upstream429, { "retry-after": "3" }), ctx).retryAfterMs).toBe(3000);
    // only the upstream's copied Retry-After
    const copied = { ...upstream429, metadata: { raw: "busy", headers: { "retry-after": "9" } } };
    expect(toProviderError(apiError(429, copied), ctx).retryAfterMs).toBe(9000);
  });

  test("the same error as a chunk of a 200 stream: its code is the status, its wait is kept", () => {
    const err = toProviderError(apiError(undefined, upstream429), ctx);
    expect(err).toMatchObject({ kind: "rate_limit", retryAfterMs: 17_000 });
    expect(err.message).toContain("Venice: meta-llama");
  });

  test("an upstream's error body held as a JSON string is quoted by its message", () => {
    const raw = JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "tools: Tool names must be unique." } });
    const err = toProviderError(apiError(400, { message: "Provider returned error", code: 400, metadata: { raw, provider_name: "Anthropic" } }), ctx);
    expect(err.message).toBe("request rejected (400): Provider returned error (Anthropic: tools: Tool names must be unique.)");
  });

  test("an upstream that says 'check quota' of a per-minute limit is still retried: OpenRouter's own words decide", () => {
    const body = {
      message: "Provider returned error",
      code: 429,
      metadata: { raw: "Resource has been exhausted (e.g. check quota).", provider_name: "Google AI Studio" },
    };
    expect(toProviderError(apiError(429, body), ctx).kind).toBe("rate_limit");
  });

  test("the per-minute cap on free models is waited until it resets, as its X-RateLimit-Reset says, and the line says when", () => {
    const perMinute = (resetMs: number) => ({
      message: "Rate limit exceeded: free-models-per-min. ",
      code: 429,
      metadata: { headers: { "X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(NOW + resetMs) } },
    });
    const err = toProviderError(apiError(429, perMinute(45_000)), ctx);
    expect(err).toMatchObject({ kind: "rate_limit", retryAfterMs: 45_000 });
    // the reset is the wait, which the retry's line ("retrying in 45 s") and the give-up's say: not said twice (x161 #4)
    expect(err.message).toBe("rate limited (429): Rate limit exceeded: free-models-per-min.");
    // a wait the server states otherwise: the reset is said beside it
    const stated = toProviderError(apiError(429, perMinute(150_000), { "retry-after": "20" }), ctx);
    expect(stated).toMatchObject({
      retryAfterMs: 20_000,
      message: "rate limited (429): Rate limit exceeded: free-models-per-min. — the limit resets in 3 min",
    });
    const policy = { enabled: true, maxRetries: 5, baseDelayMs: 2000, maxDelayMs: 60_000, jitter: true, respectRetryAfter: true };
    const wait = retryDecision(err, 1, policy, () => 0.5);
    expect(wait.retry && wait.delayMs).toBeGreaterThanOrEqual(45_000);
    // a reset later than hey waits: said at once, not after five requests that cannot succeed
    const late = retryDecision(toProviderError(apiError(429, perMinute(150_000)), ctx), 1, policy);
    expect(late).toEqual({
      retry: false,
      why: "the server allows the next try in 3 min, longer than hey waits ([retry] max_delay_ms = 60000)",
      waitTooLong: true,
    });
    // the same header on the response itself (epoch seconds too); a reset in the past names no wait
    expect(toProviderError(apiError(429, { message: "slow down" }, { "x-ratelimit-reset": String((NOW + 30_000) / 1000) }), ctx).retryAfterMs).toBe(30_000);
    expect(toProviderError(apiError(429, perMinute(-5000)), ctx).retryAfterMs).toBeUndefined();
  });

  test("X-RateLimit-Reset is a wait only for a 429 whose limit is spent, after any wait the server states, on the server's clock", () => {
    const hourly = { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999", "x-ratelimit-reset": String(NOW + 40 * 60_000) };
    // an overloaded upstream beside an hourly count with room left: retried with backoff, not given up for 40 min
    const overloaded = toProviderError(apiError(503, { message: "upstream overloaded" }, hourly), ctx);
    expect(overloaded).toMatchObject({ kind: "overloaded", retryAfterMs: undefined });
    const spent = { ...hourly, "x-ratelimit-remaining": "0" };
    expect(toProviderError(apiError(503, { message: "upstream overloaded" }, spent), ctx).retryAfterMs).toBeUndefined();
    // a 429 whose copied upstream headers leave requests: no wait from them, and no "resets in" on its line
    const upstream = {
      message: "Provider returned error",
      code: 429,
      metadata: { raw: "rate limited, retry shortly", headers: { "X-RateLimit-Remaining": "812", "X-RateLimit-Reset": String(NOW + 3_600_000) } },
    };
    const shortly = toProviderError(apiError(429, upstream), ctx);
    expect(shortly.retryAfterMs).toBeUndefined();
    expect(shortly.message).not.toContain("resets in");
    // the server's own words win over a reset an hour away
    expect(toProviderError(apiError(429, { message: "Please try again in 2s." }, spent), ctx).retryAfterMs).toBe(2000);
    // a local clock 40 s behind the server's: the response's Date still makes a 45 s per-minute reset 45 s
    const server = NOW + 40_000;
    const perMinute = { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(server + 45_000), date: new Date(server).toUTCString() };
    expect(toProviderError(apiError(429, { message: "Rate limit exceeded: free-models-per-min." }, perMinute), ctx).retryAfterMs).toBe(45_000);
    // a stamp days away is no wait
    expect(toProviderError(apiError(429, { message: "slow down" }, { "x-ratelimit-reset": String(NOW + 9 * 86_400_000) }), ctx).retryAfterMs).toBeUndefined();
  });

  test("the daily cap on free models is a spent quota, not retried, and says when it resets", () => {
    const reset = String(NOW + (3 * 60 + 20) * 60_000);
    const daily = {
      message: "Rate limit exceeded: free-models-per-day-high-balance.",
      type: "rate_limit_error",
      code: "429",
      metadata: { headers: { "X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset } },
    };
    const err = toProviderError(apiError(429, daily), ctx);
    expect(err.kind).toBe("quota_exhausted");
    expect(err.message).toBe("quota exhausted (429): Rate limit exceeded: free-models-per-day-high-balance. — the limit resets in 3 h 20 min");
    // without metadata (Gitlawb/openclaude#1549), and mid-stream
    expect(
      toProviderError(apiError(429, { message: "Rate limit exceeded: free-models-per-day-high-balance.", type: "rate_limit_error", code: "429" }), ctx).kind,
    ).toBe("quota_exhausted");
  });
});

describe("Gemini's OpenAI-compatible endpoint: Google's error in a one-element array", () => {
  /** The SDK's APIError for such a body: it keeps the whole array as `error`. */
  const arrayError = (status: number, error: Record<string, unknown>) => {
    const body = [{ error: { code: status, ...error } }];
    return Object.assign(new Error(`${status} ${JSON.stringify(body)}`), { status, headers: new Headers(), error: body });
  };

  test("a 429 'Resource has been exhausted (e.g. check quota)' is a rate limit, retried, said in its own words", () => {
    // n4ze3m/page-assist#406, as the endpoint answered it
    const err = toProviderError(arrayError(429, { message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" }), ctx);
    expect(err.kind).toBe("rate_limit");
    expect(err.message).toBe("rate limited (429): Resource has been exhausted (e.g. check quota).");
  });

  test("'You exceeded your current quota' with a RetryInfo is a per-minute limit waited as asked; without one, the spent daily quota", () => {
    const message = "You exceeded your current quota, please check your plan and billing details.";
    const retry = { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "34.4s" };
    expect(toProviderError(arrayError(429, { message, status: "RESOURCE_EXHAUSTED", details: [retry] }), ctx)).toMatchObject({
      kind: "rate_limit",
      retryAfterMs: 34_400,
    });
    expect(toProviderError(arrayError(429, { message, status: "RESOURCE_EXHAUSTED" }), ctx).kind).toBe("quota_exhausted");
  });

  test("a 400 says the field Google refused, not the whole array; a bad key is an auth failure", () => {
    const unknown = 'Invalid JSON payload received. Unknown name "parallel_tool_calls": Cannot find field.';
    expect(toProviderError(arrayError(400, { message: unknown, status: "INVALID_ARGUMENT" }), ctx).message).toBe(`request rejected (400): ${unknown}`);
    const badKey = { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" };
    const err = toProviderError(
      arrayError(400, { message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT", details: [badKey] }),
      ctx,
    );
    expect(err.kind).toBe("auth");
  });
});

describe("Groq", () => {
  // its per-minute 429, as clients logged it (elizaOS/eliza#4040); Groq sends retry-after with it
  const tpm = {
    message:
      "Rate limit reached for model `llama-3.1-8b-instant` in organization `org_01j5b4pz9jff492fq686vypsx6` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 5034, Requested 1443. Please try again in 4.77s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing",
    type: "tokens",
    code: "rate_limit_exceeded",
  };

  test("a per-minute 429 whose message ends with a link to billing is a rate limit, waited as its retry-after says", () => {
    expect(toProviderError(apiError(429, tpm, { "retry-after": "5" }), ctx)).toMatchObject({ kind: "rate_limit", retryAfterMs: 5000 });
  });

  test("billing words outside a link still mean a spent quota", () => {
    expect(toProviderError(apiError(429, { message: "You exceeded your current quota, please check your plan and billing details." }), ctx).kind).toBe(
      "quota_exhausted",
    );
  });
});
