// Answers to a streaming request labelled application/json (create.ts streamsOnly): a JSON body
// holding an error — OpenRouter documents a 200 with its error body — is classified as the same
// error arriving as an event of the stream is; events labelled JSON are read as the stream they
// are; JSON that is no whole answer either (whole-answers.test.ts) is still no stream. Real SDKs against a loopback replay server.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Protocol } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { baseUrlFor } from "../helpers/protocol-streams.ts";
import { jsonReply, sseReply, startReplayServer, type Reply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

async function replay(reply: Reply, protocol: Protocol = "openai") {
  server.enqueue(reply);
  const provider = await createProvider({ protocol, model: "m", baseUrl: baseUrlFor(protocol, server.url) });
  return drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
}
async function failure(reply: Reply, protocol?: Protocol): Promise<ProviderError> {
  const { events, error } = await replay(reply, protocol);
  expect(events).toEqual([]);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
const shape = (e: ProviderError) => ({ kind: e.kind, status: e.status, message: e.message, retryAfterMs: e.retryAfterMs });

const venice = { message: "Provider returned error", code: 502, metadata: { provider_name: "Venice", raw: "upstream exploded" } };

test.each([
  ["OpenRouter's upstream failure (code 502)", venice, "overloaded"],
  [
    "a rate limit naming its wait (code 429)",
    { message: "Provider returned error", code: 429, metadata: { raw: "slow down", retry_after_seconds: 7 } },
    "rate_limit",
  ],
  ["an error without a code, in words", { message: "Invalid model name", type: "invalid_request_error" }, "bad_request"],
])("a 200 JSON error body (%s) is classified as the same error in a stream is", async (_name, error, kind) => {
  const asJson = await failure(jsonReply(200, { error }));
  const asEvent = await failure(sseReply(sse([{ error }], { done: false })));
  expect(shape(asJson)).toEqual(shape(asEvent));
  expect(asJson.kind).toBe(kind as never);
  expect(asJson.message).toContain(error.message);
});

test("OpenRouter's 502 in a 200 JSON body says the provider and its words, and is an overload (retried)", async () => {
  const error = await failure(jsonReply(200, { error: venice }));
  expect(error.kind).toBe("overloaded");
  expect(error.message).toContain("Provider returned error (Venice: upstream exploded)");
});

test("google: a 200 JSON error body is the error chunk a stream carries", async () => {
  const error = { error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } };
  const asJson = await failure(jsonReply(200, error), "google");
  const asEvent = await failure(sseReply(`data: ${JSON.stringify(error)}\r\n\r\n`), "google");
  expect(shape(asJson)).toEqual(shape(asEvent));
  expect(asJson.kind).toBe("overloaded");
});

test("anthropic: a 200 JSON error body is the `event: error` a stream carries", async () => {
  const error = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
  const asJson = await failure(jsonReply(200, error), "anthropic");
  const asEvent = await failure(sseReply(`event: error\ndata: ${JSON.stringify(error)}\n\n`), "anthropic");
  expect(shape(asJson)).toEqual(shape(asEvent));
  expect(asJson.kind).toBe("overloaded");
});

test("a stream of events labelled application/json, its first line split over two writes, is read as the stream", async () => {
  const body = sse([
    chatChunk({ content: "Hello" }),
    chatChunk({ finish: "stop" }),
    chatChunk({ usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }),
  ]);
  const { events, error } = await replay(sseReply([body.slice(0, 3), body.slice(3)], { headers: { "content-type": "application/json" } }));
  expect(error).toBeUndefined();
  expect(events.map((e) => (e.type === "text" ? e.delta : e.type))).toEqual(["Hello", "done"]);
});

test.each(["openai", "responses", "anthropic", "google"] as const)(
  "%s: JSON that is neither an error nor a whole answer (a model list) is still no stream: a protocol error quoting it",
  async (protocol) => {
    const error = await failure(jsonReply(200, { object: "list", data: [{ id: "m" }] }), protocol);
    expect(error.kind).toBe("protocol");
    expect(error.message).toContain('answered with application/json instead of a stream of events: "{\\"object\\":\\"list\\"');
  },
);

test("a Responses object still in progress (background mode) is no answer yet: a protocol error", async () => {
  const error = await failure(jsonReply(200, { id: "resp_1", object: "response", status: "queued", output: [] }), "responses");
  expect(error.kind).toBe("protocol");
});

test("newline-delimited JSON (Ollama's own API, not its OpenAI one) is no stream of events: a protocol error naming its type, not an empty answer", async () => {
  const lines = '{"model":"qwen3","message":{"role":"assistant","content":"Hi"},"done":false}\n{"model":"qwen3","done":true}\n';
  const error = await failure(sseReply(lines, { headers: { "content-type": "application/x-ndjson" } }));
  expect(error.kind).toBe("protocol");
  expect(error.message).toContain("answered with application/x-ndjson instead of a stream of events");
});
