// The built-in openai provider speaks Responses at api.openai.com, where OpenAI takes reasoning
// effort together with tools (chat completions there refuses the two at once) and gives the model's
// reasoning back to replay; at an address OPENAI_BASE_URL or a table moved it to (LiteLLM, vLLM,
// Azure, a company proxy) it keeps chat completions, unless a table names another protocol.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigFlags } from "../../src/config/settings.ts";

type Env = Record<string, string | undefined>;
const resolve = (toml: string, env: Env, flags: ConfigFlags = {}) => resolveConfig(toml ? [{ source: "/u.toml", data: TOML.parse(toml) }] : [], env, flags);
const providerOf = (toml: string, env: Env, flags: ConfigFlags = {}) => {
  const { protocol, baseUrl } = resolve(toml, env, flags).settings.provider;
  return { protocol, baseUrl };
};

test("OPENAI_API_KEY alone: openai over Responses at api.openai.com", () => {
  expect(providerOf("", { OPENAI_API_KEY: "k" })).toEqual({ protocol: "responses", baseUrl: "https://api.openai.com/v1" });
  // OpenAI's own address in OPENAI_BASE_URL (a dotfile's line) is the same as none
  for (const url of ["https://api.openai.com/v1", "https://api.openai.com/v1/", "https://api.openai.com"])
    expect(providerOf("", { OPENAI_API_KEY: "k", OPENAI_BASE_URL: url }).protocol).toBe("responses");
  // a table without base_url, or with OpenAI's own, is still OpenAI's API
  expect(providerOf('[provider.openai]\nmodels = ["gpt-5.5"]', { OPENAI_API_KEY: "k" }).protocol).toBe("responses");
  expect(providerOf('[provider.openai]\nbase_url = "https://api.openai.com/v1"\nmodels = ["gpt-5.5"]', { OPENAI_API_KEY: "k" }).protocol).toBe("responses");
});

test.each([
  ["a gateway", "https://gw.example/v1"],
  ["a local server", "http://127.0.0.1:8000/v1"],
  ["Azure OpenAI", "https://me.openai.azure.com/openai/v1"],
])("OPENAI_BASE_URL at %s keeps chat completions, as does a table's base_url there", (_what, url) => {
  expect(providerOf("", { OPENAI_API_KEY: "k", OPENAI_BASE_URL: url })).toEqual({ protocol: "openai", baseUrl: url });
  expect(providerOf('[provider.openai]\nmodels = ["m"]', { OPENAI_API_KEY: "k", OPENAI_BASE_URL: url }).protocol).toBe("openai");
  expect(providerOf(`[provider.openai]\nbase_url = "${url}"\nmodels = ["m"]`, { OPENAI_API_KEY: "k" }).protocol).toBe("openai");
});

test("a table's protocol wins either way; --base-url stays chat completions unless --protocol says", () => {
  expect(providerOf('[provider.openai]\nprotocol = "openai"\nmodels = ["gpt-5.5"]', { OPENAI_API_KEY: "k" }).protocol).toBe("openai");
  const env = { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://gw.example/v1" };
  expect(providerOf('[provider.openai]\nprotocol = "responses"\nmodels = ["m"]', env)).toEqual({ protocol: "responses", baseUrl: "https://gw.example/v1" });
  expect(providerOf("", {}, { baseUrl: "https://api.openai.com/v1", model: "gpt-5.5" }).protocol).toBe("openai");
  // the other built-in providers speak what they spoke
  expect(providerOf("", { DEEPSEEK_API_KEY: "k" }).protocol).toBe("openai");
  expect(providerOf("", { ANTHROPIC_API_KEY: "k" }).protocol).toBe("anthropic");
});
