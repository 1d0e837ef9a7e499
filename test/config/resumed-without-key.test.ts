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

describe("a resumed session at a hosted API that is not built in (x127)", () => {
  const table = (name: string, url: string, key: string, headers = "") =>
    `[provider.${name}]\nbase_url = "${url}"\napi_key = "${key}"\nmodels = ["m1"]${headers ? `\nheaders = ${headers}` : ""}`;
  test.each([
    ["OpenRouter", "openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"],
    ["Groq", "groq", "https://api.groq.com/openai/v1", "GROQ_API_KEY"],
    ["Together, host written in capitals", "together", "https://API.Together.xyz/v1", "TOGETHER_API_KEY"],
  ])("%s with its required ${KEY} unset gets nothing", (_why, name, url, variable) => {
    const refusal = unsendable(resolve(table(name, url, `\${${variable}}`), {}, resumed(name, "m1")).settings.provider);
    expect(refusal).toStartWith(`this session last used ${name}/m1, and ${variable} is not set, so hey sends it nothing`);
  });

  test("the vendor's own API written with a trailing dot (api.openai.com.) gets nothing without a key", () => {
    const toml = '[provider.mine]\nbase_url = "https://api.openai.com./v1"\nmodels = ["gpt-5.5"]';
    expect(unsendable(resolve(toml, {}, resumed("mine", "gpt-5.5")).settings.provider)).toStartWith(
      "this session last used mine/gpt-5.5, and [provider.mine] has no api_key",
    );
  });

  test("a header that carries no key (X-Max-Tokens) is no key", () => {
    const toml = table("openrouter", "https://openrouter.ai/api/v1", "${OPENROUTER_API_KEY}", '{ "X-Max-Tokens" = "4096" }');
    expect(unsendable(resolve(toml, {}, resumed("openrouter", "m1")).settings.provider)).toStartWith(
      "this session last used openrouter/m1, and OPENROUTER_API_KEY is not set",
    );
  });

  test.each([
    ["its key is optional (${KEY:-})", table("openrouter", "https://openrouter.ai/api/v1", "${OPENROUTER_API_KEY:-}"), "openrouter"],
    ["its api_key is empty", table("openrouter", "https://openrouter.ai/api/v1", ""), "openrouter"],
    ["its key is in an X-Auth-Token header", table("gw", "https://gw.example.com/v1", "${GW_KEY}", '{ "X-Auth-Token" = "t0k" }'), "gw"],
    ["it is on the local network (192.168.1.20)", table("lan", "http://192.168.1.20:8000/v1", "${LAN_KEY}"), "lan"],
    ["it is a container's name (http://vllm:8000)", table("box", "http://vllm:8000/v1", "${BOX_KEY}"), "box"],
    ["it is in a local zone (gpu.internal)", table("gpu", "https://gpu.internal/v1", "${GPU_KEY}"), "gpu"],
    ["its table names no api_key (a server that takes none)", '[provider.mine]\nbase_url = "https://llm.example.com/v1"\nmodels = ["m1"]', "mine"],
  ])("is sent to when %s", (_why, toml, name) => {
    const { settings } = resolve(toml, {}, resumed(name, "m1"));
    expect(settings.provider.name).toBe(name);
    expect(unsendable(settings.provider)).toBeUndefined();
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

// x131: a key reaches the request by api_key or by any header hey knows as a credential; a vendor's
// own API wants one even where the table calls it optional; elsewhere only where the table names one.
describe("a resumed session: where a key is wanted and whether one reaches the request (x131)", () => {
  const said = (toml: string, env: Env, name: string) => unsendable(resolve(toml, env, resumed(name, "m1")).settings.provider);
  const table = (name: string, url: string, key: string) => `[provider.${name}]\nbase_url = "${url}"\napi_key = "${key}"\nmodels = ["m1"]`;
  const gateway = (name: string, url: string) => `[provider.${name}]\nbase_url = "${url}"\nmodels = ["m1"]`;
  const withHeader = (header: string, value: string) =>
    `[provider.corp]\nbase_url = "https://corp.azure-api.net/openai"\napi_key = "\${CORP_KEY}"\nmodels = ["m1"]\nheaders = { "${header}" = "${value}" }`;
  const headerOnly = (url: string, header: string, value: string) =>
    `[provider.corp]\nbase_url = "${url}"\nmodels = ["m1"]\nheaders = { "${header}" = "${value}" }`;

  test.each([
    ["[provider.openai] at a keyless gateway, OPENAI_API_KEY unset", gateway("openai", "https://llm.corp.example.com/v1"), {}, "openai"],
    ["[provider.anthropic] at a keyless proxy, ANTHROPIC_API_KEY unset", gateway("anthropic", "https://bedrock-proxy.corp.example.com"), {}, "anthropic"],
    ["its key is in Ocp-Apim-Subscription-Key", withHeader("Ocp-Apim-Subscription-Key", "${APIM}"), { APIM: "k" }, "corp"],
    ["its key is in X-Auth-Key", withHeader("X-Auth-Key", "${AUTH}"), { AUTH: "k" }, "corp"],
    ["its key is in x-functions-key", withHeader("x-functions-key", "${FN}"), { FN: "k" }, "corp"],
    ["its key is in X-LiteLLM-Key", withHeader("X-LiteLLM-Key", "${LL}"), { LL: "k" }, "corp"],
    ["its key has a default (${K:-sk-local})", table("gw", "https://gw.example.com/v1", "${GW_KEY:-sk-local}"), {}, "gw"],
    ["its Authorization header's variable is unset on this machine", headerOnly("http://127.0.0.1:8000/v1", "Authorization", "Bearer ${GW_TOKEN}"), {}, "corp"],
  ])("is sent to when %s", (_why, toml, env: Env, name) => {
    const { settings } = resolve(toml, env, resumed(name, "m1"));
    expect(settings.provider.name).toBe(name);
    expect(unsendable(settings.provider)).toBeUndefined();
  });

  test.each([
    ["Ocp-Apim-Subscription-Key", "${APIM}", "APIM"],
    ["X-Auth-Key", "${AUTH}", "AUTH"],
    ["x-functions-key", "${FN}", "FN"],
    ["X-LiteLLM-Key", "Bearer ${LL}", "LL"],
  ])("gets nothing at a hosted address when its %s header's variable is unset, naming it", (header, value, variable) => {
    expect(said(headerOnly("https://corp.azure-api.net/openai", header, value), {}, "corp")).toStartWith(
      `this session last used corp/m1, and ${variable} is not set, so hey sends it nothing`,
    );
  });

  test.each([
    ["https://api.openai.com/v1", "OPENAI_API_KEY"],
    ["https://API.OpenAI.com./v1", "OPENAI_API_KEY"],
  ])("gets nothing at the vendor's own API (%s) when its optional key ${…:-} is empty", (url, variable) => {
    const toml = `[provider.openai]\nbase_url = "${url}"\napi_key = "\${${variable}:-}"\nmodels = ["m1"]`;
    expect(said(toml, {}, "openai")).toStartWith("this session last used openai/m1, and");
    expect(said(toml, { [variable]: "sk-x" }, "openai")).toBeUndefined();
  });

  test.each([
    ["Azure OpenAI with its api-key header's variable unset", "https://myres.openai.azure.com/openai/deployments/gpt", "api-key", "${AZ}", "AZ"],
    ["a gateway with Authorization = Bearer ${GW_TOKEN} unset", "https://gw.example.com/v1", "Authorization", "Bearer ${GW_TOKEN}", "GW_TOKEN"],
  ])("gets nothing: %s", (_why, url, header, value, variable) => {
    const toml = `[provider.azure]\nbase_url = "${url}"\nmodels = ["m1"]\nheaders = { "${header}" = "${value}" }`;
    expect(said(toml, {}, "azure")).toBe(
      `this session last used azure/m1, and ${variable} is not set, so hey sends it nothing (the request would be refused); set ${variable} (or pass --api-key)`,
    );
  });

  test("a gateway set through [provider.openai] whose header key is unset names that header's variable, not OPENAI_API_KEY", () => {
    const toml = '[provider.openai]\nbase_url = "https://llm.corp.example.com/v1"\nmodels = ["m1"]\nheaders = { Authorization = "Bearer ${GW_TOKEN}" }';
    expect(said(toml, {}, "openai")).toStartWith("this session last used openai/m1, and GW_TOKEN is not set");
  });
});

describe("hey -c -m NAME on a session whose built-in vendor has no key (x132)", () => {
  const gw = '[provider.gw]\nbase_url = "https://gw.example.com/v1"\napi_key = "${GW_KEY}"\nmodels = ["claude-sonnet-4-5"]';
  const session = resumed("anthropic", "claude-sonnet-4-5");

  test.each(["claude-opus-4-5", "gpt-5.5", "some-model"])("-m %s goes to the config's provider with a key, as without a session", (model) => {
    const { settings } = resolve(gw, { GW_KEY: "k" }, { ...session, model });
    expect(`${settings.provider.name} ${settings.provider.baseUrl}`).toBe("gw https://gw.example.com/v1");
    expect(unsendable(settings.provider)).toBeUndefined();
  });

  test("-m naming another keyless vendor sends the history nowhere, and says which flag chose it", () => {
    const { settings } = resolve("", {}, { ...session, model: "anthropic/claude-opus-4-5" });
    expect(unsendable(settings.provider)).toBe(
      "-m anthropic/claude-opus-4-5 sends this session to anthropic/claude-opus-4-5, and ANTHROPIC_API_KEY is not set, so hey sends it nothing (the request would be refused); set ANTHROPIC_API_KEY (or pass --api-key)",
    );
    expect(unsendable(resolve("", { OPENAI_API_KEY: "k" }, { ...session, model: "gpt-5.5" }).settings.provider)).toBeUndefined();
  });
});

// HEY_MODEL / HEY_PROVIDER are often a shell profile's, set before the session: one naming the session's own provider or a
// model it serves leaves `hey -c` there, refused for want of its key as with no config file; one naming another provider
// moves the session, and a line says where (x133)
describe("hey -c with HEY_MODEL or HEY_PROVIDER set, on a session whose built-in vendor has no key (x133)", () => {
  const gateway = '[provider.gw]\nbase_url = "https://openrouter.ai/api/v1"\napi_key = "${GW_KEY}"';
  const listing = `${gateway}\nmodels = ["llama-4"]`;
  const session = resumed("openai", "gpt-5.5");
  const run = (toml: string, env: Env) => resolve(toml, { GW_KEY: "k", ...env }, session);

  test.each([
    ["a gateway with no models list", gateway],
    ["a gateway with a models list", listing],
  ])("HEY_MODEL naming the session's model is refused as with no config, with %s", (_what, toml) => {
    const withoutConfig = unsendable(resolve("", { HEY_MODEL: "gpt-5.5" }, session).settings.provider);
    expect(withoutConfig).toStartWith("HEY_MODEL=gpt-5.5 sends this session to openai/gpt-5.5, and OPENAI_API_KEY is not set, so hey sends it nothing");
    const { settings } = run(toml, { HEY_MODEL: "gpt-5.5" });
    expect(`${settings.provider.name}/${settings.model}`).toBe("openai/gpt-5.5");
    expect(unsendable(settings.provider)).toStartWith(withoutConfig!.split(" (the request")[0]!);
  });

  test.each([
    ["HEY_MODEL names another model of its vendor", { HEY_MODEL: "gpt-5.1" }, "this session last used openai/gpt-5.5"],
    ["HEY_MODEL names it as PROVIDER/MODEL", { HEY_MODEL: "openai/gpt-5.5" }, "HEY_MODEL=openai/gpt-5.5 sends this session to openai/gpt-5.5"],
    ["HEY_PROVIDER names its provider", { HEY_PROVIDER: "openai" }, "this session last used openai/gpt-5.5"],
  ])("nothing goes to the gateway when %s", (_what, env: Env, said) => {
    const { settings } = run(gateway, env);
    expect(settings.provider.name).toBe("openai");
    expect(unsendable(settings.provider)).toStartWith(`${said}, and OPENAI_API_KEY is not set, so hey sends it nothing`);
  });

  test.each([
    ["HEY_MODEL names a model the gateway lists", { HEY_MODEL: "llama-4" }, "HEY_MODEL=llama-4"],
    ["HEY_PROVIDER names the gateway", { HEY_PROVIDER: "gw" }, "HEY_PROVIDER=gw"],
  ])("when %s, the session goes there and a line says so", (_what, env: Env, by) => {
    const { settings, warnings } = run(listing, env);
    const line = `the session used openai/gpt-5.5, and OPENAI_API_KEY is not set; ${by} sends it to gw/llama-4`;
    expect(`${settings.provider.name}/${settings.model}`).toBe("gw/llama-4");
    expect(unsendable(settings.provider)).toBeUndefined();
    expect(warnings).toContain(line);
    expect(settings.provider.moved).toBe(line); // --output json tells a script too (run.ts)
  });

  // x138 #1: naming its vendor, the variables leave the session there even where the gateway lists the name (README);
  // on its own model, which the key would go on with (x150 #4)
  test.each([
    ["HEY_MODEL names a model of its vendor", { HEY_MODEL: "gpt-5.1" }],
    ["HEY_PROVIDER names its vendor and HEY_MODEL one of its models", { HEY_PROVIDER: "openai", HEY_MODEL: "gpt-5.1" }],
    ["HEY_MODEL writes it openai/…", { HEY_MODEL: "openai/gpt-5.1" }],
  ])("nothing goes to a gateway that lists the model when %s: refused on the session's own model", (_what, env: Env) => {
    const { settings, warnings } = run(`${gateway}\nmodels = ["gpt-5.1", "openai/gpt-5.1"]`, env);
    expect(`${settings.provider.name}/${settings.model}`).toBe("openai/gpt-5.5");
    expect(unsendable(settings.provider)).toStartWith("this session last used openai/gpt-5.5, and OPENAI_API_KEY is not set, so hey sends it nothing");
    expect(warnings.join("\n")).not.toContain("the session used");
  });

  test("with its key set, HEY_MODEL naming another of its vendor's models leaves the session on its own model, not the gateway listing it", () => {
    const { settings, warnings } = run(`${gateway}\nmodels = ["gpt-5.1"]`, { OPENAI_API_KEY: "o", HEY_MODEL: "gpt-5.1" });
    expect(`${settings.provider.name}/${settings.model}`).toBe("openai/gpt-5.5");
    expect(unsendable(settings.provider)).toBeUndefined();
    expect(warnings.join("\n")).not.toContain("the session used");
  });

  // x138 #2: -m back is offered only to a vendor that would be sent to; else the unset key is named
  test.each([
    ["no config file", "", { ANTHROPIC_API_KEY: "a", HEY_PROVIDER: "anthropic" }, "HEY_PROVIDER=anthropic sends it to anthropic/"],
    [
      "a [provider.openai] table whose key is unset",
      `${listing}\n[provider.openai]\napi_key = "\${OPENAI_API_KEY}"`,
      { HEY_PROVIDER: "gw" },
      "HEY_PROVIDER=gw sends it to gw/",
    ],
  ])("with %s, the line names the unset key and offers no -m back", (_what, toml, env: Env, said) => {
    const line = resolve(toml, { GW_KEY: "k", ...env }, session).warnings.find((w) => w.startsWith("the session used"));
    expect(line).toStartWith(`the session used openai/gpt-5.5, and OPENAI_API_KEY is not set; ${said}`);
    expect(line).not.toContain("-m openai/gpt-5.5");
  });

  // x138 #5: the variable that moved it is the one named, so the user unsets the right one
  test.each([
    ["HEY_MODEL names the session's model", { HEY_PROVIDER: "gw", HEY_MODEL: "gpt-5.5" }, "HEY_PROVIDER=gw sends it to gw/gpt-5.5"],
    ["HEY_MODEL names another of its vendor's", { HEY_PROVIDER: "gw", HEY_MODEL: "gpt-5.1" }, "HEY_PROVIDER=gw sends it to gw/gpt-5.1"],
    ["HEY_MODEL names the gateway's model", { HEY_PROVIDER: "gw", HEY_MODEL: "llama-4" }, "HEY_PROVIDER=gw with HEY_MODEL=llama-4 sends it to gw/llama-4"],
    ["HEY_MODEL names it gw/…", { HEY_PROVIDER: "gw", HEY_MODEL: "gw/llama-4" }, "HEY_MODEL=gw/llama-4 sends it to gw/llama-4"],
  ])("with HEY_PROVIDER=gw, when %s, the line names what moved the session", (_what, env: Env, said) => {
    expect(run(listing, env).warnings).toContain(`the session used openai/gpt-5.5, and OPENAI_API_KEY is not set; ${said}`);
  });
});

describe("hey -c with HEY_MODEL or HEY_PROVIDER set, on a session whose provider has its key (x133)", () => {
  const keys = { OPENAI_API_KEY: "o", ANTHROPIC_API_KEY: "a" };

  test.each([
    ["HEY_MODEL", { HEY_MODEL: "claude-sonnet-4-5" }],
    ["HEY_PROVIDER", { HEY_PROVIDER: "anthropic" }],
  ])("%s naming another provider moves the session, and a line says where and how to stay", (name, env: Env) => {
    const { settings, warnings } = resolve("", { ...keys, ...env }, resumed("openai", "gpt-5.5"));
    expect(settings.provider.name).toBe("anthropic");
    expect(warnings).toContain(
      `the session used openai/gpt-5.5; ${name}=${env[name]} sends it to anthropic/${settings.model} — pass -m openai/gpt-5.5 to continue with it`,
    );
  });

  test("HEY_MODEL naming the session's own model keeps it on its provider, though a gateway lists that name too", () => {
    const toml = '[provider.gw]\nbase_url = "https://gw.example.com/v1"\napi_key = "${GW_KEY}"\nmodels = ["gpt-4.1"]';
    const { settings, warnings } = resolve(toml, { ...keys, GW_KEY: "k", HEY_MODEL: "gpt-4.1" }, resumed("openai", "gpt-4.1"));
    expect(`${settings.provider.name}/${settings.model}`).toBe("openai/gpt-4.1");
    expect(warnings.join("\n")).not.toContain("the session used");
  });

  test("nothing is said when HEY_MODEL names another model of the session's provider, or -m chose the provider", () => {
    expect(resolve("", { ...keys, HEY_MODEL: "gpt-5.1" }, resumed("openai", "gpt-5.5")).warnings.join("\n")).not.toContain("the session used");
    const chosen = resolve("", { ...keys, HEY_MODEL: "gpt-5.1" }, { ...resumed("openai", "gpt-5.5"), model: "claude-sonnet-4-5" });
    expect(chosen.settings.provider.name).toBe("anthropic");
    expect(chosen.warnings.join("\n")).not.toContain("the session used");
  });
});

// x147 #2: a resumed session goes on with the model it last used (README); a shell profile's HEY_MODEL naming
// another model of its provider does not change it: only -m and /model do
describe("hey -c, --resume or /resume with HEY_MODEL naming another model of the session's provider, which has its key (x147)", () => {
  const config = '[default]\nmodel = "local/mock-a"\n\n[provider.local]\nbase_url = "http://127.0.0.1:8000/v1"\nmodels = ["mock-a", "mock-b"]';
  const chosen = (toml: string, env: Env, flags: ConfigFlags) => {
    const { settings, warnings } = resolve(toml, env, flags);
    return { model: `${settings.provider.name}/${settings.model}`, said: warnings.join("\n"), refused: unsendable(settings.provider) };
  };

  test.each(["mock-a", "local/mock-a", "mock-c"])("HEY_MODEL=%s leaves a local/mock-b session on mock-b, saying nothing", (model) => {
    expect(chosen(config, { HEY_MODEL: model }, resumed("local", "mock-b"))).toEqual({ model: "local/mock-b", said: "", refused: undefined });
  });

  test("HEY_PROVIDER naming the session's provider with HEY_MODEL one of its models leaves it too", () => {
    expect(chosen(config, { HEY_PROVIDER: "local", HEY_MODEL: "mock-a" }, resumed("local", "mock-b")).model).toBe("local/mock-b");
  });

  test.each([
    ["a built-in vendor with its key in the environment", "", { OPENAI_API_KEY: "o", HEY_MODEL: "gpt-5.1" }, resumed("openai", "gpt-5.5"), "openai/gpt-5.5"],
    ["a built-in vendor, the key given by --api-key", "", { HEY_MODEL: "gpt-5.1" }, { ...resumed("openai", "gpt-5.5"), apiKey: "k" }, "openai/gpt-5.5"],
    [
      "a gateway of one's own with its key",
      '[provider.gw]\nbase_url = "https://gw.example.com/v1"\napi_key = "${GW_KEY}"\nmodels = ["m1", "m2"]',
      { GW_KEY: "k", HEY_MODEL: "m1" },
      resumed("gw", "m2"),
      "gw/m2",
    ],
  ])("on %s, HEY_MODEL leaves the session's model", (_what, toml, env: Env, flags: ConfigFlags, model) => {
    expect(chosen(toml, env, flags)).toMatchObject({ model, refused: undefined });
  });

  test("-m still switches it, and HEY_MODEL naming another provider still moves it, saying so", () => {
    expect(chosen(config, { HEY_MODEL: "mock-b" }, { ...resumed("local", "mock-b"), model: "local/mock-a" }).model).toBe("local/mock-a");
    const moved = chosen(config, { ANTHROPIC_API_KEY: "a", HEY_MODEL: "claude-sonnet-4-5" }, resumed("local", "mock-b"));
    expect(moved.model).toBe("anthropic/claude-sonnet-4-5");
    expect(moved.said).toContain(
      "the session used local/mock-b; HEY_MODEL=claude-sonnet-4-5 sends it to anthropic/claude-sonnet-4-5 — pass -m local/mock-b to continue with it",
    );
  });

  // x150 #4: the refusal names the model that setting the key goes on with, not HEY_MODEL's
  test("without its key, the session is refused on its own model, the one it goes on with once the key is set", () => {
    const { model, refused } = chosen(config, { HEY_MODEL: "gpt-5.1" }, resumed("openai", "gpt-5.5"));
    expect(model).toBe("openai/gpt-5.5");
    expect(refused).toStartWith("this session last used openai/gpt-5.5, and OPENAI_API_KEY is not set, so hey sends it nothing");
    expect(chosen(config, { HEY_MODEL: "gpt-5.1", OPENAI_API_KEY: "o" }, resumed("openai", "gpt-5.5")).model).toBe(model);
  });
});
