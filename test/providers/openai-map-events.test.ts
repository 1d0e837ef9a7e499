// mapEvents on hand-made chunk sequences: the chat-completions quirks no recording here shows.
import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { mapEvents } from "../../src/providers/openai.ts";
import { chatChunk } from "../helpers/sse.ts";

async function run(chunks: unknown[]): Promise<StreamEvent[]> {
  async function* source() {
    yield* chunks;
  }
  const events: StreamEvent[] = [];
  for await (const e of mapEvents(source() as never, { model: "m" })) events.push(e);
  return events;
}
const done = (events: StreamEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error("no done");
  return last;
};
const calls = (events: StreamEvent[]) => events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
/** A raw chunk whose tool calls are given verbatim (e.g. without `index`). */
const raw = (delta: Record<string, unknown>, finish: string | null = null, index = 0) => ({
  id: "x",
  object: "chat.completion.chunk",
  created: 0,
  model: "m",
  choices: [{ index, delta, finish_reason: finish }],
});

describe("tool calls", () => {
  test("interleaved fragments are assembled by index and emitted whole, in index order", async () => {
    const events = await run([
      chatChunk({ toolCall: { index: 0, id: "call_a", name: "read", arguments: "" } }),
      chatChunk({ toolCall: { index: 1, id: "call_b", name: "ls", arguments: '{"pa' } }),
      chatChunk({ toolCall: { index: 0, arguments: '{"path":' } }),
      chatChunk({ toolCall: { index: 1, arguments: 'th":"."}' } }),
      chatChunk({ toolCall: { index: 0, arguments: '"a.txt"}' } }),
      chatChunk({ finish: "tool_calls" }),
    ]);
    expect(events.map((e) => e.type)).toEqual(["tool_call", "tool_call", "done"]);
    expect(calls(events)).toEqual([
      { id: "call_a", name: "read", arguments: '{"path":"a.txt"}' },
      { id: "call_b", name: "ls", arguments: '{"path":"."}' },
    ]);
    expect(done(events).message.toolCalls).toEqual(calls(events));
    expect(done(events).stop).toBe("tool_calls");
  });

  test("without `index` (Ollama, Gemini compat) each fragment with an id is a new call", async () => {
    const events = await run([
      raw({ tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }] }),
      raw({ tool_calls: [{ id: "c2", type: "function", function: { name: "read", arguments: '{"path":' } }] }),
      raw({ tool_calls: [{ function: { arguments: '"b"}' } }] }),
      raw({}, "tool_calls"),
    ]);
    expect(calls(events)).toEqual([
      { id: "c1", name: "read", arguments: '{"path":"a"}' },
      { id: "c2", name: "read", arguments: '{"path":"b"}' },
    ]);
  });

  test("calls sent whole at a shared index 0 with their own ids (Ollama, LiteLLM's ollama_chat) are separate calls", async () => {
    const events = await run([
      chatChunk({ toolCall: { index: 0, id: "call_r1", name: "read_file", arguments: '{"path":"hello.txt"}' } }),
      chatChunk({ toolCall: { index: 0, id: "call_r2", name: "bash", arguments: '{"command":"echo from-bash"}' } }),
      chatChunk({ finish: "tool_calls" }),
    ]);
    expect(calls(events)).toEqual([
      { id: "call_r1", name: "read_file", arguments: '{"path":"hello.txt"}' },
      { id: "call_r2", name: "bash", arguments: '{"command":"echo from-bash"}' },
    ]);
    expect(done(events).message.toolCalls).toEqual(calls(events));
  });

  test("id-less calls sent whole at a shared index 0 (a proxy translating parallel calls) are separate calls, whatever their names", async () => {
    const events = await run([
      raw({ tool_calls: [{ index: 0, type: "function", function: { name: "write_file", arguments: '{"path":"k1.txt","content":"1"}' } }] }),
      raw({ tool_calls: [{ index: 0, type: "function", function: { name: "bash", arguments: '{"command":"echo hi > k2.txt"}' } }] }),
      raw({ tool_calls: [{ index: 0, type: "function", function: { name: "bash", arguments: '{"command":' } }] }),
      raw({ tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] }),
      raw({}, "tool_calls"),
    ]);
    expect(calls(events).map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: "write_file", args: '{"path":"k1.txt","content":"1"}' },
      { name: "bash", args: '{"command":"echo hi > k2.txt"}' },
      { name: "bash", args: '{"command":"ls"}' },
    ]);
    expect(new Set(calls(events).map((c) => c.id)).size).toBe(3);
  });

  test("id-less calls with no index at all: a fragment naming a tool after whole arguments starts the next call", async () => {
    const events = await run([
      raw({ tool_calls: [{ type: "function", function: { name: "write_file", arguments: '{"path":"n1.txt","content":"1"}' } }] }),
      raw({ tool_calls: [{ type: "function", function: { name: "write_file", arguments: '{"path":"n2.txt","content":"2"}' } }] }),
      raw({}, "tool_calls"),
    ]);
    expect(calls(events).map((c) => c.arguments)).toEqual(['{"path":"n1.txt","content":"1"}', '{"path":"n2.txt","content":"2"}']);
  });

  test("a name repeated on every fragment of one id-less call, with the rest of its arguments, stays one call", async () => {
    const events = await run([
      raw({ tool_calls: [{ index: 0, type: "function", function: { name: "write_file", arguments: '{"path":"ie.txt",' } }] }),
      raw({ tool_calls: [{ index: 0, type: "function", function: { name: "write_file", arguments: '"content":"e"}' } }] }),
      raw({ tool_calls: [{ index: 0, type: "function", function: { name: "write_file" } }] }),
      raw({}, "tool_calls"),
    ]);
    expect(calls(events)).toMatchObject([{ name: "write_file", arguments: '{"path":"ie.txt","content":"e"}' }]);
  });

  test("fragments of one call each with a new id but no name (Poolside, mlx-openai-server) stay one call", async () => {
    const events = await run([
      raw({ tool_calls: [{ index: 0, id: "call_A", type: "function", function: { name: "read_file", arguments: "" } }] }),
      raw({ tool_calls: [{ index: 0, id: "call_B", function: { arguments: '{"path":' } }] }),
      raw({ tool_calls: [{ index: 0, id: "call_C", function: { arguments: '"a.txt"}' } }] }),
      raw({}, "tool_calls"),
    ]);
    expect(calls(events)).toEqual([{ id: "call_A", name: "read_file", arguments: '{"path":"a.txt"}' }]);
  });

  test("a fragment repeating its call's id, or bringing the id before any name, continues that call", async () => {
    const events = await run([
      raw({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "read", arguments: '{"path":' } }] }),
      raw({ tool_calls: [{ index: 0, id: "c1", function: { arguments: '"a"}' } }] }),
      raw({ tool_calls: [{ index: 1, id: "c2" }] }),
      raw({ tool_calls: [{ index: 1, id: "c2b", function: { name: "ls", arguments: "{}" } }] }),
      raw({}, "tool_calls"),
    ]);
    expect(calls(events)).toEqual([
      { id: "c1", name: "read", arguments: '{"path":"a"}' },
      { id: "c2", name: "ls", arguments: "{}" },
    ]);
  });

  test("a call without an id gets one; empty arguments become {}; a repeated name is not doubled", async () => {
    const events = await run([
      raw({ tool_calls: [{ index: 0, type: "function", function: { name: "now", arguments: "" } }] }),
      raw({ tool_calls: [{ index: 0, function: { name: "now" } }] }),
      raw({}, "tool_calls"),
    ]);
    const [call] = calls(events);
    expect(call?.id).toMatch(/^call_[0-9a-z]+$/);
    expect(call).toMatchObject({ name: "now", arguments: "{}" });
  });

  test('tool calls finishing with "stop" (Gemini compat streaming) still stop for tool calls', async () => {
    const events = await run([chatChunk({ toolCall: { index: 0, id: "c", name: "ls", arguments: "{}" } }), chatChunk({ finish: "stop" })]);
    expect(done(events).stop).toBe("tool_calls");
  });
});

describe("Gemini's thought signature on a tool call", () => {
  test("extra_content of a call is kept with it, for its model", async () => {
    const extra = { google: { thought_signature: "sig-A" } };
    const events = await run([
      raw({ tool_calls: [{ index: 0, id: "function-call-1", type: "function", function: { name: "read", arguments: "{}" }, extra_content: extra }] }),
      raw({}, "tool_calls"),
    ]);
    expect(calls(events)).toEqual([
      { id: "function-call-1", name: "read", arguments: "{}", opaque: { protocol: "openai", model: "m", data: { extra_content: extra } } },
    ]);
  });
});

describe("tool-call arguments as an object", () => {
  test("arguments sent as the JSON object itself, not a string, are read as its JSON text", async () => {
    // as llama-server sent them for a while (ggml-org/llama.cpp#20198), and TGI (huggingface/text-generation-inference#2136)
    const events = await run([
      raw({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read", arguments: { path: "a.txt", lines: [1, 2] } } }] }),
      raw({}, "tool_calls"),
    ]);
    expect(calls(events)).toEqual([{ id: "call_a", name: "read", arguments: '{"path":"a.txt","lines":[1,2]}' }]);
  });
});

describe("choices, thinking, usage, stop", () => {
  test("a lone choice numbered 1 is still read", async () => {
    const events = await run([chatChunk({ content: "hi", choice: 1 }), chatChunk({ finish: "stop", choice: 1 })]);
    expect(done(events).message.content).toEqual([{ type: "text", text: "hi" }]);
  });

  test("OpenRouter's delta.reasoning is thinking, tagged with the protocol, the model and the field it came in (it goes back in the same)", async () => {
    const events = await run([raw({ reasoning: "hmm", content: "" }), raw({ content: "ok" }), raw({}, "stop")]);
    expect(events.slice(0, 2)).toEqual([
      { type: "thinking", delta: "hmm" },
      { type: "text", delta: "ok" },
    ]);
    expect(done(events).message.content).toEqual([
      { type: "thinking", text: "hmm", opaque: { protocol: "openai", model: "m", data: { field: "reasoning" } } },
      { type: "text", text: "ok" },
    ]);
  });

  test("OpenRouter's reasoning_details: pieces of one index are one block, a signature-only block is thinking too, kept as the thinking's data", async () => {
    // the shape of openrouter.ai/docs/use-cases/reasoning-tokens; not recorded
    const F = "anthropic-claude-v1";
    const events = await run([
      raw({ reasoning_details: [{ type: "reasoning.text", text: "Two ", format: F, index: 0 }] }),
      raw({ reasoning_details: [{ type: "reasoning.text", text: "and two.", format: F, index: 0 }] }),
      raw({ reasoning_details: [{ type: "reasoning.text", signature: "sig", format: F, index: 0 }] }),
      raw({ content: "4" }, "stop"),
    ]);
    expect(events.filter((e) => e.type === "thinking").map((e) => (e as { delta: string }).delta)).toEqual(["Two ", "and two."]);
    expect(done(events).message.content[0]).toEqual({
      type: "thinking",
      text: "Two and two.",
      opaque: { protocol: "openai", model: "m", data: { details: [{ type: "reasoning.text", text: "Two and two.", format: F, index: 0, signature: "sig" }] } },
    });
    const encrypted = await run([raw({ reasoning_details: [{ type: "reasoning.encrypted", data: "e", index: 0 }] }), raw({ content: "ok" }, "stop")]);
    expect(done(encrypted).message.content[0]).toEqual({
      type: "thinking",
      text: "",
      opaque: { protocol: "openai", model: "m", data: { details: [{ type: "reasoning.encrypted", data: "e", index: 0 }] } },
    });
  });

  test("Mistral's reasoning models: content as typed chunks, thinking ones as thinking, text ones as the answer", async () => {
    // constructed from the chunk shapes in braintrustdata/braintrust-sdk-javascript#1857, not recorded
    const events = await run([
      raw({ role: "assistant", content: [{ type: "thinking", thinking: [{ type: "text", text: "Two and " }] }] }),
      raw({ content: [{ type: "thinking", thinking: [{ type: "text", text: "two." }] }] }),
      raw({ content: [{ type: "text", text: "The answer" }] }),
      raw({ content: " is 4." }, "stop"),
    ]);
    expect(events.filter((e) => e.type === "text").map((e) => (e as { delta: string }).delta)).toEqual(["The answer", " is 4."]);
    expect(done(events).message.content).toEqual([
      { type: "thinking", text: "Two and two.", opaque: { protocol: "openai", model: "m" } },
      { type: "text", text: "The answer is 4." },
    ]);
  });

  test("the last usage wins; DeepSeek's prompt_cache_hit_tokens counts as cache read", async () => {
    const events = await run([
      chatChunk({ content: "a", usage: { prompt_tokens: 1, completion_tokens: 1 } }),
      chatChunk({ finish: "stop" }),
      chatChunk({ usage: { prompt_tokens: 100, completion_tokens: 7, prompt_cache_hit_tokens: 60, completion_tokens_details: { reasoning_tokens: 3 } } }),
    ]);
    expect(done(events).usage).toEqual({ input: 100, output: 7, cacheRead: 60, cacheWrite: 0, reasoning: 3 });
  });

  test.each([
    ["stop", "stop"],
    ["length", "length"],
    ["tool_calls", "tool_calls"],
    ["function_call", "tool_calls"],
    ["content_filter", "refusal"],
    // another API's words, or a server engine's, passed through by a gateway
    ["eos_token", "stop"],
    ["end_turn", "stop"],
    ["STOP", "stop"],
    ["tool_use", "tool_calls"],
    ["max_tokens", "length"],
    ["model_length", "length"],
    // Z.ai's: the context window filled, its content filter
    ["model_context_window_exceeded", "length"],
    ["sensitive", "refusal"],
    ["something_new", "other"],
  ])("finish_reason %s is stop %s", async (finish, stop) => {
    expect(done(await run([chatChunk({ content: "x" }), chatChunk({ finish })])).stop).toBe(stop as never);
  });

  test("an unknown finish_reason is named in the done event's detail, as the loop says the model stopped for it; a known one has none", async () => {
    expect(done(await run([chatChunk({ content: "x" }), chatChunk({ finish: "something_new" })])).detail).toBe('"something_new"');
    expect(done(await run([chatChunk({ content: "x" }), chatChunk({ finish: "stop" })])).detail).toBeUndefined();
  });

  test("Z.ai's model_context_window_exceeded says the context window filled, not that max_tokens was too low", async () => {
    const end = done(await run([chatChunk({ content: "x" }), chatChunk({ finish: "model_context_window_exceeded" })]));
    expect(end).toMatchObject({ stop: "length", detail: expect.stringContaining("filled the model's context window (model_context_window_exceeded)") });
  });

  test.each(["error", "abort", "insufficient_system_resource", "network_error"])(
    "finish_reason %s after text and a call is a failure, as a broken stream: no done, no call, retryable",
    async (finish) => {
      const chunks = [
        chatChunk({ content: "Here is the first part" }),
        chatChunk({ toolCall: { index: 0, id: "c1", name: "bash", arguments: '{"command":"ls"}' } }),
      ];
      const events: StreamEvent[] = [];
      async function* source() {
        yield* [...chunks, chatChunk({ finish })];
      }
      const failed = await (async () => {
        for await (const e of mapEvents(source() as never, { model: "m" })) events.push(e);
      })().catch((e: unknown) => e);
      expect(failed).toMatchObject({ kind: "overloaded", message: `the model failed mid-stream (finish_reason "${finish}")` });
      expect((failed as ProviderError).retryable).toBe(true);
      expect(events).toEqual([{ type: "text", delta: "Here is the first part" }]);
    },
  );
});

describe("<think> in the content (servers without a reasoning parser)", () => {
  const message = (events: StreamEvent[]) => done(events).message.content;

  test("is thinking up to </think>, split across chunks; the rest, past its blank lines, is the answer", async () => {
    const events = await run([
      chatChunk({ content: "<think>\nI am pondering" }),
      chatChunk({ content: " hard.</th" }),
      chatChunk({ content: "ink>\n\nAnswer C." }),
      chatChunk({ finish: "stop" }),
    ]);
    expect(events.filter((e) => e.type !== "done").map((e) => [e.type, "delta" in e ? e.delta : ""])).toEqual([
      ["thinking", "I am pondering"],
      ["thinking", " hard."],
      ["text", "Answer C."],
    ]);
    expect(message(events)).toEqual([
      { type: "thinking", text: "I am pondering hard.", opaque: { protocol: "openai", model: "m" } },
      { type: "text", text: "Answer C." },
    ]);
  });

  test("kept as reasoning_content's thinking is, so it goes back to the endpoint the same way", async () => {
    const tagged = await run([chatChunk({ content: "<think>Why not.</think>Yes." }), chatChunk({ finish: "stop" })]);
    const reasoned = await run([chatChunk({ reasoning: "Why not." }), chatChunk({ content: "Yes." }), chatChunk({ finish: "stop" })]);
    expect(message(tagged)).toEqual(message(reasoned));
  });

  test("unclosed at the end of the stream: all thinking, and no answer", async () => {
    const events = await run([chatChunk({ content: "<think>\nStill" }), chatChunk({ content: " thinking" }), chatChunk({ finish: "length" })]);
    expect(events.some((e) => e.type === "text")).toBe(false);
    expect(message(events)).toEqual([{ type: "thinking", text: "Still thinking", opaque: { protocol: "openai", model: "m" } }]);
  });

  test("later in an answer, or closed without opening, it is text", async () => {
    const later = await run([chatChunk({ content: "Use " }), chatChunk({ content: "<think>x</think> tags." }), chatChunk({ finish: "stop" })]);
    expect(message(later)).toEqual([{ type: "text", text: "Use <think>x</think> tags." }]);
    const unopened = await run([chatChunk({ content: "hmm</think>\nAnswer" }), chatChunk({ finish: "stop" })]);
    expect(message(unopened)).toEqual([{ type: "text", text: "hmm</think>\nAnswer" }]);
  });
});

describe("a complete answer", () => {
  /** The chunks, then a read that fails the test: the adapter must not ask for more. */
  async function* thenNothing(chunks: unknown[]) {
    yield* chunks;
    throw new Error("read past the end of the answer");
  }
  const read = async (chunks: unknown[], usageAsked?: boolean) => {
    const events: StreamEvent[] = [];
    for await (const e of mapEvents(thenNothing(chunks) as never, { model: "m", ...(usageAsked === undefined ? {} : { usageAsked }) })) events.push(e);
    return done(events);
  };
  const usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };

  test.each([
    ["usage after the finish chunk", [chatChunk({ content: "ok" }), chatChunk({ finish: "stop" }), chatChunk({ usage })]],
    ["usage on the finish chunk", [chatChunk({ content: "ok" }), { ...chatChunk({ finish: "stop" }), usage }]],
    [
      "usage after a repeated null finish (OpenRouter)",
      [chatChunk({ content: "ok" }), chatChunk({ finish: "stop" }), { ...chatChunk({ content: "" }), usage }],
    ],
  ])("ends at its finish and usage: %s", async (_name, chunks) => {
    const d = await read(chunks);
    expect(d.message.content).toEqual([{ type: "text", text: "ok" }]);
    expect(d.usage).toMatchObject({ input: 7, output: 3 });
  });

  test("without usage asked for, the finish chunk alone ends it", async () => {
    expect((await read([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" })], false)).stop).toBe("stop");
  });

  test("with usage asked for, a finish chunk without it is not the end: the usage after it still counts", async () => {
    async function* chunks() {
      yield chatChunk({ finish: "stop" });
      yield chatChunk({ usage });
    }
    const events: StreamEvent[] = [];
    for await (const e of mapEvents(chunks() as never, { model: "m", usageAsked: true })) events.push(e);
    expect(done(events).usage).toMatchObject({ input: 7, output: 3 });
  });
});

describe("an unfinished stream", () => {
  // nothing at all before a clean end (`: comment` + `data: [DONE]`, an empty body) is an empty answer, not a cut connection
  test.each([
    { name: "after deltas", chunks: [chatChunk({ content: "Hel" })], deltas: 1, kind: "network" },
    { name: "with nothing at all", chunks: [], deltas: 0, kind: "empty_answer" },
    { name: "with a role and no content", chunks: [chatChunk({})], deltas: 0, kind: "empty_answer" },
    { name: "with usage alone", chunks: [chatChunk({ usage: { prompt_tokens: 1, completion_tokens: 0 } })], deltas: 0, kind: "empty_answer" },
    {
      name: "with usage but no finish_reason",
      chunks: [chatChunk({ content: "a" }), chatChunk({ usage: { prompt_tokens: 1, completion_tokens: 1 } })],
      deltas: 1,
      kind: "network",
    },
  ])("throws a $kind error $name; text deltas before it: $deltas", async ({ chunks, deltas, kind }) => {
    const events: StreamEvent[] = [];
    let thrown: unknown;
    try {
      for await (const e of mapEvents(
        (async function* () {
          yield* chunks;
        })() as never,
        { model: "m" },
      ))
        events.push(e);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ProviderError);
    expect(thrown).toMatchObject({ kind });
    expect(events.map((e) => e.type)).toEqual(Array(deltas).fill("text"));
  });
});

// Ollama's /v1 names itself in every chunk (ollama/ollama openai/openai.go: SystemFingerprint
// "fp_ollama"): the answer says so, and a local Ollama is then asked its real context
test("an answer whose chunks carry Ollama's fingerprint says it came from Ollama; others say nothing", async () => {
  const named = (fp: string | null) => [chatChunk({ content: "hi" }), chatChunk({ finish: "stop" })].map((c) => ({ ...c, system_fingerprint: fp }));
  expect(done(await run(named("fp_ollama"))).server).toBe("ollama");
  expect(done(await run(named("fp_44709d6fcb"))).server).toBeUndefined(); // api.openai.com's kind
  expect(done(await run(named(null))).server).toBeUndefined();
  expect(done(await run([chatChunk({ content: "hi" }), chatChunk({ finish: "stop" })])).server).toBeUndefined();
});

describe("a connection that fails after the answer finished", () => {
  /** `chunks`, then the error a reset socket gives the SDK's iterator. */
  async function runThenFail(chunks: unknown[], error: Error): Promise<{ events: StreamEvent[]; thrown?: unknown }> {
    async function* source() {
      yield* chunks;
      throw error;
    }
    const events: StreamEvent[] = [];
    try {
      for await (const e of mapEvents(source() as never, { model: "m", usageAsked: true })) events.push(e);
      return { events };
    } catch (thrown) {
      return { events, thrown };
    }
  }
  const reset = new Error("ECONNRESET: The socket connection was closed unexpectedly");

  test("after its finish_reason, while hey waits for the usage a server never sends: the answer and its calls stand", async () => {
    const got = await runThenFail(
      [
        chatChunk({ content: "Reading." }),
        chatChunk({ toolCall: { index: 0, id: "c1", name: "read_file", arguments: '{"path":"a"}' } }),
        chatChunk({ finish: "tool_calls" }),
      ],
      reset,
    );
    expect(got.thrown).toBeUndefined();
    expect(calls(got.events)).toEqual([{ id: "c1", name: "read_file", arguments: '{"path":"a"}' }]);
    expect(done(got.events).stop).toBe("tool_calls");
  });

  test("before its finish_reason: the error is the stream's, as before", async () => {
    const got = await runThenFail([chatChunk({ content: "Read" })], reset);
    expect(got.thrown).toBe(reset);
  });
});
