// The exact JSON body and headers the Anthropic adapter sends, as recorded by the replay server on
// the far side of the real @anthropic-ai/sdk.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContentBlock, Effort, Message, ToolSpec } from "../../src/kernel/ir.ts";
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { adaptHistory } from "../../src/kernel/adapt-history.ts";
import { NO_RESULT as MISSING_RESULT } from "../../src/kernel/tool-calls.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { anthropicBaseUrl } from "../../src/providers/api-root.ts";
import type { AdapterOptions } from "../../src/providers/common.ts";
import { anthropicToolPairs } from "../helpers/invariants-anthropic.ts";
import { fixture, jsonReply, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";
import type { RecordedRequest } from "../helpers/replay-server.ts";

const MODEL = "claude-test";
const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

/** Sends `request` and returns what the server received. */
async function send(request: Partial<ModelRequest>, opts: Partial<AdapterOptions> = {}): Promise<RecordedRequest> {
  server.enqueue(fixture("anthropic/text"));
  const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", ...opts });
  const full: ModelRequest = { system: "", messages: [], tools: [], ...request };
  for await (const _ of provider.stream(full, new AbortController().signal));
  const recorded = server.requests.at(-1);
  if (!recorded) throw new Error("no request recorded");
  return recorded;
}
const bodyOf = async (request: Partial<ModelRequest>, opts: Partial<AdapterOptions> = {}) => (await send(request, opts)).body as Record<string, unknown>;
const messagesOf = async (messages: readonly Message[], opts: Partial<AdapterOptions> = {}) => (await bodyOf({ messages }, opts)).messages;

const user = (text: string): Message => ({ id: `u-${text}`, role: "user", content: [{ type: "text", text }] });
const result = (id: string, text: string, isError = false): Message => ({
  id: `r-${id}`,
  role: "tool",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text }],
  ...(isError ? { isError } : {}),
});
const signed = (text: string, signature: string, model = MODEL): ContentBlock => ({
  type: "thinking",
  text,
  opaque: { protocol: "anthropic", model, data: { signature } },
});
const READ: ToolSpec = {
  name: "read",
  description: "Read a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** A 400 in the API's error shape, with these words. */
const invalidRequest = (message: string) => jsonReply(400, { type: "error", error: { type: "invalid_request_error", message } });

describe("request body", () => {
  test("a plain prompt: top-level system, one user turn, stream, the default max_tokens, no thinking keys", async () => {
    const req = await send({ system: "You are terse.", messages: [user("hi")] });
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/messages");
    expect(req.body).toEqual({
      model: MODEL,
      max_tokens: 32000,
      system: "You are terse.",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      stream: true,
    });
  });

  test("tools are sent with input_schema (with no system prompt, the last tool marks the cached prefix)", async () => {
    expect((await bodyOf({ messages: [user("hi")], tools: [READ] })).tools).toEqual([
      { name: "read", description: "Read a file.", input_schema: READ.parameters, cache_control: { type: "ephemeral" } },
    ]);
  });

  test("prompt caching: the system prompt, the previous request's end and this one's carry cache_control; the note comes after them", async () => {
    const messages: Message[] = [
      user("fix it"),
      { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "toolu_1", name: "read", arguments: '{"path":"a"}' }] },
      result("toolu_1", "one"),
      {
        id: "a2",
        role: "assistant",
        content: [],
        toolCalls: [
          { id: "toolu_2", name: "read", arguments: '{"path":"b"}' },
          { id: "toolu_3", name: "read", arguments: '{"path":"c"}' },
        ],
      },
      result("toolu_2", "two"),
      result("toolu_3", "three"),
    ];
    const body = await bodyOf({ system: "sys", messages, tools: [READ], note: "Context: under 10% of the 40k-token budget used." });
    expect(body.system).toEqual([{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }]);
    expect((body.tools as object[])[0]).not.toHaveProperty("cache_control");
    const turns = body.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(turns[2]!.content).toEqual([{ type: "tool_result", tool_use_id: "toolu_1", content: "one", cache_control: { type: "ephemeral" } }]);
    expect(turns[4]!.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_2", content: "two" },
      { type: "tool_result", tool_use_id: "toolu_3", content: "three", cache_control: { type: "ephemeral" } },
      { type: "text", text: "Context: under 10% of the 40k-token budget used." },
    ]);
    expect(turns[0]!.content[0]).not.toHaveProperty("cache_control");
    const marks = JSON.stringify(body).split('"cache_control"').length - 1;
    expect(marks).toBeLessThanOrEqual(4); // the API's limit
  });

  test("a request without tools (a summary) marks nothing: it is never repeated", async () => {
    const body = await bodyOf({ system: "summarize", messages: [user("the transcript")] });
    expect(JSON.stringify(body)).not.toContain("cache_control");
  });

  test("a tool result after thinking: thinking with its signature, then text, then tool_use; then one user turn with the result", async () => {
    const messages: Message[] = [
      user("what version?"),
      {
        id: "a1",
        role: "assistant",
        content: [signed("I should call fixed_version.", "EoQDsig"), { type: "text", text: "Let me check." }],
        toolCalls: [{ id: "toolu_01", name: "fixed_version", arguments: "{}" }],
      },
      result("toolu_01", "0.32a0"),
    ];
    expect(await messagesOf(messages)).toEqual([
      { role: "user", content: [{ type: "text", text: "what version?" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I should call fixed_version.", signature: "EoQDsig" },
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_01", name: "fixed_version", input: {} },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "0.32a0" }] },
    ]);
  });

  test("redacted_thinking goes back with its data, in block order", async () => {
    const redacted = (data: string): ContentBlock => ({
      type: "thinking",
      text: "",
      opaque: { protocol: "anthropic", model: MODEL, data: { redacted: data } },
    });
    const messages: Message[] = [
      user("q"),
      {
        id: "a",
        role: "assistant",
        content: [redacted("EqkE1"), redacted("EtgB2"), { type: "text", text: "Reading." }],
        toolCalls: [{ id: "toolu_r", name: "read", arguments: '{"path":"a"}' }],
      },
      result("toolu_r", "A"),
    ];
    const [, assistant] = (await messagesOf(messages)) as { content: unknown[] }[];
    expect(assistant?.content).toEqual([
      { type: "redacted_thinking", data: "EqkE1" },
      { type: "redacted_thinking", data: "EtgB2" },
      { type: "text", text: "Reading." },
      { type: "tool_use", id: "toolu_r", name: "read", input: { path: "a" } },
    ]);
  });

  test("parallel calls: their results in ONE user turn, in call order, an error result flagged, a later prompt after them", async () => {
    const messages: Message[] = [
      user("look"),
      {
        id: "a",
        role: "assistant",
        content: [{ type: "text", text: "Reading both." }],
        toolCalls: [
          { id: "toolu_a", name: "read", arguments: '{"path":"a.txt"}' },
          { id: "toolu_b", name: "read", arguments: '{"path":"b.txt"}' },
          { id: "toolu_c", name: "read", arguments: '{"path":"c.png"}' },
        ],
      },
      result("toolu_a", "A"),
      result("toolu_b", "error: no such file", true),
      {
        id: "r-c",
        role: "tool",
        toolCallId: "toolu_c",
        content: [
          { type: "text", text: "c.png" },
          { type: "image", mediaType: "image/png", data: "iVBORw0K" },
        ],
      },
      user("and now?"),
    ];
    expect(await messagesOf(messages)).toEqual([
      { role: "user", content: [{ type: "text", text: "look" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading both." },
          { type: "tool_use", id: "toolu_a", name: "read", input: { path: "a.txt" } },
          { type: "tool_use", id: "toolu_b", name: "read", input: { path: "b.txt" } },
          { type: "tool_use", id: "toolu_c", name: "read", input: { path: "c.png" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: "A" },
          { type: "tool_result", tool_use_id: "toolu_b", content: "error: no such file", is_error: true },
          {
            type: "tool_result",
            tool_use_id: "toolu_c",
            content: [
              { type: "text", text: "c.png" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0K" } },
            ],
          },
          { type: "text", text: "and now?" },
        ],
      },
    ]);
  });

  test("user images are base64 image blocks; an unsupported type is named, not sent; consecutive user messages merge", async () => {
    const messages: Message[] = [
      {
        id: "1",
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image", mediaType: "image/jpeg", data: "/9j/4AAQ" },
        ],
      },
      { id: "2", role: "user", content: [{ type: "image", mediaType: "image/bmp", data: "Qk0=" }] },
    ];
    expect(await messagesOf(messages)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
          { type: "text", text: "[image image/bmp omitted: unsupported type]" },
        ],
      },
    ]);
  });

  test("the adaptive-thinking answer replayed: the whitespace-only text block is left out, the rest kept in order", async () => {
    // As mapEvents returns adaptive-thinking-leading-text.sse; the API rejects whitespace-only text blocks.
    const messages: Message[] = [
      user("two pelican names"),
      { id: "a", role: "assistant", content: [{ type: "text", text: "\n\n" }, signed("Brief answer.", "EtAB"), { type: "text", text: "1. Scoop" }] },
      user("more"),
    ];
    expect(await messagesOf(messages)).toEqual([
      { role: "user", content: [{ type: "text", text: "two pelican names" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Brief answer.", signature: "EtAB" },
          { type: "text", text: "1. Scoop" },
        ],
      },
      { role: "user", content: [{ type: "text", text: "more" }] },
    ]);
  });

  test.each([
    ["without a signature", { type: "thinking", text: "unsigned", opaque: { protocol: "anthropic", model: MODEL } }],
    ["with an empty signature", signed("empty", "")],
    ["from another model", signed("theirs", "sig", "claude-other")],
    ["from another protocol", { type: "thinking", text: "deepseek", opaque: { protocol: "openai", model: MODEL } }],
    ["with no origin", { type: "thinking", text: "unknown" }],
  ] as [string, ContentBlock][])("thinking %s is never sent", async (_name, thinking) => {
    const messages: Message[] = [user("q"), { id: "a", role: "assistant", content: [thinking, { type: "text", text: "A" }] }, user("q2")];
    const [, assistant] = (await messagesOf(messages)) as { content: unknown[] }[];
    expect(assistant?.content).toEqual([{ type: "text", text: "A" }]);
  });

  test("a call whose arguments were cut off (invalid JSON) goes back with input {}", async () => {
    const messages: Message[] = [
      user("write"),
      { id: "a", role: "assistant", content: [], toolCalls: [{ id: "toolu_cut", name: "make_file", arguments: '{"filename": "taxes.txt", "lines' }] },
      result("toolu_cut", "invalid arguments for make_file", true),
    ];
    const [, assistant] = (await messagesOf(messages)) as { content: unknown[] }[];
    expect(assistant?.content).toEqual([{ type: "tool_use", id: "toolu_cut", name: "make_file", input: {} }]);
  });

  test("system messages inside the history join the top-level system prompt", async () => {
    const body = await bodyOf({ system: "Base.", messages: [{ id: "s", role: "system", content: [{ type: "text", text: "Extra." }] }, user("hi")] });
    expect(body.system).toBe("Base.\n\nExtra.");
    expect(body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
  });

  test("a history from another protocol, adapted as the loop does: no foreign thinking, safe ids, missing results closed", async () => {
    const foreign: Message[] = [
      user("list files"),
      {
        id: "a",
        role: "assistant",
        content: [
          { type: "thinking", text: "DeepSeek thoughts", opaque: { protocol: "openai", model: "deepseek-reasoner" } },
          { type: "text", text: "Listing." },
        ],
        toolCalls: [
          { id: "call_00.ls:1", name: "read", arguments: '{"path":"."}' },
          { id: "fc_gemini", name: "read", arguments: "{}", opaque: { protocol: "google", model: "gemini-3-pro", data: "sig" } },
        ],
      },
      result("call_00.ls:1", "a.txt"),
      user("go on"),
    ];
    const messages = adaptHistory(foreign, { protocol: "anthropic", model: MODEL });
    expect(await messagesOf(messages)).toEqual([
      { role: "user", content: [{ type: "text", text: "list files" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Listing." },
          { type: "tool_use", id: "call_00_ls_1", name: "read", input: { path: "." } },
          { type: "tool_use", id: "fc_gemini", name: "read", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_00_ls_1", content: "a.txt" },
          { type: "tool_result", tool_use_id: "fc_gemini", content: MISSING_RESULT, is_error: true },
          { type: "text", text: "go on" },
        ],
      },
    ]);
  });
});

describe("effort (SPEC §5.5)", () => {
  const ADAPTIVE = { type: "adaptive" };
  // [effort, adaptive: thinking + output_config, legacy: thinking + max_tokens] with no max_tokens configured (default 32000).
  const TABLE: [Effort, Record<string, unknown>, Record<string, unknown>][] = [
    ["off", { thinking: { type: "disabled" }, max_tokens: 32000 }, { thinking: { type: "disabled" }, max_tokens: 32000 }],
    [
      "minimal",
      { thinking: ADAPTIVE, output_config: { effort: "low" }, max_tokens: 32000 },
      { thinking: { type: "enabled", budget_tokens: 1024 }, max_tokens: 32000 },
    ],
    [
      "low",
      { thinking: ADAPTIVE, output_config: { effort: "low" }, max_tokens: 32000 },
      { thinking: { type: "enabled", budget_tokens: 2048 }, max_tokens: 32000 },
    ],
    [
      "medium",
      { thinking: ADAPTIVE, output_config: { effort: "medium" }, max_tokens: 32000 },
      { thinking: { type: "enabled", budget_tokens: 8192 }, max_tokens: 32000 },
    ],
    [
      "high",
      { thinking: ADAPTIVE, output_config: { effort: "high" }, max_tokens: 32000 },
      { thinking: { type: "enabled", budget_tokens: 16384 }, max_tokens: 32000 },
    ],
    [
      "xhigh",
      { thinking: ADAPTIVE, output_config: { effort: "xhigh" }, max_tokens: 32000 },
      { thinking: { type: "enabled", budget_tokens: 24576 }, max_tokens: 32000 },
    ],
    // 32000 + 4096 of room for the answer: budget_tokens must stay below max_tokens.
    [
      "max",
      { thinking: ADAPTIVE, output_config: { effort: "max" }, max_tokens: 32000 },
      { thinking: { type: "enabled", budget_tokens: 32000 }, max_tokens: 36096 },
    ],
  ];
  const effortKeys = (body: Record<string, unknown>): Record<string, unknown> => {
    const { thinking, output_config, max_tokens } = body;
    return { ...(thinking ? { thinking } : {}), ...(output_config ? { output_config } : {}), max_tokens };
  };

  test.each(TABLE)("%s, adaptive: %j", async (effort, adaptive) => {
    expect(effortKeys(await bodyOf({ messages: [user("hi")], effort }))).toEqual(adaptive);
  });

  test.each(TABLE.map(([effort, , legacy]) => [effort, legacy] as const))("%s, legacy_thinking: %j", async (effort, legacy) => {
    expect(effortKeys(await bodyOf({ messages: [user("hi")], effort }, { legacyThinking: true }))).toEqual(legacy);
  });

  test("a configured max_tokens is sent as is, and raised above a legacy budget", async () => {
    expect(effortKeys(await bodyOf({ messages: [user("hi")], effort: "high" }, { maxTokens: 8192 }))).toEqual({
      thinking: ADAPTIVE,
      output_config: { effort: "high" },
      max_tokens: 8192,
    });
    expect(effortKeys(await bodyOf({ messages: [user("hi")], effort: "high" }, { maxTokens: 8192, legacyThinking: true }))).toEqual({
      thinking: { type: "enabled", budget_tokens: 16384 },
      max_tokens: 20480,
    });
    expect(effortKeys(await bodyOf({ messages: [user("hi")] }, { maxTokens: 1000 }))).toEqual({ max_tokens: 1000 });
  });

  test("no effort anywhere leaves thinking to the model; the request's effort wins over the provider's default", async () => {
    expect(effortKeys(await bodyOf({ messages: [user("hi")] }))).toEqual({ max_tokens: 32000 });
    expect(effortKeys(await bodyOf({ messages: [user("hi")] }, { effort: "medium" }))).toMatchObject({ output_config: { effort: "medium" } });
    expect(effortKeys(await bodyOf({ messages: [user("hi")], effort: "off" }, { effort: "medium" }))).toEqual({
      thinking: { type: "disabled" },
      max_tokens: 32000,
    });
  });
});

describe("thinking off on a model that refuses `disabled`", () => {
  // Constructed from the docs, not recorded: platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting
  // lists the models that answer `thinking: {type: "disabled"}` with a 400 (Claude Fable 5, Mythos 5,
  // Mythos Preview; Sonnet 5.5, whose 400 "suggests between_tools" per models/sonnet-5-5/whats-new-sonnet-5-5).
  // The exact wording is not published; this body is shaped like error-400-tool-result-mismatch.json.
  const refusal = () =>
    jsonReply(400, {
      type: "error",
      error: { type: "invalid_request_error", message: 'thinking.type: "disabled" is not supported for this model. Use "between_tools" instead.' },
    });

  test("is sent again at once without the thinking field, and every later request of the provider leaves it out", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "off" });
    const before = server.requests.length;
    server.enqueue(refusal(), fixture("anthropic/text"), fixture("anthropic/text"));
    const first = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(first.error).toBeUndefined();
    expect(first.events.at(-1)).toMatchObject({ type: "done", stop: "stop" });
    await drain(provider.stream({ system: "", messages: [user("again")], tools: [] }, new AbortController().signal));
    const sent = server.requests.slice(before).map((r) => (r.body as Record<string, unknown>).thinking);
    expect(sent).toEqual([{ type: "disabled" }, undefined, undefined]);
  });

  test("a 400 about a thinking block's signature is not this refusal: shown, not retried", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "off" });
    const before = server.requests.length;
    server.enqueue(
      jsonReply(400, { type: "error", error: { type: "invalid_request_error", message: "messages.1.content.0: Invalid `signature` in `thinking` block" } }),
    );
    const { error } = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(error).toMatchObject({ kind: "bad_request" });
    expect(server.requests.length - before).toBe(1);
  });

  test("another 400 is not retried, and a refusal when thinking was not off is not either", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "high" });
    const before = server.requests.length;
    server.enqueue(refusal());
    const { error } = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(error).toMatchObject({ kind: "bad_request" });
    expect(server.requests.length - before).toBe(1);
  });
});

test("the SDK's own warning of a deprecated model is one notice of the run, never console.warn on each request", async () => {
  const deprecated = "claude-opus-4-5"; // in the SDK's DEPRECATED_MODELS: it console.warns on every create()
  const provider = await createAnthropicProvider({ model: deprecated, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test" });
  const warned: unknown[] = [];
  const warn = console.warn;
  console.warn = (...parts: unknown[]) => void warned.push(parts);
  try {
    server.enqueue(fixture("anthropic/text"), fixture("anthropic/text"));
    const runs = [];
    for (const text of ["hi", "again"])
      runs.push(await drain(provider.stream({ system: "", messages: [user(text)], tools: [] }, new AbortController().signal)));
    const notices = runs.flatMap((r) => r.events.filter((e) => e.type === "notice"));
    expect(notices).toEqual([{ type: "notice", message: expect.stringMatching(/^the vendor's SDK says: The model 'claude-opus-4-5' is deprecated/) }]);
    expect(runs[0]!.events[0]).toMatchObject({ type: "notice" }); // before the answer, not inside it
  } finally {
    console.warn = warn;
  }
  expect(warned).toEqual([]);
});

test("a first prompt sent whole this once (onceTail) gets no cache breakpoint: the next request cuts it, so its cache write would be read by none", async () => {
  const marks = (body: Record<string, unknown>) => (JSON.stringify(body.messages).match(/cache_control/g) ?? []).length;
  const whole = await bodyOf({ system: "sys", messages: [user("a pasted log")], tools: [READ], onceTail: true });
  expect(marks(whole)).toBe(0);
  expect(JSON.stringify(whole.system)).toContain("cache_control"); // the system prompt and tools still are
  expect(marks(await bodyOf({ system: "sys", messages: [user("a pasted log")], tools: [READ] }))).toBe(1);
});

test("a request that rewrote an earlier message (unchangedThrough) marks the last block before it too, as well as the tail: the cache reads up to there", async () => {
  const call = (id: string): Message => ({
    id: `a${id}`,
    role: "assistant",
    content: [signed("Think.", "EoQDsig")],
    toolCalls: [{ id, name: "read_file", arguments: "{}" }],
  });
  const result = (id: string, text: string): Message => ({
    id: `r${id}`,
    role: "tool",
    toolCallId: id,
    toolName: "read_file",
    content: [{ type: "text", text }],
  });
  const messages = [user("go"), call("c1"), result("c1", "one"), call("c2"), result("c2", "[pruned]"), call("c3"), result("c3", "three")];
  const marked = (body: Record<string, unknown>) =>
    (body.messages as { content: { type: string; cache_control?: unknown; id?: string; tool_use_id?: string }[] }[])
      .flatMap((t) => t.content)
      .flatMap((b) => (b.cache_control ? [b.id ?? b.tool_use_id ?? b.type] : []));
  // the tool call of c2 is the last message as the previous request sent it; its result was pruned since
  expect(marked(await bodyOf({ system: "sys", messages, tools: [READ], unchangedThrough: "ac2" }))).toEqual(["c2", "c2", "c3"]);
  expect(marked(await bodyOf({ system: "sys", messages, tools: [READ] }))).toEqual(["c2", "c3"]);
  // never on thinking, which takes no mark: the block before it instead
  const thinking = [user("go"), { id: "t", role: "assistant" as const, content: [signed("Think.", "EoQDsig"), { type: "text" as const, text: "ok" }] }];
  const body = await bodyOf({ system: "sys", messages: [...thinking, user("more")], tools: [READ], unchangedThrough: "t" }, { effort: "high" });
  expect(JSON.stringify(body.messages)).toContain('"text":"ok","cache_control"');
});

test("a tail sent this once (onceTail) later in a conversation: no mark on it, but the mark where the previous request ended stays, so this one still reads the cache", async () => {
  const call: Message = { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read_file", arguments: "{}" }] };
  const result: Message = { id: "r1", role: "tool", toolCallId: "c1", toolName: "read_file", content: [{ type: "text", text: "a huge read" }] };
  const body = await bodyOf({ system: "sys", messages: [user("go"), call, result], tools: [READ], onceTail: true });
  const turns = body.messages as { content: { cache_control?: unknown }[] }[];
  expect(turns.map((t) => t.content.some((b) => b.cache_control))).toEqual([true, false, false]);
});

describe("thinking of earlier turns", () => {
  const earlier: Message[] = [
    user("first"),
    { id: "a1", role: "assistant", content: [signed("Plan it.", "EoQDsig"), { type: "text", text: "Planned." }] },
    user("second"),
  ];
  const blocksOf = async (effort: "high" | "off") =>
    ((await bodyOf({ messages: earlier }, { effort })).messages as { content: { type: string }[] }[])[1]!.content.map((b) => b.type);

  test("goes back with thinking on (the model keeps it in context: the prefix cached at the first prompt is the one the second repeats)", async () => {
    expect(await blocksOf("high")).toEqual(["thinking", "text"]);
  });

  test("is left out with thinking off", async () => {
    expect(await blocksOf("off")).toEqual(["text"]);
  });

  test("with thinking off, the turn in progress keeps its own, though the context line rides on its results", async () => {
    const loop: Message[] = [
      user("fix it"),
      { id: "a1", role: "assistant", content: [signed("Look first.", "EoQDsig")], toolCalls: [{ id: "toolu_1", name: "read", arguments: '{"path":"a"}' }] },
      result("toolu_1", "a.ts"),
    ];
    const body = await bodyOf({ messages: loop, note: "Context: 10% of the budget used." }, { effort: "off" });
    expect((body.messages as { content: { type: string }[] }[])[1]!.content.map((b) => b.type)).toEqual(["thinking", "tool_use"]);
  });
});

describe("a reply of thinking alone (Claude ending a task so, or cut off by max_tokens while it thought)", () => {
  // The API refuses an assistant turn whose last block is thinking, and one with no content; the
  // replay server answers both with those 400s (invariants-anthropic.ts), so each request here is checked.
  const alone: Message = { id: "a-alone", role: "assistant", content: [signed("Two names, then.", "EoQDsig")] };
  const call: Message = {
    id: "a1",
    role: "assistant",
    content: [signed("Look first.", "EoQDcall")],
    toolCalls: [{ id: "toolu_1", name: "read", arguments: '{"path":"a"}' }],
  };
  type Sent = { role: string; content: { type: string; text?: string }[] }[];
  const shapes = (messages: unknown) => (messages as Sent).map((m) => `${m.role}:${m.content.map((b) => b.type).join(",")}`);

  test.each(["high", "off"] as const)("is left out with thinking %s: the prompt it left unanswered and the next go as one user turn", async (effort) => {
    const sent = await messagesOf([user("name my pelican"), alone, user("two names, please")], { effort });
    expect(sent).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "name my pelican" },
          { type: "text", text: "two names, please" },
        ],
      },
    ]);
  });

  test.each([
    ["high", "assistant:thinking,tool_use"],
    ["off", "assistant:tool_use"], // the task it thought for ended: an earlier turn's, as with any prompt after it
  ] as const)("after tool work, with thinking %s: the next prompt joins the results; the call goes as %s", async (effort, called) => {
    const sent = await messagesOf([user("fix it"), call, result("toolu_1", "a.ts"), alone, user("what did you find?")], { effort });
    expect(shapes(sent)).toEqual(["user:text", called, "user:tool_result,text"]);
  });

  test("a redacted_thinking block alone (redacted-thinking.sse's first block) is left out too", async () => {
    const redacted: Message = {
      id: "a5",
      role: "assistant",
      content: [{ type: "thinking", text: "", opaque: { protocol: "anthropic", model: MODEL, data: { redacted: "EmwKAhgBEgy3va3pzix" } } }],
    };
    expect(shapes(await messagesOf([user("q"), redacted, user("again")], { effort: "high" }))).toEqual(["user:text,text"]);
  });

  test("thinking after a turn's last text is left out; the thinking before it stays", async () => {
    const trailing: Message = { id: "a2", role: "assistant", content: [signed("Plan.", "EoQDa"), { type: "text", text: "Pouch." }, signed("More?", "EoQDb")] };
    const sent = (await messagesOf([user("q"), trailing, user("again")], { effort: "high" })) as Sent;
    expect(sent[1]!.content.map((b) => b.type)).toEqual(["thinking", "text"]);
  });

  test("a blank text beside it (adaptive thinking's leading \\n\\n) is no answer either", async () => {
    const blank: Message = { id: "a3", role: "assistant", content: [signed("Hmm.", "EoQDc"), { type: "text", text: "\n\n" }] };
    expect(shapes(await messagesOf([user("q"), blank, user("again")], { effort: "high" }))).toEqual(["user:text,text"]);
  });

  test("the API's refusal of a turn ending in thinking (a gateway that changed it) sends the request again at once without earlier turns' thinking, and every later one", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "high" });
    const before = server.requests.length;
    server.enqueue(
      invalidRequest("messages.1: The final block in an assistant message cannot be `thinking`."),
      fixture("anthropic/text"),
      fixture("anthropic/text"),
    );
    const history = [
      user("q"),
      { id: "a4", role: "assistant" as const, content: [signed("Plan.", "EoQDd"), { type: "text" as const, text: "Done." }] },
      user("again"),
    ];
    const first = await drain(provider.stream({ system: "", messages: history, tools: [] }, new AbortController().signal));
    expect(first.error).toBeUndefined();
    await drain(provider.stream({ system: "", messages: history, tools: [] }, new AbortController().signal));
    const sent = server.requests.slice(before).map((r) => shapes((r.body as { messages: unknown }).messages));
    expect(sent).toEqual([
      ["user:text", "assistant:thinking,text", "user:text"],
      ["user:text", "assistant:text", "user:text"],
      ["user:text", "assistant:text", "user:text"],
    ]);
  });
});

describe("thinking bound to a conversation whose prefix changed (preserved thinking)", () => {
  // The error's words are quoted from platform.claude.com/docs/en/build-with-claude/preserved-thinking/
  // fix-bound-to-a-different-conversation (not recorded): a model with preserved thinking refuses a block
  // sent back once anything before it changed, as a summary or a trim within a turn does.
  const bound = () =>
    invalidRequest(
      'messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
    );
  const turn = [
    user("fix it"),
    {
      id: "a1",
      role: "assistant" as const,
      content: [{ type: "thinking" as const, text: "look first", opaque: { protocol: "anthropic" as const, model: MODEL, data: { signature: "sig" } } }],
      toolCalls: [{ id: "toolu_1", name: "bash", arguments: '{"command":"ls"}' }],
    },
    { id: "r1", role: "tool" as const, toolCallId: "toolu_1", toolName: "bash", content: [{ type: "text" as const, text: "a.ts" }] },
  ];

  test("is sent again at once asking the API to drop such blocks, with its beta header beside the configured one; every later request too", async () => {
    const headers = { "anthropic-beta": "context-1m-2025-08-07" };
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "high", headers });
    const before = server.requests.length;
    server.enqueue(bound(), fixture("anthropic/text"), fixture("anthropic/text"));
    const first = await drain(provider.stream({ system: "", messages: turn, tools: [] }, new AbortController().signal));
    expect(first.error).toBeUndefined();
    expect(first.events.at(-1)).toMatchObject({ type: "done" });
    await drain(provider.stream({ system: "", messages: [user("again")], tools: [] }, new AbortController().signal));
    const sent = server.requests.slice(before);
    expect(sent.map((r) => (r.body as Record<string, unknown>).thinking)).toEqual([
      { type: "adaptive" },
      { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } },
      { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } },
    ]);
    expect(sent.map((r) => r.headers["anthropic-beta"])).toEqual([
      "context-1m-2025-08-07",
      "context-1m-2025-08-07,thinking-binding-controls-2026-08-01",
      "context-1m-2025-08-07,thinking-binding-controls-2026-08-01",
    ]);
    // the block itself still goes: the API judges it
    expect(JSON.stringify(sent[1]!.body)).toContain('"signature":"sig"');
  });

  test("with thinking off the blocks themselves are left out (the setting needs thinking on); a second such refusal is shown", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "off" });
    const before = server.requests.length;
    server.enqueue(bound(), fixture("anthropic/text"), bound());
    expect((await drain(provider.stream({ system: "", messages: turn, tools: [] }, new AbortController().signal))).error).toBeUndefined();
    const again = server.requests.slice(before)[1]!.body as { thinking?: unknown; messages: { content: { type: string }[] }[] };
    expect(again.thinking).toEqual({ type: "disabled" });
    expect(again.messages[1]!.content.map((b) => b.type)).toEqual(["tool_use"]);
    const { error } = await drain(provider.stream({ system: "", messages: turn, tools: [] }, new AbortController().signal));
    expect(error).toMatchObject({ kind: "bad_request" });
    expect(server.requests.length - before).toBe(3);
  });
});

describe("a thinking mode the model refuses", () => {
  // Constructed from platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting (Claude 4.5
  // and earlier reject "adaptive", Claude 4.7 and later reject "enabled", each with a 400); the words
  // of those 400s are not published, so these bodies are made up in the API's error shape.
  const refusal = (message: string) => jsonReply(400, { type: "error", error: { type: "invalid_request_error", message } });
  const thinkingOf = (r: RecordedRequest) => (r.body as Record<string, unknown>).thinking;

  test("adaptive refused: the same request again at once with budget thinking, and from then on; never switched back — the other refused too, none is sent", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "high" });
    const before = server.requests.length;
    server.enqueue(refusal("thinking.type: adaptive thinking is not supported on this model"), fixture("anthropic/text"), fixture("anthropic/text"));
    for (const text of ["hi", "again"]) await drain(provider.stream({ system: "", messages: [user(text)], tools: [] }, new AbortController().signal));
    expect(server.requests.slice(before).map(thinkingOf)).toEqual([
      { type: "adaptive" },
      { type: "enabled", budget_tokens: 16384 },
      { type: "enabled", budget_tokens: 16384 },
    ]);
    // refusing both modes, the model takes no thinking (an effort chosen for another model: /model, -c -m)
    server.enqueue(refusal("thinking.type.enabled is not supported for this model; use adaptive"), fixture("anthropic/text"));
    const { error, events } = await drain(provider.stream({ system: "", messages: [user("third")], tools: [] }, new AbortController().signal));
    expect(error).toBeUndefined();
    expect(server.requests.slice(before + 3).map(thinkingOf)).toEqual([{ type: "enabled", budget_tokens: 16384 }, undefined]);
    expect(events.filter((e) => e.type === "notice")).toEqual([{ type: "notice", message: "this model takes no reasoning effort: none is sent from now on" }]);
  });

  test("a model that does not think at all (Claude 3.5 Haiku given an effort chosen for another model) gets the request again without thinking or effort", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "max" });
    const before = server.requests.length;
    server.enqueue(refusal("'claude-3-5-haiku-20241022' does not support thinking."), fixture("anthropic/text"));
    const { error } = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(error).toBeUndefined();
    const sent = server.requests.slice(before).map((r) => r.body as Record<string, unknown>);
    expect(sent.map((b) => [b.thinking, b.output_config])).toEqual([
      [{ type: "adaptive" }, { effort: "max" }],
      [undefined, undefined],
    ]);
  });

  test("legacy_thinking on a model that takes adaptive only: adaptive with the effort instead", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "low", legacyThinking: true });
    const before = server.requests.length;
    server.enqueue(
      refusal("thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and output_config.effort."),
      fixture("anthropic/text"),
    );
    const { error } = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(error).toBeUndefined();
    const sent = server.requests.slice(before).map((r) => r.body as Record<string, unknown>);
    expect(sent.map((b) => [b.thinking, b.output_config])).toEqual([
      [{ type: "enabled", budget_tokens: 2048 }, undefined],
      [{ type: "adaptive" }, { effort: "low" }],
    ]);
  });

  test("a 400 about the thinking block the turn must start with is not a refused mode: shown, not retried", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "high" });
    const before = server.requests.length;
    server.enqueue(
      refusal(
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.",
      ),
    );
    const { error } = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(error).toMatchObject({ kind: "bad_request" });
    expect(server.requests.length - before).toBe(1);
  });
});

describe("an endpoint that allows less output than hey's default max_tokens", () => {
  // The wording of Anthropic's 400 for a model with a smaller output limit, as users report it (no
  // recording here): "max_tokens: 32000 > 8192, which is the maximum allowed number of output tokens for …".
  const tooMany = () => invalidRequest("max_tokens: 32000 > 8192, which is the maximum allowed number of output tokens for claude-3-5-haiku-20241022");

  test("the request is sent again at once with the stated limit, and so are the provider's later ones", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test" });
    const before = server.requests.length;
    server.enqueue(tooMany(), fixture("anthropic/text"), fixture("anthropic/text"));
    const first = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(first.error).toBeUndefined();
    await drain(provider.stream({ system: "", messages: [user("again")], tools: [] }, new AbortController().signal));
    expect(server.requests.slice(before).map((r) => (r.body as Record<string, unknown>).max_tokens)).toEqual([32000, 8192, 8192]);
  });

  test("a max_tokens the user configured is theirs: the 400 is shown, not worked around", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", maxTokens: 32000 });
    const before = server.requests.length;
    server.enqueue(tooMany());
    const { error } = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(error).toMatchObject({ kind: "bad_request" });
    expect((error as Error).message).toContain("8192, which is the maximum allowed number of output tokens");
    expect(server.requests.length - before).toBe(1);
  });
});

describe("an effort level the model does not take", () => {
  // Anthropic's words (anthropics/claude-code#81084); no recording here.
  const refused = () =>
    jsonReply(400, {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "output_config.effort 'xhigh' is not supported when thinking is disabled on this model. Use effort 'high' or below, or enable thinking.",
      },
    });

  test("goes as the nearest level it names, for this request and the provider's later ones; the notice comes once", async () => {
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", effort: "xhigh" });
    const before = server.requests.length;
    server.enqueue(refused(), fixture("anthropic/text"), fixture("anthropic/text"));
    const first = await drain(provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    const second = await drain(provider.stream({ system: "", messages: [user("again")], tools: [] }, new AbortController().signal));
    expect(first.error).toBeUndefined();
    expect([...first.events, ...second.events].filter((e) => e.type === "notice")).toEqual([
      { type: "notice", message: "this model does not take effort xhigh: high is sent instead" },
    ]);
    expect(server.requests.slice(before).map((r) => (r.body as { output_config?: { effort: string } }).output_config?.effort)).toEqual([
      "xhigh",
      "high",
      "high",
    ]);
  });
});

describe("base URL", () => {
  test.each([
    ["https://api.anthropic.com/v1", "https://api.anthropic.com"],
    ["https://api.anthropic.com/v1/", "https://api.anthropic.com"],
    ["https://api.anthropic.com", "https://api.anthropic.com"],
    ["https://api.anthropic.com/", "https://api.anthropic.com"],
    ["https://gateway.example/anthropic/v1", "https://gateway.example/anthropic"],
    ["http://localhost:8080/v1beta", "http://localhost:8080/v1beta"],
    ["http://localhost:8080/v1/v1", "http://localhost:8080/v1"],
  ])("%s → %s", (given, sdk) => {
    expect(anthropicBaseUrl(given)).toBe(sdk);
  });

  test.each([[""], ["/v1"], ["/v1/"]])("the request goes to /v1/messages with base URL suffix %j", async (suffix) => {
    server.enqueue(fixture("anthropic/text"));
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: `${server.url}${suffix}` });
    for await (const _ of provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal));
    expect(server.requests.at(-1)?.path).toBe("/v1/messages");
  });
});

/** Sets variables for one test and restores them after it. */
async function withEnv<T>(vars: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

describe("request headers", () => {
  test("a key is sent both as x-api-key and as Bearer, with anthropic-version and the configured headers", async () => {
    const req = await send({ messages: [user("hi")] }, { apiKey: "KEY", headers: { "X-Title": "hey" } });
    expect(req.headers["x-api-key"]).toBe("KEY");
    expect(req.headers.authorization).toBe("Bearer KEY");
    expect(req.headers["anthropic-version"]).toBe("2026-10-21");
    expect(req.headers["x-title"]).toBe("hey");
  });

  test("a configured header wins over hey's own (a gateway that wants an older anthropic-version)", async () => {
    const req = await send({ messages: [user("hi")] }, { headers: { "anthropic-version": "2023-06-01" } });
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
  });

  test.each([
    ["no", undefined],
    ["an empty", ""],
  ])("%s key: no authentication header at all, whatever the environment says", async (_name, apiKey) => {
    const env = { ANTHROPIC_API_KEY: "sk-from-env", ANTHROPIC_AUTH_TOKEN: "tok-from-env", ANTHROPIC_BASE_URL: "http://127.0.0.1:9/never" };
    const req = await withEnv(env, () => send({ messages: [user("hi")] }, { apiKey }));
    expect(req.path).toBe("/v1/messages");
    expect(req.headers).not.toHaveProperty("authorization");
    expect(req.headers).not.toHaveProperty("x-api-key");
  });

  test("with a key, the environment's key and base URL are ignored", async () => {
    const env = { ANTHROPIC_API_KEY: "sk-from-env", ANTHROPIC_AUTH_TOKEN: "tok-from-env", ANTHROPIC_BASE_URL: "http://127.0.0.1:9/never" };
    const req = await withEnv(env, () => send({ messages: [user("hi")] }, { apiKey: "KEY" }));
    expect(req.headers.authorization).toBe("Bearer KEY");
    expect(req.headers["x-api-key"]).toBe("KEY");
  });

  test("ANTHROPIC_CUSTOM_HEADERS is not sent; a configured header of the same name is", async () => {
    const env = { ANTHROPIC_CUSTOM_HEADERS: "X-Gateway-Secret: s3cret\nX-Team: a" };
    const req = await withEnv(env, () => send({ messages: [user("hi")] }, { headers: { "x-team": "hey" } }));
    expect(req.headers).not.toHaveProperty("x-gateway-secret");
    expect(req.headers["x-team"]).toBe("hey");
  });

  test("without a key, a configured Authorization header is sent as given", async () => {
    const req = await send({ messages: [user("hi")] }, { apiKey: undefined, headers: { authorization: "Token gateway-secret" } });
    expect(req.headers.authorization).toBe("Token gateway-secret");
    expect(req.headers).not.toHaveProperty("x-api-key");
  });

  describe("on-disk Anthropic profiles are never read", () => {
    const dirs: string[] = [];
    /** A user_oauth profile with a token and a workspace, as `ant` would leave it. */
    const profileEnv = () => {
      const dir = mkdtempSync(join(tmpdir(), "hey-anthropic-profile-"));
      dirs.push(dir);
      mkdirSync(join(dir, "configs"));
      mkdirSync(join(dir, "credentials"), { mode: 0o700 });
      writeFileSync(join(dir, "configs", "default.json"), JSON.stringify({ authentication: { type: "user_oauth" }, workspace_id: "wrk_disk" }));
      writeFileSync(join(dir, "credentials", "default.json"), JSON.stringify({ type: "oauth_token", access_token: "tok-from-disk" }), { mode: 0o600 });
      return { ANTHROPIC_CONFIG_DIR: dir, HOME: dir };
    };
    afterEach(() => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    test("a profile on disk adds no header to a keyless request", async () => {
      const req = await withEnv(profileEnv(), () => send({ messages: [user("hi")] }, { apiKey: undefined }));
      expect(req.headers).not.toHaveProperty("authorization");
      expect(req.headers).not.toHaveProperty("anthropic-workspace-id");
      expect(req.headers).not.toHaveProperty("anthropic-beta");
    });

    test("ANTHROPIC_PROFILE naming a missing profile does not break a keyless request", async () => {
      const req = await withEnv({ ...profileEnv(), ANTHROPIC_PROFILE: "missing" }, () => send({ messages: [user("hi")] }, { apiKey: undefined }));
      expect(req.path).toBe("/v1/messages");
    });

    test("control: the stock SDK client, keyless as sdk-facts §2.1 suggests, does read them", async () => {
      const stock = () => new Anthropic({ baseURL: server.url, apiKey: null, defaultHeaders: { Authorization: null }, maxRetries: 0 });
      const req = await withEnv(profileEnv(), async () => {
        server.enqueue(fixture("anthropic/text"));
        for await (const _ of await stock().messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: "user", content: "hi" }], stream: true }));
        return server.requests.at(-1);
      });
      expect(req?.headers["anthropic-workspace-id"]).toBe("wrk_disk");
      const missing = withEnv({ ...profileEnv(), ANTHROPIC_PROFILE: "missing" }, () =>
        stock().messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: "user", content: "hi" }], stream: true }),
      );
      await expect(missing).rejects.toThrow('ANTHROPIC_PROFILE names the profile "missing"');
    });
  });
});

describe("the Anthropic tool-pairing invariant", () => {
  test("a tool_use without its result is refused with a 400 naming the id, and recorded", async () => {
    const messages: Message[] = [
      user("q"),
      { id: "a", role: "assistant", content: [], toolCalls: [{ id: "toolu_lost", name: "read", arguments: "{}" }] },
      user("next"),
    ];
    const provider = await createAnthropicProvider({ model: MODEL, baseUrl: server.url });
    const run = async () => {
      for await (const _ of provider.stream({ system: "", messages, tools: [] }, new AbortController().signal));
    };
    await expect(run()).rejects.toMatchObject({ kind: "bad_request", message: expect.stringContaining("toolu_lost") });
    expect(server.violations).toEqual(["tool_use toolu_lost has 0 tool_result blocks in the next user message, expected exactly 1"]);
    server.violations.length = 0;
  });

  const use = (...ids: string[]) => ({ role: "assistant", content: ids.map((id) => ({ type: "tool_use", id, name: "t", input: {} })) });
  const results = (...ids: string[]) => ({ role: "user", content: ids.map((id) => ({ type: "tool_result", tool_use_id: id })) });
  const CASES: [string, unknown[], string[]][] = [
    ["answered once", [use("a", "b"), results("a", "b")], []],
    ["answered twice", [use("a"), results("a", "a")], ["tool_use a has 2 tool_result blocks in the next user message, expected exactly 1"]],
    [
      "answered two turns later",
      [use("a"), { role: "user", content: [{ type: "text", text: "hm" }] }, results("a")],
      [
        "tool_use a has 0 tool_result blocks in the next user message, expected exactly 1",
        "tool_result a answers no tool_use of the previous assistant message",
      ],
    ],
    [
      "a result after text in its user message",
      [
        use("a"),
        {
          role: "user",
          content: [
            { type: "text", text: "x" },
            { type: "tool_result", tool_use_id: "a" },
          ],
        },
      ],
      ["tool_result a comes after other content in its user message"],
    ],
    ["a reused id", [use("a"), results("a"), use("a"), results("a")], ["tool_use id a is used twice"]],
    [
      "the recorded 400: a result for an unknown id",
      [{ role: "user", content: [{ type: "text", text: "q" }] }, use("a"), results("a", "toolu_01GHndag5wQmbzNihYmV2UBj")],
      ["tool_result toolu_01GHndag5wQmbzNihYmV2UBj answers no tool_use of the previous assistant message"],
    ],
  ];
  test.each(
    CASES.map(([name, messages, problems]) => ({ title: `${name} → ${problems.length === 0 ? "no problems" : problems.join("; ")}`, messages, problems })),
  )("$title", ({ messages, problems }) => {
    expect(anthropicToolPairs.check({ messages })).toEqual(problems);
  });

  test("applies to the Messages endpoint only", () => {
    expect(["/v1/messages", "/anthropic/v1/messages", "/v1/chat/completions", "/v1/messages/count_tokens"].map(anthropicToolPairs.applies)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
