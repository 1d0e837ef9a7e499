// `hey -c` on a session whose provider has no key now: nothing is sent only where the request would
// surely be refused, at a vendor's own API with no key; a local server or gateway a table points at,
// an optional key, or a key in a header is sent to as on the first run (x122).
import TOML from "@iarna/toml";
import { describe, expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigFlags } from "../../src/config/settings.ts";
import { unsendable } from "../../src/endpoint.ts";

type Env = Record<string, string | undefined>;

const resolve = (toml: string, env: Env, flags: ConfigFlags) => resolveConfig([{ source: "/c.toml", data: TOML.parse(toml) }], env, flags);
const resumed = (provider: string, model: string) => ({ session: { provider, model } });
const local = '[provider.openai]\nbase_url = "http://127.0.0.1:8000/v1"\nmodels = ["my-local"]';

describe("a resumed session whose provider has no key", () => {
  test.each([
    ["a [provider.openai] table points at a local server (vLLM, LM Studio)", local, {}, "openai"],
    [
      "a [provider.openai] table lists models and OPENAI_BASE_URL moves it",
      '[provider.openai]\nmodels = ["my-local"]',
      { OPENAI_BASE_URL: "http://127.0.0.1:4000/v1" },
      "openai",
    ],
    [
      "its api_key is optional (${LOCAL_KEY:-}) and unset",
      '[provider.local]\nbase_url = "http://127.0.0.1:8000/v1"\napi_key = "${LOCAL_KEY:-}"\nmodels = ["my-local"]',
      {},
      "local",
    ],
    ["its api_key is empty", '[provider.local]\nbase_url = "http://127.0.0.1:8000/v1"\napi_key = ""\nmodels = ["my-local"]', {}, "local"],
    [
      "it authenticates by a header (Azure's api-key)",
      '[provider.openai]\nbase_url = "https://x.openai.azure.com/openai/v1"\nheaders = { "api-key" = "${AZURE_KEY}" }\nmodels = ["gpt-5.5"]',
      { AZURE_KEY: "k" },
      "openai",
    ],
    [
      "its key is in an Authorization header at the vendor's own API",
      '[provider.openai]\nheaders = { Authorization = "Bearer ${MY_OPENAI}" }\nmodels = ["gpt-5.5"]',
      { MY_OPENAI: "k" },
      "openai",
    ],
  ])("is sent to when %s", (_why, toml, env: Env, provider) => {
    const { settings } = resolve(toml, env, resumed(provider, provider === "local" ? "my-local" : "gpt-5.5"));
    expect(settings.provider.name).toBe(provider);
    expect(unsendable(settings.provider)).toBeUndefined();
  });

  test.each([
    ["a table at the vendor's own address", '[provider.openai]\nmodels = ["gpt-5.5"]', {}, "OPENAI_API_KEY is not set"],
    ["OPENAI_BASE_URL names the vendor's own API", "", { OPENAI_BASE_URL: "https://api.openai.com/v1" }, "OPENAI_API_KEY is not set"],
    [
      "its Authorization header's variable is not set",
      '[provider.openai]\nheaders = { Authorization = "Bearer ${MY_OPENAI}" }\nmodels = ["gpt-5.5"]',
      {},
      "OPENAI_API_KEY is not set",
    ],
  ])("gets nothing when %s", (_why, toml, env: Env, said) => {
    const refusal = unsendable(resolve(toml, env, resumed("openai", "gpt-5.5")).settings.provider);
    expect(refusal).toStartWith(`this session last used openai/gpt-5.5, and ${said}, so hey sends it nothing`);
  });

  test("of one's own at a vendor's address with no api_key gets nothing, and is told where a key goes", () => {
    const toml = '[provider.mine]\nbase_url = "https://api.openai.com/v1"\nmodels = ["gpt-5.5"]';
    expect(unsendable(resolve(toml, {}, resumed("mine", "gpt-5.5")).settings.provider)).toBe(
      "this session last used mine/gpt-5.5, and [provider.mine] has no api_key, so hey sends it nothing (the request would be refused); set api_key in [provider.mine] (or pass --api-key)",
    );
  });
});

describe("a resumed session on a built-in vendor whose key is unset now, with a config of one's own (x128)", () => {
  const config = '[default]\nmodel = "local/mock-a"\n\n[provider.local]\nbase_url = "http://127.0.0.1:8000/v1"\nmodels = ["mock-a"]';

  test("is refused as with no config, naming the key and -m with the config's keyless local provider, not moved to the default", () => {
    const { settings, warnings } = resolve(config, {}, resumed("anthropic", "claude-sonnet-4-5"));
    expect(`${settings.provider.name}/${settings.model}`).toBe("anthropic/claude-sonnet-4-5");
    expect(unsendable(settings.provider)).toBe(
      "this session last used anthropic/claude-sonnet-4-5, and ANTHROPIC_API_KEY is not set, so hey sends it nothing (the request would be refused); continue it with a model whose key is set: hey -c -m local/mock-a (/model at the prompt), or set ANTHROPIC_API_KEY (or pass --api-key)",
    );
    expect(warnings.join("\n")).not.toContain("not configured in this run");
  });

  test("goes on with -m, and with the key set again", () => {
    expect(resolve(config, {}, { ...resumed("anthropic", "claude-sonnet-4-5"), model: "local/mock-a" }).settings.provider.name).toBe("local");
    const keyed = resolve(config, { ANTHROPIC_API_KEY: "k" }, resumed("anthropic", "claude-sonnet-4-5")).settings;
    expect(`${keyed.provider.name}/${keyed.model}`).toBe("anthropic/claude-sonnet-4-5");
    expect(unsendable(keyed.provider)).toBeUndefined();
  });
});
