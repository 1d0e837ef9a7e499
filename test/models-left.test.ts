// `/model` back to a model goes on with the provider it was left with (what its refusals taught it
// kept), unless what made that provider changed since: a /reload's new key or base_url, another proxy.
import { expect, test } from "bun:test";
import type { Provider } from "../src/kernel/provider.ts";
import { modelsLeft } from "../src/models-left.ts";
import { fakeProvider } from "./helpers/fake-provider.ts";
import { defaultSettingsForTest } from "./helpers/settings.ts";

const settings = (model: string, apiKey = "k1") => {
  const s = defaultSettingsForTest();
  return { ...s, model, provider: { ...s.provider, apiKey } };
};

test("a return to a model gives the provider it was left with; another key, model or fetch gives none", () => {
  const left = modelsLeft();
  const gw: Provider = fakeProvider([], { model: "good-model" });
  const claude: Provider = fakeProvider([], { model: "haiku" });
  const [good, haiku] = [settings("good-model"), settings("haiku")];
  expect(left.back(good, gw, haiku, fetch)).toBeUndefined(); // haiku not used yet: made new
  expect(left.back(haiku, claude, good, fetch)).toBe(gw);
  expect(left.back(good, gw, haiku, fetch)).toBe(claude);
  expect(left.back(haiku, claude, { ...good, effort: "low" }, fetch)).toBe(gw); // requests carry the effort in force
  expect(left.back(good, gw, settings("good-model", "k2"), fetch)).toBeUndefined(); // a /reload's new key
  const proxied = Object.assign(async () => new Response(), { preconnect: () => {} }) as unknown as typeof fetch;
  expect(left.back(haiku, claude, good, proxied)).toBeUndefined(); // another proxy
});
