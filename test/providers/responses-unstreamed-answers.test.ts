// Responses streams from gateways that translate to the protocol and send only some of its events:
// the answer only in `output_item.done`, only in `output_text.done` (gemini-web2api#57), or only in
// `response.completed`'s output. The answer is shown (yielded as text) once, as Codex shows it —
// before, hey printed nothing ("ended without a final answer") or retried it as "no content" — and
// text that did stream is never shown a second time from the events that repeat it. Through the real
// openai SDK from a loopback server, via createProvider as hey makes it.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage } from "../../src/kernel/ir.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

type Loose = Record<string, unknown>;
let seq = 0;
const ev = (type: string, fields: Loose = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;
const message = (text: string, id = "msg_1", part = "output_text") => ({
  id,
  type: "message",
  status: "completed",
  role: "assistant",
  content: [part === "refusal" ? { type: "refusal", refusal: text } : { type: "output_text", text, annotations: [] }],
});
const reasoning = { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "Thinking it over." }] };
const call = { id: "fc_1", type: "function_call", status: "completed", call_id: "call_1", name: "read", arguments: '{"path":"a.txt"}' };
const created = () => ev("response.created", { response: { id: "r", object: "response", status: "in_progress", output: [] } });
const completed = (output: unknown[]) =>
  ev("response.completed", {
    response: { id: "r", object: "response", status: "completed", output, usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } },
  });
const textDelta = (delta: string, item_id = "msg_1") => ev("response.output_text.delta", { item_id, output_index: 0, content_index: 0, delta });
const textDone = (text: string, item_id = "msg_1") => ev("response.output_text.done", { item_id, output_index: 0, content_index: 0, text });
const itemDone = (item: unknown, output_index = 0) => ev("response.output_item.done", { output_index, item });

/** What the user and the history see: each shown delta and call, then the stop and the answer's parts. */
async function seen(...events: string[]) {
  const provider = await createProvider({ protocol: "responses", model: "m", baseUrl: `${server.url}/v1`, apiKey: "KEY" });
  const before = server.requests.length;
  server.enqueue(sseReply([created(), ...events].join("")));
  const { events: out, error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  expect(error).toBeUndefined();
  expect(server.requests.length - before).toBe(1);
  return out.flatMap((e: StreamEvent) => {
    if (e.type === "text" || e.type === "thinking") return [`${e.type}: ${e.delta}`];
    if (e.type === "tool_call") return [`call ${e.call.name} ${e.call.arguments}`];
    if (e.type === "done")
      return [`done ${e.stop}: ${e.message.content.map((p) => `${p.type} ${p.type === "text" || p.type === "thinking" ? p.text : ""}`).join(", ")}`];
    return [];
  });
}

const ANSWERED = ["text: DONE-FINAL", "done stop: text DONE-FINAL"];

test("an answer only in output_item.done is shown, once", async () => {
  expect(await seen(itemDone(message("DONE-FINAL")), completed([message("DONE-FINAL")]))).toEqual(ANSWERED);
});

test("an answer only in output_text.done (gemini-web2api's shape) is shown, once, in one request", async () => {
  expect(await seen(textDone("DONE-FINAL"), completed([message("DONE-FINAL")]))).toEqual(ANSWERED);
});

test("an answer only in response.completed's output is shown, once, in one request", async () => {
  expect(await seen(completed([message("DONE-FINAL")]))).toEqual(ANSWERED);
});

test("streamed text is not shown again from output_text.done, output_item.done or the completed output", async () => {
  const events = [textDelta("DONE-"), textDelta("FINAL"), textDone("DONE-FINAL"), itemDone(message("DONE-FINAL")), completed([message("DONE-FINAL")])];
  expect(await seen(...events)).toEqual(["text: DONE-", "text: FINAL", "done stop: text DONE-FINAL"]);
});

test("text streamed under one item id and repeated under another (a gateway's ids) is shown and kept once", async () => {
  const events = [
    textDelta("DONE-FINAL", "tmp_1"),
    textDone("DONE-FINAL", "msg_9"),
    itemDone(message("DONE-FINAL", "msg_9")),
    completed([message("DONE-FINAL", "msg_9")]),
  ];
  expect(await seen(...events)).toEqual(ANSWERED);
});

test("a second message that did not stream is shown after the first that did", async () => {
  const events = [textDelta("One."), itemDone(message("One.")), itemDone(message("Two.", "msg_2"), 1), completed([message("One."), message("Two.", "msg_2")])];
  expect(await seen(...events)).toEqual(["text: One.", "text: Two.", "done stop: text One., text Two."]);
});

test("streamed reasoning, then the message and a call only in the completed output: both taken from there", async () => {
  const summary = ev("response.reasoning_summary_text.delta", { item_id: "rs_1", output_index: 0, summary_index: 0, delta: "Thinking it over." });
  expect(await seen(summary, itemDone(reasoning), completed([reasoning, message("Reading it.", "msg_1"), call]))).toEqual([
    "thinking: Thinking it over.",
    "text: Reading it.",
    'call read {"path":"a.txt"}',
    "done tool_calls: thinking Thinking it over., text Reading it.",
  ]);
});

test("a refusal only in output_item.done is shown and stops as a refusal", async () => {
  expect(await seen(itemDone(message("I can't help with that.", "msg_1", "refusal")), completed([]))).toEqual([
    "text: I can't help with that.",
    "done refusal: text I can't help with that.",
  ]);
});

// A gateway with a non-streaming upstream sends no deltas, and may name the item otherwise in each
// done event, or not at all: the place in the output (output_index) says it is the same answer.
test("an answer only in done events under two ids is shown and kept once", async () => {
  expect(await seen(textDone("DONE-FINAL", "tmp_1"), itemDone(message("DONE-FINAL", "msg_9")), completed([message("DONE-FINAL", "msg_9")]))).toEqual(ANSWERED);
});

test("an answer only in done events, the finished item without an id, is shown and kept once", async () => {
  const { id: _, ...unnamed } = message("DONE-FINAL");
  expect(await seen(textDone("DONE-FINAL"), itemDone(unnamed), completed([unnamed]))).toEqual(ANSWERED);
});

test("streamed text whose item ended, repeated by output_text.done under another id at its place, is shown and kept once", async () => {
  const events = [textDelta("DONE-FINAL"), itemDone(message("DONE-FINAL")), textDone("DONE-FINAL", "msg_9"), completed([message("DONE-FINAL")])];
  expect(await seen(...events)).toEqual(ANSWERED);
});

test("an empty output_item.added under another id does not hide the completed output's answer", async () => {
  const added = ev("response.output_item.added", { output_index: 0, item: { ...message(""), id: "msg_a", content: [] } });
  expect(await seen(added, completed([message("DONE-FINAL", "msg_b")]))).toEqual(ANSWERED);
});

test("a call announced under one id and completed under another is not lost", async () => {
  const added = ev("response.output_item.added", { output_index: 0, item: { ...call, id: "fc_a", arguments: "" } });
  expect(await seen(added, completed([{ ...call, id: "fc_b" }]))).toEqual(['call read {"path":"a.txt"}', "done tool_calls: "]);
});

// Two items of one kind in one reply, each under its own id: neither is lost when a gateway gives
// both one output_index, nor when only response.completed brings them.
const callA = { ...call, id: "fc_a", call_id: "call_a", name: "list", arguments: '{"dir":"."}' };
const callB = { ...call, id: "fc_b", call_id: "call_b" };
const BOTH_CALLS = ['call list {"dir":"."}', 'call read {"path":"a.txt"}', "done tool_calls: "];

test("two parallel calls announced at one output_index under their own ids both run", async () => {
  const added = (item: Loose) => ev("response.output_item.added", { output_index: 0, item: { ...item, arguments: "" } });
  const args = (item: Loose) => ev("response.function_call_arguments.delta", { item_id: item.id, output_index: 0, delta: item.arguments });
  const events = [added(callA), added(callB), args(callA), args(callB), itemDone(callA), itemDone(callB), completed([callA, callB])];
  expect(await seen(...events)).toEqual(BOTH_CALLS);
});

test("two calls only in response.completed both run", async () => {
  expect(await seen(completed([callA, callB]))).toEqual(BOTH_CALLS);
});

test("two messages only in response.completed are both shown and kept", async () => {
  expect(await seen(completed([reasoning, message("First.", "msg_1"), message("Second.", "msg_2")]))).toEqual([
    "text: First.",
    "text: Second.",
    "done stop: thinking Thinking it over., text First., text Second.",
  ]);
});
