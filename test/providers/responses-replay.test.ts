// Every recorded Responses stream (test/fixtures/wire/openai-responses) replayed through the
// real openai SDK into the IR, hand-made streams for what no recording shows, and HTTP errors.
// Short expected values were read from the fixtures by eye; long texts are checked against the
// recording's own `.done` events (the server's full text, not our concatenation of its deltas).
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { userMessage } from "../../src/kernel/ir.ts";
import type { Message, Usage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { createResponsesProvider } from "../../src/providers/responses.ts";
import { WIRE_DIR, cutAfter, fixture, jsonReply, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import type { Reply } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const MODEL = "gpt-test";
const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const provider = (opts: { apiKey?: string; apiKeyVar?: string; baseUrl?: string } = {}): Promise<Provider> =>
  createResponsesProvider({ model: MODEL, baseUrl: `${server.url}/v1`, ...opts });

/** Replays one reply (none: nothing is queued) and returns the events, and the error if the stream threw. */
async function replay(reply: Reply | undefined, p?: Provider): Promise<{ events: StreamEvent[]; error?: unknown }> {
  if (reply) server.enqueue(reply);
  return drain((p ?? (await provider())).stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
}

type Loose = Record<string, unknown>;
/** A recording's events, parsed. */
const recorded = (name: string): Loose[] =>
  readFileSync(join(WIRE_DIR, `${name}.sse`), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)) as Loose);
/** The `item` of the recording's `response.output_item.done` event for an item of `type`. */
const doneItem = (name: string, type: string) =>
  recorded(name).flatMap((e) => (e.type === "response.output_item.done" && (e.item as Loose).type === type ? [e.item as Loose] : []))[0];
/** The full text a recording's `<type>.done` event carries. */
const doneText = (name: string, type: string) => String(recorded(name).find((e) => e.type === type)?.text);

const usage = (input: number, output: number, cacheRead = 0, reasoning = 0): Usage => ({ input, output, cacheRead, cacheWrite: 0, reasoning });
const lastDone = (events: StreamEvent[]) => {
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("no done event");
  return done;
};

interface Expected {
  text: string;
  textDeltas: number;
  thinking?: string;
  thinkingDeltas?: number;
  /** the first deltas in order, as [type, delta] */
  first: [string, string][];
  /** the recorded reasoning item is kept whole as the thinking part's opaque data */
  reasoning?: boolean;
  toolCalls?: { id: string; name: string; args: unknown; itemId: string }[];
  usage: Usage;
  stop: string;
}

const SUMMARY_TEXT = "openai-responses/reasoning-summary-text";
const SUMMARY_CALL = "openai-responses/reasoning-summary-function-call";

const CASES: Record<string, Expected> = {
  // gpt-5.5 with low effort: no reasoning item at all, one message item.
  "openai-responses/text-reasoning-encrypted": {
    text: "pong",
    textDeltas: 1,
    first: [["text", "pong"]],
    usage: usage(11, 5),
    stop: "stop",
  },
  "openai-responses/text-after-function-call": {
    text: "1231 × 2331 = **2,869,461**",
    textDeltas: 14,
    first: [
      ["text", "123"],
      ["text", "1"],
      ["text", " ×"],
      ["text", " "],
    ],
    usage: usage(94, 18),
    stop: "stop",
  },
  // One function_call item; argument deltas keyed by item_id fc_…, the call answered by call_id.
  "openai-responses/function-call": {
    text: "",
    textDeltas: 0,
    first: [],
    toolCalls: [
      {
        id: "call_sVidsfFJ6zlzRpelrPkTPlpd",
        name: "multiply",
        args: { a: 1231, b: 2331 },
        itemId: "fc_00d64fa806f333310169fab1bf324481a0852cda3180856290",
      },
    ],
    usage: usage(58, 23),
    stop: "tool_calls",
  },
  // A reasoning item with encrypted_content and one summary part, then a function call at output_index 1.
  [SUMMARY_CALL]: {
    text: "",
    textDeltas: 0,
    thinking:
      "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
    thinkingDeltas: 32,
    first: [
      ["thinking", "**Calcul"],
      ["thinking", "ating"],
      ["thinking", " step"],
      ["thinking", "-by"],
    ],
    reasoning: true,
    toolCalls: [
      {
        id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
        name: "calculator",
        args: { a: 12, b: 7, op: "add" },
        itemId: "fc_01830d662ab3856501693c32151234819091cfca267e98cc5f",
      },
    ],
    usage: usage(134, 28),
    stop: "tool_calls",
  },
  // 109 summary deltas then 409 text deltas; this reasoning item has no encrypted_content.
  [SUMMARY_TEXT]: {
    text: doneText(SUMMARY_TEXT, "response.output_text.done"),
    textDeltas: 409,
    thinking: doneText(SUMMARY_TEXT, "response.reasoning_summary_text.done"),
    thinkingDeltas: 109,
    first: [
      ["thinking", "**Clar"],
      ["thinking", "ifying"],
      ["thinking", " legal"],
      ["thinking", " terminology"],
    ],
    reasoning: true,
    usage: usage(50, 805, 0, 390),
    stop: "stop",
  },
};

describe("recorded streams replayed through the openai SDK", () => {
  test("every Responses recording has a case", () => {
    const all = readdirSync(join(WIRE_DIR, "openai-responses"))
      .filter((f) => f.endsWith(".sse"))
      .map((f) => `openai-responses/${f.replace(/\.sse$/, "")}`);
    // The one recorded failure is asserted below, in "stream failures".
    expect(all.sort()).toEqual([...Object.keys(CASES), "openai-responses/error-event-then-failed"].sort());
  });

  test("long expectations really come from the recording", () => {
    expect(CASES[SUMMARY_TEXT]!.text).toStartWith("“John Doe” (and its companion name “Richard Roe”) comes from **English common-law procedure**");
    expect(CASES[SUMMARY_TEXT]!.text.length).toBe(1762);
    expect(CASES[SUMMARY_TEXT]!.thinking).toStartWith('**Clarifying legal terminology**\n\nI\'m exploring the term "roe,"');
    expect(CASES[SUMMARY_TEXT]!.thinking!.length).toBe(535);
  });

  test.each(Object.entries(CASES))("%s", async (name, want) => {
    const { events, error } = await replay(fixture(name));
    expect(error).toBeUndefined();

    const deltas = events.filter((e) => e.type === "text" || e.type === "thinking");
    const texts = deltas.filter((e) => e.type === "text").map((e) => e.delta);
    const thoughts = deltas.filter((e) => e.type === "thinking").map((e) => e.delta);
    expect(texts.join("")).toBe(want.text);
    expect(texts.length).toBe(want.textDeltas);
    expect(thoughts.join("")).toBe(want.thinking ?? "");
    expect(thoughts.length).toBe(want.thinkingDeltas ?? 0);
    expect(deltas.slice(0, want.first.length).map((e) => [e.type, e.delta])).toEqual(want.first);

    // Order: deltas, then the complete tool calls, then exactly one done, last.
    const kinds = events.map((e) => e.type);
    expect(kinds.filter((k) => k === "done")).toEqual(["done"]);
    expect(kinds.at(-1)).toBe("done");
    const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    if (calls.length > 0) expect(kinds.slice(kinds.indexOf("tool_call"), -1).every((k) => k === "tool_call")).toBe(true);
    expect(calls.map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.arguments), itemId: (c.opaque?.data as Loose | undefined)?.id }))).toEqual(
      want.toolCalls ?? [],
    );
    for (const c of calls) expect(c.opaque).toMatchObject({ protocol: "responses", model: MODEL });

    const done = lastDone(events);
    expect(done.usage).toEqual(want.usage);
    expect(done.stop).toBe(want.stop as never);
    expect(done.message.role).toBe("assistant");
    expect(done.message.id).toMatch(/^[0-9a-z]{19}$/);
    // The content keeps the output items' order: reasoning, then the answer.
    const item = want.reasoning ? doneItem(name, "reasoning") : undefined;
    expect(done.message.content).toEqual([
      ...(item ? [{ type: "thinking", text: want.thinking, opaque: { protocol: "responses", model: MODEL, data: item } }] : []),
      ...(want.text ? [{ type: "text", text: want.text }] : []),
    ] as never);
    expect(done.message.toolCalls).toEqual(calls.length > 0 ? calls : (undefined as never));
  });

  test("the reasoning item is kept whole, encrypted_content included, from output_item.done (not .added)", async () => {
    const { events } = await replay(fixture(SUMMARY_CALL));
    const thinking = lastDone(events).message.content[0];
    if (thinking?.type !== "thinking") throw new Error("no thinking part");
    const data = thinking.opaque?.data as Loose;
    const added = recorded(SUMMARY_CALL).find((e) => e.type === "response.output_item.added")?.item as Loose;
    expect(data.id).toBe("rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9");
    expect(String(data.encrypted_content)).toStartWith("gAAAAABpPDIVOKrsHNZ0");
    expect(String(data.encrypted_content).length).toBe(1060);
    expect(data.encrypted_content).not.toBe(added.encrypted_content);
    expect(data.summary).toEqual([{ type: "summary_text", text: CASES[SUMMARY_CALL]!.thinking }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Hand-made streams: one `event:` + `data:` pair per event, like the recordings.

let seq = 0;
const ev = (type: string, fields: Loose = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;
const response = (status: string, extra: Loose = {}) => ({ id: "resp_1", object: "response", status, output: [], usage: null, ...extra });
const USAGE = {
  input_tokens: 20,
  input_tokens_details: { cached_tokens: 12, cache_write_tokens: 3 },
  output_tokens: 9,
  output_tokens_details: { reasoning_tokens: 4 },
  total_tokens: 29,
};
const textDelta = (delta: string, item_id = "msg_1", output_index = 0) => ev("response.output_text.delta", { item_id, output_index, content_index: 0, delta });
const completed = (extra: Loose = {}) => ev("response.completed", { response: response("completed", { usage: USAGE, ...extra }) });
const message = (text: string, id = "msg_1") => ({
  id,
  type: "message",
  status: "completed",
  role: "assistant",
  content: [{ type: "output_text", text, annotations: [] }],
});
const itemDone = (item: Loose, output_index: number) => ev("response.output_item.done", { output_index, item });
const itemAdded = (item: Loose, output_index: number) => ev("response.output_item.added", { output_index, item });

/** The error a replay ended with, checked to be a ProviderError. */
async function failure(reply: Reply | undefined, p?: Provider): Promise<{ error: ProviderError; events: StreamEvent[] }> {
  const { events, error } = await replay(reply, p);
  expect(error).toBeInstanceOf(ProviderError);
  return { error: error as ProviderError, events };
}

describe("stream shapes no recording shows", () => {
  test("usage counts cached input inside input, and cache writes and reasoning tokens", async () => {
    const { events } = await replay(sseReply([textDelta("ok"), itemDone(message("ok"), 0), completed()].join("")));
    expect(lastDone(events).usage).toEqual({ input: 20, output: 9, cacheRead: 12, cacheWrite: 3, reasoning: 4 });
  });

  test("summary parts are separated by a blank line; an empty-summary item still becomes a thinking part", async () => {
    const rs1 = {
      id: "rs_1",
      type: "reasoning",
      summary: [
        { type: "summary_text", text: "First." },
        { type: "summary_text", text: "Second." },
      ],
      encrypted_content: "enc1",
    };
    const rs2 = { id: "rs_2", type: "reasoning", summary: [], encrypted_content: "enc2" };
    const summary = (item_id: string, summary_index: number, delta: string) =>
      ev("response.reasoning_summary_text.delta", { item_id, output_index: 0, summary_index, delta });
    const body = [
      itemAdded({ id: "rs_1", type: "reasoning", summary: [] }, 0),
      summary("rs_1", 0, "First."),
      summary("rs_1", 1, "Sec"),
      summary("rs_1", 1, "ond."),
      itemDone(rs1, 0),
      itemAdded({ id: "rs_2", type: "reasoning", summary: [] }, 1),
      itemDone(rs2, 1),
      itemAdded({ id: "msg_1", type: "message", role: "assistant", content: [] }, 2),
      textDelta("Answer.", "msg_1", 2),
      itemDone(message("Answer."), 2),
      completed(),
    ].join("");
    const { events } = await replay(sseReply(body));
    expect(events.slice(0, -1)).toEqual([
      { type: "thinking", delta: "First." },
      { type: "thinking", delta: "\n\nSec" },
      { type: "thinking", delta: "ond." },
      { type: "text", delta: "Answer." },
    ]);
    expect(lastDone(events).message.content).toEqual([
      { type: "thinking", text: "First.\n\nSecond.", opaque: { protocol: "responses", model: MODEL, data: rs1 } },
      { type: "thinking", text: "", opaque: { protocol: "responses", model: MODEL, data: rs2 } },
      { type: "text", text: "Answer." },
    ]);
  });

  test("raw reasoning text (response.reasoning_text.delta) is thinking too", async () => {
    const rs = { id: "rs_1", type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "Let me think." }] };
    const body = [
      ev("response.reasoning_text.delta", { item_id: "rs_1", output_index: 0, content_index: 0, delta: "Let me " }),
      ev("response.reasoning_text.delta", { item_id: "rs_1", output_index: 0, content_index: 0, delta: "think." }),
      itemDone(rs, 0),
      textDelta("Hi", "msg_1", 1),
      itemDone(message("Hi"), 1),
      completed(),
    ].join("");
    const { events } = await replay(sseReply(body));
    expect(events.filter((e) => e.type === "thinking").map((e) => (e.type === "thinking" ? e.delta : ""))).toEqual(["Let me ", "think."]);
    expect(lastDone(events).message.content[0]).toEqual({ type: "thinking", text: "Let me think.", opaque: { protocol: "responses", model: MODEL, data: rs } });
  });

  test("parallel calls: argument deltas are accumulated by item_id, calls come out in output order", async () => {
    const call = (n: number, args: string) => ({
      id: `fc_${n}`,
      type: "function_call",
      status: "completed",
      call_id: `call_${n}`,
      name: "read",
      arguments: args,
    });
    const args = (item_id: string, output_index: number, delta: string) => ev("response.function_call_arguments.delta", { item_id, output_index, delta });
    const body = [
      itemAdded(call(1, ""), 0),
      itemAdded(call(2, ""), 1),
      args("fc_2", 1, '{"path":'),
      args("fc_1", 0, '{"path":'),
      args("fc_1", 0, '"a.txt"}'),
      args("fc_2", 1, '"b.txt"}'),
      // A compatible server that does not repeat the arguments in the done item.
      itemDone(call(1, ""), 0),
      itemDone(call(2, ""), 1),
      completed(),
    ].join("");
    const { events } = await replay(sseReply(body));
    expect(events.map((e) => e.type)).toEqual(["tool_call", "tool_call", "done"]);
    expect(lastDone(events).message.toolCalls).toEqual([
      { id: "call_1", name: "read", arguments: '{"path":"a.txt"}', opaque: { protocol: "responses", model: MODEL, data: { id: "fc_1" } } },
      { id: "call_2", name: "read", arguments: '{"path":"b.txt"}', opaque: { protocol: "responses", model: MODEL, data: { id: "fc_2" } } },
    ]);
    expect(lastDone(events).stop).toBe("tool_calls");
  });

  test("response.incomplete (max_output_tokens) mid-arguments: the cut call comes out with what came of its arguments, stop length; a finished call beside it is whole", async () => {
    // The API reference's response.incomplete with incomplete_details.reason max_output_tokens; not recorded.
    const call = (n: number, args: string, status: string) => ({
      id: `fc_${n}`,
      type: "function_call",
      status,
      call_id: `call_${n}`,
      name: "write_file",
      arguments: args,
    });
    const args = (item_id: string, output_index: number, delta: string) => ev("response.function_call_arguments.delta", { item_id, output_index, delta });
    const body = [
      itemAdded(call(1, "", "in_progress"), 0),
      args("fc_1", 0, '{"path":"a.md","content":"A"}'),
      itemDone(call(1, '{"path":"a.md","content":"A"}', "completed"), 0),
      itemAdded(call(2, "", "in_progress"), 1),
      args("fc_2", 1, '{"path":"b.md","content":"# Gui'),
      ev("response.incomplete", { response: response("incomplete", { usage: USAGE, incomplete_details: { reason: "max_output_tokens" } }) }),
    ].join("");
    const { events } = await replay(sseReply(body));
    expect(lastDone(events).stop).toBe("length");
    expect(lastDone(events).message.toolCalls?.map((c) => [c.id, c.arguments])).toEqual([
      ["call_1", '{"path":"a.md","content":"A"}'],
      ["call_2", '{"path":"b.md","content":"# Gui'],
    ]);
  });

  test("a refusal streams as text and stops with refusal", async () => {
    const refusal = {
      id: "msg_1",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "refusal", refusal: "I can't help with that." }],
    };
    const body = [
      ev("response.refusal.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: "I can't" }),
      ev("response.refusal.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: " help with that." }),
      itemDone(refusal, 0),
      completed(),
    ].join("");
    const { events } = await replay(sseReply(body));
    expect(events.slice(0, -1)).toEqual([
      { type: "text", delta: "I can't" },
      { type: "text", delta: " help with that." },
    ]);
    expect(lastDone(events)).toMatchObject({ stop: "refusal", message: { content: [{ type: "text", text: "I can't help with that." }] } });
  });

  test.each([
    ["max_output_tokens", "length", undefined],
    ["content_filter", "refusal", "stopped by the content filter"],
    ["something_new", "other", '"incomplete" (something_new)'], // the loop: the model stopped for it
  ])("response.incomplete because of %s keeps the partial answer and stops with %s (detail %p)", async (reason, stop, detail) => {
    const body = [textDelta("Partial"), ev("response.incomplete", { response: response("incomplete", { usage: USAGE, incomplete_details: { reason } }) })].join(
      "",
    );
    const { events } = await replay(sseReply(body));
    expect(lastDone(events)).toMatchObject({ stop, message: { content: [{ type: "text", text: "Partial" }] } });
    expect(lastDone(events).detail).toBe(detail);
  });
});

describe("stream failures", () => {
  test("openai-responses/error-event-then-failed is quota exhausted, not retried", async () => {
    const { error, events } = await failure(fixture("openai-responses/error-event-then-failed"));
    expect(error.kind).toBe("quota_exhausted");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("You exceeded your current quota");
    expect(events).toEqual([]);
  });

  test("an error event after partial output: the deltas first, then the classified error", async () => {
    const error = { type: "server_error", code: "server_error", message: "The server had an error while processing your request.", param: null };
    const body = [
      textDelta("Hel"),
      textDelta("lo"),
      ev("error", { error }),
      ev("response.failed", { response: response("failed", { error: { code: "server_error", message: error.message } }) }),
    ].join("");
    const { error: thrown, events } = await failure(sseReply(body));
    expect(thrown.kind).toBe("overloaded");
    expect(thrown.message).toContain(error.message);
    expect(events).toEqual([
      { type: "text", delta: "Hel" },
      { type: "text", delta: "lo" },
    ]);
  });

  test.each([
    [{ code: "rate_limit_exceeded", message: "Rate limit reached" }, "overloaded"],
    [{ code: "invalid_prompt", message: "Invalid prompt: flagged" }, "bad_request"],
    [{ code: "insufficient_quota", message: "You exceeded your current quota" }, "quota_exhausted"],
    [null, "overloaded"],
  ])("response.failed alone with error %j is %s", async (err, kind) => {
    const { error, events } = await failure(sseReply([textDelta("x"), ev("response.failed", { response: response("failed", { error: err }) })].join("")));
    expect(error.kind).toBe(kind as never);
    if (err) expect(error.message).toContain(err.message);
    expect(events.map((e) => e.type)).toEqual(["text"]);
  });

  test("a stream cut mid-way throws a network error after the deltas that arrived", async () => {
    const name = "openai-responses/text-after-function-call";
    const text = readFileSync(join(WIRE_DIR, `${name}.sse`), "utf8");
    // Cut inside the 9th event: created, in_progress, item added, part added and five text deltas arrived whole.
    let end = 0;
    for (let i = 0; i < 9; i++) end = text.indexOf("\n\n", end) + 2;
    const { error, events } = await failure(cutAfter(fixture(name), end + 10));
    expect(error.kind).toBe("network");
    expect(events.map((e) => (e.type === "text" ? e.delta : e.type))).toEqual(["123", "1", " ×", " ", "233"]);
  });

  test("a stream that ends cleanly without completed/failed/incomplete is a network error, not an answer", async () => {
    const { error, events } = await failure(sseReply([textDelta("Hel"), textDelta("lo")].join("")));
    expect(error.kind).toBe("network");
    expect(error.retryable).toBe(true);
    expect(events.map((e) => e.type)).toEqual(["text", "text"]);
  });
});

describe("HTTP error responses are classified once", () => {
  const INVALID_KEY = { error: { message: "Incorrect API key provided: sk-bad.", type: "invalid_request_error", param: null, code: "invalid_api_key" } };

  test("401 is an auth error naming the key variable", async () => {
    const { error } = await failure(jsonReply(401, INVALID_KEY), await provider({ apiKey: "sk-bad", apiKeyVar: "OPENAI_API_KEY" }));
    expect(error.kind).toBe("auth");
    expect(error.message).toBe("authentication failed (401): Incorrect API key provided: sk-bad. — check OPENAI_API_KEY");
  });

  test("401 without a configured key says that no key was sent", async () => {
    const { error } = await failure(jsonReply(401, INVALID_KEY), await provider({ apiKeyVar: "OPENAI_API_KEY" }));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("no API key was sent");
  });

  test("429 with Retry-After: 3 is a rate limit to retry in 3000 ms", async () => {
    const body = {
      error: { message: "Rate limit reached for gpt-5.5 on requests per min (RPM): Limit 3.", type: "requests", param: null, code: "rate_limit_exceeded" },
    };
    const { error } = await failure(jsonReply(429, body, { "retry-after": "3" }));
    expect(error.kind).toBe("rate_limit");
    expect(error.retryAfterMs).toBe(3000);
    expect(error.retryable).toBe(true);
  });

  test("429 insufficient_quota is quota exhausted, not retried", async () => {
    const body = {
      error: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    };
    const { error } = await failure(jsonReply(429, body, { "retry-after": "1" }));
    expect(error.kind).toBe("quota_exhausted");
    expect(error.retryable).toBe(false);
  });

  test("500 is overloaded", async () => {
    const { error } = await failure(jsonReply(500, { error: { message: "The server had an error while processing your request.", type: "server_error" } }));
    expect(error.kind).toBe("overloaded");
    expect(error.status).toBe(500);
  });

  test("400 is a bad request carrying the provider's message", async () => {
    const body = { error: { message: "Encrypted content is not supported with this model.", type: "invalid_request_error", param: "include", code: null } };
    const { error } = await failure(jsonReply(400, body));
    expect(error.kind).toBe("bad_request");
    expect(error.message).toBe("request rejected (400): include: Encrypted content is not supported with this model."); // the param its words do not name
  });

  test("connection refused is a network error naming the base URL", async () => {
    const gone = startReplayServer();
    gone.stop();
    const { error } = await failure(undefined, await provider({ baseUrl: `${gone.url}/v1` }));
    expect(error.kind).toBe("network");
    expect(error.message).toContain(gone.url);
  });
});

describe("encrypted reasoning and the provider it belongs to", () => {
  const named = (name: string) => createProvider({ protocol: "responses", name, model: MODEL, baseUrl: `${server.url}/v1` });

  test("the reasoning and calls of an answer name the configured provider that produced them", async () => {
    const { events } = await replay(fixture(SUMMARY_CALL), await named("azure"));
    const done = lastDone(events);
    expect(done.message.content[0]).toMatchObject({ type: "thinking", opaque: { protocol: "responses", model: MODEL, provider: "azure" } });
    expect(done.message.toolCalls![0]!.opaque).toMatchObject({ provider: "azure", data: { id: doneItem(SUMMARY_CALL, "function_call")!.id } });
  });

  test("400 'could not be verified' (reasoning issued to another key): sent again at once without its reasoning items, and so from then on", async () => {
    const item = doneItem(SUMMARY_CALL, "reasoning")!;
    const history: Message[] = [
      userMessage("add"),
      {
        id: "a1",
        role: "assistant",
        content: [{ type: "thinking", text: "plan", opaque: { protocol: "responses", model: MODEL, data: item } }],
        toolCalls: [{ id: "call_1", name: "calculator", arguments: "{}", opaque: { protocol: "responses", model: MODEL, data: { id: "fc_1" } } }],
      },
      { id: "r1", role: "tool", toolCallId: "call_1", toolName: "calculator", content: [{ type: "text", text: "19" }] },
    ];
    // OpenAI's words (openai/codex#8145)
    const refusal = {
      error: {
        message: "The encrypted content gAAA...DQ== could not be verified.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_encrypted_content",
      },
    };
    server.enqueue(jsonReply(400, refusal), fixture("openai-responses/text-after-function-call"), fixture("openai-responses/text-after-function-call"));
    const start = server.requests.length;
    const p = await named("gpt");
    const ask = () => drain(p.stream({ system: "", messages: history, tools: [] }, new AbortController().signal));
    const first = await ask();
    expect(first.error).toBeUndefined();
    expect(lastDone(first.events).stop).toBe("stop");
    const inputs = server.requests.slice(start).map((r) => (r.body as { input: Loose[] }).input);
    expect(inputs[0]!.map((i) => i.type)).toContain("reasoning");
    expect(inputs[1]!.map((i) => i.type ?? i.role)).toEqual(["user", "function_call", "function_call_output"]);
    expect(inputs[1]![1]).not.toHaveProperty("id"); // the call's fc_ id goes only beside its reasoning
    expect((await ask()).error).toBeUndefined();
    expect(server.requests.length).toBe(start + 3); // the next request leaves it out at once
  });
});
