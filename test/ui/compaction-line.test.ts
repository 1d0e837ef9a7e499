// The line a compaction shows (x16): the real size before and after, and a step that did not make
// the context smaller says so, instead of calling a total that went up "left out" or "cut to fit".
import { describe, expect, test } from "bun:test";
import { compactionLine } from "../../src/ui/compaction-line.ts";

describe("the compaction line", () => {
  test.each([
    [
      "left out and cut",
      { kind: "trim", tokens_before: 16_366, tokens_after: 3_164, left_out: 2, texts_cut: 1 },
      "context: older messages left out and a long message of the last turns cut to its start and end to fit the budget (~16,366 → ~3,164 tokens)",
    ],
    [
      "left out",
      { kind: "trim", tokens_before: 52_000, tokens_after: 21_400, left_out: 8 },
      "context: older messages left out to fit the budget (~52,000 → ~21,400 tokens)",
    ],
    [
      "left out, no smaller",
      { kind: "trim", tokens_before: 16_160, tokens_after: 16_169, left_out: 2 },
      "context: over the budget; older messages left out, which did not make the context smaller (~16,160 → ~16,169 tokens)",
    ],
    [
      "window, no smaller",
      { kind: "window", window: 10_000, tokens_before: 16_160, tokens_after: 16_169 },
      "context: the model's window is about 10,000 tokens; cutting the request did not make it smaller (~16,160 → ~16,169 tokens); sent again",
    ],
    [
      "window, cut",
      { kind: "window", window: 10_000, tokens_before: 16_366, tokens_after: 3_164, texts_cut: 1 },
      "context: the model's window is about 10,000 tokens; the request was cut to fit (~16,366 → ~3,164 tokens; a long message of the last turns cut to its start and end) and sent again",
    ],
    [
      "a per-request limit that counts max_tokens",
      { kind: "window", window: 3_952, limit: "tokens per minute (TPM)", max_tokens: 2_048, tokens_before: 4_475, tokens_after: 2_900 },
      "context: the endpoint takes at most 6,000 tokens a request (its tokens per minute (TPM) limit) and counts max_tokens (2,048) in it, so hey keeps requests under the rest (~3,952); the request was cut to fit (~4,475 → ~2,900 tokens) and sent again — a higher tier at the provider raises the limit",
    ],
    ["summary", { kind: "summary", tokens_before: 16_683, tokens_after: 1_113 }, "context: summarized older work (~16,683 → ~1,113 tokens)"],
  ] as const)("%s", (_, event, line) => {
    expect(compactionLine({ type: "compaction", ...event })).toBe(line);
  });
});
