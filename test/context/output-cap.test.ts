// A context-length refusal about the answer's share (the server counted the model's whole output
// limit into the window: OpenRouter free models, vLLM) is answered by bounding the answer, not by
// cutting the history; a refusal about the prompt still cuts it. Messages in the servers' own words.
import { describe, expect, test } from "bun:test";
import { boundOutput, capOf, newOutputCaps, OUTPUT_FLOOR, outputOverflow } from "../../src/context/output-cap.ts";
import { contextOverflow } from "../../src/providers/context-length.ts";

const CHUTES =
  'This endpoint\'s maximum context length is 131072 tokens. However, you requested about 141607 tokens (10535 of text input, 131072 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.';
const VLLM =
  "This model's maximum context length is 8192 tokens. However, you requested 9100 tokens (1100 in the messages, 8000 in the completion). Please reduce the length of the messages or completion.";
const DEEPSEEK_PROMPT =
  "This model's maximum context length is 131072 tokens. However, you requested 140328 tokens (136232 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.";
const ANTHROPIC_NEAR_FULL = "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again";
const OPENROUTER_BIG_PROMPT =
  "This endpoint's maximum context length is 131072 tokens. However, you requested about 251072 tokens (120000 of text input, 131072 in the output).";

const request = { system: "s", messages: [], tools: [] };

describe("outputOverflow: whether the answer's limit, not the prompt, overflowed", () => {
  test.each([
    ["OpenRouter/Chutes, no max_tokens sent", CHUTES, { window: 131072, prompt: 10535, completion: 131072 }],
    ["vLLM", VLLM, { window: 8192, prompt: 1100, completion: 8000 }],
    ["DeepSeek: the prompt itself is past the window", DEEPSEEK_PROMPT, undefined],
    ["Anthropic: the prompt is past the share hey builds to, cut it first", ANTHROPIC_NEAR_FULL, undefined],
    ["OpenRouter: a prompt past that share too", OPENROUTER_BIG_PROMPT, undefined],
  ])("%s", (_, said, expected) => {
    expect(outputOverflow(contextOverflow(said)!)).toEqual(expected);
  });
});

describe("capOf: the cap kept for later requests", () => {
  test.each([
    ["answer overflowed", CHUTES, { window: 131072, asked: 131072 }],
    ["the whole output limit reserved beside a large prompt: cut, and bound too", OPENROUTER_BIG_PROMPT, { window: 131072, asked: 131072 }],
    ["prompt overflowed, a small answer", DEEPSEEK_PROMPT, undefined],
  ])("%s", (_, said, expected) => {
    expect(capOf(contextOverflow(said)!)).toEqual(expected);
  });
});

describe("boundOutput: the answer fits beside the request", () => {
  const cap = { window: 131072, asked: 131072 };
  test.each([
    ["a small request", 10535, 131072 - 10535 - 2622],
    ["a request that fills the window: the floor", 130000, OUTPUT_FLOOR],
  ])("%s", (_, input, expected) => {
    const bounded = boundOutput(request, cap, input).maxTokens!;
    expect(bounded).toBe(expected);
    if (expected > OUTPUT_FLOOR) expect(input + bounded).toBeLessThanOrEqual(cap.window);
  });
  test("a summary's own smaller limit stays", () => {
    expect(boundOutput({ ...request, maxTokens: 2000 }, cap, 10535).maxTokens).toBe(2000);
  });
});

describe("newOutputCaps: what a conversation learns", () => {
  test("the refusal is answered with the same request, bounded, and said; later requests to that endpoint are bounded, another's are not", () => {
    const caps = newOutputCaps();
    const [endpoint, other] = [{}, {}];
    expect(caps.bound(request, endpoint, 5000)).toEqual(request);
    const fits = caps.learn(contextOverflow(VLLM), request, endpoint, true)!;
    expect(fits).toMatchObject({ window: 8192, prompt: 1100 });
    expect(fits.notice).toContain("answers are now limited to the room left (6,928 tokens this time)");
    expect(fits.notice).not.toContain("cut");
    expect(caps.bound(request, endpoint, 3000).maxTokens).toBe(8192 - 3000 - 164);
    expect(caps.bound(request, other, 3000).maxTokens).toBeUndefined();
  });
  test("a second refusal of the same request is not answered again", () => {
    expect(newOutputCaps().learn(contextOverflow(VLLM), request, {}, false)).toBeUndefined();
  });
  test("a prompt too large is left to the cut", () => {
    expect(newOutputCaps().learn(contextOverflow(DEEPSEEK_PROMPT), request, {}, true)).toBeUndefined();
  });
});
