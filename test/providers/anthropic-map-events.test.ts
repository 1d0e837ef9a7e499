// mapEvents on hand-made raw event sequences: the Messages quirks no recording here shows.
import { describe, expect, test } from "bun:test";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { mapEvents } from "../../src/providers/anthropic.ts";

async function run(events: unknown[]): Promise<StreamEvent[]> {
  async function* source() {
    yield* events;
  }
  const out: StreamEvent[] = [];
  for await (const e of mapEvents(source() as never, { model: "m" })) out.push(e);
  return out;
}
const done = (events: StreamEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error("no done");
  return last;
};

const start = (usage: Record<string, unknown> = { input_tokens: 5, output_tokens: 1 }) => ({ type: "message_start", message: { usage } });
const block = (index: number, content_block: Record<string, unknown>) => ({ type: "content_block_start", index, content_block });
const delta = (index: number, d: Record<string, unknown>) => ({ type: "content_block_delta", index, delta: d });
const stopBlock = (index: number) => ({ type: "content_block_stop", index });
const end = (stop_reason: string | null, usage: Record<string, unknown> = { output_tokens: 3 }) => ({ type: "message_delta", delta: { stop_reason }, usage });

test.each([
  ["end_turn", "stop"],
  ["stop_sequence", "stop"],
  ["tool_use", "tool_calls"],
  ["max_tokens", "length"],
  ["model_context_window_exceeded", "length"],
  ["refusal", "refusal"],
  ["pause_turn", "other"],
  ["something_new", "other"],
])("stop_reason %s → %s", async (reason, stop) => {
  expect(done(await run([start(), end(reason), { type: "message_stop" }])).stop).toBe(stop as never);
});

test("stop_reason error (a gateway's, fronting another API) after text is a failure, as a broken stream: no done, retryable", async () => {
  const text = [
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Here is the first part" } },
  ];
  const failed = await run([start(), ...text, end("error"), { type: "message_stop" }]).catch((e: unknown) => e);
  expect(failed).toMatchObject({ kind: "overloaded", message: 'the model failed mid-stream (stop_reason "error")' });
  expect((failed as ProviderError).retryable).toBe(true);
});

test("a refusal's stop_details (on message_delta) become the done event's detail; without them there is none", async () => {
  // Shaped as platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals shows it; not recorded.
  const details = { type: "refusal", category: "cyber", explanation: "This request was declined because it could enable cyber harm." };
  const withDetails = { type: "message_delta", delta: { stop_reason: "refusal", stop_details: details }, usage: { output_tokens: 3 } };
  expect(done(await run([start(), withDetails]))).toMatchObject({
    stop: "refusal",
    detail: "cyber: This request was declined because it could enable cyber harm.",
  });
  const bare = { type: "message_delta", delta: { stop_reason: "refusal", stop_details: { type: "refusal", category: null, explanation: null } }, usage: {} };
  expect(done(await run([start(), bare])).detail).toBeUndefined();
  expect(done(await run([start(), end("end_turn")])).detail).toBeUndefined();
});

test("model_context_window_exceeded says that the window is full, so the user is not told to raise max_tokens", async () => {
  expect(done(await run([start(), end("model_context_window_exceeded")])).detail).toStartWith("the conversation filled the model's context window");
  expect(done(await run([start(), end("max_tokens")])).detail).toBeUndefined();
  expect(done(await run([start(), end("pause_turn")])).detail).toBe('"pause_turn"'); // the loop: the model stopped for "pause_turn"
});

test("usage: input counts cache reads and writes; delta values override, nulls do not", async () => {
  const events = await run([
    start({ input_tokens: 10, cache_creation_input_tokens: 200, cache_read_input_tokens: 3000, output_tokens: 1 }),
    end("end_turn", { input_tokens: null, cache_read_input_tokens: null, output_tokens: 77, output_tokens_details: { thinking_tokens: 40 } }),
  ]);
  expect(done(events).usage).toEqual({ input: 3210, output: 77, cacheRead: 3000, cacheWrite: 200, reasoning: 40 });
});

test("message_start's counts are passed on at once: what a stream that breaks before its end is counted with", async () => {
  const events = [start({ input_tokens: 500, cache_creation_input_tokens: 500, cache_read_input_tokens: 4000, output_tokens: 1 })];
  async function* source() {
    yield* events;
    throw new Error("socket closed");
  }
  const out: StreamEvent[] = [];
  await expect(
    (async () => {
      for await (const e of mapEvents(source() as never, { model: "m" })) out.push(e);
    })(),
  ).rejects.toThrow("socket closed");
  expect(out).toEqual([{ type: "usage", usage: { input: 5000, output: 1, cacheRead: 4000, cacheWrite: 500, reasoning: 0 } }]);
});

test("a stream that ends without a stop reason is a network error, after its deltas", async () => {
  const events = [start(), block(0, { type: "text", text: "" }), delta(0, { type: "text_delta", text: "Hel" })];
  async function* source() {
    yield* events;
  }
  const out: StreamEvent[] = [];
  let thrown: unknown;
  try {
    for await (const e of mapEvents(source() as never, { model: "m" })) out.push(e);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(ProviderError);
  expect(thrown).toMatchObject({ kind: "network" });
  expect(out).toEqual([
    { type: "usage", usage: { input: 5, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 } },
    { type: "text", delta: "Hel" },
  ]);
});

describe("content blocks", () => {
  test("server-tool blocks and citation deltas are skipped; the rest keeps block order", async () => {
    const events = await run([
      start(),
      block(0, { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} }),
      delta(0, { type: "input_json_delta", partial_json: '{"q":"x"}' }),
      stopBlock(0),
      block(1, { type: "text", text: "" }),
      delta(1, { type: "citations_delta", citation: {} }),
      delta(1, { type: "text_delta", text: "Found." }),
      stopBlock(1),
      end("end_turn"),
    ]);
    expect(done(events).message.content).toEqual([{ type: "text", text: "Found." }]);
    expect(done(events).message.toolCalls).toBeUndefined();
  });

  test("a thinking block that never got its signature is kept for display, without signature data", async () => {
    const events = await run([
      start(),
      block(0, { type: "thinking", thinking: "", signature: "" }),
      delta(0, { type: "thinking_delta", thinking: "hmm" }),
      stopBlock(0),
      end("end_turn"),
    ]);
    expect(done(events).message.content).toEqual([{ type: "thinking", text: "hmm", opaque: { protocol: "anthropic", model: "m" } }]);
  });

  test("text or thinking already in the start event is streamed too", async () => {
    const events = await run([
      start(),
      block(0, { type: "thinking", thinking: "pre", signature: "S" }),
      stopBlock(0),
      block(1, { type: "text", text: "Hi" }),
      stopBlock(1),
      end("end_turn"),
    ]);
    expect(events.slice(1, 3)).toEqual([
      { type: "thinking", delta: "pre" },
      { type: "text", delta: "Hi" },
    ]);
    expect(done(events).message.content).toEqual([
      { type: "thinking", text: "pre", opaque: { protocol: "anthropic", model: "m", data: { signature: "S" } } },
      { type: "text", text: "Hi" },
    ]);
  });

  test("max_tokens: a tool_use cut before any of its JSON is left out; one that finished (content_block_stop), even without arguments, is kept", async () => {
    // Shaped like max-tokens-truncated-tool-input.sse, whose cut block gets no content_block_stop; cut earlier here.
    const noArgs = block(0, { type: "tool_use", id: "toolu_1", name: "list", input: {} });
    const cut = block(1, { type: "tool_use", id: "toolu_2", name: "bash", input: {} });
    const events = await run([
      start(),
      noArgs,
      delta(0, { type: "input_json_delta", partial_json: "" }),
      stopBlock(0),
      cut,
      delta(1, { type: "input_json_delta", partial_json: "" }),
      end("max_tokens"),
    ]);
    expect(done(events).message.toolCalls).toEqual([{ id: "toolu_1", name: "list", arguments: "{}" }]);
    expect(done(events).stop).toBe("length");
  });

  test("a tool_use whose input came whole in its start event, with no deltas", async () => {
    const events = await run([start(), block(0, { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a" } }), stopBlock(0), end("tool_use")]);
    expect(done(events).message.toolCalls).toEqual([{ id: "toolu_1", name: "read", arguments: '{"path":"a"}' }]);
  });
});
