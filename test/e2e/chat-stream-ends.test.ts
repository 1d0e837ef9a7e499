// How an OpenAI-compatible answer ends, as a user of dist/hey meets it with the servers free and
// open-weight models run on: an empty reply after tool results (a classic OpenRouter free-tier flake)
// is retried like an empty first reply, and once the retries are spent the run ends as the model
// ended it (Claude ends a task so, also through gateways that speak this protocol); an answer only in reasoning_content is retried as an empty one, then printed as the answer; a stream the server ended
// with `data: [DONE]` but no finish_reason is a finished answer, not a dropped connection.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { jsonReply, sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { reasoningAsAnswer } from "../../src/providers/empty-answers.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-chat-ends-");
writeFileSync(join(work.path, "a.txt"), "hello from a.txt\n");
const config = join(work.path, "fast-retry.toml");
writeFileSync(config, "[retry]\nbase_delay_ms = 100\njitter = false\n");

const run = (...extra: string[]) =>
  runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--config", config, ...extra, "-p", "what does a.txt say?"], { cwd: work.path });

const usage = chatChunk({ usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } });
const call = chatChunk({ toolCall: { index: 0, id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' } });
const readCall = () => sseReply(sse([call, chatChunk({ finish: "tool_calls" }), usage]));
const empty = () => sseReply(sse([chatChunk({ content: "" }), chatChunk({ finish: "stop" }), usage]));

test("an empty reply after a tool result is retried; the answer that follows is the run's; exit 0", async () => {
  const before = server.requests.length;
  server.enqueue(readCall(), empty(), textReply("openai", "It says hello."));
  const result = await run();
  expect(result).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  expect(server.requests.length - before).toBe(3);
  expect(result.stderr).toContain(`retrying in 500 ms (1/2): ${server.url}/v1 answered with no content`);
  expect(result.stderr).not.toContain("without a final answer");
});

test("empty after a tool result every time: retried, then the run ends as the model ended it (Claude's empty end_turn through a gateway), exit 0", async () => {
  const before = server.requests.length;
  server.enqueue(readCall(), empty(), empty(), empty());
  const result = await run();
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("");
  expect(server.requests.length - before).toBe(4);
  expect(result.stderr).toContain("(2/2)");
  expect(result.stderr).toContain("the model ended without a final answer; its work is above");
  expect(result.stderr).not.toContain("error:");
  server.enqueue(readCall(), empty(), empty(), empty());
  const json = await run("--output", "json");
  expect(json.code).toBe(0);
  const events = jsonEvents(json.stdout);
  expect(events.find((e) => e.type === "error")).toBeUndefined();
  // each of the four requests was billed (9 in, 2 out: the server said so), the three empty ones too
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "end", usage: { input_tokens: 36, output_tokens: 8 } });
});

test("an answer only in reasoning_content after a tool result is printed as the answer at once, with a notice: 2 requests, not 4; exit 0", async () => {
  const reasoned = () => sseReply(sse([chatChunk({ reasoning: "It says hello." }), chatChunk({ finish: "stop" }), usage]));
  const before = server.requests.length;
  server.enqueue(readCall(), reasoned());
  const result = await run();
  expect(result).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  expect(server.requests.length - before).toBe(2);
  expect(result.stderr).toContain(`hey: ${reasoningAsAnswer(true)}`);
  expect(result.stderr).not.toContain("retrying");
  expect(result.stderr).not.toContain("without a final answer");
});

test("Claude through a gateway's chat completions ending a task after a tool result with reasoning alone: the run ends as Claude ended it, its private reasoning not printed, not retried; exit 0", async () => {
  const reasoned = () => sseReply(sse([chatChunk({ reasoning: "The user seems impatient." }), chatChunk({ finish: "stop" }), usage]));
  const before = server.requests.length;
  server.enqueue(readCall(), reasoned());
  const result = await run("-m", "anthropic/claude-sonnet-4.5", "--protocol", "openai");
  expect(result).toMatchObject({ code: 0, stdout: "" });
  expect(server.requests.length - before).toBe(2);
  expect(result.stderr).toContain("the model ended without a final answer; its work is above");
  expect(result.stderr).not.toContain("vLLM");
});

test("text, then [DONE] without a finish_reason: the answer, exit 0, one request", async () => {
  const before = server.requests.length;
  server.enqueue(sseReply(sse([chatChunk({ content: "It says " }), chatChunk({ content: "hello." })])));
  const result = await run();
  expect(result).toMatchObject({ code: 0, stdout: "It says hello.\n", stderr: "" });
  expect(server.requests.length - before).toBe(1);
});

test("a tool call, usage, then [DONE] without a finish_reason: the call runs at once (no retries), then the answer", async () => {
  const before = server.requests.length;
  server.enqueue(sseReply(sse([call, usage])), textReply("openai", "It says hello."));
  const result = await run();
  expect(result).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  expect(result.stderr).not.toContain("retrying");
  const sent = server.requests.slice(before);
  expect(sent).toHaveLength(2);
  const tool = (sent[1]!.body as { messages: { role: string; content: string }[] }).messages.at(-1)!;
  expect(tool.role).toBe("tool");
  expect(tool.content).toContain("hello from a.txt");
});

// a reasoning model behind a gateway or vLLM whose tool parser lost the call: the reasoning is the call's plan (r6 #7)
const plan = "The user wants a.txt read. I should call read_file.";
const planNoCall = () => sseReply(sse([chatChunk({ reasoning: plan }), chatChunk({ finish: "tool_calls" }), usage]));

test("reasoning, then finish_reason tool_calls with no call: retried like an empty answer, the call of the retry runs; the plan is never printed", async () => {
  const before = server.requests.length;
  server.enqueue(planNoCall(), readCall(), textReply("openai", "It says hello."));
  const result = await run();
  expect(result).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  expect(server.requests.length - before).toBe(3);
  expect(result.stderr).toContain(`retrying in 500 ms (1/2): ${server.url}/v1 answered with reasoning and a tool-call finish but no call`);
  expect(result.stderr).not.toContain("taken as the answer");
});

test("reasoning, then finish_reason tool_calls with no call, on every try: the run fails (exit 1), its plan not taken as the answer", async () => {
  const before = server.requests.length;
  server.enqueue(planNoCall(), planNoCall(), planNoCall());
  const result = await run();
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(server.requests.length - before).toBe(3);
  expect(result.stderr).toContain("error: ");
  expect(result.stderr).toContain("gave up after 2 retries");
  expect(result.stderr).not.toContain("taken as the answer");
});

test("--output json: a run whose request fails after a tool call ends with result.text empty, not hey's marker for the model (r6 #3)", async () => {
  server.enqueue(readCall(), jsonReply(400, { error: { message: "bad tool schema", type: "invalid_request_error" } }));
  const json = await run("--output", "json");
  expect(json.code).toBe(1);
  const events = jsonEvents(json.stdout);
  expect(events.find((e) => e.type === "result")).toMatchObject({ text: "", stop_reason: "error" });
});
