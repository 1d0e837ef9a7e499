// Claude Code's ANTHROPIC_MODEL: a user whose gateway serves only the model that variable names
// gets it as the anthropic provider's model when nothing of hey's names one; -m, HEY_MODEL, a
// [default] model, the table's `models` and a resumed session's model win; it alone picks no
// provider; and Claude Code's own aliases, which no API serves, keep hey's model, said in a warning.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigFlags } from "../../src/config/settings.ts";

type Env = Record<string, string | undefined>;
const resolve = (toml: string, env: Env, flags: ConfigFlags = {}) => resolveConfig(toml ? [{ source: "/u.toml", data: TOML.parse(toml) }] : [], env, flags);
const GATEWAY = { ANTHROPIC_BASE_URL: "http://127.0.0.1:8000", ANTHROPIC_AUTH_TOKEN: "t", ANTHROPIC_MODEL: "gw-sonnet" };

test.each([
  ["a gateway (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN)", GATEWAY, ""],
  ["Anthropic's API (ANTHROPIC_API_KEY)", { ANTHROPIC_API_KEY: "k", ANTHROPIC_MODEL: "claude-opus-4-1" }, ""],
  ["a [provider.anthropic] table without models", { ANTHROPIC_API_KEY: "k", ANTHROPIC_MODEL: "claude-opus-4-1" }, "[provider.anthropic]\nmax_tokens = 1000"],
])("with %s and no model named, ANTHROPIC_MODEL is the model, said as where it came from", (_, env: Env, toml) => {
  const { settings, warnings } = resolve(toml, env);
  expect(settings.provider.name).toBe("anthropic");
  expect(settings.model).toBe(env.ANTHROPIC_MODEL!);
  expect(settings.provider.modelVar).toBe("ANTHROPIC_MODEL");
  expect(warnings).toEqual([]);
});

test.each([
  ["-m", "", {}, { model: "claude-haiku-4-5" }, "claude-haiku-4-5"],
  ["-m anthropic/MODEL", "", {}, { model: "anthropic/claude-haiku-4-5" }, "claude-haiku-4-5"],
  ["HEY_MODEL", "", { HEY_MODEL: "claude-haiku-4-5" }, {}, "claude-haiku-4-5"],
  ["[default] model", '[default]\nmodel = "claude-haiku-4-5"', {}, {}, "claude-haiku-4-5"],
  ["the table's models", '[provider.anthropic]\nmodels = ["mine"]', {}, {}, "mine"],
  ["a resumed session's model", "", {}, { session: { provider: "anthropic", model: "claude-opus-4-5" } }, "claude-opus-4-5"],
])("%s wins over ANTHROPIC_MODEL, which is then not named as the model's source", (_, toml, env: Env, flags: ConfigFlags, model) => {
  const { settings } = resolve(toml, { ...GATEWAY, ...env }, flags);
  expect(settings.provider.name).toBe("anthropic");
  expect(settings.model).toBe(model);
  expect(settings.provider.modelVar).toBeUndefined();
});

test("ANTHROPIC_MODEL alone (no key, no ANTHROPIC_BASE_URL) does not pick anthropic; beside another vendor's key it changes nothing there", () => {
  expect(resolve("", { ANTHROPIC_MODEL: "claude-opus-4-1" }).settings.provider.name).toBe("ollama");
  const { settings } = resolve("", { OPENAI_API_KEY: "k", ANTHROPIC_MODEL: "claude-opus-4-1" });
  expect(settings.provider.name).toBe("openai");
  expect(settings.model).toBe("gpt-5.5");
});

test.each(["opus", "sonnet", "sonnet[1m]", "opusplan", "haiku", "default"])(
  "ANTHROPIC_MODEL=%s, Claude Code's own alias, keeps hey's model and says so",
  (alias) => {
    const { settings, warnings } = resolve("", { ANTHROPIC_API_KEY: "k", ANTHROPIC_MODEL: alias });
    expect(settings.model).toBe("claude-sonnet-4-5");
    expect(settings.provider.modelVar).toBeUndefined();
    expect(warnings).toEqual([
      `ANTHROPIC_MODEL=${alias} is Claude Code's alias, which the API does not serve: using anthropic/claude-sonnet-4-5 (-m anthropic/MODEL names another)`,
    ]);
  },
);
