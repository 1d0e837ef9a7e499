// A context-length refusal about the answer's share (the server counted the model's whole output
// limit into the window: OpenRouter free models, vLLM) is answered by bounding the answer, not by
// cutting the history; a refusal about the prompt still cuts it. Messages in the servers' own words.
import { describe, expect, test } from "bun:test";
import { boundOutput, capOf, newOutputCaps, OUTPUT_FLOOR, outputOverflow, windowTaught } from "../../src/context/output-cap.ts";
import { CONTEXT_ERROR, servedWindow, taughtBy } from "../../src/context/window.ts";
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
    const [endpoint, other] = ["free/llama", "vllm/qwen"];
    expect(caps.bound(request, endpoint, 5000)).toEqual(request);
    const fits = caps.learn(contextOverflow(VLLM), request, endpoint, true)!;
    expect(fits).toMatchObject({ window: 8192, prompt: 1100 });
    expect(fits.notice).toContain("answers are now limited to the room left (6,928 tokens this time)");
    expect(fits.notice).not.toContain("cut");
    expect(caps.bound(request, endpoint, 3000).maxTokens).toBe(8192 - 3000 - 164);
    expect(caps.bound(request, other, 3000).maxTokens).toBeUndefined();
  });
  test("a second refusal of the same request is not answered again", () => {
    expect(newOutputCaps().learn(contextOverflow(VLLM), request, "vllm/qwen", false)).toBeUndefined();
  });
  test("a prompt too large is left to the cut", () => {
    expect(newOutputCaps().learn(contextOverflow(DEEPSEEK_PROMPT), request, "deepseek/chat", true)).toBeUndefined();
  });
  test("the user's own max_tokens is never lowered: a refusal that counts it is left to the cut, and no cap bounds later answers", () => {
    const caps = newOutputCaps({}, () => 6000);
    const userLimit =
      "This model's maximum context length is 16384 tokens. However, you requested 18475 tokens (12475 in the messages, 6000 in the completion).";
    expect(caps.learn(contextOverflow(VLLM.replace("8000 in", "6000 in")), request, "vllm/qwen", true)).toBeUndefined();
    expect(caps.learn(contextOverflow(userLimit), request, "vllm/qwen", true)).toBeUndefined();
    expect(caps.bound(request, "vllm/qwen", 9000)).toEqual(request);
    // a cap a session kept from before max_tokens was set does not lower it either
    expect(newOutputCaps({ "vllm/qwen": { window: 16384, asked: 16384 } }, () => 6000).bound(request, "vllm/qwen", 9000)).toEqual(request);
  });
  test("the bound rises again as the prompt shrinks: a refusal of hey's own bound does not lower the cap", () => {
    const caps = newOutputCaps();
    const refused = (prompt: number, completion: number) =>
      contextOverflow(
        `This model's maximum context length is 8192 tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion).`,
      );
    caps.learn(refused(1100, 4096), request, "vllm/qwen", true);
    const sent = caps.bound(request, "vllm/qwen", 6000).maxTokens!; // estimated at 6000, counted at 6400 by the server
    caps.learn(refused(6400, sent), request, "vllm/qwen", true);
    expect(caps.bound(request, "vllm/qwen", 2000).maxTokens).toBe(4096); // after a summary: the room is back
  });
  test("each model keeps its own cap, and a session's kept caps bound the first request", () => {
    const caps = newOutputCaps({ "free/llama": { window: 131072, asked: 131072 } });
    expect(caps.bound(request, "free/llama", 10535).maxTokens).toBe(131072 - 10535 - 2622);
    caps.learn(contextOverflow(VLLM), request, "vllm/qwen", true); // a fallback refused
    expect(caps.bound(request, "free/llama", 10535).maxTokens).toBe(131072 - 10535 - 2622); // the primary's return keeps its own
    expect(caps.of("vllm/qwen")).toEqual({ window: 8192, asked: 8000 });
  });
});

describe("windowTaught: the window a refusal about the answer's limit leaves", () => {
  test("the same window keeps its source, so a larger one stated later is still taken", () => {
    const state = { window: 131072, windowFrom: "the model list" };
    [state.window, state.windowFrom] = windowTaught(state, 131072, 131072) as [number, string];
    expect(state.windowFrom).toBe("the model list");
    expect(servedWindow(state, { tokens: 163840, from: "llama-server's /props" })).toBe(163840);
  });
  test("a smaller one is the error's", () => {
    expect(windowTaught({ windowFrom: "the model list" }, 131072, 32768)).toEqual([32768, CONTEXT_ERROR]);
    expect(windowTaught({}, undefined, 32768)).toEqual([32768, CONTEXT_ERROR]);
  });
});

describe("taughtBy: an endpoint's per-request limit (Groq's free tier's TPM) is said as such, and no stated window raises it", () => {
  test("/usage names the limit, and a model list's or a server's larger window does not replace it", () => {
    const from = taughtBy({ window: 6000, ceiling: "tokens per minute (TPM)" });
    expect(from).toBe("the endpoint's limit on one request: its tokens per minute (TPM) limit");
    const state = { window: 6000, windowFrom: from };
    expect(servedWindow(state, { tokens: 131072, from: "the endpoint's model list, GET /models", listed: true })).toBe(6000);
    expect(servedWindow(state, { tokens: 131072, from: "llama-server's /props" })).toBe(6000);
    expect(state.windowFrom).toBe(from);
  });
  test("a window a context-length error states is that error's", () => {
    expect(taughtBy({ window: 16384 })).toBe(CONTEXT_ERROR);
  });
});
