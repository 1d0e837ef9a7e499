// Every recorded Chat Completions stream (test/fixtures/wire/{openai-chat,openai-compat,deepseek})
// replayed through the real openai SDK into the IR, plus the recorded and typical error responses.
// Expected values were read from the fixtures by eye.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unreportedUsage, userMessage } from "../../src/kernel/ir.ts";
import type { Usage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { createOpenAIProvider } from "../../src/providers/openai.ts";
import { WIRE_DIR, cutAfter, fixture, jsonReply, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import type { Reply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { callsAtIndexZero } from "../helpers/protocol-streams.ts";
import { drain } from "../helpers/drain.ts";

const MODEL = "test-model";
const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const provider = (opts: { apiKey?: string; apiKeyVar?: string; baseUrl?: string } = {}): Promise<Provider> =>
  createOpenAIProvider({ model: MODEL, baseUrl: `${server.url}/v1`, ...opts });

/** Replays one reply (none: nothing is queued) and returns the events, and the error if the stream threw. */
async function replay(reply: Reply | undefined, p?: Provider): Promise<{ events: StreamEvent[]; error?: unknown }> {
  if (reply) server.enqueue(reply);
  return drain((p ?? (await provider())).stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
}

const usage = (input: number, output: number, cacheRead = 0, reasoning = 0): Usage => ({ input, output, cacheRead, cacheWrite: 0, reasoning });

interface Expected {
  text: string;
  textDeltas: number;
  thinking?: string;
  thinkingDeltas?: number;
  /** the first deltas in order, as [type, delta] */
  first: [string, string][];
  toolCalls?: { id: string; name: string; args: unknown }[];
  usage: Usage;
  stop: string;
}

const CASES: Record<string, Expected> = {
  "openai-chat/text-usage": {
    text: "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.",
    textDeltas: 30,
    first: [
      ["text", "I'm"],
      ["text", " unable"],
      ["text", " to"],
    ],
    usage: usage(14, 30),
    stop: "stop",
  },
  "openai-chat/finish-length": {
    text: '{"',
    textDeltas: 1,
    first: [["text", '{"']],
    usage: usage(79, 1),
    stop: "length",
  },
  // n=3: choices 1 and 2 (temperature 61 and 59) are ignored.
  "openai-chat/multiple-choices-n3": {
    text: '{"city":"San Francisco","temperature":65,"units":"f"}',
    textDeltas: 14,
    first: [
      ["text", '{"'],
      ["text", "city"],
      ["text", '":"'],
      ["text", "San"],
    ],
    usage: usage(79, 42),
    stop: "stop",
  },
  "openai-chat/parallel-tool-calls-usage": {
    text: "",
    textDeltas: 0,
    first: [],
    toolCalls: [
      { id: "call_JMW1whyEaYG438VE1OIflxA2", name: "GetWeatherArgs", args: { city: "Edinburgh", country: "GB", units: "c" } },
      { id: "call_DNYTawLBoN8fj3KN6qU9N1Ou", name: "get_stock_price", args: { ticker: "AAPL", exchange: "NASDAQ" } },
    ],
    usage: usage(149, 60),
    stop: "tool_calls",
  },
  "openai-chat/refusal": {
    text: "I'm sorry, I can't assist with that request.",
    textDeltas: 10,
    first: [
      ["text", "I'm"],
      ["text", " sorry"],
    ],
    usage: usage(79, 11),
    stop: "refusal",
  },
  "openai-chat/text-after-tool-obfuscation": {
    text: "The capital of the UK is London.",
    textDeltas: 8,
    first: [
      ["text", "The"],
      ["text", " capital"],
    ],
    usage: usage(78, 9),
    stop: "stop",
  },
  "openai-chat/tool-call-obfuscation": {
    text: "",
    textDeltas: 0,
    first: [],
    toolCalls: [{ id: "call_ZR5UUuTt3pf61kjwAJIYdVMj", name: "get_capital", args: { country: "UK" } }],
    usage: usage(53, 15),
    stop: "tool_calls",
  },
  // tool_calls[].index starts at 1; no usage chunk at all.
  "openai-compat/anthropic-compat-tool-index-1": {
    text: "Reading it.",
    textDeltas: 2,
    first: [
      ["text", "Reading"],
      ["text", " it."],
    ],
    toolCalls: [{ id: "toolu_sanitized", name: "read_file", args: { path: "a.txt" } }],
    usage: unreportedUsage(), // the stream reports none: to be estimated
    stop: "tool_calls",
  },
  // "data:{" with no space, role on every delta, emoji as surrogate-pair escapes, no usage.
  "openai-compat/data-no-space-reasoning": {
    text: "Hello! How can I assist you today? 🚀",
    textDeltas: 10,
    thinking:
      'Okay, the user wrote "Hello World." That\'s a classic first program message. They might be testing if I\'m working or just being friendly. Since I\'m supposed to respond concisely, a simple greeting back should work. Maybe add a bit of emoji to keep it light. Let me check the instructions again—yes, concise and helpful. Alright, "Hello! How can I assist you today? 🚀" That should do it.',
    thinkingDeltas: 92,
    first: [
      ["thinking", "Okay"],
      ["thinking", ","],
      ["thinking", " the"],
    ],
    usage: unreportedUsage(), // the stream reports none: to be estimated
    stop: "stop",
  },
  // ": OPENROUTER PROCESSING" comment line; reasoning:"" throughout (no thinking); usage after the finish chunk.
  "openai-compat/openrouter-comment-lines": {
    text: "Hello! I'm here to help you with any questions or tasks you might have. How can I assist you today? 😊",
    textDeltas: 25,
    first: [
      ["text", "Hello"],
      ["text", "!"],
      ["text", " I"],
    ],
    usage: usage(18, 27, 4),
    stop: "stop",
  },
  // usage on the finish chunk, with both cached_tokens and prompt_cache_hit_tokens (320).
  "deepseek/reasoning-tool-call": {
    text: "",
    textDeltas: 0,
    thinking:
      'The user is asking for the weather in San Francisco. I need to use the weather tool to get this information. Let me invoke the weather tool with the location parameter set to "San Francisco".',
    thinkingDeltas: 39,
    first: [
      ["thinking", "The"],
      ["thinking", " user"],
      ["thinking", " is"],
    ],
    toolCalls: [{ id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", name: "weather", args: { location: "San Francisco" } }],
    usage: usage(339, 83, 320, 39),
    stop: "tool_calls",
  },
  "deepseek/reasoning": {
    text: "Hello there! 😊 How can I help you today?",
    textDeltas: 11,
    thinking:
      "Hmm, the user just said \"Hello\". It's a simple greeting but I wonder if there's more to it.  \n\nThe message is very brief, so I don't have much context to work with. Maybe they're just testing if I'm responsive, or perhaps they're new to chatting with AI.  \n\nI should keep my reply warm and inviting to encourage further conversation. A smiley face would help make it friendly. Since they didn't specify a need, I'll leave it open-ended by asking how I can help them today.  \n\nThe tone should be cheerful but professional - not too stiff, not too casual. \"Hello there!\" feels right for a start. Adding \"What can I do for you today?\" turns it into an invitation rather than just mirroring their greeting.  \n\nI'll avoid assumptions about their gender, location, or intent since there's zero information. If they're just being polite, they might not reply further - and that's okay too.",
    thinkingDeltas: 198,
    first: [
      ["thinking", "H"],
      ["thinking", "mm"],
      ["thinking", ","],
    ],
    usage: usage(6, 212, 0, 198),
    stop: "stop",
  },
};

describe("recorded streams replayed through the openai SDK", () => {
  test("every chat-completions recording has a case", () => {
    const recorded = ["openai-chat", "openai-compat", "deepseek"].flatMap((dir) =>
      readdirSync(join(WIRE_DIR, dir))
        .filter((f) => f.endsWith(".sse"))
        .map((f) => `${dir}/${f.replace(/\.sse$/, "")}`),
    );
    expect(recorded.sort()).toEqual(Object.keys(CASES).sort());
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
    // Thinking streams before the answer, never after it.
    const firstText = events.findIndex((e) => e.type === "text");
    if (firstText >= 0) expect(events.slice(firstText).some((e) => e.type === "thinking")).toBe(false);

    // Order: deltas, then the complete tool calls, then exactly one done, last.
    const kinds = events.map((e) => e.type);
    expect(kinds.filter((k) => k === "done")).toEqual(["done"]);
    expect(kinds.at(-1)).toBe("done");
    const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    if (calls.length > 0) expect(kinds.slice(kinds.indexOf("tool_call"), -1).every((k) => k === "tool_call")).toBe(true);
    expect(calls.map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.arguments) }))).toEqual(want.toolCalls ?? []);

    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.usage).toEqual(want.usage);
    expect(done.stop).toBe(want.stop as never);
    expect(done.message.role).toBe("assistant");
    expect(done.message.id).toMatch(/^[0-9a-z]{19}$/);
    expect(done.message.content).toEqual([
      ...(want.thinking ? [{ type: "thinking", text: want.thinking, opaque: { protocol: "openai", model: MODEL } }] : []),
      ...(want.text ? [{ type: "text", text: want.text }] : []),
    ] as never);
    expect(done.message.toolCalls).toEqual(calls.length > 0 ? calls : (undefined as never));
  });
});

/** The error a replay ended with, checked to be a ProviderError. */
async function failure(reply: Reply | undefined, p?: Provider): Promise<{ error: ProviderError; events: StreamEvent[] }> {
  const { events, error } = await replay(reply, p);
  expect(error).toBeInstanceOf(ProviderError);
  return { error: error as ProviderError, events };
}

describe("error responses are classified once", () => {
  test("openai-compat/gemini-compat-error-429: Google's error in an array is a rate limit in Google's words", async () => {
    const before = server.requests.length;
    const p = await provider();
    // retried by the caller, not here: one request
    const { error } = await failure(fixture("openai-compat/gemini-compat-error-429"), p);
    expect(server.requests.length - before).toBe(1);
    expect(error).toMatchObject({ kind: "rate_limit", status: 429, message: "rate limited (429): Resource has been exhausted (e.g. check quota)." });
    expect(error.retryable).toBe(true);
  });

  test("openai-compat/groq-error-429-tpm: a per-minute limit whose message links to billing is a rate limit", async () => {
    const { error } = await failure(fixture("openai-compat/groq-error-429-tpm"));
    expect(error.kind).toBe("rate_limit");
    expect(error.retryable).toBe(true);
  });

  test("openai-compat/openrouter-error-429-upstream: the upstream's provider and words are said, its metadata wait kept", async () => {
    const { error } = await failure(fixture("openai-compat/openrouter-error-429-upstream"));
    expect(error).toMatchObject({ kind: "rate_limit", retryAfterMs: 17_000 });
    expect(error.message).toStartWith(
      "rate limited (429): Provider returned error (Venice: meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream.",
    );
  });

  test("openai-compat/mistral-error-400-tool-call-id: the request goes again with 9-character ids; refused again, it is a bad request in Mistral's words", async () => {
    const before = server.requests.length;
    server.enqueue(fixture("openai-compat/mistral-error-400-tool-call-id"));
    const { error } = await failure(fixture("openai-compat/mistral-error-400-tool-call-id"));
    expect(server.requests.length - before).toBe(2);
    expect(error).toMatchObject({
      kind: "bad_request",
      message: "request rejected (400): Tool call id was abc123 but must be a-z, A-Z, 0-9, with a length of 9.",
    });
  });

  test("openai-chat/error-400-invalid-tool-name is a bad request carrying the provider's message", async () => {
    const { error } = await failure(fixture("openai-chat/error-400-invalid-tool-name"));
    expect(error.kind).toBe("bad_request");
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "request rejected (400): Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    );
  });

  test.each([
    ["deepseek/error-400-missing-reasoning-content", "Missing `reasoning_content` field in the assistant message at message index 2."],
    ["deepseek/error-400-reasoning-content-passback", "The reasoning_content in the thinking mode must be passed back to the API."],
  ])("%s is a bad request carrying DeepSeek's message: %s — after one more try with every turn's reasoning", async (name, words) => {
    const before = server.requests.length;
    server.enqueue(fixture(name)); // the retry with the reasoning of every turn is refused too here
    const { error } = await failure(fixture(name));
    expect(error.kind).toBe("bad_request");
    expect(error.message).toContain(words);
    expect(server.requests.length - before).toBe(2);
  });

  const INVALID_KEY = { error: { message: "Incorrect API key provided: sk-bad.", type: "invalid_request_error", param: null, code: "invalid_api_key" } };

  test("401 is an auth error naming the key variable", async () => {
    const p = await provider({ apiKey: "sk-bad", apiKeyVar: "OPENAI_API_KEY" });
    const { error } = await failure(jsonReply(401, INVALID_KEY), p);
    expect(error.kind).toBe("auth");
    expect(error.message).toBe("authentication failed (401): Incorrect API key provided: sk-bad. — check OPENAI_API_KEY");
  });

  test("401 without a configured key says that no key was sent", async () => {
    const p = await provider({ apiKeyVar: "DEEPSEEK_API_KEY" });
    const { error } = await failure(jsonReply(401, INVALID_KEY), p);
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("no API key was sent");
    expect(error.message).toContain("set DEEPSEEK_API_KEY");
  });

  test("429 with Retry-After: 3 is a rate limit to retry in 3000 ms", async () => {
    const body = {
      error: { message: "Rate limit reached for gpt-4o on requests per min (RPM): Limit 3.", type: "requests", param: null, code: "rate_limit_exceeded" },
    };
    const { error } = await failure(jsonReply(429, body, { "retry-after": "3" }));
    expect(error.kind).toBe("rate_limit");
    expect(error.retryAfterMs).toBe(3000);
    expect(error.retryable).toBe(true);
  });

  test("429 with an HTTP-date Retry-After is timed from now", async () => {
    const at = new Date(Date.now() + 20_000).toUTCString();
    const { error } = await failure(jsonReply(429, { error: { message: "slow down" } }, { "retry-after": at }));
    expect(error.kind).toBe("rate_limit");
    expect(error.retryAfterMs).toBeGreaterThan(15_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(20_000);
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

  test("503 is overloaded, with its Retry-After", async () => {
    const { error } = await failure(jsonReply(503, { error: { message: "The server is overloaded" } }, { "retry-after": "2" }));
    expect(error.kind).toBe("overloaded");
    expect(error.status).toBe(503);
    expect(error.retryAfterMs).toBe(2000);
  });

  test("connection refused is a network error", async () => {
    const gone = startReplayServer();
    gone.stop();
    const { error } = await failure(undefined, await provider({ baseUrl: `${gone.url}/v1` }));
    expect(error.kind).toBe("network");
    expect(error.message).toContain(gone.url);
  });

  test("a stream cut mid-way throws a network error after the deltas that arrived", async () => {
    const text = readFileSync(join(WIRE_DIR, "openai-chat/text-usage.sse"), "utf8");
    // Cut right after the 6th event: the role chunk plus five text chunks arrived whole.
    let end = 0;
    for (let i = 0; i < 6; i++) end = text.indexOf("\n\n", end) + 2;
    const { error, events } = await failure(cutAfter(fixture("openai-chat/text-usage"), end + 10));
    expect(error.kind).toBe("network");
    expect(events.map((e) => (e.type === "text" ? e.delta : e.type))).toEqual(["I'm", " unable", " to", " provide", " real"]);
  });

  test("a stream closed without a finish_reason and without [DONE] is a network error, not an answer", async () => {
    const { error, events } = await failure(sseReply(sse([chatChunk({ content: "Hel" }), chatChunk({ content: "lo" })], { done: false })));
    expect(error.kind).toBe("network");
    expect(events.map((e) => e.type)).toEqual(["text", "text"]);
  });

  test.each([
    [{ message: "The server had an error while processing your request.", type: "server_error" }, "overloaded"],
    [{ message: "Provider returned error", code: 502 }, "overloaded"],
    [{ message: "Rate limit exceeded", code: 429 }, "rate_limit"],
    [{ message: "Invalid content", type: "invalid_request_error" }, "bad_request"],
  ])("a mid-stream error chunk %j is %s", async (err, kind) => {
    const { error, events } = await failure(sseReply(sse([chatChunk({ content: "Hel" }), { error: err }])));
    expect(error.kind).toBe(kind as never);
    expect(error.message).toContain(err.message);
    expect(events.map((e) => e.type)).toEqual(["text"]);
  });
});

test("Ollama's parallel calls, each whole at index 0 with its own id, arrive as two calls through the SDK", async () => {
  const { events, error } = await replay(
    callsAtIndexZero([
      { id: "call_r1", name: "read_file", args: { path: "hello.txt" } },
      { id: "call_r2", name: "bash", args: { command: "echo from-bash" } },
    ]),
  );
  expect(error).toBeUndefined();
  expect(events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []))).toEqual([
    { id: "call_r1", name: "read_file", arguments: '{"path":"hello.txt"}' },
    { id: "call_r2", name: "bash", arguments: '{"command":"echo from-bash"}' },
  ]);
  expect(events.at(-1)).toMatchObject({ type: "done", stop: "tool_calls" });
});

test("<think>…</think> opening the content (vLLM without a reasoning parser) is thinking through the SDK; the rest is the answer", async () => {
  const pieces = ["<think>\nI am pondering", " hard.</th", "ink>\n\nAnswer C."];
  const { events, error } = await replay(sseReply(sse([...pieces.map((content) => chatChunk({ content })), chatChunk({ finish: "stop" })])));
  expect(error).toBeUndefined();
  const said = (type: string) => events.flatMap((e) => (e.type === type && "delta" in e ? [e.delta] : [])).join("");
  expect([said("thinking"), said("text")]).toEqual(["I am pondering hard.", "Answer C."]);
});

test("an image in the history refused by a text-only model (DeepSeek's words): sent again at once with a placeholder in its place, and so from then on", async () => {
  const said = "Failed to deserialize the JSON body into the target type: messages[1]: unknown variant `image_url`, expected `text` at line 1 column 2385";
  const refusal = { error: { message: said, type: "invalid_request_error", param: null, code: "invalid_request_error" } };
  const messages = [
    userMessage([
      { type: "text", text: "what is in it?" },
      { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
    ]),
    userMessage("now write the code"),
  ];
  server.enqueue(jsonReply(400, refusal), fixture("openai-chat/text-usage"), fixture("openai-chat/text-usage"));
  const start = server.requests.length;
  const p = await provider();
  const ask = () => drain(p.stream({ system: "", messages, tools: [] }, new AbortController().signal));
  const first = await ask();
  expect(first.error).toBeUndefined();
  expect(first.events.filter((e) => e.type === "notice")).toEqual([
    { type: "notice", message: "this model takes no images: each image of the conversation is sent as a line saying it was left out" },
  ]);
  const sent = server.requests.slice(start).map((r) => (r.body as { messages: { content: unknown }[] }).messages[0]!.content);
  expect(sent[1]).toBe("what is in it?\n[image image/png omitted: this model takes no images]");
  const second = await ask();
  expect(second.events.some((e) => e.type === "notice")).toBe(false);
  expect(server.requests.length).toBe(start + 3);
  expect((server.requests.at(-1)!.body as { messages: { content: unknown }[] }).messages[0]!.content).toBe(sent[1]!);
});
