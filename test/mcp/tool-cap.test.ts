// More tools than a vendor's API takes in one request (OpenAI: 128): every request fails, so the
// user is told how many each server offers and a way under the cap that would work, and the
// API's 400 says the same.
import { expect, test } from "bun:test";
import { ProviderError, type Provider } from "../../src/kernel/provider.ts";
import { overCap, withToolCap } from "../../src/mcp/tool-cap.ts";

const tools = (server: string | undefined, n: number) => Array.from({ length: n }, (_, i) => ({ name: `${server ?? "own"}_${i}`, server }));
const three = [...tools(undefined, 7), ...tools("a", 120), ...tools("b", 120), ...tools("c", 120)];

test("three servers of 120 tools on OpenAI: each server's count, and servers off plus a trim that brings 367 under 128", () => {
  expect(overCap("openai", three)).toBe(
    "a request offers 367 tools, more than the 128 OpenAI's API takes (it refuses every request over it): MCP servers a 120, b 120, c 120; hey's own 7. " +
      "Leave out at least 239: enabled = false in [mcp.a], and in [mcp.b] tools = [...] naming at most 1 of its 120 (or exclude_tools naming 119)",
  );
  expect(overCap("responses", three)).toContain("more than the 128 OpenAI's API takes");
});

test("one server over by a few: trim it or turn it off; under the cap, or on Anthropic (no documented cap): nothing", () => {
  const few = [...tools(undefined, 7), ...tools("big", 130)];
  expect(overCap("openai", few)).toEndWith(
    "Leave out at least 9: in [mcp.big] tools = [...] naming at most 121 of its 130 (or exclude_tools naming 9), or enabled = false",
  );
  expect(overCap("openai", tools("a", 128))).toBeUndefined();
  expect(overCap("anthropic", three)).toBeUndefined();
  expect(overCap("google", [...tools(undefined, 7), ...tools("a", 60)])).toContain("more than the 64 Gemini's API (as documented) takes");
});

test("a request over the cap is said once, and the API's 400 to it names the servers after its own words", async () => {
  const said: string[] = [];
  const failing: Provider = {
    protocol: "openai",
    model: "m",
    stream: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new ProviderError("bad_request", "Invalid 'tools': array too long.", { status: 400 })) }),
    }),
  };
  const capped = withToolCap(failing, { serverOf: (name) => three.find((t) => t.name === name)?.server, warn: (l) => void said.push(l) });
  const request = { system: "", messages: [], tools: three.map((t) => ({ name: t.name, description: "", parameters: {} })) };
  for (let i = 0; i < 2; i++) {
    const e = await (async () => {
      for await (const _ of capped.stream(request, new AbortController().signal));
    })().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).message).toStartWith("Invalid 'tools': array too long. (hey: a request offers 367 tools");
    expect((e as ProviderError).status).toBe(400);
  }
  expect(said).toHaveLength(1);
});

test("the capped provider keeps its provider's name, by which the opaque data of its answers goes back to it (a wrapper without it dropped its encrypted reasoning)", () => {
  const inner: Provider = { protocol: "responses", model: "gpt-x", name: "gpt", stream: async function* () {} };
  const capped = withToolCap(inner, { serverOf: () => undefined, warn: () => {} });
  expect([capped.protocol, capped.model, capped.name]).toEqual(["responses", "gpt-x", "gpt"]);
});
