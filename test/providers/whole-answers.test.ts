// A server that ignores `"stream": true` and answers 200 application/json with the whole answer of
// its protocol (a chat.completion, a Responses `response`, an Anthropic `message`, a Gemini
// GenerateContentResponse): the answer is used — its text, reasoning, tool calls, usage and stop as
// a stream would give them — and the user is told once that the endpoint does not stream. Real SDKs
// against a loopback replay server, through createProvider as hey makes them.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Protocol } from "../../src/kernel/ir.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { baseUrlFor } from "../helpers/protocol-streams.ts";
import { jsonReply, startReplayServer, type Reply } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const request = { system: "", messages: [userMessage("hi")], tools: [{ name: "read", description: "read a file", parameters: { type: "object" } }] };

/** What a user and the loop see of a stream: the deltas, the calls, the notice and the end. */
function seen(events: StreamEvent[]) {
  return events.flatMap((e) => {
    if (e.type === "text" || e.type === "thinking") return [`${e.type}: ${e.delta}`];
    if (e.type === "tool_call") return [`call ${e.call.name} ${e.call.arguments}`];
    if (e.type === "notice") return [`notice: ${e.message}`];
    if (e.type === "done") return [`done ${e.stop} in ${e.usage.input} out ${e.usage.output}`];
    return [];
  });
}

const WHOLE: [Protocol, unknown, string][] = [
  [
    "openai",
    {
      id: "x",
      object: "chat.completion",
      model: "m",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Reading it.",
            reasoning_content: "The user wants a.txt.",
            tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
    },
    "tool_calls",
  ],
  [
    "responses",
    {
      id: "resp_1",
      object: "response",
      status: "completed",
      output: [
        { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "The user wants a.txt." }] },
        { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Reading it.", annotations: [] }] },
        { id: "fc_1", type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.txt"}', status: "completed" },
      ],
      usage: { input_tokens: 12, output_tokens: 7, total_tokens: 19 },
    },
    "tool_calls",
  ],
  [
    "anthropic",
    {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [
        { type: "thinking", thinking: "The user wants a.txt.", signature: "sig" },
        { type: "text", text: "Reading it." },
        { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.txt" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 7 },
    },
    "tool_calls",
  ],
  [
    "google",
    {
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ text: "The user wants a.txt.", thought: true }, { text: "Reading it." }, { functionCall: { name: "read", args: { path: "a.txt" } } }],
          },
          finishReason: "STOP",
        },
      ],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 },
    },
    "tool_calls",
  ],
];

test.each(WHOLE)("%s: a whole answer where a stream was asked for is the answer, said once not to stream", async (protocol, body, stop) => {
  const url = baseUrlFor(protocol, server.url);
  const provider = await createProvider({ protocol, model: "m", baseUrl: url, apiKey: "KEY" });
  server.enqueue(jsonReply(200, body), jsonReply(200, body));
  const first = await drain(provider.stream(request, new AbortController().signal));
  expect(first.error).toBeUndefined();
  expect(seen(first.events)).toEqual([
    `notice: ${url} does not stream (it ignores "stream": true): each answer shows once it is complete`,
    "thinking: The user wants a.txt.",
    "text: Reading it.",
    'call read {"path":"a.txt"}',
    `done ${stop} in 12 out 7`,
  ]);
  const second = await drain(provider.stream(request, new AbortController().signal));
  expect(seen(second.events)[0]).toBe("thinking: The user wants a.txt."); // said once
});

test("a chat completion with text only, no usage and no `object` (a simple proxy) is the answer too", async () => {
  const provider = await createProvider({ protocol: "openai", model: "m", baseUrl: `${server.url}/v1` });
  server.enqueue(jsonReply(200, { choices: [{ index: 0, message: { role: "assistant", content: "Plain JSON answer." }, finish_reason: "stop" }] }));
  const { events, error } = await drain(provider.stream(request, new AbortController().signal));
  expect(error).toBeUndefined();
  expect(seen(events).slice(1)).toEqual(["text: Plain JSON answer.", "done stop in 0 out 0"]);
});

/** `body` as a server that does not say it is JSON sends it: `type` "none" sends no content type at all. */
const labelled = (body: unknown, type: string): Reply => ({
  status: 200,
  headers: type === "none" ? {} : { "content-type": type },
  chunks: [new TextEncoder().encode(JSON.stringify(body))],
});

test.each(
  WHOLE.flatMap(([protocol, body, stop]) => ["text/plain; charset=utf-8", "text/event-stream", "none"].map((type) => [protocol, type, body, stop] as const)),
)("%s: a whole answer labelled %s is the answer too, in one request (not 'no content', retried)", async (protocol, type, body, stop) => {
  const url = baseUrlFor(protocol, server.url);
  const provider = await createProvider({ protocol, model: "m", baseUrl: url, apiKey: "KEY" });
  const before = server.requests.length;
  server.enqueue(labelled(body, type));
  const { events, error } = await drain(provider.stream(request, new AbortController().signal));
  expect(error).toBeUndefined();
  expect(seen(events)).toEqual([
    `notice: ${url} does not stream (it ignores "stream": true): each answer shows once it is complete`,
    "thinking: The user wants a.txt.",
    "text: Reading it.",
    'call read {"path":"a.txt"}',
    `done ${stop} in 12 out 7`,
  ]);
  expect(server.requests.length - before).toBe(1);
});

test.each(["text/plain", "none"])("a real stream of events labelled %s is still read as it comes", async (type) => {
  const provider = await createProvider({ protocol: "openai", model: "m", baseUrl: `${server.url}/v1` });
  const body =
    ': keep-alive\n\ndata: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
  server.enqueue({
    status: 200,
    headers: type === "none" ? ({} as Record<string, string>) : { "content-type": type },
    chunks: [new TextEncoder().encode(body)],
  });
  const { events, error } = await drain(provider.stream(request, new AbortController().signal));
  expect(error).toBeUndefined();
  expect(seen(events)).toEqual(["text: Hi", "done stop in 0 out 0"]);
});

test("a 200 text/plain body that is neither events nor JSON (a shim's own words) is a protocol error quoting it, not 'no content' retried", async () => {
  const provider = await createProvider({ protocol: "openai", model: "m", baseUrl: `${server.url}/v1` });
  server.enqueue({ status: 200, headers: { "content-type": "text/plain" }, chunks: [new TextEncoder().encode("upstream model not loaded")] });
  const { events, error } = await drain(provider.stream(request, new AbortController().signal));
  expect(events).toEqual([]);
  expect((error as { kind?: string }).kind).toBe("protocol");
  expect(String(error)).toContain('answered with text/plain instead of a stream of events: "upstream model not loaded"');
});
