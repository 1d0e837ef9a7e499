// Every recorded Gemini stream (test/fixtures/wire/gemini) replayed through the real
// @google/genai SDK into the IR; the recorded error bodies; mid-stream failures and the SDK's
// console noise (abort and idleness: contract.test.ts). Expected texts and signatures are read
// from the fixture files here, independently of the adapter.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { userMessage } from "../../src/kernel/ir.ts";
import type { Usage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { createGoogleProvider, mapEvents } from "../../src/providers/google.ts";
import type { AdapterOptions } from "../../src/providers/common.ts";
import type { Chunk } from "../../src/providers/google.ts";
import { WIRE_DIR, cutAfter, fixture, jsonReply, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import type { Reply } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";
import { gate } from "../helpers/wait.ts";

const MODEL = "gemini-test";
const STREAM_PATH = `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`;
const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const provider = (opts: Partial<AdapterOptions> = {}): Promise<Provider> =>
  createGoogleProvider({ model: MODEL, baseUrl: `${server.url}/v1beta`, apiKey: "KEY", ...opts });

/** Replays one reply (none: nothing is queued) and returns the events, and the error if the stream threw. */
async function replay(reply: Reply | undefined, p?: Provider): Promise<{ events: StreamEvent[]; error?: unknown }> {
  if (reply) server.enqueue(reply);
  return drain((p ?? (await provider())).stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
}

/** The parts of every `data:` event of a recording, read without the SDK. */
function wireParts(name: string): Record<string, unknown>[] {
  return readFileSync(join(WIRE_DIR, `${name}.sse`), "utf8")
    .split(/\r?\n/)
    .filter((l) => l.startsWith("data:"))
    .flatMap((l) => JSON.parse(l.slice(5)).candidates?.[0]?.content?.parts ?? []);
}
const wireText = (name: string, thought: boolean) =>
  wireParts(name)
    .filter((p) => Boolean(p.thought) === thought && typeof p.text === "string")
    .map((p) => p.text)
    .join("");
const wireSignature = (name: string) => wireParts(name).find((p) => p.thoughtSignature)?.thoughtSignature as string;

const usage = (input: number, output: number, reasoning = 0): Usage => ({ input, output, cacheRead: 0, cacheWrite: 0, reasoning });

interface Expected {
  textDeltas: number;
  thinkingDeltas: number;
  /** the first deltas in order, as [type, delta] */
  first: [string, string][];
  toolCalls?: { name: string; args: unknown; signed: boolean }[];
  /** the parts kept for the next request, with "SIG" for the recording's one signature */
  parts?: unknown[];
  usage: Usage;
  stop: string;
}

const G = "gemini";
const CASES: Record<string, Expected> = {
  // Plain text; every chunk repeats usage and the prompt count drops 15 → 13: the last one wins.
  [`${G}/text`]: {
    textDeltas: 3,
    thinkingDeltas: 0,
    first: [
      ["text", "The"],
      ["text", " capital of France"],
      ["text", " is Paris.\n"],
    ],
    usage: usage(13, 8),
    stop: "stop",
  },
  // A follow-up turn after a functionResponse; the final chunk's empty text part is not kept.
  [`${G}/text-after-function-response`]: {
    textDeltas: 2,
    thinkingDeltas: 0,
    first: [
      ["text", "The capital of Mexico"],
      ["text", " is Mexico City."],
    ],
    usage: usage(257, 8),
    stop: "stop",
  },
  // gemini-2.5-pro: four thought summaries, then the answer; the signature is on the first answer part.
  [`${G}/thoughts-then-text-signature`]: {
    textDeltas: 19,
    thinkingDeltas: 4,
    first: [["thinking", "**Clarifying User Goals**\n\nI'm currently focused"]],
    parts: [
      { text: "THOUGHTS", thought: true },
      {
        text: "This is a great question! Safely crossing the street is all about being aware and predictable. Here is a step-by-step",
        thoughtSignature: "SIG",
      },
      { text: "REST" },
    ],
    usage: usage(34, 469 + 787, 787),
    stop: "stop",
  },
  // gemini-3: the signature arrives last, alone in an empty text part, which must be kept.
  [`${G}/text-trailing-signature-chunk`]: {
    textDeltas: 2,
    thinkingDeltas: 0,
    first: [
      ["text", 'There are **3** "r"s in strawberry.\n\n'],
      ["text", "St**r**awbe**rr**y"],
    ],
    parts: [{ text: 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y' }, { text: "", thoughtSignature: "SIG" }],
    usage: usage(9, 23 + 302, 302),
    stop: "stop",
  },
  // gemini-3-pro: one whole call with no id and no args, its signature beside it on the same part.
  [`${G}/function-call-thought-signature`]: {
    textDeltas: 0,
    thinkingDeltas: 0,
    first: [],
    toolCalls: [{ name: "get_country", args: {}, signed: true }],
    parts: [{ functionCall: { name: "get_country", args: {} }, thoughtSignature: "SIG" }],
    usage: usage(29, 10 + 202, 202),
    stop: "tool_calls",
  },
  // Vertex streamed arguments: {name, willContinue} + partialArgs + {} per call; a no-args call carries the signature.
  [`${G}/vertex-parallel-calls-partial-args`]: {
    textDeltas: 0,
    thinkingDeltas: 1,
    first: [["thinking", "**Processing User Requests**\n\nI've started by understanding"]],
    toolCalls: [
      { name: "read_theme", args: {}, signed: true },
      { name: "read_screen", args: { id: "A" }, signed: false },
      { name: "read_screen", args: { id: "B" }, signed: false },
      { name: "read_screen", args: { id: "C" }, signed: false },
    ],
    parts: [
      { text: "THOUGHTS", thought: true },
      { functionCall: { name: "read_theme", args: {} }, thoughtSignature: "SIG" },
      { functionCall: { name: "read_screen", args: { id: "A" } } },
      { functionCall: { name: "read_screen", args: { id: "B" } } },
      { functionCall: { name: "read_screen", args: { id: "C" } } },
    ],
    usage: usage(249, 58 + 183, 183),
    stop: "tool_calls",
  },
};

describe("recorded streams replayed through @google/genai", () => {
  test("every gemini recording has a case (the fragment is tested below)", () => {
    const recorded = readdirSync(join(WIRE_DIR, G))
      .filter((f) => f.endsWith(".sse") && !f.endsWith(".fragment.sse"))
      .map((f) => `${G}/${f.replace(/\.sse$/, "")}`);
    expect(recorded.sort()).toEqual(Object.keys(CASES).sort());
    expect(readdirSync(join(WIRE_DIR, G)).filter((f) => f.endsWith(".fragment.sse"))).toEqual(["midstream-503-unframed-error.fragment.sse"]);
  });

  test.each(Object.entries(CASES))("%s", async (name, want) => {
    const before = server.requests.length;
    const { events, error } = await replay(fixture(name));
    expect(error).toBeUndefined();
    expect(server.requests.slice(before).map((r) => r.path)).toEqual([STREAM_PATH]);

    const deltas = events.filter((e) => e.type === "text" || e.type === "thinking");
    const texts = deltas.filter((e) => e.type === "text").map((e) => e.delta);
    const thoughts = deltas.filter((e) => e.type === "thinking").map((e) => e.delta);
    const text = wireText(name, false);
    const thinking = wireText(name, true);
    expect(texts.join("")).toBe(text);
    expect(texts.length).toBe(want.textDeltas);
    expect(thoughts.join("")).toBe(thinking);
    expect(thoughts.length).toBe(want.thinkingDeltas);
    // Long deltas are compared by their start.
    expect(deltas.slice(0, want.first.length).map((e, i) => [e.type, e.delta.slice(0, want.first[i]![1].length)])).toEqual(want.first);
    // Thinking streams before the answer, never after it.
    const firstText = events.findIndex((e) => e.type === "text");
    if (firstText >= 0) expect(events.slice(firstText).some((e) => e.type === "thinking")).toBe(false);

    // Order: deltas, then the complete tool calls, then exactly one done, last.
    const kinds = events.map((e) => e.type);
    expect(kinds.filter((k) => k === "done")).toEqual(["done"]);
    expect(kinds.at(-1)).toBe("done");
    const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    if (calls.length > 0) expect(kinds.slice(kinds.indexOf("tool_call"), -1).every((k) => k === "tool_call")).toBe(true);
    const signature = wireSignature(name);
    expect(calls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments), signed: c.opaque !== undefined }))).toEqual(want.toolCalls ?? []);
    for (const c of calls) {
      expect(c.id).toMatch(/^call_[0-9a-z]{19}$/); // the Gemini API gives no ids: ours, never sent back
      if (c.opaque) expect(c.opaque).toEqual({ protocol: "google", model: MODEL, data: { thoughtSignature: signature } });
    }
    expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);

    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.usage).toEqual(want.usage);
    expect(done.stop).toBe(want.stop as never);
    expect(done.message.role).toBe("assistant");
    expect(done.message.id).toMatch(/^[0-9a-z]{19}$/);
    const rest = text.slice((want.parts?.[1] as { text?: string } | undefined)?.text?.length ?? 0);
    const parts = JSON.parse(
      JSON.stringify(want.parts ?? null)
        .replaceAll('"SIG"', JSON.stringify(signature ?? null))
        .replaceAll('"THOUGHTS"', JSON.stringify(thinking))
        .replaceAll('"REST"', JSON.stringify(rest)),
    );
    expect(done.message.content).toEqual([
      ...(parts ? [{ type: "thinking", text: thinking, opaque: { protocol: "google", model: MODEL, data: { parts } } }] : []),
      ...(text ? [{ type: "text", text }] : []),
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

const deltasOf = (events: StreamEvent[]) => events.map((e) => (e.type === "text" || e.type === "thinking" ? e.delta : e.type));

describe("recorded error bodies: one request each, classified once", () => {
  test("gemini/error-429-resource-exhausted (the daily quota: no retry delay) is quota exhausted, not retried", async () => {
    const before = server.requests.length;
    const { error } = await failure(fixture(`${G}/error-429-resource-exhausted`));
    expect(server.requests.length - before).toBe(1);
    expect(error.kind).toBe("quota_exhausted");
    expect(error.retryable).toBe(false);
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.message).toStartWith("quota exhausted (429): You exceeded your current quota, please check your plan and billing details.");
  });

  test("gemini/error-429-retry-info (per-minute quota, RetryInfo 34.4s) is a rate limit to retry in 34400 ms", async () => {
    const before = server.requests.length;
    const { error } = await failure(fixture(`${G}/error-429-retry-info`));
    expect(server.requests.length - before).toBe(1);
    expect(error.kind).toBe("rate_limit");
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(34_400);
    expect(error.message).toBe("rate limited (429): You exceeded your current quota, please check your plan.");
  });

  test("a 503 is overloaded, after exactly one request", async () => {
    const before = server.requests.length;
    const body = { error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } };
    const { error } = await failure(jsonReply(503, body));
    expect(server.requests.length - before).toBe(1);
    expect(error.kind).toBe("overloaded");
    expect(error.message).toBe("the provider is failing (503): The model is overloaded. Please try again later.");
  });

  test("a gateway's Retry-After header is honoured (the fetch wrapper keeps the headers ApiError lacks)", async () => {
    const { error } = await failure(jsonReply(429, { error: { code: 429, message: "slow down", status: "RESOURCE_EXHAUSTED" } }, { "retry-after": "7" }));
    expect(error.kind).toBe("rate_limit");
    expect(error.retryAfterMs).toBe(7000);
  });

  test("400 API_KEY_INVALID is an auth error naming the key variable", async () => {
    const body = {
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        status: "INVALID_ARGUMENT",
        details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }],
      },
    };
    const { error } = await failure(jsonReply(400, body), await provider({ apiKeyVar: "GEMINI_API_KEY" }));
    expect(error.kind).toBe("auth");
    expect(error.message).toBe("authentication failed (400): API key not valid. Please pass a valid API key. — check GEMINI_API_KEY");
  });

  test("403 without a key says that no key was sent", async () => {
    const body = { error: { code: 403, message: "Method doesn't allow unregistered callers", status: "PERMISSION_DENIED" } };
    const { error } = await failure(jsonReply(403, body), await provider({ apiKey: undefined, apiKeyVar: "GEMINI_API_KEY" }));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("no API key was sent");
    expect(error.message).toContain("set GEMINI_API_KEY");
  });

  test("404 is a bad request with Google's words and the base URL", async () => {
    const body = { error: { code: 404, message: "models/gemini-9 is not found for API version v1beta", status: "NOT_FOUND" } };
    const { error } = await failure(jsonReply(404, body));
    expect(error.kind).toBe("bad_request");
    expect(error.message).toBe(
      `request rejected (404): models/gemini-9 is not found for API version v1beta — check the model name and base URL ${server.url}/v1beta`,
    );
  });

  test("connection refused is a network error naming the base URL", async () => {
    const gone = startReplayServer([]);
    gone.stop();
    const { error } = await failure(undefined, await provider({ baseUrl: gone.url }));
    expect(error.kind).toBe("network");
    expect(error.message).toContain(gone.url);
  });
});

describe("streams that fail after partial output", () => {
  const FRAGMENT = `${G}/midstream-503-unframed-error.fragment`;

  // In one read, the SDK splits the two data events off and is left with the bare JSON object,
  // which it reports as "Incomplete JSON segment at the end": an error, not a finished answer.
  test("the unframed 503 read in one piece is a network error after the partial text", async () => {
    const { error, events } = await failure(fixture(FRAGMENT));
    expect(error.kind).toBe("network");
    expect(error.message).toContain("Incomplete JSON segment");
    expect(deltasOf(events)).toEqual(["usage", "Okay"]);
  });

  /** The reply in two reads of the client: `rest` is written once the client has made an event of `first`. */
  async function failureInTwoReads(first: string, rest: string): Promise<{ error: ProviderError; events: StreamEvent[] }> {
    const firstRead = gate();
    server.enqueue({ ...sseReply([first, rest]), hold: { at: 1, until: firstRead.passed } });
    const p = await provider();
    const { events, error } = await drain(p.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal), () =>
      firstRead.open(),
    );
    expect(error).toBeInstanceOf(ProviderError);
    return { error: error as ProviderError, events };
  }
  const fragment = () => readFileSync(join(WIRE_DIR, `${FRAGMENT}.sse`), "utf8");
  const bareAt = (text: string) => text.indexOf("\n{") + 1;

  // Arriving as its own read, the bare object parses whole and the SDK throws its ApiError.
  test("the unframed 503 arriving in its own read is overloaded, after the partial text", async () => {
    const text = fragment();
    const { error, events } = await failureInTwoReads(text.slice(0, bareAt(text)), text.slice(bareAt(text)));
    expect(error.kind).toBe("overloaded");
    expect(error.status).toBe(503);
    expect(error.message).toBe("the provider is failing (503): The model is overloaded. Please try again later.");
    expect(deltasOf(events)).toEqual(["usage", "Okay"]);
  });

  test("its first event alone, then the bare object (no finishReason ever), is an error after the partial text", async () => {
    const text = fragment();
    const [first] = text.split("\n\n");
    const { error, events } = await failureInTwoReads(`${first}\r\n\r\n`, text.slice(bareAt(text)));
    expect(error.kind).toBe("overloaded");
    expect(deltasOf(events)).toEqual(["usage", "Okay"]);
  });

  test.each([
    [{ code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" }, "rate_limit"],
    [{ code: 500, message: "An internal error has occurred.", status: "INTERNAL" }, "overloaded"],
    [{ code: 400, message: "Request contains an invalid argument.", status: "INVALID_ARGUMENT" }, "bad_request"],
  ] as const)("an SSE error chunk %j mid-stream is %s", async (err, kind) => {
    const body = [
      `data: {"candidates": [{"content": {"parts": [{"text": "Hel"}],"role": "model"}}]}\r\n\r\n`,
      `data: ${JSON.stringify({ error: err })}\r\n\r\n`,
    ];
    const { error, events } = await failure(sseReply(body, { delayMs: 10 }));
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(err.message);
    expect(deltasOf(events)).toEqual(["Hel"]);
  });

  test("a stream that ends cleanly without a finishReason is a network error, not an answer", async () => {
    const text = readFileSync(join(WIRE_DIR, `${G}/text.sse`), "utf8");
    const withoutLast = text.slice(0, text.lastIndexOf("data:"));
    const { error, events } = await failure(sseReply(withoutLast));
    expect(error.kind).toBe("network");
    expect(deltasOf(events)).toEqual(["usage", "The", " capital of France"]);
  });

  test.each([
    ["no candidates", `data: {"candidates": [], "usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 5}}\r\n\r\n`],
    ["usage alone", `data: {"usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 5}}\r\n\r\n`],
  ])("a response that ended with %s is an empty answer, not a cut connection", async (_, body) => {
    const { error, events } = await failure(sseReply(body));
    expect(error.kind).toBe("empty_answer");
    expect(error.message).toContain("answered with no content");
    expect(events).toEqual([{ type: "usage", usage: usage(5, 0) }]); // its counts, billed all the same, passed on as they came
  });

  // With automatic continuation on (the SDK's default) this would send a second request with the token.
  test("a stream that stops at a continuationToken is not continued behind our back: one request, a network error", async () => {
    const before = server.requests.length;
    const chunk = { candidates: [{ content: { parts: [{ text: "Hel" }], role: "model" }, continuationToken: "tok-1" }] };
    const { error, events } = await failure(sseReply(`data: ${JSON.stringify(chunk)}\r\n\r\n`));
    expect(error.kind).toBe("network");
    expect(deltasOf(events)).toEqual(["Hel"]);
    expect(server.requests.length - before).toBe(1);
  });

  test("a connection reset mid-stream is a network error after the deltas that arrived", async () => {
    const text = readFileSync(join(WIRE_DIR, `${G}/text.sse`), "utf8");
    const { error, events } = await failure(cutAfter(fixture(`${G}/text`), text.indexOf("\r\n\r\n") + 4 + 10));
    expect(error.kind).toBe("network");
    expect(deltasOf(events)).toEqual(["usage", "The"]);
  });
});

describe("finishReasons no recording shows, through the SDK", () => {
  // Hand-made from the SDK's FinishReason docs (node_modules/@google/genai/dist/genai.d.ts): SAFETY
  // "when streaming, the content field is empty if content filters block the output";
  // MALFORMED_FUNCTION_CALL "a function call that is syntactically invalid and can't be parsed".
  const chunk = (candidate: Record<string, unknown>) =>
    `data: ${JSON.stringify({ candidates: [{ index: 0, ...candidate }], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 0, totalTokenCount: 9 } })}\r\n\r\n`;

  test("SAFETY with no content: a refusal naming SAFETY, with nothing in the answer", async () => {
    const { events, error } = await replay(
      sseReply(chunk({ finishReason: "SAFETY", safetyRatings: [{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true }] })),
    );
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: "usage", usage: usage(9, 0) },
      { type: "done", message: expect.objectContaining({ content: [] }), usage: usage(9, 0), stop: "refusal", detail: "SAFETY" },
    ]);
  });

  test("MALFORMED_FUNCTION_CALL with nothing before it: a finished answer that stops as malformed_call, not an error to retry", async () => {
    const before = server.requests.length;
    const { events, error } = await replay(sseReply(chunk({ content: { parts: [] }, finishReason: "MALFORMED_FUNCTION_CALL" })));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: "usage", usage: usage(9, 0) },
      { type: "done", message: expect.objectContaining({ content: [] }), usage: usage(9, 0), stop: "malformed_call", detail: "MALFORMED_FUNCTION_CALL" },
    ]);
    expect(server.requests.length - before).toBe(1);
  });

  test("UNEXPECTED_TOOL_CALL: the model's bad call, as MALFORMED_FUNCTION_CALL: stop malformed_call naming the reason and Gemini's finishMessage", async () => {
    // The SDK's FinishReason.UNEXPECTED_TOOL_CALL: "a function call that is semantically invalid"
    // (function calling not enabled, or a function not declared).
    const { events, error } = await replay(sseReply(chunk({ finishReason: "UNEXPECTED_TOOL_CALL", finishMessage: "Unexpected tool call: delete_everything" })));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: "usage", usage: usage(9, 0) },
      {
        type: "done",
        message: expect.objectContaining({ content: [] }),
        usage: usage(9, 0),
        stop: "malformed_call",
        detail: "UNEXPECTED_TOOL_CALL: Unexpected tool call: delete_everything",
      },
    ]);
  });
});

describe("a crafted stream: text, then MALFORMED_FUNCTION_CALL (test/fixtures/crafted/gemini)", () => {
  test("the text streams and stays in the answer; done stops as malformed_call with Gemini's finishMessage, the call it could not parse", async () => {
    const body = readFileSync(join(import.meta.dir, "..", "fixtures", "crafted", "gemini", "text-then-malformed-function-call.sse"), "utf8");
    const before = server.requests.length;
    const { events, error } = await replay(sseReply(body));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: "usage", usage: usage(40, 0) },
      { type: "text", delta: "I will list the files first." },
      {
        type: "done",
        message: expect.objectContaining({ role: "assistant", content: [{ type: "text", text: "I will list the files first." }] }),
        usage: usage(40, 31),
        stop: "malformed_call",
        detail: `MALFORMED_FUNCTION_CALL: Malformed function call: print(default_api.bash(command='ls -la | grep "src"', timeout=30))`,
      },
    ]);
    expect((events.at(-1) as { message: { toolCalls?: unknown } }).message.toolCalls).toBeUndefined();
    expect(server.requests.length - before).toBe(1);
  });
});

describe("Gemini's finishMessage, which the SDK drops, read off the wire", () => {
  test("split across reads mid-line and mid-character, with the real API's spaced JSON: the whole message, once", async () => {
    const said = "Malformed function call: print(default_api.edit(path='é.txt'))";
    const body = `data: {"candidates": [{"content": {}, "finishReason": "MALFORMED_FUNCTION_CALL", "finishMessage": ${JSON.stringify(said)}, "index": 0}]}\r\n\r\n`;
    const bytes = new TextEncoder().encode(body);
    const at = bytes.indexOf(0xc3) + 1; // inside the two bytes of é
    const reply = { ...sseReply(""), chunks: [bytes.slice(0, 20), bytes.slice(20, at), bytes.slice(at)], delayMs: 5 };
    const { events, error } = await replay(reply);
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "done", stop: "malformed_call", detail: `MALFORMED_FUNCTION_CALL: ${said}` });
  });

  test("a stream without one: the reason alone, and no message from an earlier request leaks in", async () => {
    const first = await replay(
      sseReply(readFileSync(join(import.meta.dir, "..", "fixtures", "crafted", "gemini", "text-then-malformed-function-call.sse"), "utf8")),
    );
    expect(first.events.at(-1)).toMatchObject({ detail: expect.stringContaining("Malformed function call") });
    const { events } = await replay(sseReply(`data: ${JSON.stringify({ candidates: [{ finishReason: "MALFORMED_FUNCTION_CALL", index: 0 }] })}\r\n\r\n`));
    expect(events.at(-1)).toMatchObject({ stop: "malformed_call", detail: "MALFORMED_FUNCTION_CALL" });
  });
});

describe("console noise", () => {
  test("a keyless client and a tool-call stream print no console.warn (the SDK warns about both otherwise)", async () => {
    const warned: unknown[][] = [];
    const warn = console.warn;
    const saved = { google: process.env.GOOGLE_API_KEY, gemini: process.env.GEMINI_API_KEY };
    // Both set: the SDK's constructor warns "Both GOOGLE_API_KEY and GEMINI_API_KEY are set".
    process.env.GOOGLE_API_KEY = "from-env-1";
    process.env.GEMINI_API_KEY = "from-env-2";
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      const p = await provider({ apiKey: undefined });
      const { events, error } = await replay(fixture(`${G}/function-call-thought-signature`), p);
      expect(error).toBeUndefined();
      expect(events.map((e) => e.type)).toEqual(["usage", "tool_call", "done"]);
      expect(server.requests.at(-1)?.headers).not.toHaveProperty("x-goog-api-key");
    } finally {
      console.warn = warn;
      for (const [k, v] of [
        ["GOOGLE_API_KEY", saved.google],
        ["GEMINI_API_KEY", saved.gemini],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    expect(warned).toEqual([]);
    expect(console.warn).toBe(warn);
  });
});

describe("mapEvents on hand-made chunks", () => {
  async function* from(chunks: Chunk[]): AsyncGenerator<Chunk> {
    yield* chunks;
  }
  const run = async (chunks: Chunk[]) => {
    const events: StreamEvent[] = [];
    for await (const e of mapEvents(from(chunks), { model: MODEL })) events.push(e);
    return events;
  };
  const last = (events: StreamEvent[]) => {
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done");
    return done;
  };
  const finished = (finishReason: string, parts: Chunk[] = []): Chunk[] => [
    ...parts,
    { candidates: [{ content: { role: "model", parts: [{ text: "x" }] }, finishReason: finishReason as never }] },
  ];

  test.each([
    ["STOP", "stop"],
    ["MAX_TOKENS", "length"],
    ["SAFETY", "refusal"],
    ["RECITATION", "refusal"],
    ["PROHIBITED_CONTENT", "refusal"],
    ["BLOCKLIST", "refusal"],
    ["SPII", "refusal"],
    ["MALFORMED_FUNCTION_CALL", "malformed_call"],
    ["UNEXPECTED_TOOL_CALL", "malformed_call"],
    ["LANGUAGE", "other"],
    ["SOMETHING_NEW", "other"],
  ])("finishReason %s → %s", async (finishReason, stop) => {
    expect(last(await run(finished(finishReason))).stop).toBe(stop as never);
  });

  test("a blocked prompt (promptFeedback, no candidates) is a refusal that says why, beside the answer, not in it", async () => {
    const events = await run([{ promptFeedback: { blockReason: "SAFETY" as never, blockReasonMessage: "unsafe" }, usageMetadata: { promptTokenCount: 7 } }]);
    expect(deltasOf(events)).toEqual(["usage", "done"]);
    expect(last(events)).toMatchObject({ stop: "refusal", detail: "the prompt was blocked: SAFETY: unsafe", message: { content: [] } });
    expect(last(events).usage.input).toBe(7);
  });

  test("a safety stop names its finishReason; a plain stop has no detail", async () => {
    expect(last(await run(finished("RECITATION")))).toMatchObject({ stop: "refusal", detail: "RECITATION" });
    expect(last(await run(finished("STOP"))).detail).toBeUndefined();
    expect(last(await run(finished("OTHER")))).toMatchObject({ stop: "other", detail: '"OTHER"' }); // the loop: the model stopped for "OTHER"
  });

  test("MAX_TOKENS while a streamed call still says willContinue: its arguments stay unclosed, as cut, so it is not run as whole", async () => {
    // Shaped like vertex-parallel-calls-partial-args.sse (streamed arguments), stopped mid-call; not recorded.
    const events = await run([
      { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "write_file", willContinue: true } }] } }] },
      {
        candidates: [
          { content: { role: "model", parts: [{ functionCall: { partialArgs: [{ jsonPath: "$.path", stringValue: "a.md" }], willContinue: true } }] } },
        ],
      },
      {
        candidates: [
          {
            content: {
              role: "model",
              parts: [{ functionCall: { partialArgs: [{ jsonPath: "$.content", stringValue: "# Gu", willContinue: true }], willContinue: true } }],
            },
            finishReason: "MAX_TOKENS" as never,
          },
        ],
      },
    ] as Chunk[]);
    expect(last(events).stop).toBe("length");
    expect(last(events).message.toolCalls?.map((c) => c.arguments)).toEqual(['{"path":"a.md","content":"# Gu"']);
  });

  test("MAX_TOKENS after whole calls (the Gemini API's): the last, the one the limit stopped, stays unclosed as cut and does not run; the ones before run", async () => {
    // x7 #8: Gemini sends each call whole, its arguments an object however far the model got
    const write = { name: "write_file", args: { path: "gm2.py", content: "def main():\n    print('hel" } };
    const read = { name: "read_file", args: { path: "a.txt" } };
    const events = await run([
      { candidates: [{ content: { role: "model", parts: [{ functionCall: read }, { functionCall: write }] }, finishReason: "MAX_TOKENS" as never }] },
    ] as Chunk[]);
    expect(last(events).stop).toBe("length");
    const [first, cut] = last(events).message.toolCalls!;
    expect(JSON.parse(first!.arguments)).toEqual(read.args);
    expect(cut!.arguments).toBe(JSON.stringify(write.args).slice(0, -1));
    expect(() => JSON.parse(cut!.arguments)).toThrow();
  });

  test("MAX_TOKENS with text after the last call: the call was finished, and stays whole", async () => {
    const read = { name: "read_file", args: { path: "a.txt" } };
    const events = await run([
      { candidates: [{ content: { role: "model", parts: [{ functionCall: read }, { text: "Now I will" }] }, finishReason: "MAX_TOKENS" as never }] },
    ] as Chunk[]);
    expect(last(events).message.toolCalls?.map((c) => JSON.parse(c.arguments))).toEqual([read.args]);
  });

  test("STOP after whole calls: every call whole", async () => {
    const write = { name: "write_file", args: { path: "a.py", content: "x" } };
    const events = await run([{ candidates: [{ content: { role: "model", parts: [{ functionCall: write }] }, finishReason: "STOP" as never }] }] as Chunk[]);
    expect(last(events).message.toolCalls?.map((c) => JSON.parse(c.arguments))).toEqual([write.args]);
  });

  test("usage adds tool-use prompt tokens to input and reads cached tokens", async () => {
    const events = await run([
      {
        candidates: [{ content: { parts: [{ text: "x" }] }, finishReason: "STOP" as never }],
        usageMetadata: { promptTokenCount: 100, toolUsePromptTokenCount: 20, cachedContentTokenCount: 64, candidatesTokenCount: 5, thoughtsTokenCount: 9 },
      },
    ]);
    expect(last(events).usage).toEqual({ input: 120, output: 14, cacheRead: 64, cacheWrite: 0, reasoning: 9 });
  });

  test("API-given call ids are kept, marked as the API's; streamed arguments of every JSON type are assembled", async () => {
    const part = (functionCall: Record<string, unknown>) => ({ candidates: [{ content: { parts: [{ functionCall }] } }] }) as Chunk;
    const events = await run([
      part({ id: "fc-1", name: "edit", willContinue: true }),
      part({ partialArgs: [{ jsonPath: "$.path", stringValue: "a/", willContinue: true }], willContinue: true }),
      part({ partialArgs: [{ jsonPath: "$.path", stringValue: "b.txt" }], willContinue: true }),
      part({
        partialArgs: [
          { jsonPath: "$.range.start", numberValue: 3 },
          { jsonPath: "$.flags[0]", boolValue: true },
          { jsonPath: "$.note", nullValue: "NULL_VALUE" },
        ],
        willContinue: true,
      }),
      part({}),
      ...finished("STOP"),
    ]);
    const call = events.find((e) => e.type === "tool_call");
    if (call?.type !== "tool_call") throw new Error("no call");
    expect(call.call.id).toBe("fc-1");
    expect(JSON.parse(call.call.arguments)).toEqual({ path: "a/b.txt", range: { start: 3 }, flags: [true], note: null });
    expect(call.call.opaque).toEqual({ protocol: "google", model: MODEL, data: { id: "fc-1" } });
    expect(last(events).stop).toBe("tool_calls");
  });
});
