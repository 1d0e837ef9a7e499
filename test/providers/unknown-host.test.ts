// A host name that does not resolve on the first request of a provider is a typo: it fails at once,
// naming the host and the setting it came from; once the name has answered, the same failure is a
// flaky resolver and is retried. The failure is injected at the fetch (no real DNS: a `.invalid`
// name is still sent to this machine's resolver), through the real adapter and the loop with a fake clock.
import { expect, test } from "bun:test";
import type { ProviderSettings } from "../../src/config/settings.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigLayer } from "../../src/config/settings.ts";
import { baseUrlSettingOf, providerFor } from "../../src/endpoint.ts";
import { userMessage } from "../../src/kernel/ir.ts";
import { runLoop } from "../../src/kernel/loop.ts";
import { createProvider } from "../../src/providers/create.ts";
import { loopDeps } from "../helpers/loop-deps.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const BASE_URL = "https://api.opnai.invalid/v1";
const SETTING = "base_url of [provider.work] in /home/u/.config/hey/config.toml";

/** What Bun's fetch throws for a name that does not resolve, with the code of `code`. */
const lookupFailure = (code: string) => Object.assign(new TypeError(`getaddrinfo ${code} api.opnai.invalid`), { code });
const answer = (text: string) =>
  new Response(sse([chatChunk({ content: text }), chatChunk({ finish: "stop" })]), { headers: { "content-type": "text/event-stream" } });

/** A fetch that plays `script` in order (a Response, or an error to throw) and counts its calls. */
function scripted(script: (Response | Error)[]) {
  const calls = { count: 0 };
  const fetchImpl = async () => {
    const next = script[calls.count++];
    if (!next) throw new Error("script exhausted");
    if (next instanceof Error) throw next;
    return next;
  };
  return { calls, fetch: Object.assign(fetchImpl, { preconnect: () => {} }) as unknown as typeof fetch };
}

const provider = (fetchImpl: typeof fetch) => createProvider({ protocol: "openai", model: "m", baseUrl: BASE_URL, baseUrlSetting: SETTING, fetch: fetchImpl });

test.each(["ENOTFOUND", "EAI_NONAME"])("%s on the first request: one try, no wait, an error naming the host and the setting", async (code) => {
  const net = scripted([lookupFailure(code), answer("never asked")]);
  const deps = loopDeps(await provider(net.fetch));
  const result = await runLoop([userMessage("hi")], deps);
  expect(result.stop).toBe("error");
  expect(net.calls.count).toBe(1);
  expect(deps.clock.slept).toEqual([]);
  expect(deps.output.of("error")).toEqual([
    {
      type: "error",
      kind: "network",
      message: `the host api.opnai.invalid does not resolve (no such host), so hey does not retry: check the host name in ${SETTING}`,
    },
  ]);
});

test("a name that answered earlier and then does not resolve: a flaky resolver, retried", async () => {
  const net = scripted([answer("first"), lookupFailure("ENOTFOUND"), answer("second")]);
  const p = await provider(net.fetch);
  expect((await runLoop([userMessage("one")], loopDeps(p))).stop).toBe("end");
  const deps = loopDeps(p);
  const result = await runLoop([userMessage("two")], deps);
  expect(result.stop).toBe("end");
  expect(deps.output.text()).toBe("second");
  expect(deps.clock.slept).toHaveLength(1);
  expect(deps.output.of("retry")[0]!.error).toContain("ENOTFOUND");
});

test("a resolver that cannot be asked (EAI_AGAIN) on the first request is retried", async () => {
  const net = scripted([lookupFailure("EAI_AGAIN"), answer("back")]);
  const deps = loopDeps(await provider(net.fetch));
  expect((await runLoop([userMessage("hi")], deps)).stop).toBe("end");
  expect(net.calls.count).toBe(2);
});

test.each([
  [{ name: "cli" }, "--base-url"],
  [{ name: "cli", urlVar: "HEY_BASE_URL" }, "HEY_BASE_URL"],
  [{ name: "work", source: "/home/u/.config/hey/config.toml" }, SETTING],
  [{ name: "openrouter", preset: true }, "base_url of [provider.openrouter]"],
])("the setting of %o is named %p", (p, said) => {
  expect(baseUrlSettingOf(p as ProviderSettings)).toBe(said);
});

/** The error of a first request that does not resolve, for the provider resolved from `layers` and `env`. */
async function unresolvedError(layers: ConfigLayer[], env: Record<string, string>) {
  const { provider, model } = resolveConfig(layers, env, {}).settings;
  const deps = loopDeps(await providerFor(provider, model, undefined, scripted([lookupFailure("ENOTFOUND")]).fetch));
  await runLoop([userMessage("hi")], deps);
  return deps.output.of("error")[0]!.message;
}

const OFFLINE = "this machine cannot resolve it: check its network connection, or this machine's DNS";

test.each([
  ["OPENAI_API_KEY alone", [], { OPENAI_API_KEY: "sk-fake" }, "api.openai.com"],
  ["ANTHROPIC_API_KEY alone", [], { ANTHROPIC_API_KEY: "sk-ant-fake" }, "api.anthropic.com"],
  [
    "a [provider.deepseek] table without base_url",
    [{ source: "/c.toml", data: { provider: { deepseek: { models: ["deepseek-chat"] } } } }],
    { DEEPSEEK_API_KEY: "k" },
    "api.deepseek.com",
  ],
])("hey's built-in address (%s) that does not resolve: this machine's network or DNS, no setting to check", async (_, layers, env, host) => {
  expect(await unresolvedError(layers, env)).toBe(`the host ${host} does not resolve (no such host), so hey does not retry: ${OFFLINE}`);
});
