// Answers that name a tool call and bring none, through the real SDKs against a loopback replay
// server (create.ts with empty-answers.ts): a finish "tool_calls" with nothing in it is the same
// flake as an empty "stop" (a gateway's tool parser lost the call) and is retried as one; a legacy
// `function_call` delta is read as the call it is (x7 #1, #9).
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Message } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { NO_CALL } from "../../src/providers/empty-answers.ts";
import { drain } from "../helpers/drain.ts";
import { sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const usage = chatChunk({ usage: { prompt_tokens: 90, completion_tokens: 1, total_tokens: 91 } });
const afterTools: Message[] = [
  userMessage("read a.txt"),
  { id: "a", role: "assistant", content: [], toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' }] },
  { id: "r", role: "tool", toolCallId: "call_1", toolName: "read_file", content: [{ type: "text", text: "hello" }] },
];

async function ask(protocol: "openai" | "anthropic", messages: readonly Message[], model = "m") {
  const provider = await createProvider({ protocol, model, baseUrl: `${server.url}/v1` });
  return drain(provider.stream({ system: "", messages: [...messages], tools: [] }, new AbortController().signal));
}

test.each([
  ["the user's message", [userMessage("do it")]],
  ["tool results", afterTools],
] as const)("chat: finish_reason tool_calls with no call, in reply to %s, is an empty answer to retry, as stop is", async (_, messages) => {
  for (const finish of ["stop", "tool_calls"]) {
    server.enqueue(sseReply(sse([chatChunk({ content: "" }), chatChunk({ finish }), usage])));
    const { error } = await ask("openai", messages);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "empty_answer", message: `${server.url}/v1 answered with no content` });
  }
});

test("anthropic: stop_reason tool_use with no tool_use block, to the user's message, is an empty answer to retry", async () => {
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const message = {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude",
    content: [],
    stop_reason: null,
    usage: { input_tokens: 90, output_tokens: 1 },
  };
  server.enqueue(
    sseReply(
      [
        event("message_start", { message }),
        event("message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 1 } }),
        event("message_stop", {}),
      ].join(""),
    ),
  );
  const { error } = await ask("anthropic", [userMessage("do it")]);
  expect(error).toMatchObject({ kind: "empty_answer", message: `${server.url}/v1 answered with no content` });
});

test("chat: a legacy function_call delta (finish function_call) is read as the tool call it is", async () => {
  const legacy = (fn: Record<string, string>, finish?: string) => ({
    id: "c",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: { role: "assistant", function_call: fn }, finish_reason: finish ?? null }],
  });
  server.enqueue(
    sseReply(sse([legacy({ name: "write_file", arguments: '{"path":"legacy.txt",' }), legacy({ arguments: '"content":"L"}' }, "function_call"), usage])),
  );
  const { events, error } = await ask("openai", [userMessage("do it")]);
  expect(error).toBeUndefined();
  const done = events.at(-1);
  expect(done).toMatchObject({ type: "done", stop: "tool_calls" });
  const calls = done?.type === "done" ? (done.message.toolCalls ?? []) : [];
  expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([["write_file", { path: "legacy.txt", content: "L" }]]);
  expect(calls[0]!.id).not.toBe("");
});

test.each([
  ["the user's message", [userMessage("list the files")]],
  ["tool results", afterTools],
] as const)(
  "chat: reasoning then finish_reason tool_calls with no call, in reply to %s, is an empty answer to retry, not an answer (r6 #7)",
  async (_, messages) => {
    const plan = "The user wants the file listed. I should call the bash tool with ls.";
    server.enqueue(sseReply(sse([chatChunk({ reasoning: plan }), chatChunk({ finish: "tool_calls" }), usage])));
    const { events, error } = await ask("openai", messages);
    expect(error).toMatchObject({ kind: "empty_answer", lostCall: true, message: `${server.url}/v1 answered with ${NO_CALL}` });
    expect(events.filter((e) => e.type === "text" || e.type === "notice")).toEqual([]);
  },
);
