// What a run says about its fallbacks: the line announcing a switch quotes the failure without the
// advice to switch models (hey just did), which only the error that ends the run carries; and a
// fallback that cannot be used is passed over, and said, once a run however often the models fail.
import { expect, test } from "bun:test";
import { createAgent, type Fallback } from "../../src/agent.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import { ConfigError, type ConfigLayer } from "../../src/config/settings.ts";
import { nextModel } from "../../src/fallback/next-model.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { agentSettings } from "../../src/runtime.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

const base = defaultSettingsForTest();
const settingsOf = (provider: string, model: string) => ({ ...agentSettings(base), model: { provider, model }, retry: { ...base.retry, maxRetries: 0 } });
const spent = () => ({ error: new ProviderError("quota_exhausted", "quota exhausted (429): You exceeded your current quota") });

test("a spent quota: the falling-back line quotes it without 'switch models'; the error that ends the run still says it", async () => {
  const output = recordingOutput();
  const agent = createAgent({
    settings: settingsOf("a", "m1"),
    provider: fakeProvider([spent()], { model: "m1" }),
    tools: () => [],
    modelSwitch: "prompt", // the REPL's agent (a -p run's names -m)
    output,
    cwd: process.cwd(),
    system: () => "test",
    permission: () => undefined,
    taskNote: () => undefined,
    fallback: async (_e, tried): Promise<Fallback | undefined> =>
      tried.has("b/m2") ? undefined : { provider: fakeProvider([spent()], { model: "m2" }), settings: settingsOf("b", "m2"), why: "is out of quota" },
  });
  const result = await agent.send("q", new AbortController().signal);
  expect(result.stop).toBe("error");
  expect(output.of("fallback").map((e) => e.message)).toEqual([
    "falling back from a/m1 to b/m2 for the rest of this run: a/m1 is out of quota (quota exhausted (429): You exceeded your current quota)",
  ]);
  expect(output.of("error").map((e) => e.message)).toEqual(["quota exhausted (429): You exceeded your current quota (switch models with /model)"]);
});

const TEXT = `[default]\nprovider = "a"\n[provider.a]\nbase_url = "http://127.0.0.1:1/v1"\nmodels = ["m1"]\n[provider.b]\nbase_url = "http://127.0.0.1:2/v1"\nmodels = ["m2"]\n[provider.c]\nbase_url = "http://127.0.0.1:3/v1"\nmodels = ["m3"]\n`;
const layer: ConfigLayer = { source: "/home/ana/.config/hey/config.toml", data: Bun.TOML.parse(TEXT) as Record<string, unknown>, text: TEXT };

test("a fallback that cannot be used is passed over once a run: later failures go on with the next without saying it again", async () => {
  const flags = { fallbackModels: ["b/m2", "c/m3"] };
  const warned: string[] = [];
  const built: string[] = [];
  const next = nextModel({
    config: () => ({ settings: resolveConfig([layer], {}, flags).settings, flags, resolve: (f) => resolveConfig([layer], {}, f).settings }),
    effort: () => undefined,
    providerFor: async (s) => {
      built.push(s.provider.name);
      if (s.provider.name === "b") throw new ConfigError("[provider.b] base_url is not approved");
      return fakeProvider([]);
    },
    agentSettings,
    warn: (m) => warned.push(m),
  });
  const tried = new Set(["a/m1"]);
  const signal = new AbortController().signal;
  const busy = new ProviderError("rate_limit", "rate limited (429)");
  expect((await next(busy, tried, signal))?.settings.model).toEqual({ provider: "c", model: "m3" });
  tried.add("c/m3"); // the agent's, as it switches
  expect(await next(busy, tried, signal)).toBeUndefined(); // c failed too: none is left, and b is not built nor said again
  expect(warned).toEqual(["[provider.b] base_url is not approved — that fallback is passed over"]);
  expect(built).toEqual(["b", "c"]);
});
