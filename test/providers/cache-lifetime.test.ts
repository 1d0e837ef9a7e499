// How long hey takes an endpoint's prompt cache to keep a prefix (providers/cache-lifetime.ts): the
// provider createProvider makes carries it, through every wrapper, for the context passes to read.
import { expect, test } from "bun:test";
import { cacheLifetime } from "../../src/context/cache.ts";
import { ANTHROPIC_CACHE_MS, DEFAULT_CACHE_MS, OPENAI_CACHE_MS } from "../../src/providers/cache-lifetime.ts";
import { createProvider, type ProviderOptions } from "../../src/providers/create.ts";

const unused = Object.assign(async () => new Response("never asked", { status: 500 }), { preconnect: () => {} }) as unknown as typeof fetch;
const made = (o: Omit<ProviderOptions, "fetch">) => createProvider({ ...o, fetch: unused, apiKey: "k" });

test.each([
  [
    "Anthropic's API: 5 minutes, the cache_control hey sends asks for no longer",
    { protocol: "anthropic", model: "claude-sonnet-4-5", baseUrl: "https://api.anthropic.com" },
    ANTHROPIC_CACHE_MS,
  ],
  [
    "Claude through OpenRouter, sent Anthropic's breakpoints",
    { protocol: "openai", model: "anthropic/claude-sonnet-4.5", baseUrl: "https://openrouter.ai/api/v1" },
    ANTHROPIC_CACHE_MS,
  ],
  [
    "a gateway told cache_control = true",
    { protocol: "openai", model: "claude", baseUrl: "https://llm.example.com/v1", compat: { cacheControl: true } },
    ANTHROPIC_CACHE_MS,
  ],
  [
    "api.openai.com chat: extended retention, OpenAI's default",
    { protocol: "openai", model: "gpt-5.5", baseUrl: "https://api.openai.com/v1" },
    OPENAI_CACHE_MS,
  ],
  ["api.openai.com Responses", { protocol: "responses", model: "gpt-5.5", baseUrl: "https://api.openai.com/v1" }, OPENAI_CACHE_MS],
  ["DeepSeek: hours", { protocol: "openai", model: "deepseek-chat", baseUrl: "https://api.deepseek.com" }, DEFAULT_CACHE_MS],
  ["Gemini: no lifetime stated", { protocol: "google", model: "gemini-2.5-pro", baseUrl: "https://generativelanguage.googleapis.com" }, DEFAULT_CACHE_MS],
  ["a local llama.cpp server: until other requests evict it", { protocol: "openai", model: "qwen", baseUrl: "http://127.0.0.1:8080/v1" }, DEFAULT_CACHE_MS],
] as const)("%s", async (_, options, lifetime) => {
  const provider = await made(options);
  expect(provider.cacheLifetimeMs).toBe(lifetime);
  expect(cacheLifetime(provider)).toBe(lifetime);
});

test("an embedder's provider that states no lifetime gets its protocol's: Anthropic's 5 minutes, else an hour", () => {
  expect(cacheLifetime({ protocol: "anthropic" })).toBe(5 * 60_000);
  expect(cacheLifetime({ protocol: "openai" })).toBe(60 * 60_000);
  expect(cacheLifetime({ protocol: "openai", cacheLifetimeMs: 90_000 })).toBe(90_000);
});
