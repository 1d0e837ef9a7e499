// An error inside a 200 answer in a shape its protocol does not have: a whole JSON body holding an
// `error` with no status code (`{"error": {"message": …}}`, `{"error": "…"}`: gateways, local
// servers), or an error chunk of that shape mid-stream. Every protocol reads it as chat completions
// does: the server's words in the message, and a kind taken from them — a spent quota or a missing
// model fails at once, an overload is retried. Before, Gemini said "answered with no content" three
// times over and Anthropic retried "model not found" five times. Real SDKs against a loopback
// replay server, through createProvider as hey makes them.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Protocol } from "../../src/kernel/ir.ts";
import { ProviderError, type ProviderErrorKind } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { baseUrlFor } from "../helpers/protocol-streams.ts";
import { jsonReply, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const request = { system: "", messages: [userMessage("hi")], tools: [] };

async function failure(protocol: Protocol, reply: Parameters<typeof server.enqueue>[0]) {
  const provider = await createProvider({ protocol, model: "m", baseUrl: baseUrlFor(protocol, server.url), apiKey: "KEY" });
  const before = server.requests.length;
  server.enqueue(reply);
  const { events, error } = await drain(provider.stream(request, new AbortController().signal));
  expect(error).toBeInstanceOf(ProviderError);
  expect(server.requests.length - before).toBe(1);
  return { error: error as ProviderError, events };
}

/** [what the body is, the kind it is read as, words the message keeps, the body] */
const BODIES: [string, ProviderErrorKind, string, unknown][] = [
  ["a message, no code", "quota_exhausted", "API key quota exceeded for this project", { error: { message: "API key quota exceeded for this project" } }],
  [
    "a string (Ollama's words)",
    "bad_request",
    "model 'mock-model' not found, try pulling it first",
    { error: "model 'mock-model' not found, try pulling it first" },
  ],
  ["overload words", "overloaded", "The upstream model is overloaded", { error: { message: "The upstream model is overloaded, try again later" } }],
];

const PROTOCOLS: Protocol[] = ["google", "anthropic", "openai", "responses"];

test.each(PROTOCOLS.flatMap((p) => BODIES.map((row) => [p, ...row] as const)))(
  "%s: a 200 body holding an error (%s) is %s with the server's words, after one request",
  async (protocol, _, kind, words, body) => {
    const { error, events } = await failure(protocol, jsonReply(200, body));
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(words);
    expect(error.message).not.toContain("no content");
    expect(events.filter((e) => e.type === "text")).toEqual([]);
  },
);

test("google: an error chunk without a code after some text is the server's failure, its words kept, not a cut connection", async () => {
  const { error, events } = await failure(
    "google",
    sseReply(
      [
        `data: {"candidates": [{"content": {"parts": [{"text": "Hel"}],"role": "model"}}]}\r\n\r\n`,
        `data: ${JSON.stringify({ error: { message: "upstream overloaded" } })}\r\n\r\n`,
      ],
      { delayMs: 10 },
    ),
  );
  expect(error.kind).toBe("overloaded");
  expect(error.message).toBe("the model failed mid-stream: upstream overloaded");
  expect(events.flatMap((e) => (e.type === "text" ? [e.delta] : []))).toEqual(["Hel"]);
});

test("google: an error chunk of one try is not taken for the next try's (a refused thinking level, in a 200 stream, sent again)", async () => {
  const provider = await createProvider({
    protocol: "google",
    model: "gemini-3.9-pro",
    baseUrl: baseUrlFor("google", server.url),
    apiKey: "KEY",
    effort: "medium",
  });
  const refusal = {
    code: 400,
    message: "Thinking level MEDIUM is not supported for this model. Please retry with other thinking level.",
    status: "INVALID_ARGUMENT",
  };
  server.enqueue(
    sseReply(`data: ${JSON.stringify({ error: refusal })}\r\n\r\n`),
    sseReply(`data: {"candidates": [{"content": {"parts": [{"text": "Hi"}],"role": "model"},"finishReason": "STOP"}]}\r\n\r\n`),
  );
  const { events, error } = await drain(provider.stream(request, new AbortController().signal));
  expect(error).toBeUndefined();
  expect(events.flatMap((e) => (e.type === "text" ? [e.delta] : []))).toEqual(["Hi"]);
});

test("anthropic: an `event: error` with no type mid-stream is read by its words; Anthropic's own types still decide", async () => {
  const start = `event: message_start\ndata: ${JSON.stringify({
    type: "message_start",
    message: { id: "msg", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } },
  })}\n\n`;
  const untyped = await failure("anthropic", sseReply([start, `event: error\ndata: ${JSON.stringify({ error: "model 'm' not found" })}\n\n`]));
  expect(untyped.error.kind).toBe("bad_request");
  expect(untyped.error.message).toBe("the model failed mid-stream: model 'm' not found");
  const typed = await failure(
    "anthropic",
    sseReply([start, `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}\n\n`]),
  );
  expect(typed.error.kind).toBe("overloaded");
  expect(typed.error.message).toBe("the provider is failing mid-stream (overloaded_error): Overloaded");
});

// A gateway's transient failures come in words no list can hold; a failure with no HTTP status was
// always retried, and only words of a request the server will refuse again make it final.
const PASSING: [string, ProviderErrorKind, unknown][] = [
  ["a timed-out upstream", "overloaded", { error: { message: "upstream request timed out" } }],
  ["Go's deadline", "overloaded", { error: { message: "context deadline exceeded" } }],
  ["Envoy's reset", "overloaded", { error: { message: "upstream connect error or disconnect/reset before headers. reset reason: connection termination" } }],
  ["a bad gateway", "overloaded", { error: { message: "Bad Gateway" } }],
  ["a cut upstream", "overloaded", { error: { message: "unexpected EOF" } }],
  ["words known nowhere", "overloaded", { error: { message: "the hamster fell off its wheel" } }],
  ["a bad argument", "bad_request", { error: { message: "Invalid value for 'temperature'" } }],
];

test.each(PROTOCOLS.flatMap((p) => PASSING.map((row) => [p, ...row] as const)))("%s: a 200 body holding %s is %s", async (protocol, _, kind, body) => {
  expect((await failure(protocol, jsonReply(200, body))).error.kind).toBe(kind);
});

// Gemini names its failure by a status name (google.rpc.Code) where its SDK finds no numeric code.
const GOOGLE_STATUSES: [string, ProviderErrorKind, string][] = [
  ["RESOURCE_EXHAUSTED", "rate_limit", "Resource has been exhausted (e.g. check quota)."],
  ["UNAVAILABLE", "overloaded", "The model is overloaded. Please try again later."],
  ["DEADLINE_EXCEEDED", "overloaded", "Deadline expired before operation could complete."],
  ["NOT_FOUND", "bad_request", "models/gemini-9 is not found for API version v1beta"],
];

test.each(GOOGLE_STATUSES)("google: an error chunk with status %s is %s", async (status, kind, message) => {
  const { error } = await failure("google", jsonReply(200, { error: { status, message } }));
  expect(error.kind).toBe(kind);
  expect(error.message).toContain(message);
});
