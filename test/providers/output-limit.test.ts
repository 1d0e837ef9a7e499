// The output limit an endpoint states when it refuses max_tokens as too large.
import { expect, test } from "bun:test";
import { statedOutputLimit } from "../../src/providers/output-limit.ts";

test.each([
  ["max_tokens: 32000 > 8192, which is the maximum allowed number of output tokens for claude-3-5-haiku-20241022", 32000, 8192],
  ["Invalid max_tokens value, the valid range of max_tokens is [1, 8192]", 32000, 8192],
  ["<400> InternalError.Algo.InvalidParameter: Range of max_tokens should be [1, 8192]", 32000, 8192],
  ["max_tokens (current value: 4096) must be between 0 and 4000 ", 4096, 4000],
  ["messages.3.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_0123", 32000, undefined],
  ["max_tokens: Field required", 32000, undefined],
  ["prompt is too long: 210000 tokens > 200000 maximum", 32000, undefined],
])("%s (sent %d) → %p", (message, sent, limit) => {
  expect(statedOutputLimit(message, sent)).toBe(limit);
});
