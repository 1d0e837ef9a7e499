// toProviderError as a table: what each failure shape of the openai SDK is classified as.
import { expect, test } from "bun:test";
import type { ProviderErrorKind } from "../../src/kernel/provider.ts";
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
      "authentication failed (401): bad key — no API key was sent to https://api.example.test/v1; set EXAMPLE_API_KEY (api_key in the provider's config, or --api-key)",
  },
])("auth messages say what to fix: $name → $message", ({ context, message }) => {
  expect(toProviderError(apiError(401, { message: "bad key" }), context).message).toBe(message);
});
