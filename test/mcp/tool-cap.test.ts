// More tools than a vendor's API takes in one request (OpenAI: 128; Gemini: 512): the API would
// refuse every request, so a request over the cap carries hey's own tools and the MCP tools in
// config order up to it, says once which servers' tools were left out and how to choose, and a call
// to a left-out tool reads why. A local server on the OpenAI protocol is not capped.
import { expect, test } from "bun:test";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { capFor, createToolCap, overCap } from "../../src/mcp/tool-cap.ts";

const tools = (server: string | undefined, n: number) => Array.from({ length: n }, (_, i) => ({ name: `${server ?? "own"}_${i}`, server }));
const servers = Array.from({ length: 15 }, (_, i) => `srv${i + 1}`);
const many = [...tools(undefined, 6), ...servers.flatMap((s) => tools(s, 20))];
const OPENAI = capFor("openai", "https://api.openai.com/v1");
const originOf = (name: string) => {
  const server = many.find((t) => t.name === name)?.server;
  return server === undefined ? undefined : { server, name };
};

test("the cap is the vendor's own API's: OpenAI (and Azure) 128, Gemini 512; none for a local server on the openai protocol, nor Anthropic", () => {
  expect(OPENAI).toEqual({ max: 128, api: "OpenAI's API" });
  expect(capFor("responses", "https://api.openai.com/v1")?.max).toBe(128);
  expect(capFor("openai", "https://my.openai.azure.com/openai/v1")?.max).toBe(128);
  expect(capFor("google", "https://generativelanguage.googleapis.com/v1beta")?.max).toBe(512);
  expect(capFor("openai", "http://127.0.0.1:11434/v1")).toBeUndefined();
  expect(capFor("openai", "http://gpu-box:8000/v1")).toBeUndefined();
  expect(capFor("anthropic", "https://api.anthropic.com")).toBeUndefined();
});

test("15 servers of 20 tools on OpenAI: hey's own 6 and the first 122 MCP tools in config order are kept; the line names what was left out, plainly", () => {
  const over = overCap(OPENAI, many)!;
  expect(over.kept.size).toBe(128);
  expect([...over.kept].slice(0, 7)).toEqual(["own_0", "own_1", "own_2", "own_3", "own_4", "own_5", "srv1_0"]);
  expect(over.kept.has("srv7_1")).toBe(true);
  expect(over.kept.has("srv7_2")).toBe(false);
  expect(over.why).toBe(
    "hey's own 6 tools and 300 from MCP servers make 306, over the 128 OpenAI's API takes in one request (it refuses any request over it): " +
      "left out 18 of srv7's 20 tools, all 20 of srv8's, all 20 of srv9's, all 20 of srv10's, all 20 of srv11's, all 20 of srv12's, " +
      "all 20 of srv13's, all 20 of srv14's and all 20 of srv15's (kept: hey's own, the tools this conversation called, then the others in config order); " +
      "choose with tools = [...] (the ones to keep) or exclude_tools = [...] in [mcp.NAME], or enabled = false for a server not needed here",
  );
  expect(overCap(OPENAI, tools("a", 128))).toBeUndefined();
  expect(overCap(capFor("google", "https://generativelanguage.googleapis.com/v1beta"), many)).toBeUndefined(); // 306 of Gemini's 512
  expect(overCap(undefined, many)).toBeUndefined();
});

test("a server's one or two tools left out read as a sentence: `both of slow's`, `solo's only tool`", () => {
  const over = overCap(OPENAI, [...tools(undefined, 6), ...tools("beta", 122), ...tools("slow", 2), ...tools("solo", 1)])!;
  expect(over.why).toContain(
    "make 131, over the 128 OpenAI's API takes in one request (it refuses any request over it): left out both of slow's and solo's only tool (kept:",
  );
});

test("an MCP tool the conversation called is kept over the cap, ahead of config order: a late server's tool the model just used stays offered", async () => {
  const sent: string[][] = [];
  const inner = naming(sent);
  const capped = createToolCap({ originOf }).wrap(inner, "https://api.openai.com/v1");
  const used: ModelRequest = {
    ...request(many),
    messages: [
      { id: "1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "srv15_3", arguments: "{}" }] },
      { id: "2", role: "tool", content: [{ type: "text", text: "ok" }], toolCallId: "c1", toolName: "srv15_3" },
    ],
  };
  const notices: string[] = [];
  for await (const e of capped.stream(used, new AbortController().signal)) if (e.type === "notice") notices.push(e.message);
  expect(sent[0]).toHaveLength(128);
  expect(sent[0]).toContain("srv15_3");
  expect(sent[0]).not.toContain("srv7_1"); // the last config-order place went to it
  expect(notices[0]).toContain("left out 19 of srv7's 20 tools");
  expect(notices[0]).toContain("and 19 of srv15's 20 tools (kept: hey's own, the tools this conversation called, then the others in config order)");
});

/** An openai-protocol provider recording the names of the tools each request carries. */
const naming = (sent: string[][]): Provider => ({
  protocol: "openai",
  model: "m",
  async *stream(req) {
    sent.push(req.tools.map((t) => t.name));
  },
});

const request = (names: readonly { name: string }[]): ModelRequest => ({
  system: "",
  messages: [],
  tools: names.map((t) => ({ name: t.name, description: "", parameters: {} })),
});

test("a request over the cap is sent with the tools kept, said once as a notice; a call to a left-out tool reads why, a kept one runs", async () => {
  const sent: string[][] = [];
  const inner = naming(sent);
  const cap = createToolCap({ originOf });
  const capped = cap.wrap(inner, "https://api.openai.com/v1");
  const notices: string[] = [];
  for (let i = 0; i < 2; i++)
    for await (const e of capped.stream(request(many), new AbortController().signal)) if (e.type === "notice") notices.push(e.message);
  expect(sent.map((s) => s.length)).toEqual([128, 128]);
  expect(notices).toHaveLength(1);
  expect(notices[0]).toStartWith("hey's own 6 tools and 300 from MCP servers make 306, over the 128");
  const run = async () => ({ output: "ran" });
  const left = cap.guard({ name: "srv9_0", description: "", parameters: {}, run });
  const result = await left.run({}, { signal: new AbortController().signal, cwd: "/" });
  expect(result.isError).toBe(true);
  expect(result.output).toStartWith("srv9_0 is not offered: hey's own 6 tools and 300 from MCP servers make 306, over the 128");
  expect(await cap.guard({ name: "srv1_0", description: "", parameters: {}, run }).run({}, { signal: new AbortController().signal, cwd: "/" })).toEqual({
    output: "ran",
  });
});

/** An openai-protocol provider recording how many tools each request carries; over `refuseOver`, it answers as OpenAI's API does. */
const counting = (sent: number[], refuseOver = Number.POSITIVE_INFINITY): Provider => ({
  protocol: "openai",
  model: "m",
  stream(req) {
    sent.push(req.tools.length);
    return (async function* () {
      if (req.tools.length > refuseOver)
        throw new ProviderError(
          "bad_request",
          `Invalid 'tools': array too long. Expected an array with maximum length ${refuseOver}, but got an array with length ${req.tools.length} instead.`,
          {
            status: 400,
          },
        );
      yield { type: "text", delta: "fine" } as StreamEvent;
    })();
  },
});

test("a local server on the openai protocol gets every tool", async () => {
  const sent: number[] = [];
  const capped = createToolCap({ originOf: (name) => ({ server: "a", name }) }).wrap(counting(sent), "http://127.0.0.1:8000/v1");
  for await (const _ of capped.stream(request(many), new AbortController().signal));
  expect(sent).toEqual([306]);
});

test("an endpoint with no cap known that refuses the count (a gateway in front of OpenAI's API): sent again within the cap it stated, and so is every later request", async () => {
  const sent: number[] = [];
  const capped = createToolCap({ originOf }).wrap(counting(sent, 128), "https://gateway.example/v1");
  const notices: string[] = [];
  for (let i = 0; i < 2; i++)
    for await (const e of capped.stream(request(many), new AbortController().signal)) if (e.type === "notice") notices.push(e.message);
  expect(sent).toEqual([306, 128, 128]);
  expect(notices).toEqual([expect.stringContaining("hey's own 6 tools and 300 from MCP servers make 306, over the 128 the endpoint takes in one request")]);
});

test("the capped provider keeps its provider's name, by which the opaque data of its answers goes back to it (a wrapper without it dropped its encrypted reasoning)", () => {
  const inner: Provider = { protocol: "responses", model: "gpt-x", name: "gpt", stream: async function* () {} };
  const capped = createToolCap({ originOf: () => undefined }).wrap(inner, "https://api.openai.com/v1");
  expect([capped.protocol, capped.model, capped.name]).toEqual(["responses", "gpt-x", "gpt"]);
});
