// The less common ways a native protocol ends a turn, as a user of dist/hey meets them: a refusal
// says so in one line (with the provider's words) and exits 1, and a Gemini function call it could
// not parse is told to the model, which tries again, instead of ending the task. Streams hand-made
// from the vendors' documentation (cited per case; test/fixtures/crafted/README.md), replayed from
// a loopback server.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { malformedCallNote } from "../../src/kernel/loop.ts";
import { refused } from "../../src/kernel/refusal.ts";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { anthropicRefusal, textReply } from "../helpers/protocol-streams.ts";
import { jsonReply, sseReply } from "../helpers/replay-server.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-stops-");
const config = join(work.path, "fast-retry.toml");
writeFileSync(config, "[retry]\nbase_delay_ms = 100\njitter = false\n");

const run = (protocol: string, base: string) =>
  runHey(["--base-url", `${server.url}${base}`, "--protocol", protocol, "-m", "m", "--config", config, "-p", "go"], { cwd: work.path });

const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

test("Anthropic stop_reason refusal after some text: the text, then one line with the category and explanation; exit 1", async () => {
  // As platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals
  // shows it: stop_details arrives on message_delta beside stop_reason "refusal".
  server.enqueue(anthropicRefusal("Hello..", "cyber", "This request was declined because it could enable cyber harm."));
  const result = await run("anthropic", "/v1");
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("Hello..\n");
  expect(result.stderr).toBe(`error: ${refused("cyber: This request was declined because it could enable cyber harm.")}\n`);
});

const geminiChunk = (candidate: Record<string, unknown>) =>
  `data: ${JSON.stringify({ candidates: [{ index: 0, ...candidate }], usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } })}\r\n\r\n`;

test("Gemini SAFETY with empty content: one line naming SAFETY, not 'the answer was empty'; exit 1", async () => {
  // The SDK's FinishReason.SAFETY: "When streaming, the content field is empty if content filters block the output."
  server.enqueue(sseReply(geminiChunk({ finishReason: "SAFETY" })));
  const result = await run("google", "/v1beta");
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(`error: ${refused("SAFETY")}\n`);
});

test("Gemini finishReason OTHER with nothing: the empty answer names it", async () => {
  // The SDK's FinishReason.OTHER: "The model stopped generating for a reason not otherwise specified."
  server.enqueue(sseReply(geminiChunk({ finishReason: "OTHER" })));
  const result = await run("google", "/v1beta");
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(`error: the model's answer was empty: it stopped for "OTHER"\n`);
});

/** The user texts of a recorded Gemini request, in order. */
const userTexts = (body: unknown) =>
  ((body as { contents: { role: string; parts: { text?: string }[] }[] }).contents ?? [])
    .filter((c) => c.role === "user")
    .flatMap((c) => c.parts.map((p) => p.text ?? ""));

test("Gemini text, then MALFORMED_FUNCTION_CALL: the text stays, the model is shown Gemini's finishMessage and answers; exit 0", async () => {
  // crafted (test/fixtures/crafted/README.md): a sentence, then a call Gemini could not parse
  const crafted = readFileSync(join(import.meta.dir, "..", "fixtures", "crafted", "gemini", "text-then-malformed-function-call.sse"), "utf8");
  const before = server.requests.length;
  server.enqueue(sseReply(crafted), textReply("google", "Done."));
  const result = await run("google", "/v1beta");
  // the sentence before the call was narration: stderr, as the text before a tool call is
  expect(result).toMatchObject({ code: 0, stdout: "Done.\n" });
  expect(result.stderr).toStartWith(`I will list the files first.\nhey: the model's tool call could not be parsed`);
  const said = `MALFORMED_FUNCTION_CALL: Malformed function call: print(default_api.bash(command='ls -la | grep "src"', timeout=30))`;
  expect(result.stderr).toContain(`the model's tool call could not be parsed (${said}); it is asked to make it again`);
  expect(result.stderr).not.toContain("retrying");
  const sent = server.requests.slice(before);
  expect(sent).toHaveLength(2);
  expect(userTexts(sent[1]!.body)).toEqual(["go", malformedCallNote(said)]);
  const second = (sent[1]!.body as { contents: { role: string; parts: { text?: string }[] }[] }).contents;
  expect(second.find((c) => c.role === "model")?.parts.map((p) => p.text)).toEqual(["I will list the files first."]);
});

test("Gemini MALFORMED_FUNCTION_CALL with nothing before it: no network back-off; the model is told and answers; exit 0", async () => {
  // The SDK's FinishReason.MALFORMED_FUNCTION_CALL: "a function call that is syntactically invalid and can't be parsed".
  const before = server.requests.length;
  server.enqueue(sseReply(geminiChunk({ content: { parts: [] }, finishReason: "MALFORMED_FUNCTION_CALL" })), textReply("google", "Done."));
  const result = await run("google", "/v1beta");
  expect(result).toMatchObject({ code: 0, stdout: "Done.\n" });
  expect(result.stderr).not.toContain("retrying");
  const sent = server.requests.slice(before);
  expect(sent).toHaveLength(2);
  expect(userTexts(sent[1]!.body)).toEqual(["go", malformedCallNote("MALFORMED_FUNCTION_CALL")]);
});

test("Gemini UNEXPECTED_TOOL_CALL with nothing, after the model worked with tools: asked to make the call again, as a malformed one; it answers; exit 0", async () => {
  // The SDK's FinishReason.UNEXPECTED_TOOL_CALL: "a function call that is semantically invalid".
  const call = geminiChunk({ content: { role: "model", parts: [{ functionCall: { name: "read_file", args: { path: "nope.txt" } } }] }, finishReason: "STOP" });
  const before = server.requests.length;
  server.enqueue(sseReply(call), sseReply(geminiChunk({ finishReason: "UNEXPECTED_TOOL_CALL" })), textReply("google", "Done."));
  const result = await run("google", "/v1beta");
  expect(result).toMatchObject({ code: 0, stdout: "Done.\n" });
  expect(result.stderr).toContain("the model's tool call could not be parsed (UNEXPECTED_TOOL_CALL); it is asked to make it again");
  expect(result.stderr).not.toContain("retrying");
  const sent = server.requests.slice(before);
  expect(sent).toHaveLength(3);
  expect(userTexts(sent[2]!.body).at(-1)).toBe(malformedCallNote("UNEXPECTED_TOOL_CALL"));
});

// an empty answer is not a dropped connection: the endpoint answered, with nothing. Retried twice (a
// Gemini flake, as after a function response), then one line naming the endpoint; exit 1
test.each([
  ["no candidates", `data: ${JSON.stringify({ candidates: [], usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } })}\r\n\r\n`],
  ["usage alone", `data: ${JSON.stringify({ usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } })}\r\n\r\n`],
  ["finishReason STOP with empty parts", geminiChunk({ content: { role: "model", parts: [] }, finishReason: "STOP" })],
])("Gemini %s: 'answered with no content', retried twice, then exit 1", async (_, body) => {
  const before = server.requests.length;
  server.enqueue(sseReply(body), sseReply(body), sseReply(body));
  const result = await run("google", "/v1beta");
  expect(result.code).toBe(1);
  expect(server.requests.length - before).toBe(3);
  expect(result.stderr).not.toContain("the connection closed");
  expect(result.stderr.match(/^retrying in .* \([12]\/2\): .*answered with no content$/gm)).toHaveLength(2); // of 2, not of max_retries
  expect(result.stderr).toEndWith(`error: ${server.url}/v1beta answered with no content — gave up after 2 retries\n`);
});

test("Gemini's empty STOP after a function response is retried: the answer that follows is the run's; exit 0", async () => {
  const call = geminiChunk({ content: { role: "model", parts: [{ functionCall: { name: "read_file", args: { path: "nope.txt" } } }] }, finishReason: "STOP" });
  server.enqueue(sseReply(call), sseReply(geminiChunk({ content: { role: "model", parts: [] }, finishReason: "STOP" })), textReply("google", "Done."));
  const result = await run("google", "/v1beta");
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("Done.\n");
});

const anthropicText = (text: string, stop: string) =>
  sseReply(
    [
      event("message_start", {
        message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } },
      }),
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text } }),
      event("content_block_stop", { index: 0 }),
      event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 64 } }),
      event("message_stop", {}),
    ].join(""),
  );

test("an answer cut at max_tokens: the warning, then the setting to raise, in its file, with its value; exit 1", async () => {
  const file = join(work.path, "claude.toml");
  writeFileSync(file, `[provider.claude]\nprotocol = "anthropic"\nbase_url = "${server.url}/v1"\nmodels = ["m"]\nmax_tokens = 64\n`);
  server.enqueue(anthropicText("The first half of", "max_tokens"));
  const result = await runHey(["--config", file, "-m", "claude/m", "-p", "go"], { cwd: work.path });
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("The first half of\n");
  expect(result.stderr).toBe(`the answer was cut off: the model reached its output token limit\nraise max_tokens in [provider.claude] of ${file} (now 64)\n`);
});

test("model_context_window_exceeded: the window is full, said so, and no advice to raise max_tokens", async () => {
  // The SDK's StopReason type lists model_context_window_exceeded (node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts).
  server.enqueue(anthropicText("Partial", "model_context_window_exceeded"));
  const result = await run("anthropic", "/v1");
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(
    "the answer was cut off: the conversation filled the model's context window (model_context_window_exceeded): /compact it (hey -c /compact) or start a new one\n",
  );
});

test("an answer cut after hey lowered its default max_tokens to what the endpoint takes: the hint names that limit, not 32000; exit 1", async () => {
  // Anthropic's 400 for a model with a smaller output limit, in the words users report (no recording).
  const file = join(work.path, "claude-small.toml");
  writeFileSync(file, `[provider.claude]\nprotocol = "anthropic"\nbase_url = "${server.url}/v1"\nmodels = ["m"]\n`);
  const message = "max_tokens: 32000 > 8192, which is the maximum allowed number of output tokens for claude-3-5-haiku-20241022";
  const before = server.requests.length;
  server.enqueue(jsonReply(400, { type: "error", error: { type: "invalid_request_error", message } }), anthropicText("The first half of", "max_tokens"));
  const result = await runHey(["--config", file, "-m", "claude/m", "-p", "go"], { cwd: work.path });
  expect(result.code).toBe(1);
  expect(server.requests.slice(before).map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual([32000, 8192]);
  expect(result.stderr).toBe(
    "the answer was cut off: the model reached its output token limit\nthe endpoint takes at most 8192 output tokens for this model (it refused hey's default of 32000), so no setting raises the limit: ask for the answer in parts\n",
  );
});
