// Answers that did not finish, as a user of dist/hey meets them: a stop that reports a failure
// (finish_reason "error"/"abort", OpenRouter's and vLLM's) is a broken stream — its text kept and
// reported, its calls never run, retried when nothing was shown; a stop hey does not know (Gemini's
// OTHER) keeps the text, runs no call, and exits 1 saying why; a reply of reasoning alone is retried
// as an empty one, then its reasoning is the answer (on chat completions at once); a stream cut after thinking alone (inside a
// tool call too) is retried. Hand-made streams replayed from a loopback server.
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reasoningTaken } from "../../src/kernel/retried-request.ts";
import { reasoningAsAnswer } from "../../src/providers/empty-answers.ts";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { baseUrlFor, textReply, thinkingReply } from "../helpers/protocol-streams.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-unfinished-");
const config = join(work.path, "fast-retry.toml");
writeFileSync(config, "[retry]\nbase_delay_ms = 100\njitter = false\n");

const run = (protocol: string) =>
  runHey(["--base-url", baseUrlFor(protocol as never, server.url), "--protocol", protocol, "-m", "m", "--config", config, "-p", "go"], { cwd: work.path });
/** Runs hey on `replies` in turn: its result and how many requests it made. */
async function replay(protocol: string, ...replies: Parameters<typeof server.enqueue>) {
  const before = server.requests.length;
  server.enqueue(...replies);
  const result = await run(protocol);
  return { ...result, requests: server.requests.length - before };
}

const PART = "Here is the first part of the ans";
const usage = chatChunk({ usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } });
const ranFile = join(work.path, "ran.txt");
const bashCall = chatChunk({ toolCall: { index: 0, id: "call_1", name: "bash", arguments: '{"command":"echo ran >> ran.txt"}' } });
const geminiChunk = (parts: unknown[], finishReason: string) =>
  `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }], usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } })}\r\n\r\n`;

test.each(["error", "abort", "insufficient_system_resource"])(
  'finish_reason "%s" after text: the text, then "broke off" on stderr; exit 1, not retried',
  async (finish) => {
    const result = await replay("openai", sseReply(sse([chatChunk({ content: PART }), chatChunk({ finish }), usage])));
    expect(result).toMatchObject({ code: 1, stdout: `${PART}\n`, requests: 1 });
    expect(result.stderr).toBe(`error: the response broke off after partial output: the model failed mid-stream (finish_reason "${finish}")\n`);
  },
);

test('finish_reason "error" on a reply with a bash call: the call never runs; the request is retried and its answer is the run\'s', async () => {
  const result = await replay("openai", sseReply(sse([bashCall, chatChunk({ finish: "error" }), usage])), textReply("openai", "Done."));
  expect(result).toMatchObject({ code: 0, stdout: "Done.\n", requests: 2 });
  expect(result.stderr).toContain('retrying in 500 ms (1/5): the model failed mid-stream (finish_reason "error")');
  expect(existsSync(ranFile)).toBe(false);
});

test.each(["insufficient_system_resource", "network_error"])(
  "finish_reason \"%s\" (DeepSeek's, Z.ai's failures) with nothing shown: retried, and the retry's answer is the run's",
  async (finish) => {
    const result = await replay("openai", sseReply(sse([chatChunk({ finish }), usage])), textReply("openai", "Done."));
    expect(result).toMatchObject({ code: 0, stdout: "Done.\n", requests: 2 });
    expect(result.stderr).toContain(`retrying in 500 ms (1/5): the model failed mid-stream (finish_reason "${finish}")`);
  },
);

test('finish_reason "sensitive" (Z.ai\'s content filter): a refusal; "model_context_window_exceeded": the context window filled, /compact named; exit 1', async () => {
  const refused = await replay("openai", sseReply(sse([chatChunk({ content: PART }), chatChunk({ finish: "sensitive" }), usage])));
  expect(refused).toMatchObject({ code: 1, requests: 1 });
  expect(refused.stderr).toContain("error: the model refused to answer");
  const full = await replay("openai", sseReply(sse([chatChunk({ content: PART }), chatChunk({ finish: "model_context_window_exceeded" }), usage])));
  expect(full).toMatchObject({ code: 1, requests: 1 });
  expect(full.stderr).toContain("filled the model's context window (model_context_window_exceeded): /compact it");
});

test("Gemini OTHER after text: the text, then why on stderr; exit 1", async () => {
  const result = await replay("google", sseReply(geminiChunk([{ text: PART }], "OTHER")));
  expect(result).toMatchObject({ code: 1, stdout: `${PART}\n`, requests: 1 });
  expect(result.stderr).toBe('error: the model stopped for "OTHER"; its answer may be incomplete\n');
});

test("Gemini OTHER on a reply with a bash call: the call is not run, and the error says so; exit 1", async () => {
  const call = { functionCall: { name: "bash", args: { command: "echo ran >> ran.txt" } } };
  const result = await replay("google", sseReply(geminiChunk([call], "OTHER")));
  expect(result).toMatchObject({ code: 1, requests: 1 });
  expect(result.stderr).toContain('error: the model stopped for "OTHER"; its answer may be incomplete, and its tool call (bash) was not run');
  expect(existsSync(ranFile)).toBe(false);
});

test("openai: reasoning alone (a server's reasoning parser) is printed as the answer at once with a notice: one request; exit 0", async () => {
  const thought = "I think the answer is 42.";
  const result = await replay("openai", thinkingReply("openai", thought));
  expect(result).toMatchObject({ code: 0, stdout: `${thought}\n`, requests: 1 });
  expect(result.stderr).toContain(`hey: ${reasoningAsAnswer(true)}\n`);
  expect(result.stderr).not.toContain("retrying");
});

test.each(["anthropic", "google", "responses"] as const)(
  "%s: reasoning alone on every try is retried twice, then printed as the answer with a notice; exit 0",
  async (protocol) => {
    const thought = "I think the answer is 42.";
    const result = await replay(protocol, thinkingReply(protocol, thought), thinkingReply(protocol, thought), thinkingReply(protocol, thought));
    expect(result).toMatchObject({ code: 0, stdout: `${thought}\n`, requests: 3 });
    expect(result.stderr).toContain(`retrying in 500 ms (1/2): ${baseUrlFor(protocol, server.url)} answered with only reasoning`);
    expect(result.stderr).toContain(`hey: ${reasoningTaken({ reasoned: 3, tries: 3 })}`);
    expect(result.stderr).not.toContain("was empty");
  },
);

test("google: reasoning alone, then an answer on the retry: the answer is the run's", async () => {
  const result = await replay("google", thinkingReply("google", "Hmm."), textReply("google", "It is 42."));
  expect(result).toMatchObject({ code: 0, stdout: "It is 42.\n", requests: 2 });
});

test("a stream cut inside a tool call after thinking is retried, the cut call never run; exit 0", async () => {
  const cut = sse(
    [
      chatChunk({ reasoning: "The user wants a file. I will write it." }),
      chatChunk({ toolCall: { index: 0, id: "call_9", name: "bash", arguments: '{"command":"echo ran >> ra' } }),
    ],
    { done: false },
  );
  const result = await replay("openai", sseReply(cut), textReply("openai", "Done."));
  expect(result).toMatchObject({ code: 0, stdout: "Done.\n", requests: 2 });
  expect(result.stderr).toContain("retrying in 500 ms (1/5): the connection closed before the model finished its answer");
  expect(existsSync(ranFile)).toBe(false);
});
