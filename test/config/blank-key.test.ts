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
])("no key, but a vendor's key variable set %s: a config error naming it, no fall back to Ollama", (_, env: Env, said) => {
  expect(problem(env)).toBe(
    `${said} but empty (a CI secret that is not available to this job?): with no API key hey would talk to a local Ollama instead; give the variable its key, or unset it (-m ollama/MODEL picks Ollama)`,
  );
});

test("-m anthropic/MODEL with ANTHROPIC_API_KEY empty: named before a request that would go without a key", () => {
  expect(problem({ ANTHROPIC_API_KEY: "" }, { model: "anthropic/claude-sonnet-4-5" })).toBe(
    "ANTHROPIC_API_KEY is set but empty (a CI secret that is not available to this job?), so provider anthropic has no API key; give the variable its key, or pass --api-key",
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
