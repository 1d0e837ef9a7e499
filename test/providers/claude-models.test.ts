// A Claude model hey knows by name starts in the thinking mode it takes (budget thinking up to 4.5)
// and within its documented output limit, so `-t max` on claude-opus-4-1 is one request, not three.
import { describe, expect, test } from "bun:test";
import { claudeStart } from "../../src/providers/claude-models.ts";

describe("a Claude model hey knows by name starts in the thinking mode and output limit it takes", () => {
  test.each([
    ["claude-opus-4-1-20250805", { legacyThinking: true, outputLimit: 32000 }],
    ["claude-opus-4-0", { legacyThinking: true, outputLimit: 32000 }],
    ["claude-sonnet-4-20250514", { legacyThinking: true }],
    ["claude-sonnet-4-5", { legacyThinking: true }],
    ["claude-haiku-4-5-20251001", { legacyThinking: true }],
    ["claude-3-7-sonnet-latest", { legacyThinking: true }],
    ["claude-3-5-haiku-20241022", { legacyThinking: true, outputLimit: 8192 }],
    ["anthropic.claude-opus-4-1-20250805-v1:0", { legacyThinking: true, outputLimit: 32000 }],
    ["claude-opus-4-6", {}],
    ["claude-sonnet-4-6", {}],
    ["house-model", {}],
  ])("%s → %j", (model, start) => {
    expect(claudeStart(model) as object).toEqual(start);
  });
});
