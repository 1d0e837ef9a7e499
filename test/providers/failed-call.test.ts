// A tool call the server could not parse, reported as a failed request (Groq's tool_use_failed as a
// 400 or as a streamed `event: error`, Ollama's and llama-server's 500): the answer ends as a
// malformed call, as Gemini's MALFORMED_FUNCTION_CALL does, so the loop asks the model again.
// Before, each ended the run as "request rejected (400): … Please adjust your prompt". Real SDKs
// against a loopback replay server, through createProvider as hey makes them.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Protocol } from "../../src/kernel/ir.ts";
import { ProviderError, type StreamEvent } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { baseUrlFor } from "../helpers/protocol-streams.ts";
import { jsonReply, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const request = { system: "", messages: [userMessage("write it")], tools: [{ name: "write_file", description: "writes", parameters: { type: "object" } }] };

const GROQ = {
  message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
  type: "invalid_request_error",
  code: "tool_use_failed",
  failed_generation: '<function=write_file>{"path": "a.txt", "content": "g"}</function>',
};

async function answer(protocol: Protocol, reply: Parameters<typeof server.enqueue>[0]) {
  const provider = await createProvider({ protocol, model: "m", baseUrl: baseUrlFor(protocol, server.url), apiKey: "KEY" });
  const before = server.requests.length;
  server.enqueue(reply);
  const { events, error } = await drain(provider.stream(request, new AbortController().signal));
  expect(server.requests.length - before).toBe(1);
  return { events, error, done: events.find((e): e is Extract<StreamEvent, { type: "done" }> => e.type === "done") };
}

test.each(["openai", "responses"] as const)(
  "%s: Groq's 400 tool_use_failed ends the answer as a malformed call, the model's failed call quoted",
  async (protocol) => {
    const { error, done } = await answer(protocol, jsonReply(400, { error: GROQ }));
    expect(error).toBeUndefined();
    expect(done?.stop).toBe("malformed_call");
    expect(done?.detail).toBe(`tool_use_failed, failed_generation: ${GROQ.failed_generation}`);
    expect(done?.message.toolCalls).toBeUndefined();
    expect(done?.usage.estimated).toBe(true);
  },
);

test("openai: Groq's streamed `event: error` with tool_use_failed after some text keeps the text, and ends as a malformed call", async () => {
  const error = { ...GROQ, failed_generation: "Tool use failed: JSON does not match the expected schema for tool calls", status_code: 400 };
  const text = { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "Writing it now." } }] };
  const { done, events } = await answer("openai", sseReply([`data: ${JSON.stringify(text)}\n\n`, `event: error\ndata: ${JSON.stringify({ error })}\n\n`]));
  expect(events.filter((e) => e.type === "text").map((e) => (e.type === "text" ? e.delta : ""))).toEqual(["Writing it now."]);
  expect(done?.stop).toBe("malformed_call");
  expect(done?.message.content).toEqual([{ type: "text", text: "Writing it now." }]);
  expect(done?.detail).toContain("JSON does not match the expected schema");
});

test("openai: a long failed_generation is cut in the detail, so asking again costs few tokens", async () => {
  const { done } = await answer("openai", jsonReply(400, { error: { ...GROQ, failed_generation: `<function=write_file>${"x".repeat(5000)}` } }));
  expect(done?.stop).toBe("malformed_call");
  expect(done!.detail!.length).toBeLessThan(700);
});

test.each([
  ["Ollama", { error: { message: 'error parsing tool call: raw=\'{"path":"a.txt",\', err=unexpected end of JSON input', type: "api_error" } }],
  [
    "llama-server",
    { error: { code: 500, message: 'Failed to parse input at pos 37: <tool_call>\n{"name": "write_file", "arguments": {"path"', type: "server_error" } },
  ],
])("openai: %s's 500 for a call it could not parse out of the model's output ends as a malformed call, not a retried server failure", async (_, body) => {
  const { error, done } = await answer("openai", jsonReply(500, body));
  expect(error).toBeUndefined();
  expect(done?.stop).toBe("malformed_call");
});

test("openai: a 400 that is not about the model's call (a history the server refused) is still a rejected request", async () => {
  const { error } = await answer(
    "openai",
    jsonReply(400, { error: { message: "Failed to parse tool call arguments as JSON", type: "invalid_request_error" } }),
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe("bad_request");
});
