// An answer that is complete while the server keeps the connection open (no [DONE], no close):
// each adapter ends at the answer's last event — chat completions' finish chunk and usage,
// Anthropic's message_stop, Responses' response.completed — instead of waiting for the idle
// timeout and calling a finished answer broken. Real SDKs against a loopback replay server.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Protocol } from "../../src/kernel/ir.ts";
import { createProvider } from "../../src/providers/create.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { jsonReply, sseReply, startReplayServer, type Reply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

/** Long enough never to fire on a loaded machine before a complete answer is read; short enough that waiting for it fails the test. */
const IDLE_MS = 3_000;
const open = (reply: Reply): Reply => ({ ...reply, hang: true });
const usage = { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 };

async function answer(protocol: Protocol, ...replies: Reply[]) {
  server.enqueue(...replies);
  const provider = await createProvider({ protocol, model: "m", baseUrl: baseUrlFor(protocol, server.url), idleTimeoutMs: IDLE_MS });
  const { events, error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  expect(error).toBeUndefined();
  const text = events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("no done");
  return { text, done };
}

test.each(["anthropic", "responses"] as const)("%s: the answer's last event ends the stream, the connection left open", async (protocol) => {
  const { text, done } = await answer(protocol, open(textReply(protocol, "All done.")));
  expect(text).toBe("All done.");
  expect(done.stop).toBe("stop");
  expect(done.usage.output).toBe(5);
});

test("chat completions: the finish chunk, then the usage chunk, no [DONE], the connection left open", async () => {
  const chunks = [chatChunk({ content: "Yes." }), chatChunk({ finish: "stop" }), chatChunk({ usage })];
  const { text, done } = await answer("openai", open(sseReply(sse(chunks, { done: false }))));
  expect(text).toBe("Yes.");
  expect(done.stop).toBe("stop");
  expect(done.usage).toMatchObject({ input: 9, output: 2 });
});

test("chat completions: usage on the finish chunk itself, no [DONE], the connection left open", async () => {
  const chunks = [chatChunk({ content: "Yes." }), { ...chatChunk({ finish: "stop" }), usage }];
  const { text, done } = await answer("openai", open(sseReply(sse(chunks, { done: false }))));
  expect(text).toBe("Yes.");
  expect(done.usage).toMatchObject({ input: 9, output: 2 });
});

test("chat completions without stream_options (refused once): the finish chunk alone ends the stream", async () => {
  const refused = jsonReply(400, { error: { message: "Unrecognized request argument supplied: stream_options", type: "invalid_request_error" } });
  const finished = open(sseReply(sse([chatChunk({ content: "Yes." }), chatChunk({ finish: "stop" })], { done: false })));
  const { text, done } = await answer("openai", refused, finished);
  expect(text).toBe("Yes.");
  expect(done.stop).toBe("stop");
  expect((server.requests.at(-1)!.body as Record<string, unknown>).stream_options).toBeUndefined();
});

test("chat completions whose server ignores stream_options: the finish chunk, no usage, the connection left open — the answer ends, its usage estimated, without waiting for the idle timeout", async () => {
  server.enqueue(open(sseReply(sse([chatChunk({ content: "Yes." }), chatChunk({ finish: "stop" })], { done: false }))));
  // an idle timeout far past the test's own: waiting for it (the usage that never comes) fails the test
  const provider = await createProvider({ protocol: "openai", model: "m", baseUrl: baseUrlFor("openai", server.url), idleTimeoutMs: 600_000 });
  const { events, error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  expect(error).toBeUndefined();
  expect(events.flatMap((e) => (e.type === "text" ? [e.delta] : []))).toEqual(["Yes."]);
  const done = events.at(-1);
  expect(done?.type === "done" && done.usage.estimated).toBe(true);
});
