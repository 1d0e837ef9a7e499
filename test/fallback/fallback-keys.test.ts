// A key given for the model in use (--api-key, HEY_API_KEY) is never sent to a fallback on another
// provider: that fallback goes with its own provider's key, as `-m` would start it without the key
// given; a fallback on the same provider keeps the given key. A fallback whose key variable has no
// value is warned of at start-up, naming the fallback and the provider's line.
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigFlags, ConfigLayer, Settings } from "../../src/config/settings.ts";
import { nextModel } from "../../src/fallback/next-model.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { agentSettings } from "../../src/runtime.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";

type Env = Record<string, string | undefined>;
const TEXT =
  `[default]\nprovider = "a"\n[provider.a]\nbase_url = "http://127.0.0.1:1/v1"\napi_key = "\${A_KEY}"\nmodels = ["m1", "m3"]\n` +
  `[provider.b]\nbase_url = "http://127.0.0.1:2/v1"\napi_key = "\${B_KEY}"\nmodels = ["m2"]\n`;
const layer: ConfigLayer = { source: "/home/ana/.config/hey/config.toml", data: Bun.TOML.parse(TEXT) as Record<string, unknown>, text: TEXT };

/** the settings the first fallback not tried is resolved to, with `flags` and `env` as the run started */
async function fallbackSettings(env: Env, flags: ConfigFlags, tried: string[] = ["a/m1"]): Promise<Settings | undefined> {
  let chosen: Settings | undefined;
  const next = nextModel({
    config: () => ({ settings: resolveConfig([layer], env, flags).settings, flags, resolve: (f) => resolveConfig([layer], env, f).settings }),
    effort: () => undefined,
    providerFor: async (s) => ((chosen = s), fakeProvider([])),
    agentSettings,
    warn: (m) => {
      throw new Error(m);
    },
  });
  await next(new ProviderError("rate_limit", "rate limited (429)"), new Set(tried), new AbortController().signal);
  return chosen;
}

test.each([
  ["--api-key", { B_KEY: "kb" }, { apiKey: "SECRET-FOR-A" }],
  ["HEY_API_KEY", { B_KEY: "kb", HEY_API_KEY: "SECRET-FOR-A" }, {}],
] as const)("%s is for the model in use: a fallback on another provider sends that provider's own key", async (_, env, flags) => {
  const s = await fallbackSettings(env, { ...flags, fallbackModels: ["b/m2"] });
  expect(s?.provider.name).toBe("b");
  expect(s?.provider.apiKey).toBe("kb");
  expect(s?.provider.apiKeyVar).not.toMatch(/--api-key|HEY_API_KEY/);
});

test("a fallback on another provider whose own key is missing sends none, and its 401 names its own variable, never the given key", async () => {
  const s = await fallbackSettings({}, { apiKey: "SECRET-FOR-A", fallbackModels: ["b/m2"] });
  expect(s?.provider.apiKey).toBeUndefined();
  expect(s?.provider.apiKeyVar).toContain("B_KEY");
});

test("a fallback on the provider in use keeps the key given for it", async () => {
  const s = await fallbackSettings({ B_KEY: "kb" }, { apiKey: "SECRET-FOR-A", fallbackModels: ["a/m3"] });
  expect(s?.provider.name).toBe("a");
  expect(s?.provider.apiKey).toBe("SECRET-FOR-A");
});

test("at start-up, a fallback whose provider's key variable has no value is warned of, once, under the fallback's name", () => {
  const { warnings } = resolveConfig([layer], { A_KEY: "ka" }, { fallbackModels: ["b/m2", "m2"] });
  expect(warnings.filter((w) => w.includes("B_KEY"))).toEqual([
    '--fallback-model "b/m2": /home/ana/.config/hey/config.toml:9: [provider.b] api_key: ${B_KEY} has no value, so provider b sends no API key',
  ]);
  // the given key stands in for the provider in use alone: the fallback's missing key is still said
  const given = resolveConfig([layer], {}, { apiKey: "SECRET-FOR-A", fallbackModels: ["b/m2"] });
  expect(given.warnings.filter((w) => w.includes("B_KEY"))).toHaveLength(1);
  expect(given.warnings.filter((w) => w.includes("A_KEY"))).toEqual([]);
});
