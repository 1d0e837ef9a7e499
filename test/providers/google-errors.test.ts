// toProviderError as a table: what each failure shape of @google/genai is classified as, and the
// delay it carries (RetryInfo, else a gateway's Retry-After). The recorded error bodies replayed
// through the SDK: google-replay.test.ts.
import { expect, test } from "bun:test";
import type { ProviderErrorKind } from "../../src/kernel/provider.ts";
import { toProviderError } from "../../src/providers/google-errors.ts";

/** [what fails, the kind it is classified as, the error, the delay it carries] */
const CASES: [string, ProviderErrorKind, unknown, number | undefined][] = [
  ["ApiError 401", "auth", { name: "ApiError", status: 401, message: '{"error":{"code":401,"message":"bad","status":"UNAUTHENTICATED"}}' }, undefined],
  ["ApiError 408", "network", { name: "ApiError", status: 408, message: '{"error":{"code":408,"message":"timeout"}}' }, undefined],
  [
    "ApiError 429 PerDay QuotaFailure with a RetryInfo",
    "quota_exhausted",
    {
      name: "ApiError",
      status: 429,
      message: JSON.stringify({
        error: {
          code: 429,
          message: "You exceeded your current quota",
          details: [
            { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier" }] },
            { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "40s" },
          ],
        },
      }),
    },
    undefined,
  ],
  [
    "ApiError 429 limit: 0",
    "quota_exhausted",
    {
      name: "ApiError",
      status: 429,
      message: JSON.stringify({
        error: {
          code: 429,
          message: "Quota exceeded for metric: x, limit: 0, model: gemini-2.5-pro\nPlease retry in 1.5s.",
          details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1.5s" }],
        },
      }),
    },
    undefined,
  ],
  [
    "ApiError 429 Vertex shared capacity",
    "rate_limit",
    {
      name: "ApiError",
      status: 429,
      message: '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}',
    },
    undefined,
  ],
  [
    "ApiError 503 with RetryInfo 0.5s",
    "overloaded",
    {
      name: "ApiError",
      status: 503,
      message: JSON.stringify({
        error: { code: 503, message: "busy", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.5s" }] },
      }),
    },
    500,
  ],
  [
    "ApiError 502 from a gateway with a text body",
    "overloaded",
    { name: "ApiError", status: 502, message: '{"error":{"message":"Bad Gateway","code":502,"status":"Bad Gateway"}}' },
    undefined,
  ],
  ["ApiError 400", "bad_request", { name: "ApiError", status: 400, message: '{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}' }, undefined],
  ["a fetch failure", "network", new TypeError("fetch failed"), undefined],
  ["a thrown string", "network", "weird", undefined],
];
const titled = CASES.map(([name, kind, error, retryAfterMs]) => ({
  title: `${name} → ${kind}${retryAfterMs === undefined ? "" : ` after ${retryAfterMs} ms`}`,
  error,
  kind,
  retryAfterMs,
}));

test.each(titled)("toProviderError: $title", ({ error, kind, retryAfterMs }) => {
  const err = toProviderError(error, { baseUrl: "https://gemini.example.test/v1beta", keyVar: "GEMINI_API_KEY" });
  expect(err.kind).toBe(kind);
  expect(err.retryAfterMs).toBe(retryAfterMs);
});

// Gemma on the Gemini API (agno#3505, litellm#10313), ADK's words (google/adk-python#134): the model takes no tools;
// the API is Google's, so no server flag of the user's turns them on
test.each(["Function calling is not enabled for models/gemma-3-27b-it", "Tool use with function calling is unsupported"])(
  "a model that takes no tools (%s): pick one that calls tools, no server flags",
  (said) => {
    const error = { name: "ApiError", status: 400, message: JSON.stringify({ error: { code: 400, message: said, status: "INVALID_ARGUMENT" } }) };
    const err = toProviderError(error, { baseUrl: "https://generativelanguage.googleapis.com/v1beta", keyVar: "GEMINI_API_KEY" });
    expect(err.kind).toBe("bad_request");
    expect(err.message).toBe(
      `request rejected (400): ${said} — this model or server takes no tools, and hey works through them (reading files, running commands): pick a model that calls tools (-m)`,
    );
  },
);
