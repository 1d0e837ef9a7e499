// The wait a rate-limited server asks for in the words of its error, when no Retry-After header
// names it: read as the retry's delay, within the retry policy's cap. Each body is as a user
// quoted it in the issue named beside it.
import { afterAll, describe, expect, test } from "bun:test";
import { userMessage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { retryDecision, type RetryPolicy } from "../../src/kernel/retry.ts";
import { classifyFailure } from "../../src/providers/common.ts";
import { createOpenAIProvider } from "../../src/providers/openai.ts";
import { retryHintOf } from "../../src/providers/retry-after.ts";
import { drain } from "../helpers/drain.ts";
import { jsonReply, startReplayServer } from "../helpers/replay-server.ts";

/** [who says it (where it was quoted), the message, the wait in ms (undefined: none named)] */
const CASES: [string, string, number | undefined][] = [
  [
    "GitHub Models, per minute (a GitHub Models 429 in microsoft/foundry-dev-tools#222)",
    "Rate limit of 40000 per 60s exceeded for UserByModelByMinuteTokens. Please wait 60 seconds before retrying.",
    60_000,
  ],
  [
    "GitHub Models, per day (its UserByModelByDay limit; the window's '86400s' is not the wait)",
    "Rate limit of 150 per 86400s exceeded for UserByModelByDay. Please wait 42567 seconds before retrying.",
    42_567_000,
  ],
  [
    "GitHub Copilot (microsoft/vscode-copilot-release#6453)",
    "Sorry, you have exhausted this model's rate limit. Please wait 1 minutes before trying again, or switch to a different model.",
    60_000,
  ],
  [
    "GitHub Copilot, two amounts (microsoft/vscode-copilot-release#3519)",
    "Sorry, your request was rate-limited. Please wait 10 hours 58 minutes before trying again.",
    39_480_000,
  ],
  [
    "Groq, per day (continuedev/continue#10920)",
    "Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01kjh7p9n8f1qs6nz2bz77vy6b` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 97050, Requested 3619. Please try again in 9m38.016s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing",
    578_016,
  ],
  [
    "Groq, per minute (danielmiessler/Fabric#364)",
    "Rate limit reached for model `llama3-70b-8192` in organization `org_01hrsvc1b8ey0anvbgha0xckf2` on tokens per minute (TPM): Limit 7000, Used 0, Requested ~12903. Please try again in 50.597142857s. Visit https://console.groq.com/docs/rate-limits for more information.",
    50_598,
  ],
  [
    "Gemini's OpenAI-compatible endpoint (continuedev/continue#11274)",
    "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. \n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro\nPlease retry in 4.234087695s.",
    4_235,
  ],
  [
    "Azure OpenAI (microsoft/sample-app-aoai-chatGPT#406)",
    "Requests to the Creates a completion for the chat message Operation under Azure OpenAI API version 2023-03-15-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 9 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.",
    9_000,
  ],
  ["Azure OpenAI, older wording (Azure-Samples/azure-search-openai-demo#177)", "Rate limit is exceeded. Try again in 30 seconds.", 30_000],
  // bodies that name no wait: the policy's own backoff decides
  ["Mistral (pydantic/pydantic-ai#1885)", "Requests rate limit exceeded", undefined],
  ["Cerebras (nminaya/grammar-nazi-bot#958)", "Requests per minute limit exceeded - too many requests sent.", undefined],
  [
    "Together (togethercomputer/MoA#27)",
    "You have been rate limited. Your rate limit is 60 queries per minute. Please navigate to https://api.together.xyz/settings/billing to upgrade to a paid plan.",
    undefined,
  ],
  [
    "OpenRouter, an upstream's limit (its wait is in metadata, read elsewhere; anomalyco/opencode#24534)",
    "deepseek/deepseek-v4-pro is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations",
    undefined,
  ],
  ["a moment, not an amount (microsoft/vscode-copilot-release#7132)", "Please wait a moment before trying again, or switch to a different model.", undefined],
  ["later", "Rate limit exceeded. Please try again later", undefined],
  // DeepSeek: its docs say it sets no rate limit; no 429 body of its own naming a wait was found quoted.
];

test.each(CASES)("%s", (_, said, expected) => {
  expect(retryHintOf(said)).toBe(expected);
});

describe("through the openai SDK and the retry policy", () => {
  const server = startReplayServer();
  afterAll(() => server.stop());
  const POLICY: RetryPolicy = { enabled: true, maxRetries: 5, baseDelayMs: 2000, maxDelayMs: 60_000, jitter: false, respectRetryAfter: true };

  async function rateLimited(message: string): Promise<ProviderError> {
    server.enqueue(jsonReply(429, { error: { code: "RateLimitReached", message, details: message } }));
    const provider = await createOpenAIProvider({ model: "openai/gpt-4.1", baseUrl: `${server.url}/inference` });
    const { error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }

  test("GitHub Models' per-minute 429 without a Retry-After header is retried after the 46 s it asks, not the 2 s backoff", async () => {
    const error = await rateLimited("Rate limit of 10 per 60s exceeded for UserByModelByMinute. Please wait 46 seconds before retrying.");
    expect(error).toMatchObject({ kind: "rate_limit", retryAfterMs: 46_000 });
    expect(retryDecision(error, 1, POLICY)).toEqual({ retry: true, delayMs: 46_000 });
  });

  test("its daily limit asks for longer than hey waits: not retried, and the user is told when it may be", async () => {
    const error = await rateLimited("Rate limit of 150 per 86400s exceeded for UserByModelByDay. Please wait 42567 seconds before retrying.");
    expect(retryDecision(error, 1, POLICY)).toEqual({
      retry: false,
      why: "the server allows the next try in 11 h 50 min, longer than hey waits ([retry] max_delay_ms = 60000)",
      waitTooLong: true,
    });
  });
});

test("a 5xx page's 'try again in 5 minutes' is boilerplate, not the server's wait: the policy's backoff retries it", () => {
  const page = "<html><head><title>503 Service Unavailable</title></head><body>The server is busy. Please try again in 5 minutes.</body></html>";
  expect(classifyFailure({ status: 503, said: page }, { baseUrl: "http://x" }).retryAfterMs).toBeUndefined();
  expect(classifyFailure({ status: 429, said: "Please try again in 5 minutes." }, { baseUrl: "http://x" }).retryAfterMs).toBe(300_000);
});
