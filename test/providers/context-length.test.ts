// Context-length errors in each server's own words (issue 23): recognized as such, with the window
// and the prompt's size read where the message states them, and classified as `context_length` by
// every adapter. The messages are the servers' wording as their users have reported it.
import { describe, expect, test } from "bun:test";
import { toProviderError as anthropicError } from "../../src/providers/anthropic-errors.ts";
import { contextOverflow } from "../../src/providers/context-length.ts";
import { toProviderError as googleError } from "../../src/providers/google-errors.ts";
import { toProviderError as openaiError } from "../../src/providers/openai-errors.ts";

const ctx = { baseUrl: "http://127.0.0.1:1/v1" };

describe("contextOverflow: what each server says", () => {
  test.each([
    [
      "OpenAI chat (messages + functions)",
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens (128990 in the messages, 1542 in the functions). Please reduce the length of the messages or functions.",
      { window: 128000, prompt: 130532 },
    ],
    [
      "OpenAI chat (older: requested, with the completion)",
      "This model's maximum context length is 16385 tokens. However, you requested 17012 tokens (15012 in the messages, 2000 in the completion). Please reduce the length of the messages or completion.",
      { window: 16385, prompt: 15012, completion: 2000 },
    ],
    [
      "DeepSeek",
      "This model's maximum context length is 131072 tokens. However, you requested 140328 tokens (136232 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
      { window: 131072, prompt: 136232, completion: 4096 },
    ],
    [
      "vLLM",
      "This model's maximum context length is 32768 tokens. However, you requested 33530 tokens (29434 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
      { window: 32768, prompt: 29434, completion: 4096 },
    ],
    [
      "vLLM (newer)",
      "This model's maximum context length is 8192 tokens and your request has 9100 input tokens (4096 > 8192 - 9100). (parameter=max_tokens, value=4096)",
      { window: 8192, prompt: 9100 },
    ],
    [
      "vLLM (decoder prompt)",
      "The decoder prompt (length 40000) is longer than the maximum model length of 32768. Make sure that `max_model_len` is no smaller than the number of text tokens.",
      { window: 32768, prompt: 40000 },
    ],
    [
      "OpenRouter",
      "This endpoint's maximum context length is 163840 tokens. However, you requested about 171024 tokens (162832 of text input, 8192 in the output). Please reduce the length of either one.",
      { window: 163840, prompt: 162832, completion: 8192 },
    ],
    [
      "OpenRouter, no max_tokens sent (the model's whole output limit reserved: Aider-AI/aider#3721)",
      'This endpoint\'s maximum context length is 131072 tokens. However, you requested about 141607 tokens (10535 of text input, 131072 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
      { window: 131072, prompt: 10535, completion: 131072 },
    ],
    [
      "OpenRouter, with images",
      "This endpoint's maximum context length is 65536 tokens. However, you requested about 70000 tokens (20000 of text input, 1808 of image input, 48192 in the output). Please reduce the length of either one.",
      { window: 65536, prompt: 21808, completion: 48192 },
    ],
    ["Anthropic", "prompt is too long: 208310 tokens > 200000 maximum", { window: 200000, prompt: 208310 }],
    [
      "Anthropic (input + max_tokens)",
      "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again",
      { window: 200000, prompt: 188240, completion: 21333 },
    ],
    ["Gemini", "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).", { window: 1048575, prompt: 1196265 }],
    ["Mistral", "Prompt contains 40010 tokens and 0 draft tokens, too large for model with 32768 maximum context length", { window: 32768, prompt: 40010 }],
    [
      "TGI",
      "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 1000 `max_new_tokens`",
      { window: 4096, prompt: 4000, completion: 1000 },
    ],
    [
      "LM Studio",
      "Trying to keep the first 6124 tokens when context the overflows. However, the model is loaded with context length of 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
      { window: 4096 },
    ],
    [
      "LM Studio, as it says it now (dyad-sh/dyad#925)",
      "Trying to keep the first 14538 tokens when context the overflows. However, the model is loaded with context length of only 2048 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
      { window: 2048 },
    ],
    [
      "LM Studio, as n4ze3m/page-assist#356 quotes it",
      "Trying to keep the first 6547 tokens when context overflows. However, the model is loaded with a context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input.",
      { window: 4096 },
    ],
    ["OpenAI Responses (no numbers)", "Your input exceeds the context window of this model. Please adjust your input and try again.", {}],
    ["llama.cpp (numbers beside the message)", "the request exceeds the available context size, try increasing it", {}],
    ["Ollama", "prompt too long; exceeded max context length by 1402 tokens", {}],
    ["Bedrock", "Input is too long for requested model.", {}],
  ])("%s", (_, said, expected) => {
    expect(contextOverflow(said)).toEqual(expected);
  });

  test("llama.cpp's numbers come from the error object", () => {
    const body = {
      code: 400,
      message: "the request exceeds the available context size, try increasing it",
      type: "exceed_context_size_error",
      n_prompt_tokens: 20533,
      n_ctx: 16384,
    };
    expect(contextOverflow(body.message, body)).toEqual({ window: 16384, prompt: 20533 });
  });

  test.each([
    ["a completion limit", "max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000."],
    ["a bad tool name", "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."],
    ["a rate limit", "Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000."],
    ["a missing tool result", "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01"],
  ])("not a context-length error: %s", (_, said) => {
    expect(contextOverflow(said)).toBeUndefined();
  });
});

describe("every adapter classifies it as context_length, with what it states", () => {
  test("OpenAI SDK error (400 with code context_length_exceeded)", () => {
    const e = openaiError(
      {
        status: 400,
        error: {
          message:
            "This model's maximum context length is 16385 tokens. However, your messages resulted in 17000 tokens. Please reduce the length of the messages.",
          code: "context_length_exceeded",
        },
      },
      ctx,
    );
    expect(e).toMatchObject({ kind: "context_length", status: 400, overflow: { window: 16385, prompt: 17000 } });
    expect(e.retryable).toBe(false);
    expect(e.message).toContain("larger than the model's context window");
  });

  test("llama.cpp through the OpenAI SDK", () => {
    const error = {
      code: 400,
      message: "the request exceeds the available context size, try increasing it",
      type: "exceed_context_size_error",
      n_prompt_tokens: 20533,
      n_ctx: 16384,
    };
    expect(openaiError({ status: 400, error }, ctx)).toMatchObject({ kind: "context_length", overflow: { window: 16384, prompt: 20533 } });
  });

  test("an error chunk mid-stream (no status)", () => {
    expect(openaiError({ error: { message: "prompt is too long: 20000 tokens > 16000 maximum" } }, ctx)).toMatchObject({
      kind: "context_length",
      overflow: { window: 16000, prompt: 20000 },
    });
  });

  test("Anthropic (400 invalid_request_error)", () => {
    const e = anthropicError(
      { status: 400, error: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" } } },
      ctx,
    );
    expect(e).toMatchObject({ kind: "context_length", overflow: { window: 200000, prompt: 208310 } });
  });

  test("Gemini (400 INVALID_ARGUMENT)", () => {
    const message = JSON.stringify({
      error: { code: 400, message: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).", status: "INVALID_ARGUMENT" },
    });
    expect(googleError({ status: 400, message }, ctx)).toMatchObject({ kind: "context_length", overflow: { window: 1048575, prompt: 1196265 } });
  });

  test("a rate limit that talks about tokens stays a rate limit", () => {
    const e = openaiError(
      { status: 429, error: { message: "Request too large for gpt-4o: Limit 30000, Requested 50000. Please reduce the length of the messages." } },
      ctx,
    );
    expect(e.kind).toBe("rate_limit");
  });
});

describe("a per-minute token limit one request exceeds is a ceiling on each request, read like a window (Groq's free tier)", () => {
  const GROQ_413 =
    "Request too large for model `llama-3.1-8b-instant` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 6294, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing";

  test("Groq's 413: a context_length error whose window is the limit, named, not retried", () => {
    const e = openaiError({ status: 413, error: { message: GROQ_413, type: "tokens", code: "rate_limit_exceeded" } }, ctx);
    expect(e).toMatchObject({ kind: "context_length", status: 413, overflow: { window: 6000, ceiling: "tokens per minute (TPM)" } });
    expect(e.retryable).toBe(false);
    expect(e.message).toStartWith(
      "the request is larger than the endpoint takes in one request (its tokens per minute (TPM) limit, 6,000 tokens) (413): Request too large",
    );
  });

  test("OpenAI's 429 for one request over its tier's TPM is the same ceiling, not a rate to wait for", () => {
    const message =
      "Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 45000. The input or output tokens must be reduced in order to run successfully.";
    const e = openaiError({ status: 429, error: { message, type: "tokens", code: "rate_limit_exceeded" } }, ctx);
    expect(e).toMatchObject({ kind: "context_length", overflow: { window: 30000, ceiling: "tokens per minute (TPM)" } });
  });

  test("Groq's streamed error chunk of the same words (no status) is the same ceiling", () => {
    expect(openaiError({ error: { message: GROQ_413, type: "tokens", code: "rate_limit_exceeded" } }, ctx)).toMatchObject({
      kind: "context_length",
      overflow: { window: 6000, ceiling: "tokens per minute (TPM)" },
    });
  });

  test.each([
    [
      "Groq's per-minute rate",
      "Rate limit reached for model `llama-3.1-8b-instant` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 5800, Requested 900. Please try again in 7s.",
    ],
    [
      "Groq's per-day rate",
      "Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_x` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 99500, Requested 1200. Please try again in 9m38.016s.",
    ],
  ])("a 429 that several requests reached (%s) stays a rate limit, waited for as the server says", (_, message) => {
    const e = openaiError({ status: 429, error: { message, type: "tokens", code: "rate_limit_exceeded" } }, ctx);
    expect(e.kind).toBe("rate_limit");
    expect(e.retryAfterMs).toBeGreaterThan(0);
    expect(contextOverflow(message)).toBeUndefined();
  });
});
