// toProviderError as a table: what each failure shape of @anthropic-ai/sdk is classified as.
import { expect, test } from "bun:test";
import type { ProviderErrorKind } from "../../src/kernel/provider.ts";
import { toProviderError } from "../../src/providers/anthropic-errors.ts";

const NOW = Date.parse("Wed, 02 Dec 2026 12:00:00 GMT");
const ctx = { baseUrl: "https://api.anthropic.com/v1", keyVar: "ANTHROPIC_API_KEY", now: NOW };

/** The fields of the SDK's APIError as it builds them from an error response: `error` is the whole body. */
const apiError = (status: number | undefined, type: string | undefined, message: string, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`${status ?? ""} ${message}`.trim()), {
    status,
    headers: new Headers(headers),
    error: type === undefined ? undefined : { type: "error", error: { type, message }, request_id: "req_1" },
  });

/** [what fails, the error, the kind it is classified as, the Retry-After delay it carries] */
const CASES: [string, unknown, ProviderErrorKind, number | undefined][] = [
  ["401", apiError(401, "authentication_error", "invalid x-api-key"), "auth", undefined],
  ["403", apiError(403, "permission_error", "not allowed"), "auth", undefined],
  ["402 billing_error", apiError(402, "billing_error", "payment required"), "quota_exhausted", undefined],
  ["429 with retry-after", apiError(429, "rate_limit_error", "slow down", { "retry-after": "12" }), "rate_limit", 12_000],
  ["429 with retry-after-ms", apiError(429, "rate_limit_error", "slow down", { "retry-after-ms": "250", "retry-after": "12" }), "rate_limit", 250],
  ["429 with an HTTP date", apiError(429, "rate_limit_error", "slow down", { "retry-after": "Wed, 02 Dec 2026 12:01:00 GMT" }), "rate_limit", 60_000],
  ["429 credit wording", apiError(429, "rate_limit_error", "Your credit balance is too low"), "quota_exhausted", undefined],
  ["429 quota wording", apiError(429, "rate_limit_error", "monthly usage quota reached"), "quota_exhausted", undefined],
  [
    "400 credit balance",
    apiError(
      400,
      "invalid_request_error",
      "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
    ),
    "quota_exhausted",
    undefined,
  ],
  ["400", apiError(400, "invalid_request_error", "messages: bad"), "bad_request", undefined],
  ["404", apiError(404, "not_found_error", "model: claude-9"), "bad_request", undefined],
  ["413", apiError(413, "request_too_large", "Request exceeds the maximum allowed number of bytes."), "bad_request", undefined],
  ["422", apiError(422, "invalid_request_error", "unprocessable"), "bad_request", undefined],
  ["408", apiError(408, "timeout_error", "timeout"), "network", undefined],
  ["500", apiError(500, "api_error", "Internal server error"), "overloaded", undefined],
  ["529 with retry-after", apiError(529, "overloaded_error", "Overloaded", { "retry-after": "4", "x-should-retry": "true" }), "overloaded", 4000],
  ["503 without a JSON body", apiError(503, undefined, "<html>Service Unavailable</html>"), "overloaded", undefined],
  ["500 with x-should-retry: false", apiError(500, "api_error", "this request always fails", { "x-should-retry": "false" }), "bad_request", undefined],
  ["400 with x-should-retry: true", apiError(400, "invalid_request_error", "bad", { "x-should-retry": "true" }), "bad_request", undefined],
  ["APIConnectionError shape (no status, no body)", apiError(undefined, undefined, "Connection error."), "network", undefined],
  ["a socket error while reading", Object.assign(new TypeError("The socket connection was closed unexpectedly"), { code: "ECONNRESET" }), "network", undefined],
  ["in-stream overloaded_error", apiError(undefined, "overloaded_error", "Overloaded"), "overloaded", undefined],
  ["in-stream api_error", apiError(undefined, "api_error", "Internal server error"), "overloaded", undefined],
  ["in-stream rate_limit_error", apiError(undefined, "rate_limit_error", "slow down"), "rate_limit", undefined],
  ["in-stream invalid_request_error", apiError(undefined, "invalid_request_error", "bad"), "bad_request", undefined],
  ["in-stream authentication_error", apiError(undefined, "authentication_error", "expired"), "auth", undefined],
  ["in-stream billing_error", apiError(undefined, "billing_error", "no credit"), "quota_exhausted", undefined],
  ["in-stream unknown type", apiError(undefined, "brand_new_error", "?"), "overloaded", undefined],
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

test("messages carry the provider's own words", () => {
  expect(toProviderError(apiError(400, "invalid_request_error", "messages.1: bad"), ctx).message).toBe("request rejected (400): messages.1: bad");
  expect(toProviderError(apiError(404, "not_found_error", "model: claude-9"), ctx).message).toBe(
    "request rejected (404): model: claude-9 — check the model name and base URL https://api.anthropic.com/v1",
  );
  expect(toProviderError(apiError(503, undefined, "<html>Service Unavailable</html>"), ctx).message).toBe(
    "the provider is failing (503): an HTML page: Service Unavailable",
  );
  expect(toProviderError(apiError(500, "api_error", "always", { "x-should-retry": "false" }), ctx).message).toBe(
    "the provider failed (500) and says retrying will not help: always",
  );
  expect(toProviderError(apiError(undefined, "api_error", "Internal server error"), ctx).message).toBe(
    "the provider is failing mid-stream (api_error): Internal server error",
  );
});

test("a gateway's OpenAI-style body {error: {message}} is read too", () => {
  const e = Object.assign(new Error("400"), { status: 400, headers: new Headers(), error: { error: { message: "unknown model" } } });
  expect(toProviderError(e, ctx).message).toBe("request rejected (400): unknown model");
});

test.each([
  { name: "a key was sent", context: { ...ctx }, message: "authentication failed (401): invalid x-api-key — check ANTHROPIC_API_KEY" },
  {
    name: "no key",
    context: { ...ctx, hasKey: false },
    message:
      "authentication failed (401): invalid x-api-key — no API key was sent to https://api.anthropic.com/v1; set ANTHROPIC_API_KEY (api_key in the provider's config, --api-key or HEY_API_KEY)",
  },
])("auth messages say what to fix: $name → $message", ({ context, message }) => {
  expect(toProviderError(apiError(401, "authentication_error", "invalid x-api-key"), context).message).toBe(message);
});
