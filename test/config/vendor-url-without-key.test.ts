// A vendor's base-URL variable pointed at a server of the user's (vLLM, LM Studio, llama.cpp: no
// key needed) picks that provider as a key would, with or without its key; set to the vendor's own
// address (a common line in dotfiles) it is the same as no variable.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { isUsable } from "../../src/config/presets.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigFlags } from "../../src/config/settings.ts";

type Env = Record<string, string | undefined>;
const resolve = (toml: string, env: Env, flags: ConfigFlags = {}) => resolveConfig(toml ? [{ source: "/u.toml", data: TOML.parse(toml) }] : [], env, flags);
const LOCAL = "http://127.0.0.1:8000/v1";

test.each([
  ["OPENAI_BASE_URL", "openai"],
  ["ANTHROPIC_BASE_URL", "anthropic"],
  ["GOOGLE_GEMINI_BASE_URL", "google"],
])("%s alone (no key anywhere) makes %s the provider, at that address, sending no key", (urlVar, name) => {
  const { settings } = resolve("", { [urlVar]: LOCAL });
  expect(settings.provider).toMatchObject({ name, baseUrl: LOCAL, urlVar });
  expect(settings.provider.apiKey).toBeUndefined();
  expect(isUsable(settings.provider)).toBe(true); // offered by /model, no "has no API key" warning
});

test("a key set anywhere still picks its provider; the keyless server stays available by name and bare names of its vendor go there", () => {
  const env = { ANTHROPIC_API_KEY: "k", OPENAI_BASE_URL: LOCAL };
  expect(resolve("", env).settings.provider.name).toBe("anthropic");
  expect(resolve("", env, { model: "openai/qwen" }).settings.provider).toMatchObject({ name: "openai", baseUrl: LOCAL });
  expect(resolve("", env, { model: "gpt-4.1" }).settings.provider).toMatchObject({ name: "openai", baseUrl: LOCAL });
});

test("with providers in a file, the keyless server stays among them (as a keyed vendor does)", () => {
  const { settings } = resolve('[provider.mine]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m"]', { OPENAI_BASE_URL: LOCAL });
  expect(settings.provider.name).toBe("mine");
  expect(settings.providers.map((p) => p.name)).toContain("openai");
});

test.each([
  ["OPENAI_BASE_URL", "https://api.openai.com/v1"],
  ["OPENAI_BASE_URL", "https://api.openai.com/v1/"],
  ["ANTHROPIC_BASE_URL", "https://api.anthropic.com"],
  ["GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com"],
])("%s=%s, the vendor's own address, is no gateway: -m llama3.2 stays on the local Ollama, no address is named", (urlVar, url) => {
  const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", GEMINI_API_KEY: "k", [urlVar]: url };
  expect(resolve("", env, { model: "llama3.2" }).settings.provider.name).toBe("ollama");
  expect(resolve("", env).settings.providers.filter((p) => p.urlVar)).toEqual([]);
  // nor does the variable alone, with no key, pick the vendor: it moved nothing
  expect(resolve("", { [urlVar]: url }).settings.provider.name).toBe("ollama");
});
