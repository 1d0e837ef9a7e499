// How a chat-completions stream ends, through the real SDK against a loopback replay server: the
// server's own `data: [DONE]` ends an answer that never named a finish_reason (llama.cpp and some
// gateways leave it out), while a stream closed without it stays a cut connection; and an answer
// that came only as reasoning (a server's reasoning parser with a model that is not thinking) is
// the answer, with one notice.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage } from "../../src/kernel/ir.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { createOpenAIProvider } from "../../src/providers/openai.ts";
import { sseReply, startReplayServer, type Reply } from "../helpers/replay-server.ts";
import { chatChunk, sse, sseEvents } from "../helpers/sse.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const usage = chatChunk({ usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } });
const call = chatChunk({ toolCall: { index: 0, id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' } });

async function replay(...replies: Reply[]) {
  server.enqueue(...replies);
  const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1` });
  const runs: { events: StreamEvent[]; error?: unknown }[] = [];
  for (const _ of replies) runs.push(await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal)));
  return runs;
}

/** The one stream of `reply`. */
const once = async (reply: Reply) => (await replay(reply))[0]!;

const doneOf = (events: StreamEvent[]) => {
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error(`no done: ${JSON.stringify(events)}`);
  return done;
};

test("text, then [DONE] with no finish_reason: a finished answer (stop), not a broken stream", async () => {
  const { events, error } = await once(sseReply(sse([chatChunk({ content: "Hello " }), chatChunk({ content: "there." })])));
  expect(error).toBeUndefined();
  expect(events.flatMap((e) => (e.type === "text" ? [e.delta] : []))).toEqual(["Hello ", "there."]);
  expect(doneOf(events).stop).toBe("stop");
});

test("a tool call, usage, then [DONE] with no finish_reason: the call, stop tool_calls, the usage read", async () => {
  const { events, error } = await once(sseReply(sse([call, usage])));
  expect(error).toBeUndefined();
  const done = doneOf(events);
  expect(done.stop).toBe("tool_calls");
  expect(done.message.toolCalls).toEqual([{ id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' }]);
  expect(done.usage).toMatchObject({ input: 9, output: 2 });
});

test("[DONE] written without the space and split across reads still ends the answer", async () => {
  const events = sseEvents([chatChunk({ content: "Hi." })], { done: false });
  const { events: got, error } = await once(sseReply([...events, "data:[DO", "NE]\n\n"], { delayMs: 20 }));
  expect(error).toBeUndefined();
  expect(doneOf(got).stop).toBe("stop");
});

test("the same stream closed without [DONE] is a cut connection (network, retried by the loop)", async () => {
  const { error } = await once(sseReply(sse([chatChunk({ content: "Hello" })], { done: false })));
  expect(error).toMatchObject({ kind: "network", message: "the connection closed before the model finished its answer" });
});

test("a [DONE] inside a text delta is no end of the stream", async () => {
  const { error } = await once(sseReply(sse([chatChunk({ content: "data: [DONE]\n" })], { done: false })));
  expect(error).toMatchObject({ kind: "network" });
});

test("an answer only in reasoning_content (finish stop): the adapter passes it on as thinking (empty-answers.ts decides what it is, for every protocol)", async () => {
  const { events, error } = await once(sseReply(sse([chatChunk({ reasoning: "The file says hello." }), chatChunk({ finish: "stop" }), usage])));
  expect(error).toBeUndefined();
  expect(doneOf(events)).toMatchObject({ stop: "stop", message: { content: [{ type: "thinking", text: "The file says hello." }] } });
});

test("reasoning, then an answer in content: the reasoning stays thinking", async () => {
  const { events } = await once(sseReply(sse([chatChunk({ reasoning: "Think." }), chatChunk({ content: "Answer." }), chatChunk({ finish: "stop" }), usage])));
  expect(doneOf(events).message.content.map((p) => p.type)).toEqual(["thinking", "text"]);
  expect(events.some((e) => e.type === "notice")).toBe(false);
});
