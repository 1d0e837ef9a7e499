// A tool call cut off by the model's output token limit (Anthropic stop_reason "max_tokens" in the
// middle of a tool_use block): dist/hey runs none of its half-parsed arguments, tells the model that
// its call was cut and how to fit, and the task goes on with the next request.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CUT_OFF_CALL } from "../../src/kernel/tool-calls.ts";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-cut-");

const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

// Hand-made, shaped like the recorded anthropic/max-tokens-truncated-tool-input.sse (whose tool,
// make_file, is not one of hey's): text, then a tool_use whose input JSON stops mid-string, no
// content_block_stop for it, then message_delta with stop_reason "max_tokens".
const cutWrite = sseReply(
  [
    event("message_start", {
      message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 50, output_tokens: 1 } },
    }),
    event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Writing the guide." } }),
    event("content_block_stop", { index: 0 }),
    event("content_block_start", { index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "write_file", input: {} } }),
    event("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: "" } }),
    event("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '{"path": "guide.md", "content": "# Guide\\n\\nLine one' } }),
    event("message_delta", { delta: { stop_reason: "max_tokens", stop_sequence: null }, usage: { output_tokens: 4096 } }),
    event("message_stop", {}),
  ].join(""),
);

test("a write_file cut off mid-arguments is not run; the model is told it was cut, and the task goes on", async () => {
  const before = server.requests.length;
  server.enqueue(cutWrite, textReply("anthropic", "I will write it in parts."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "-m", "m", "--output", "json", "-p", "write a guide"], {
    cwd: work.path,
  });
  expect(run.code).toBe(0);
  expect(existsSync(join(work.path, "guide.md"))).toBe(false);
  const events = jsonEvents(run.stdout);
  expect(events.find((e) => e.type === "tool_result")).toMatchObject({ name: "write_file", ok: false, output: `write_file: ${CUT_OFF_CALL}` });
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "end", turns: 2 });

  expect(server.requests.length - before).toBe(2);
  const sent = server.requests.at(-1)!.body as { messages: { role: string; content: { type: string; content?: string }[] }[] };
  const result = sent.messages.at(-1)!.content.find((b) => b.type === "tool_result")!;
  expect(result.content).toStartWith(`write_file: ${CUT_OFF_CALL}`);
});

// Hand-made from the Responses API reference: response.incomplete with incomplete_details.reason
// "max_output_tokens", the function_call item added and its arguments streamed, never done.
let seq = 0;
const responsesEvent = (type: string, data: Record<string, unknown>) => event(type, { ...data, sequence_number: seq++ });
const cutCall = { id: "fc_1", type: "function_call", status: "in_progress", arguments: "", call_id: "call_1", name: "write_file" };
const cutResponsesWrite = sseReply(
  [
    responsesEvent("response.created", { response: { id: "resp_1", status: "in_progress", output: [] } }),
    responsesEvent("response.output_item.added", { item: cutCall, output_index: 0 }),
    responsesEvent("response.function_call_arguments.delta", { delta: '{"path":"guide.md","content":"# Gu', item_id: "fc_1", output_index: 0 }),
    responsesEvent("response.incomplete", {
      response: {
        id: "resp_1",
        status: "incomplete",
        incomplete_details: { reason: "max_output_tokens" },
        output: [cutCall],
        usage: { input_tokens: 50, output_tokens: 100, total_tokens: 150 },
      },
    }),
  ].join(""),
);

test("Responses: a call cut by max_output_tokens is not run, the model is told, and the task goes on (before: the run ended as a cut-off answer)", async () => {
  const before = server.requests.length;
  server.enqueue(cutResponsesWrite, textReply("responses", "I will write it in parts."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "--protocol", "responses", "-m", "m", "--output", "json", "-p", "write a guide"], {
    cwd: work.path,
  });
  expect(run.code).toBe(0);
  expect(existsSync(join(work.path, "guide.md"))).toBe(false);
  expect(jsonEvents(run.stdout).find((e) => e.type === "tool_result")).toMatchObject({ name: "write_file", ok: false, output: `write_file: ${CUT_OFF_CALL}` });
  expect(server.requests.length - before).toBe(2);
  const input = (server.requests.at(-1)!.body as { input: Record<string, unknown>[] }).input;
  expect(input.find((i) => i.type === "function_call")).toMatchObject({ call_id: "call_1", name: "write_file", arguments: "{}" });
  expect(String(input.find((i) => i.type === "function_call_output")?.output)).toStartWith(`write_file: ${CUT_OFF_CALL}`);
});

// Hand-made like the recorded openai-chat/finish-length.sse, with a tool call in it: its arguments
// stop mid-string, then finish_reason "length".
const cutChatWrite = sseReply(
  sse([
    chatChunk({ toolCall: { index: 0, id: "call_1", name: "write_file", arguments: "" } }),
    chatChunk({ toolCall: { index: 0, arguments: '{"path":"guide.md","content":"# Gu' } }),
    chatChunk({ finish: "length" }),
    chatChunk({ usage: { prompt_tokens: 50, completion_tokens: 100, total_tokens: 150 } }),
  ]),
);

test("chat completions: a cut call goes back as `{}` like on every other protocol, not as half a JSON text (a 400 where the server parses it)", async () => {
  const before = server.requests.length;
  server.enqueue(cutChatWrite, textReply("openai", "I will write it in parts."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", "-p", "write a guide"], { cwd: work.path });
  expect(run.code).toBe(0);
  expect(existsSync(join(work.path, "guide.md"))).toBe(false);
  expect(server.requests.length - before).toBe(2);
  const messages = (server.requests.at(-1)!.body as { messages: Record<string, unknown>[] }).messages;
  const call = messages.find((m) => m.role === "assistant") as { tool_calls: { id: string; function: { arguments: string } }[] };
  expect(call.tool_calls).toMatchObject([{ id: "call_1", function: { name: "write_file", arguments: "{}" } }]);
  expect(String(messages.find((m) => m.role === "tool")?.content)).toStartWith(`write_file: ${CUT_OFF_CALL}`);
});

test("chat completions: a call cut before any of its arguments is not run with none, as on Anthropic: the answer was cut, exit 1", async () => {
  const before = server.requests.length;
  server.enqueue(
    sseReply(
      sse([
        chatChunk({ content: "Writing the guide." }),
        chatChunk({ toolCall: { index: 0, id: "call_1", name: "write_file", arguments: "" } }),
        chatChunk({ finish: "length" }),
        chatChunk({ usage: { prompt_tokens: 50, completion_tokens: 100, total_tokens: 150 } }),
      ]),
    ),
  );
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", "-p", "write a guide"], { cwd: work.path });
  expect(run.code).toBe(1);
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "tool_call")).toEqual([]);
  expect(events.find((e) => e.type === "error")).toMatchObject({ kind: "length" });
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "length", turns: 1 });
  expect(server.requests.length - before).toBe(1);
});
