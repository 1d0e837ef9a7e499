// A refused connection names where its address was set — OPENAI_BASE_URL, ANTHROPIC_BASE_URL,
// GOOGLE_GEMINI_BASE_URL, OLLAMA_HOST, HEY_BASE_URL, --base-url or a table's base_url — so the
// user knows what to change or unset; hey's own built-in address names nothing. Through the
// real adapters and the loop: a loopback port nothing listens on (refused at once, not retried),
// and a refusal of a remote host injected at the fetch (retried as before, then said so).
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { providerFor } from "../../src/endpoint.ts";
import { userMessage } from "../../src/kernel/ir.ts";
import { runLoop } from "../../src/kernel/loop.ts";
import { createProvider } from "../../src/providers/create.ts";
import { loopDeps } from "../helpers/loop-deps.ts";
import { freePort } from "../helpers/mcp.ts";

const DEAD = `http://127.0.0.1:${freePort()}`; // bound, then released: nothing listens there

/** The error of one request of the provider that `env` and `flags` resolve to. */
async function errorOf(env: Record<string, string>, flags: { baseUrl?: string; model?: string } = {}, files: { source: string; data: object }[] = []) {
  const { provider, model } = resolveConfig(files as never, env, flags).settings;
  const deps = loopDeps(await providerFor(provider, model, undefined, fetch));
  await runLoop([userMessage("hi")], deps);
  return deps.output.of("error")[0]!;
}

test.each([
  ["OPENAI_BASE_URL", { OPENAI_BASE_URL: `${DEAD}/v1`, OPENAI_API_KEY: "k" }, `${DEAD}/v1`],
  ["ANTHROPIC_BASE_URL", { ANTHROPIC_BASE_URL: DEAD, ANTHROPIC_AUTH_TOKEN: "k" }, DEAD],
  ["GOOGLE_GEMINI_BASE_URL", { GOOGLE_GEMINI_BASE_URL: DEAD, GEMINI_API_KEY: "k" }, DEAD],
  ["OLLAMA_HOST", { OLLAMA_HOST: DEAD.replace("http://", "") }, `${DEAD}/v1`],
  ["HEY_BASE_URL", { HEY_BASE_URL: `${DEAD}/v1`, HEY_MODEL: "m" }, `${DEAD}/v1`],
])("an address %s gave, refused: the error names the variable", async (setting, env, url) => {
  expect(await errorOf(env)).toEqual({
    type: "error",
    kind: "network",
    message: `cannot connect to ${url}, set by ${setting}: connection refused (is the server running?)`,
  });
});

test("a table's base_url and --base-url are named as such", async () => {
  const table = [{ source: "/u.toml", data: { provider: { mine: { base_url: `${DEAD}/v1`, models: ["m"] } } } }];
  expect((await errorOf({}, {}, table)).message).toBe(
    `cannot connect to ${DEAD}/v1, set by base_url of [provider.mine] in /u.toml: connection refused (is the server running?)`,
  );
  expect((await errorOf({}, { baseUrl: `${DEAD}/v1`, model: "m" })).message).toBe(
    `cannot connect to ${DEAD}/v1, set by --base-url: connection refused (is the server running?)`,
  );
});

test("hey's own built-in address (no one set it) names no setting", async () => {
  const deps = loopDeps(await createProvider({ protocol: "openai", model: "m", baseUrl: `${DEAD}/v1`, baseUrlSetting: "base_url", builtInUrl: true }));
  await runLoop([userMessage("hi")], deps);
  expect(deps.output.of("error")[0]!.message).toBe(`cannot connect to ${DEAD}/v1: connection refused (is the server running?)`);
});

test("a remote host that refuses is retried as before, and its last error names the setting", async () => {
  let tries = 0;
  const refusing = Object.assign(
    async () => {
      tries++;
      throw Object.assign(new TypeError("Unable to connect. Is the computer able to access the url?"), { code: "ConnectionRefused" });
    },
    { preconnect: () => {} },
  ) as unknown as typeof fetch;
  const url = "https://llm.example.com/v1";
  const deps = loopDeps(await createProvider({ protocol: "openai", model: "m", baseUrl: url, baseUrlSetting: "OPENAI_BASE_URL", fetch: refusing }));
  await runLoop([userMessage("hi")], deps);
  expect(tries).toBeGreaterThan(1);
  expect(deps.output.of("error")[0]!.message).toBe(
    `network error talking to ${url}: Connection error. (Unable to connect. Is the computer able to access the url?); the address is set by OPENAI_BASE_URL — gave up after 5 retries`,
  );
});
