// Which failures a fallback model is for: those of this model or its endpoint, which another may
// not share — never a bad key, a request the user must change, or hey's own setup.
import { expect, test } from "bun:test";
import { fallbackLine, fallbackReason } from "../../src/fallback/reasons.ts";
import type { ProviderErrorKind } from "../../src/kernel/provider.ts";

test.each([
  ["rate_limit", false, "is rate-limited"],
  ["overloaded", false, "is overloaded or failing"],
  ["network", false, "cannot be reached or is stuck"],
  ["quota_exhausted", false, "is out of quota"],
  ["loading", false, "was still loading the model"],
  ["empty_answer", false, "keeps answering with nothing"],
  ["bad_request", true, "does not have the model"], // a 404 naming the model: removed, or never served there
  ["bad_request", false, undefined], // a request the user must change
  ["auth", false, undefined], // a bad key: another model of the same key fails alike, and the user must fix it
  ["context_length", false, undefined], // hey already cut the history to the window
  ["protocol", false, undefined], // a base_url or protocol to fix
  ["stream_interrupted", false, undefined], // part of the answer came: sent again, its words would come twice
  ["config", false, undefined],
] as const)("%s (missing model: %p) → %p", (kind, missingModel, expected) => {
  expect(fallbackReason({ kind: kind as ProviderErrorKind, missingModel })).toBe(expected);
});

test("the line names both models, why, and the endpoint's words", () => {
  expect(fallbackLine("openrouter/x:free", "ollama/qwen3", "is rate-limited", "rate limited (429): slow down — gave up after 5 retries")).toBe(
    "falling back from openrouter/x:free to ollama/qwen3 for the rest of this run: openrouter/x:free is rate-limited (rate limited (429): slow down — gave up after 5 retries)",
  );
});
