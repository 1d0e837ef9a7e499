// A key variable set but empty (`ANTHROPIC_API_KEY=`: GitHub Actions' value for a secret a fork's
// pull request cannot read, or a misspelt secret's name) is named before any request: hey used to
// take it for unset, fall back to a local Ollama and advise exporting the variable the user had
// exported. A variable of whitespace alone is no key either.
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { ConfigError, type ConfigFlags } from "../../src/config/settings.ts";

type Env = Record<string, string | undefined>;
const resolve = (env: Env, flags: ConfigFlags = {}) => resolveConfig([], env, flags);
const problem = (env: Env, flags: ConfigFlags = {}) => {
  try {
    resolve(env, flags);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return undefined;
};

test.each([
  ["empty", { ANTHROPIC_API_KEY: "" }, "ANTHROPIC_API_KEY is set"],
  ["to a space", { OPENAI_API_KEY: " " }, "OPENAI_API_KEY is set"],
  ["empty, two of them", { ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "\n" }, "ANTHROPIC_API_KEY and GEMINI_API_KEY are set"],
])("no key, but a vendor's key variable set %s: the run goes on with the local Ollama, and a warning names the variable", (_, env: Env, said) => {
  // a compose file's `OPENAI_API_KEY=${OPENAI_API_KEY}` with the host's unset, a .env template, `export OPENAI_API_KEY=`
  const run = resolve(env);
  expect(run.settings.provider.name).toBe("ollama");
  expect(run.warnings).toContain(`${said} but empty, so hey uses the local Ollama; give the variable its key to use that vendor (unset it to silence this)`);
});

test("-m anthropic/MODEL with ANTHROPIC_API_KEY empty: named before a request that would go without a key", () => {
  expect(problem({ ANTHROPIC_API_KEY: "" }, { model: "anthropic/claude-sonnet-4-5" })).toBe(
    "ANTHROPIC_API_KEY is set but empty (a CI secret that is not available to this job?), so provider anthropic sends no API key; give the variable its key, or pass --api-key",
  );
});

test.each([
  ["empty", ""],
  ["a space", " "],
])("a [provider.openai] table at a local server with OPENAI_API_KEY set to %s: no key is sent, and a warning says the variable is empty", (_, blank) => {
  const file = { provider: { openai: { base_url: "http://127.0.0.1:48601/v1", models: ["gpt-4o"] } } };
  const run = resolveConfig([{ source: "/c.toml", data: file }], { OPENAI_API_KEY: blank }, {});
  expect(run.settings.provider.apiKey).toBeUndefined(); // not `Bearer ` with a space
  expect(run.warnings).toContain("OPENAI_API_KEY is set but empty, so provider openai sends no API key; give the variable its key, or pass --api-key");
});

test("a [provider.openai] table at OpenAI's own API with OPENAI_API_KEY empty, named by -m: stopped before the request, as the built-in one", () => {
  const file = { provider: { openai: { models: ["gpt-4o"] } } };
  expect(() => resolveConfig([{ source: "/c.toml", data: file }], { OPENAI_API_KEY: "" }, { model: "openai/gpt-4o" })).toThrow(
    "OPENAI_API_KEY is set but empty (a CI secret that is not available to this job?), so provider openai sends no API key",
  );
});

test.each([
  ["another vendor's key is there", { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "k" }, {}, "openai"],
  ["Ollama is asked for with -m", { ANTHROPIC_API_KEY: "" }, { model: "ollama/qwen3" }, "ollama"],
  ["Ollama is asked for with OLLAMA_HOST", { ANTHROPIC_API_KEY: "", OLLAMA_HOST: "127.0.0.1:11500" }, {}, "ollama"],
  ["--api-key gives one", { ANTHROPIC_API_KEY: "" }, { model: "anthropic/claude-sonnet-4-5", apiKey: "k" }, "anthropic"],
  ["a gateway that takes none", { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" }, {}, "openai"],
])("an empty key variable changes nothing when %s", (_, env: Env, flags: ConfigFlags, provider) => {
  expect(resolve(env, flags).settings.provider.name).toBe(provider);
});

test("[default] provider = anthropic, its table without api_key, and ANTHROPIC_API_KEY empty: stopped before the request, naming the variable", () => {
  const file = { default: { provider: "anthropic" }, provider: { anthropic: { effort: "high" } } };
  expect(() => resolveConfig([{ source: "/c.toml", data: file }], { ANTHROPIC_API_KEY: "" }, {})).toThrow(
    "ANTHROPIC_API_KEY is set but empty (a CI secret that is not available to this job?), so provider anthropic sends no API key",
  );
});

// x101 #7: HEY_API_KEY or --api-key of whitespace alone was a key: `Bearer  ` went out, a 401 came back, no variable named
test.each([
  ["HEY_API_KEY", { HEY_API_KEY: " " }, {}],
  ["--api-key", {}, { apiKey: "  " }],
])("%s of whitespace alone is no key: the vendor's own key is used, or its blank variable named", (_, given: Env, flags: ConfigFlags) => {
  const run = resolve({ ...given, ANTHROPIC_API_KEY: "k" }, flags);
  expect([run.settings.provider.name, run.settings.provider.apiKey, run.settings.provider.apiKeyVar]).toEqual(["anthropic", "k", "ANTHROPIC_API_KEY"]);
  expect(problem({ ...given, ANTHROPIC_API_KEY: "" }, { ...flags, model: "anthropic/claude-sonnet-4-5" })).toContain("ANTHROPIC_API_KEY is set but empty");
});

// f105c: a provider that may take no key (a gateway, a local table) goes on without one; its 401 then says why none was sent
test.each([
  ["a gateway's variable", { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" }, {}, "OPENAI_API_KEY is set but empty"],
  ["HEY_API_KEY at --base-url", { HEY_API_KEY: " " }, { baseUrl: "http://127.0.0.1:8080/v1", model: "m" }, "HEY_API_KEY is set but empty"],
  ["--api-key", {}, { baseUrl: "http://127.0.0.1:8080/v1", model: "m", apiKey: "" }, "--api-key was given empty"],
])("%s given empty: the provider in use carries why it sends no key", (_, env: Env, flags: ConfigFlags, said) => {
  const run = resolve(env, flags);
  expect(run.settings.provider.apiKey).toBeUndefined();
  expect(run.settings.provider.apiKeyEmpty).toStartWith(said);
});

test("a key given, or no variable set at all: nothing is said of an empty one", () => {
  expect(resolve({ OPENAI_API_KEY: "k", HEY_API_KEY: "" }).settings.provider.apiKeyEmpty).toBeUndefined();
  expect(resolve({ OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" }).settings.provider.apiKeyEmpty).toBeUndefined();
});
