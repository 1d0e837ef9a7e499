// The fallback models are checked as -m checks a model, at start-up and /reload, and each mistake
// names where the list was set — the flag, HEY_FALLBACK_MODELS or the file's line — and the name.
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { ConfigError, type ConfigFlags, type ConfigLayer } from "../../src/config/settings.ts";

type Env = Record<string, string | undefined>;
const FILE = `[default]\nprovider = "a"\n[provider.a]\nbase_url = "http://127.0.0.1:1/v1"\nmodels = ["m1"]\n[provider.b]\nbase_url = "http://127.0.0.1:2/v1"\nmodels = ["m2"]\n`;
const layer = (extra = ""): ConfigLayer => {
  const text = FILE.replace("[provider.a]", `${extra}[provider.a]`);
  return { source: "/home/ana/.config/hey/config.toml", data: Bun.TOML.parse(text) as Record<string, unknown>, text };
};
const resolve = (env: Env = {}, flags: ConfigFlags = {}, extra = "") => resolveConfig([layer(extra)], env, flags);
const problem = (env: Env = {}, flags: ConfigFlags = {}, extra = "") => {
  try {
    resolve(env, flags, extra);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return undefined;
};

test("the flag, the variable (comma-separated) and the key each set them, the flag over the variable over the file", () => {
  expect(resolve({}, { fallbackModels: ["b/m2", "m1"] }).settings.fallbacks).toEqual({ models: ["b/m2", "m1"], from: "--fallback-model" });
  expect(resolve({ HEY_FALLBACK_MODELS: "b/m2, a/m1" }).settings.fallbacks).toEqual({ models: ["b/m2", "a/m1"], from: "HEY_FALLBACK_MODELS" });
  expect(resolve({}, {}, 'fallback_models = ["b/m2"]\n').settings.fallbacks).toEqual({
    models: ["b/m2"],
    from: "/home/ana/.config/hey/config.toml:3: [default] fallback_models",
  });
  expect(resolve({ HEY_FALLBACK_MODELS: "a/m1" }, { fallbackModels: ["b/m2"] }).settings.fallbacks?.models).toEqual(["b/m2"]);
  expect(resolve().settings.fallbacks).toBeUndefined();
});

test.each([
  [{}, { fallbackModels: ["nope/x"] }, "", '--fallback-model "nope/x": unknown provider "nope"'],
  [{ HEY_FALLBACK_MODELS: "b/m2,nope/x" }, {}, "", 'HEY_FALLBACK_MODELS "nope/x": unknown provider "nope"'],
  [{}, {}, 'fallback_models = ["b/m2", "nope/x"]\n', '/home/ana/.config/hey/config.toml:3: [default] fallback_models "nope/x": unknown provider "nope"'],
  [{}, { fallbackModels: ["b/m2", ""] }, "", '--fallback-model: an empty model name in "b/m2,"; name each model as -m does'],
  [{ HEY_FALLBACK_MODELS: "b/m2,,a/m1" }, {}, "", 'HEY_FALLBACK_MODELS: an empty model name in "b/m2,,a/m1"; name each model as -m does'],
] as const)("%o %o %s → %s", (env, flags, extra, said) => {
  expect(problem(env, flags as ConfigFlags, extra)).toStartWith(said);
});

test("a fallback that names a built-in provider without its key stops hey as -m would, under the flag's name", () => {
  expect(problem({}, { fallbackModels: ["anthropic/claude-sonnet-4-5"] })).toStartWith(
    '--fallback-model "anthropic/claude-sonnet-4-5": unknown provider "anthropic" (anthropic is built in and offered when ANTHROPIC_API_KEY',
  );
});
