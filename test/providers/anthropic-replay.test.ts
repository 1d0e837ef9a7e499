// Every recorded Messages stream (test/fixtures/wire/anthropic) replayed through the real
// @anthropic-ai/sdk into the IR, the two recorded mid-stream error tails, and the recorded error
// bodies. Expected text, ids, arguments and counts were read from the fixtures by eye; the long
// opaque values (signatures, redacted data) are taken from the fixture's own data lines.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { userMessage } from "../../src/kernel/ir.ts";
import type { ContentBlock, Usage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { WIRE_DIR, cutAfter, fixture, jsonReply, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import type { Reply } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const MODEL = "claude-test";
const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const provider = (opts: { apiKey?: string; apiKeyVar?: string } = {}): Promise<Provider> =>
  createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", ...opts });

async function replay(reply: Reply, p?: Provider): Promise<{ events: StreamEvent[]; error?: unknown }> {
  server.enqueue(reply);
  return drain((p ?? (await provider())).stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
}

/** The JSON of every `data:` line of a fixture, parsed here independently of the SDK. */
// biome-ignore lint/suspicious/noExplicitAny: recorded wire events of every shape, read field by field
function wire(name: string): Record<string, any>[] {
  return readFileSync(join(WIRE_DIR, `anthropic/${name}.sse`), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
}
const signatureOf = (name: string, index: number): string =>
  wire(name).find((d) => d.type === "content_block_delta" && d.index === index && d.delta.type === "signature_delta")!.delta.signature;
const redactedOf = (name: string, index: number): string => wire(name).find((d) => d.type === "content_block_start" && d.index === index)!.content_block.data;

const usage = (input: number, output: number, reasoning = 0): Usage => ({ input, output, cacheRead: 0, cacheWrite: 0, reasoning });
const text = (t: string): ContentBlock => ({ type: "text", text: t });
const signed = (t: string, signature: string): ContentBlock => ({
  type: "thinking",
  text: t,
  opaque: { protocol: "anthropic", model: MODEL, data: { signature } },
});
const redacted = (data: string): ContentBlock => ({ type: "thinking", text: "", opaque: { protocol: "anthropic", model: MODEL, data: { redacted: data } } });

interface Expected {
  /** the done message's content, one part per block, in block order */
  content: ContentBlock[];
  /** delta types in order, run-length: [["thinking", 5], ["text", 2]] */
  runs: [string, number][];
  toolCalls?: { id: string; name: string; arguments: string }[];
  usage: Usage;
  stop: string;
}

const THINKING_SIGNATURE =
  "The user wants two names for a pet pelican, and they want me to be brief. I'll suggest two names that would suit a pelican well.\n\nSome good options:\n- Pelé (play on pelican)\n- Pouch (referencing their bill pouch)\n- Captain Beak\n- Squirt\n- Scoop\n- Wing\n\nLet me give two brief, catchy names:";

const CASES: Record<string, Expected> = {
  // A ping after the first content_block_start; data padded with spaces before the final brace.
  text: { content: [text("Hello")], runs: [["text", 1]], usage: usage(10, 4), stop: "stop" },
  "text-after-tool-result": {
    content: [
      text(
        "The version is **0.32a0**.\n\nHere's a joke about it: \n\nLooks like this version is still in alpha testing... I guess you could say it's going through a \"0.32a good time\" before becoming stable! 😄\n\n(It's at version 0.32a, which means it's far from 1.0, so plenty of room to grow!)",
      ),
    ],
    runs: [["text", 6]],
    usage: usage(707, 89),
    stop: "stop",
  },
  // Five thinking deltas (the empty sixth is skipped), then the signature, then the answer.
  "thinking-signature": {
    content: [
      signed(THINKING_SIGNATURE, signatureOf("thinking-signature", 0)),
      text('1. **Pouch** - references their iconic bill pouch\n2. **Pelé** - playful take on "pelican"'),
    ],
    runs: [
      ["thinking", 5],
      ["text", 2],
    ],
    usage: usage(46, 133),
    stop: "stop",
  },
  // Its only input_json_delta is "": arguments "{}". thinking_tokens 53 in message_delta.
  "thinking-then-tool-use": {
    content: [
      signed(
        "The user wants me to:\n1. Use the fixed_version tool\n2. Tell them the version\n3. Make a short joke about it\n\nLet me first call the fixed_version tool to see what version it returns.",
        signatureOf("thinking-then-tool-use", 0),
      ),
    ],
    runs: [["thinking", 2]],
    toolCalls: [{ id: "toolu_01825dXWLSoJwCst1qTsiWdb", name: "fixed_version", arguments: "{}" }],
    usage: usage(598, 92, 53),
    stop: "tool_calls",
  },
  // A "\n\n" text block BEFORE the thinking block: block order is kept, not normalized.
  "adaptive-thinking-leading-text": {
    content: [
      text("\n\n"),
      signed("Brief answer with two pet pelican names.", signatureOf("adaptive-thinking-leading-text", 1)),
      text("1. **Captain Scoop**\n2. **Gullet**"),
    ],
    runs: [
      ["text", 1],
      ["thinking", 7],
      ["text", 9],
    ],
    usage: usage(34, 44),
    stop: "stop",
  },
  // Two redacted_thinking blocks, whole in their start events, with pings between blocks.
  "redacted-thinking": {
    content: [
      redacted(redactedOf("redacted-thinking", 0)),
      redacted(redactedOf("redacted-thinking", 1)),
      text(
        "I notice that you've sent what appears to be some kind of test string or command. I don't have any special \"magic string\" triggers or backdoor commands that would expose internal systems or change my behavior.\n\nI'm Claude, an AI assistant created by Anthropic to be helpful, harmless, and honest. How can I assist you today with a legitimate task or question?",
      ),
    ],
    runs: [["text", 15]],
    usage: usage(92, 189),
    stop: "stop",
  },
  "tool-use-no-args": {
    content: [],
    runs: [],
    toolCalls: [{ id: "toolu_01CzN6riCPqw4pVSuTd9Dwn7", name: "pelican_name_generator", arguments: "{}" }],
    usage: usage(543, 40),
    stop: "tool_calls",
  },
  // JSON split mid-key and mid-string.
  "tool-use-input-json-delta": {
    content: [],
    runs: [],
    toolCalls: [{ id: "toolu_018acGYLtfR52q9yDbWaEdQZ", name: "get_weather", arguments: '{"location": "San Francisco, CA", "units": "f"}' }],
    usage: usage(656, 74),
    stop: "tool_calls",
  },
  // message_delta carries only output_tokens: the input count of message_start stands.
  "text-then-tool-use": {
    content: [text("I'll check the current weather in Paris for you.")],
    runs: [["text", 2]],
    toolCalls: [{ id: "toolu_01NRLabsLyVHZPKxbKvkfSMn", name: "get_weather", arguments: '{"location": "Paris"}' }],
    usage: usage(377, 65),
    stop: "tool_calls",
  },
  // Three tool_use blocks one after another; the recording lacks the final blank line, so the SDK
  // never yields message_stop: the stop reason of message_delta completes the answer.
  "parallel-tool-use": {
    content: [text("\n\nI'll create these directories in /tmp/:")],
    runs: [["text", 6]],
    toolCalls: [
      { id: "toolu_01GwpAyin6URSPn7ZuGSjXKz", name: "make_directory", arguments: '{"parent": "/tmp", "name": "testdir1"}' },
      { id: "toolu_01Jqbxt5WYUt6RfpoBCHpA6X", name: "make_directory", arguments: '{"parent": "/tmp", "name": "testdir2"}' },
      { id: "toolu_01Q7ptGyMTHtj8NTAu1q93qS", name: "make_directory", arguments: '{"parent": "/tmp", "name": "testdir3"}' },
    ],
    usage: usage(1180, 196),
    stop: "tool_calls",
  },
  // The tool block never gets its content_block_stop: the call still comes out, with the partial
  // JSON as its arguments (the tool pipeline reports them invalid to the model), and stop "length".
  "max-tokens-truncated-tool-input": {
    content: [text("I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.")],
    runs: [["text", 5]],
    toolCalls: [
      {
        id: "toolu_01EKqbqmZrGRXy18eN7m9kvY",
        name: "make_file",
        arguments:
          '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes',
      },
    ],
    usage: usage(450, 124),
    stop: "length",
  },
};

/** Run-length encoding of the delta types, in order. */
function runsOf(events: StreamEvent[]): [string, number][] {
  const runs: [string, number][] = [];
  for (const e of events) {
    if (e.type !== "text" && e.type !== "thinking") continue;
    const last = runs.at(-1);
    if (last?.[0] === e.type) last[1]++;
    else runs.push([e.type, 1]);
  }
  return runs;
}

const FRAGMENTS = ["error-event-overloaded.fragment", "error-midstream-api-error.fragment"];

describe("recorded streams replayed through the anthropic SDK", () => {
  test("every anthropic recording has a case", () => {
    const recorded = readdirSync(join(WIRE_DIR, "anthropic"))
      .filter((f) => f.endsWith(".sse"))
      .map((f) => f.replace(/\.sse$/, ""));
    expect(recorded.sort()).toEqual([...Object.keys(CASES), ...FRAGMENTS].sort());
  });

  test("the opaque values are the recorded ones", () => {
    expect(signatureOf("thinking-signature", 0)).toStartWith("EuYDCmMIDBgCKkC05Zda4P");
    expect(redactedOf("redacted-thinking", 1)).toStartWith("EtgBCkYIBxgCKkDQfGkwzflE");
  });

  test.each(Object.entries(CASES))("%s", async (name, want) => {
    const { events, error } = await replay(fixture(`anthropic/${name}`));
    expect(error).toBeUndefined();

    expect(runsOf(events)).toEqual(want.runs);
    // The deltas add up to the parts of the final message, block by block.
    const streamed = (type: string) => events.flatMap((e) => (e.type === type && "delta" in e ? [e.delta] : [])).join("");
    const parts = (type: string) => want.content.flatMap((p) => (p.type === type && "text" in p ? [p.text] : [])).join("");
    expect(streamed("text")).toBe(parts("text"));
    expect(streamed("thinking")).toBe(parts("thinking"));

    // Then the complete tool calls, then exactly one done, last.
    const kinds = events.map((e) => e.type);
    expect(kinds.filter((k) => k === "done")).toEqual(["done"]);
    expect(kinds.at(-1)).toBe("done");
    const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    expect(calls).toEqual(want.toolCalls ?? []);
    if (calls.length > 0) expect(kinds.slice(kinds.indexOf("tool_call"), -1).every((k) => k === "tool_call")).toBe(true);

    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.message.role).toBe("assistant");
    expect(done.message.id).toMatch(/^[0-9a-z]{19}$/);
    expect(done.message.content).toEqual(want.content);
    expect(done.message.toolCalls).toEqual(want.toolCalls ?? (undefined as never));
    expect(done.usage).toEqual(want.usage);
    expect(done.stop).toBe(want.stop as never);
  });

  test("complete tool arguments parse to the recorded input", async () => {
    const { events } = await replay(fixture("anthropic/parallel-tool-use"));
    const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    expect(calls.map((c) => JSON.parse(c.arguments))).toEqual([
      { parent: "/tmp", name: "testdir1" },
      { parent: "/tmp", name: "testdir2" },
      { parent: "/tmp", name: "testdir3" },
    ]);
  });
});

/** The recorded tail of a stream, after the real opening events of text.sse (README: prepend a real start). */
function withOpening(fragment: string, opening: string[]): Reply {
  const events = readFileSync(join(WIRE_DIR, "anthropic/text.sse"), "utf8").split(/(?<=\n\n)/);
  const head = events.filter((e) => opening.some((type) => e.startsWith(`event: ${type}\n`)));
  return sseReply([...head, readFileSync(join(WIRE_DIR, `anthropic/${fragment}.sse`), "utf8")]);
}

/** message_start's counts, passed on as they come: what a stream that breaks after it is counted with */
const COUNTS: StreamEvent = { type: "usage", usage: expect.objectContaining({ input: expect.any(Number) }) };

async function failure(reply: Reply, p?: Provider): Promise<{ error: ProviderError; events: StreamEvent[] }> {
  const { events, error } = await replay(reply, p);
  expect(error).toBeInstanceOf(ProviderError);
  return { error: error as ProviderError, events };
}

describe("recorded mid-stream errors", () => {
  test("error-event-overloaded after message_start: overloaded, retryable, nothing streamed but message_start's counts", async () => {
    const { error, events } = await failure(withOpening("error-event-overloaded.fragment", ["message_start"]));
    expect(error.kind).toBe("overloaded");
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toBe("the provider is failing mid-stream (overloaded_error): Overloaded");
    expect(events).toEqual([COUNTS]); // what the request is counted with, though it broke
  });

  test("error-midstream-api-error after two text deltas: the deltas, then overloaded (api_error)", async () => {
    const { error, events } = await failure(withOpening("error-midstream-api-error.fragment", ["message_start", "content_block_start"]));
    expect(events).toEqual([COUNTS, { type: "text", delta: "d with a replacement character" }, { type: "text", delta: " (" }]);
    expect(error.kind).toBe("overloaded");
    expect(error.message).toBe("the provider is failing mid-stream (api_error): Internal server error");
  });
});

describe("recorded error responses", () => {
  test("error-400-tool-result-mismatch is a bad request carrying the API's words", async () => {
    const { error } = await failure(fixture("anthropic/error-400-tool-result-mismatch"));
    expect(error.kind).toBe("bad_request");
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "request rejected (400): messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01GHndag5wQmbzNihYmV2UBj. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    );
  });

  test("error-429-rate-limit is a rate limit; the recording kept no Retry-After, so none is claimed", async () => {
    const { error } = await failure(fixture("anthropic/error-429-rate-limit"));
    expect(error.kind).toBe("rate_limit");
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.message).toStartWith("rate limited (429): This request would exceed your organization's rate limit of 20,000,000 prompt bytes per hour");
  });

  test.each([
    [{ "retry-after": "7" }, 7000],
    [{ "retry-after-ms": "1500", "retry-after": "7" }, 1500],
  ])("the same 429 with %j waits %d ms", async (extra, ms) => {
    const recorded = fixture("anthropic/error-429-rate-limit");
    const { error } = await failure({ ...recorded, headers: { ...recorded.headers, ...extra } });
    expect(error.kind).toBe("rate_limit");
    expect(error.retryAfterMs).toBe(ms);
  });

  test("error-529-overloaded is overloaded and retryable", async () => {
    const { error } = await failure(fixture("anthropic/error-529-overloaded"));
    expect(error.kind).toBe("overloaded");
    expect(error.status).toBe(529);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("the provider is failing (529): Overloaded");
  });

  test("a 401 is an auth error naming the key variable", async () => {
    const body = { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } };
    const { error } = await failure(jsonReply(401, body), await provider({ apiKeyVar: "ANTHROPIC_API_KEY" }));
    expect(error.kind).toBe("auth");
    expect(error.message).toBe("authentication failed (401): invalid x-api-key — check ANTHROPIC_API_KEY");
  });
});

describe("cut streams", () => {
  test("a connection reset mid-stream: the deltas that arrived, then a network error", async () => {
    const body = readFileSync(join(WIRE_DIR, "anthropic/thinking-signature.sse"), "utf8");
    const cut = Buffer.byteLength(body.slice(0, body.indexOf("event: content_block_delta", body.indexOf('"thinking_delta"') + 1)));
    const { error, events } = await failure(cutAfter(fixture("anthropic/thinking-signature"), cut + 5));
    expect(error.kind).toBe("network");
    expect(events).toEqual([COUNTS, { type: "thinking", delta: "The user wants" }]);
  });

  test("a stream that ends cleanly before its stop reason is a network error, not an answer", async () => {
    const body = readFileSync(join(WIRE_DIR, "anthropic/text.sse"), "utf8");
    const { error, events } = await failure(sseReply(body.slice(0, body.indexOf("event: message_delta"))));
    expect(error.kind).toBe("network");
    expect(error.message).toBe("the connection closed before the model finished its answer");
    expect(events).toEqual([COUNTS, { type: "text", delta: "Hello" }]);
  });
});
