// The exact JSON body and headers the chat-completions adapter sends, as recorded by the replay
// server on the far side of the real openai SDK.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import type { Effort, Message, ToolSpec } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider } from "../../src/kernel/provider.ts";
import { createOpenAIProvider, requestOptionsFor } from "../../src/providers/openai.ts";
import type { AdapterOptions } from "../../src/providers/common.ts";
import { jsonReply, openaiChatToolPairs, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import type { RecordedRequest } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const OK = sse([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" })]);

/** Sends `request` and returns what the server received. */
async function send(request: Partial<ModelRequest>, opts: Partial<AdapterOptions> = {}): Promise<RecordedRequest> {
  server.enqueue(sseReply(OK));
  const provider: Provider = await createOpenAIProvider({ model: "gpt-test", baseUrl: `${server.url}/v1`, ...opts });
  const full: ModelRequest = { system: "", messages: [], tools: [], ...request };
  for await (const _ of provider.stream(full, new AbortController().signal));
  const recorded = server.requests.at(-1);
  if (!recorded) throw new Error("no request recorded");
  return recorded;
}
const bodyOf = async (request: Partial<ModelRequest>, opts: Partial<AdapterOptions> = {}) => (await send(request, opts)).body as Record<string, unknown>;

const user = (text: string): Message => ({ id: `u-${text}`, role: "user", content: [{ type: "text", text }] });
const READ: ToolSpec = {
  name: "read",
  description: "Read a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

describe("request body", () => {
  test("a plain prompt: system + user, stream with usage, no tools key, no reasoning_effort, no max tokens", async () => {
    const req = await send({ system: "You are terse.", messages: [user("hi")] });
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.body).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "hi" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test("tools are sent as function tools", async () => {
    const body = await bodyOf({ messages: [user("hi")], tools: [READ] });
    expect(body.tools).toEqual([{ type: "function", function: READ }]);
  });

  test("a parallel tool-call turn and its results, an error result as plain text, an image as a data URL", async () => {
    const messages: Message[] = [
      {
        id: "1",
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mediaType: "image/png", data: "iVBORw0K" },
        ],
      },
      {
        id: "2",
        role: "assistant",
        content: [{ type: "text", text: "Reading both." }],
        toolCalls: [
          { id: "call_a", name: "read", arguments: '{"path":"a.txt"}' },
          { id: "call_b", name: "read", arguments: '{"path":"b.txt"}' },
        ],
      },
      { id: "3", role: "tool", toolCallId: "call_a", toolName: "read", content: [{ type: "text", text: "A" }] },
      { id: "4", role: "tool", toolCallId: "call_b", toolName: "read", isError: true, content: [{ type: "text", text: "error: no such file" }] },
      { id: "5", role: "assistant", content: [], toolCalls: [{ id: "call_c", name: "read", arguments: "{}" }] },
      { id: "6", role: "tool", toolCallId: "call_c", content: [{ type: "text", text: "C" }] },
    ];
    const body = await bodyOf({ system: "sys", messages, tools: [READ] });
    expect(body.messages).toEqual([
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0K" } },
        ],
      },
      {
        role: "assistant",
        content: "Reading both.",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } },
          { id: "call_b", type: "function", function: { name: "read", arguments: '{"path":"b.txt"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "A" },
      { role: "tool", tool_call_id: "call_b", content: "error: no such file" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_c", type: "function", function: { name: "read", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_c", content: "C" },
    ]);
  });

  describe("DeepSeek reasoning_content round-trip", () => {
    const MODEL = "deepseek-reasoner";
    const thought = (text: string, protocol: "openai" | "anthropic" = "openai", model = MODEL) => ({
      type: "thinking" as const,
      text,
      opaque: { protocol, model },
    });
    const callTurn = (id: string, thinking: Message["content"]): Message[] => [
      { id: `a-${id}`, role: "assistant", content: thinking, toolCalls: [{ id, name: "read", arguments: "{}" }] },
      { id: `t-${id}`, role: "tool", toolCallId: id, content: [{ type: "text", text: "done" }] },
    ];
    const assistants = async (messages: Message[]) =>
      ((await bodyOf({ messages }, { model: MODEL })).messages as Record<string, unknown>[]).filter((m) => m.role === "assistant");

    test("is sent on a tool-call turn of the same model, even before the last user message", async () => {
      const sent = await assistants([user("q1"), ...callTurn("call_1", [thought("I should read.")]), user("q2")]);
      expect(sent).toEqual([
        {
          role: "assistant",
          content: null,
          reasoning_content: "I should read.",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: "{}" } }],
        },
      ]);
    });

    test("is sent on a turn after the last user message, and dropped from older turns without tool calls", async () => {
      const sent = await assistants([
        user("q1"),
        { id: "a1", role: "assistant", content: [thought("old"), { type: "text", text: "A1" }] },
        user("q2"),
        { id: "a2", role: "assistant", content: [thought("new"), { type: "text", text: "A2" }] },
      ]);
      expect(sent).toEqual([
        { role: "assistant", content: "A1" },
        { role: "assistant", content: "A2", reasoning_content: "new" },
      ]);
    });

    test.each([
      ["another model", [thought("theirs", "openai", "deepseek-chat")]],
      ["another protocol", [thought("signed elsewhere", "anthropic")]],
      ["no origin at all", [{ type: "thinking" as const, text: "unknown" }]],
    ])("is never sent when the thinking came from %s: the field DeepSeek demands on a tool-call turn goes empty", async (_name, thinking) => {
      const [sent] = await assistants([user("q"), ...callTurn("call_x", thinking)]);
      expect(sent).toBeDefined();
      expect(sent!.reasoning_content).toBe("");
    });

    test("an endpoint that wants every tool-call turn's reasoning gets another model's turn with it empty, never that model's thinking", async () => {
      const messages = [user("q1"), ...callTurn("call_x", [thought("theirs", "anthropic")]), ...callTurn("call_y", [thought("mine")]), user("q2")];
      const sent = ((await bodyOf({ messages }, { model: MODEL, compat: { reasoningReplay: true } })).messages as Record<string, unknown>[]).filter(
        (m) => m.role === "assistant",
      );
      expect(sent.map((m) => m.reasoning_content)).toEqual(["", "mine"]);
    });
  });

  describe("OpenRouter's reasoning_details and a server's `reasoning`", () => {
    const MODEL = "google/gemini-3-pro-preview";
    const DETAILS = [{ type: "reasoning.encrypted", data: "sig", id: "tool_1", format: "google-gemini-v1", index: 0 }];
    const turn = (opaque: Record<string, unknown>): Message[] => [
      user("q"),
      {
        id: "a1",
        role: "assistant",
        content: [{ type: "thinking", text: "I should read.", opaque: { protocol: "openai", model: MODEL, ...opaque } }],
        toolCalls: [{ id: "tool_1", name: "read", arguments: "{}" }],
      },
      { id: "t1", role: "tool", toolCallId: "tool_1", content: [{ type: "text", text: "done" }] },
    ];
    const assistant = async (messages: Message[], model = MODEL) =>
      ((await bodyOf({ messages }, { model })).messages as Record<string, unknown>[]).find((m) => m.role === "assistant")!;

    test("the details go back on the call's message in place of the text, unchanged; the reasoning streamed as `reasoning` goes back as `reasoning`", async () => {
      const withDetails = await assistant(turn({ data: { field: "reasoning", details: DETAILS } }));
      expect(withDetails.reasoning_details).toEqual(DETAILS);
      expect(Object.keys(withDetails).filter((k) => k.startsWith("reasoning"))).toEqual(["reasoning_details"]);
      expect((await assistant(turn({ data: { field: "reasoning" } }))).reasoning).toBe("I should read.");
    });

    test("another model (after /model) gets none of them", async () => {
      const sent = await assistant(turn({ data: { details: DETAILS } }), "anthropic/claude-sonnet-4.5");
      expect(Object.keys(sent).filter((k) => k.startsWith("reasoning"))).toEqual([]);
    });
  });

  test.each([
    ["off", "none"],
    ["minimal", "minimal"],
    ["high", "high"],
    ["xhigh", "xhigh"],
    ["max", "max"],
  ] as [Effort, string][])("effort %s is sent as reasoning_effort %s", async (effort, wire) => {
    expect((await bodyOf({ messages: [user("hi")], effort })).reasoning_effort).toBe(wire);
  });

  test("the request's effort wins over the provider's default", async () => {
    expect((await bodyOf({ messages: [user("hi")] }, { effort: "low" })).reasoning_effort).toBe("low");
    expect((await bodyOf({ messages: [user("hi")], effort: "off" }, { effort: "low" })).reasoning_effort).toBe("none");
  });

  test("a level the model refuses is sent again at once as its nearest, and so from then on", async () => {
    // The 400 as Kilo-Org/cloud#3807 quotes it (Kimi behind an OpenAI-compatible endpoint); not recorded here.
    const refusal = jsonReply(400, {
      error: {
        message: "Unsupported value: 'reasoning_effort' does not support 'none' with this model. Supported values are: 'minimal', 'low', 'medium', and 'high'.",
        type: "invalid_request_error",
      },
    });
    const provider = await createOpenAIProvider({ model: "gpt-test", baseUrl: `${server.url}/v1`, effort: "off" });
    const before = server.requests.length;
    server.enqueue(refusal, sseReply(OK), sseReply(OK));
    for (const text of ["hi", "again"]) for await (const _ of provider.stream({ system: "", messages: [user(text)], tools: [] }, new AbortController().signal));
    expect(server.requests.slice(before).map((r) => (r.body as Record<string, unknown>).reasoning_effort)).toEqual(["none", "minimal", "minimal"]);
  });

  /** A fetch that sends every request to the replay server, whatever host the SDK aimed at. */
  const redirect = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    return fetch(`${server.url}${url.pathname}`, init);
  }) as typeof fetch;

  test.each([
    ["https://api.openai.com/v1", "max_completion_tokens", "max_tokens"],
    ["https://api.deepseek.com", "max_tokens", "max_completion_tokens"],
    ["http://localhost:11434/v1", "max_tokens", "max_completion_tokens"],
  ])("max tokens for %s is sent as %s", async (baseUrl, field, other) => {
    const body = await bodyOf({ messages: [user("hi")] }, { baseUrl, maxTokens: 4096, fetch: redirect });
    expect(body[field]).toBe(4096);
    expect(body).not.toHaveProperty(other);
  });
});

describe("request headers", () => {
  test.each([
    ["no", undefined],
    ["an empty", ""],
  ])("%s API key: no Authorization header at all, even with OPENAI_API_KEY in the environment", async (_name, apiKey) => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-from-env";
    try {
      const req = await send({ messages: [user("hi")] }, apiKey === undefined ? {} : { apiKey });
      expect(req.headers).not.toHaveProperty("authorization");
      expect(req.headers).not.toHaveProperty("api-key");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  test("an API key is sent as Bearer, with the configured extra headers", async () => {
    const req = await send({ messages: [user("hi")] }, { apiKey: "KEY", headers: { "X-Title": "hey", "HTTP-Referer": "https://example.test" } });
    expect(req.headers.authorization).toBe("Bearer KEY");
    expect(req.headers["x-title"]).toBe("hey");
    expect(req.headers["http-referer"]).toBe("https://example.test");
  });

  test("without a key, a configured Authorization header is sent as given", async () => {
    const req = await send({ messages: [user("hi")] }, { headers: { authorization: "Token gateway-secret" } });
    expect(req.headers.authorization).toBe("Token gateway-secret");
  });

  test("OPENAI_BASE_URL and OPENAI_ORG_ID in the environment are ignored", async () => {
    const saved = { base: process.env.OPENAI_BASE_URL, org: process.env.OPENAI_ORG_ID };
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/never";
    process.env.OPENAI_ORG_ID = "org-from-env";
    try {
      const req = await send({ messages: [user("hi")] }, { apiKey: "KEY" });
      expect(req.path).toBe("/v1/chat/completions");
      expect(req.headers).not.toHaveProperty("openai-organization");
    } finally {
      for (const [k, v] of [
        ["OPENAI_BASE_URL", saved.base],
        ["OPENAI_ORG_ID", saved.org],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });
});

describe("compatibility flags ([provider.NAME] keys that hey doctor writes)", () => {
  const callTurn: Message[] = [
    user("q"),
    {
      id: "a",
      role: "assistant",
      content: [{ type: "thinking", text: "I should read.", opaque: { protocol: "openai", model: "gpt-test" } }],
      toolCalls: [{ id: "c1", name: "read", arguments: "{}" }],
    },
    { id: "t", role: "tool", toolCallId: "c1", content: [{ type: "text", text: "done" }] },
  ];

  test("defaults: system role, reasoning_content replayed with the tool call, no parallel_tool_calls, max_tokens off api.openai.com", async () => {
    const body = await bodyOf({ system: "S", messages: callTurn, tools: [READ], maxTokens: 99 });
    expect((body.messages as unknown[])[0]).toEqual({ role: "system", content: "S" });
    expect(JSON.stringify(body.messages)).toContain('"reasoning_content":"I should read."');
    expect(body).not.toHaveProperty("parallel_tool_calls");
    expect(body.max_tokens).toBe(99);
  });

  test("system_role, reasoning_replay, parallel_tool_calls and max_tokens_field change the body", async () => {
    const compat = { systemRole: "developer", reasoningReplay: false, parallelToolCalls: false, maxTokensField: "max_completion_tokens" } as const;
    const body = await bodyOf({ system: "S", messages: callTurn, tools: [READ], maxTokens: 99 }, { compat });
    expect((body.messages as unknown[])[0]).toEqual({ role: "developer", content: "S" });
    expect(JSON.stringify(body.messages)).not.toContain("reasoning_content");
    expect(body.parallel_tool_calls).toBe(false);
    expect(body).toMatchObject({ max_completion_tokens: 99 });
    expect(body).not.toHaveProperty("max_tokens");
  });

  test("reasoning of an earlier user turn's tool calls goes back in every later request, as it went with their results: the cached prefix holds", async () => {
    const twoTurns: Message[] = [...callTurn, { id: "a2", role: "assistant", content: [{ type: "text", text: "read it" }] }, user("and now?")];
    const replayed = (body: Record<string, unknown>) => JSON.stringify(body.messages).includes('"reasoning_content":"I should read."');
    expect(replayed(await bodyOf({ messages: twoTurns, tools: [READ] }))).toBe(true);
    expect(replayed(await bodyOf({ messages: twoTurns, tools: [READ] }, { model: "deepseek-v4-pro" }))).toBe(false); // another model's reasoning is never sent
    const deepseek: Message[] = JSON.parse(JSON.stringify(twoTurns).replaceAll('"model":"gpt-test"', '"model":"deepseek-v4-pro"'));
    expect(replayed(await bodyOf({ messages: deepseek, tools: [READ] }, { model: "deepseek-v4-pro" }))).toBe(true);
    expect(replayed(await bodyOf({ messages: twoTurns, tools: [READ] }, { compat: { reasoningReplay: true } }))).toBe(true);
    expect(replayed(await bodyOf({ messages: twoTurns, tools: [READ] }, { compat: { reasoningReplay: false } }))).toBe(false);
  });

  test("an endpoint that asks for the reasoning back gets the request again with the field on every tool-call turn, and from then on", async () => {
    // a tool-call turn another model made: nothing of this model's to send back
    const theirs: Message[] = JSON.parse(JSON.stringify(callTurn).replaceAll('"model":"gpt-test"', '"model":"other"'));
    const twoTurns: Message[] = [...theirs, { id: "a2", role: "assistant", content: [{ type: "text", text: "read it" }] }, user("and now?")];
    const provider = await createOpenAIProvider({ model: "gpt-test", baseUrl: `${server.url}/v1` });
    const before = server.requests.length;
    server.enqueue(
      jsonReply(400, { error: { message: "The reasoning_content in the thinking mode must be passed back to the API.", type: "invalid_request_error" } }),
    );
    server.enqueue(sseReply(OK), sseReply(OK));
    for (let i = 0; i < 2; i++) for await (const _ of provider.stream({ system: "", messages: twoTurns, tools: [READ] }, new AbortController().signal));
    const sent = server.requests.slice(before).map((r) => JSON.stringify((r.body as Record<string, unknown>).messages).includes('"reasoning_content":""'));
    expect(sent).toEqual([false, true, true]);
  });

  test("an endpoint that refuses reasoning_content as an unknown field gets the request again without any, and from then on", async () => {
    const provider = await createOpenAIProvider({ model: "gpt-test", baseUrl: `${server.url}/v1` });
    const before = server.requests.length;
    // pydantic's 422 as Mistral words it for a field it does not know (the shape of mistralai/platform-docs-public#7,
    // here naming reasoning_content: constructed, not recorded)
    server.enqueue(
      jsonReply(422, {
        object: "error",
        message: {
          detail: [
            {
              type: "extra_forbidden",
              loc: ["body", "messages", 2, "assistant", "reasoning_content"],
              msg: "Extra inputs are not permitted",
              input: "I should read.",
            },
          ],
        },
        type: "invalid_request_error",
        param: null,
        code: null,
      }),
    );
    server.enqueue(sseReply(OK), sseReply(OK));
    for (let i = 0; i < 2; i++) for await (const _ of provider.stream({ system: "", messages: callTurn, tools: [READ] }, new AbortController().signal));
    const sent = server.requests.slice(before).map((r) => JSON.stringify((r.body as Record<string, unknown>).messages).includes("reasoning_content"));
    expect(sent).toEqual([true, false, false]);
  });

  test("api.mistral.ai is sent no field it refuses from the first request: no reasoning_content, no stream_options, 9-character ids", () => {
    const mistral = requestOptionsFor({ model: "mistral-large-latest", baseUrl: "https://api.mistral.ai/v1" });
    expect(mistral).toMatchObject({ reasoningReplay: "none", streamUsage: false, nineCharIds: true });
    // a key in the provider's table still wins
    expect(requestOptionsFor({ model: "m", baseUrl: "https://api.mistral.ai/v1", compat: { reasoningReplay: true } }).reasoningReplay).toBe("all");
    const other = requestOptionsFor({ model: "gpt-test", baseUrl: "http://127.0.0.1:1/v1" });
    expect(other).toMatchObject({ reasoningReplay: "sent", nineCharIds: false });
    expect(other).not.toHaveProperty("streamUsage");
  });

  test("a model that refuses reasoning_effort gets the request again without it, and from then on: the answer comes at its own effort", async () => {
    const provider = await createOpenAIProvider({ model: "llama-3.3-70b-versatile", baseUrl: `${server.url}/v1`, effort: "high" });
    const before = server.requests.length;
    // Groq's words for a model without the dial (iamsrikanthnani/pluely#219)
    server.enqueue(jsonReply(400, { error: { message: "`reasoning_effort` must be one of `none` or `default`", type: "invalid_request_error" } }));
    server.enqueue(sseReply(OK), sseReply(OK));
    for (let i = 0; i < 2; i++)
      for await (const _ of provider.stream({ system: "", messages: [user("hi")], tools: [], effort: "low" }, new AbortController().signal));
    const sent = server.requests.slice(before).map((r) => (r.body as Record<string, unknown>).reasoning_effort);
    expect(sent).toEqual(["low", undefined, undefined]);
  });

  test("parallel_tool_calls is not sent without tools", async () => {
    expect(await bodyOf({ messages: [user("hi")] }, { compat: { parallelToolCalls: false } })).not.toHaveProperty("parallel_tool_calls");
  });
});

describe("prompt caching", () => {
  const turn: Message[] = [
    user("fix it"),
    { id: "a", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] },
    { id: "t", role: "tool", toolCallId: "c1", content: [{ type: "text", text: "done" }] },
  ];

  test("the note goes at the end of the last message, so the request before it is the next one's prefix", async () => {
    const note = "Context: under 10% of the 40k-token budget used.";
    const body = await bodyOf({ messages: turn, tools: [READ], note });
    const without = await bodyOf({ messages: turn, tools: [READ] });
    const messages = body.messages as unknown[];
    expect(messages.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: `done\n\n${note}` });
    expect(JSON.stringify(body.messages).startsWith(JSON.stringify(without.messages).slice(0, -3))).toBe(true);
    const first = (await bodyOf({ messages: [user("hi")], note })).messages as unknown[];
    expect(first.at(-1)).toEqual({ role: "user", content: `hi\n\n${note}` });
  });

  test("prompt_cache_key: the conversation's first message id, on agent requests, only where it is known to be read", async () => {
    const official = await bodyOf({ messages: turn, tools: [READ] }, { compat: { promptCacheKey: true } });
    expect(official.prompt_cache_key).toBe("hey-u-fix it");
    expect(await bodyOf({ messages: turn, tools: [READ] })).not.toHaveProperty("prompt_cache_key"); // not api.openai.com
    expect(await bodyOf({ messages: [user("summarize")] }, { compat: { promptCacheKey: true } })).not.toHaveProperty("prompt_cache_key");
  });

  test("an endpoint that refuses prompt_cache_key gets the request again without it, and never again", async () => {
    const provider = await createOpenAIProvider({ model: "gpt-test", baseUrl: `${server.url}/v1`, compat: { promptCacheKey: true } });
    const before = server.requests.length;
    server.enqueue(jsonReply(400, { error: { message: "Unrecognized request argument supplied: prompt_cache_key", type: "invalid_request_error" } }));
    server.enqueue(sseReply(OK));
    server.enqueue(sseReply(OK));
    const request: ModelRequest = { system: "", messages: turn, tools: [READ] };
    for (let i = 0; i < 2; i++) for await (const _ of provider.stream(request, new AbortController().signal));
    const sent = server.requests.slice(before).map((r) => (r.body as Record<string, unknown>).prompt_cache_key);
    expect(sent).toEqual(["hey-u-fix it", undefined, undefined]);
  });
});

describe("stream_options", () => {
  test("an endpoint that refuses stream_options gets the request again without it, and never again; the answer still arrives", async () => {
    const provider = await createOpenAIProvider({ model: "gpt-test", baseUrl: `${server.url}/v1` });
    const before = server.requests.length;
    // Azure OpenAI before api-version 2024-09-01-preview, in its own words
    server.enqueue(
      jsonReply(400, { error: { message: "Unrecognized request argument supplied: stream_options", type: "invalid_request_error", param: null, code: null } }),
    );
    server.enqueue(sseReply(OK), sseReply(OK));
    const texts: string[] = [];
    for (let i = 0; i < 2; i++)
      for await (const e of provider.stream({ system: "", messages: [user("hi")], tools: [] }, new AbortController().signal))
        if (e.type === "text") texts.push(e.delta);
    expect(texts).toEqual(["ok", "ok"]);
    const sent = server.requests.slice(before).map((r) => (r.body as Record<string, unknown>).stream_options);
    expect(sent).toEqual([{ include_usage: true }, undefined, undefined]);
  });
});

describe("tool-call ids for Mistral (9 characters [a-zA-Z0-9])", () => {
  // A session begun on another model: OpenAI's and Anthropic's ids, and one of Mistral's own
  const history: Message[] = [
    user("fix it"),
    {
      id: "a",
      role: "assistant",
      content: [],
      toolCalls: [
        { id: "call_Yx8bQ2mZpL0rT4vW9nK1sD3f", name: "read", arguments: "{}" },
        { id: "toolu_01A09q90qw90lq917835lq9", name: "read", arguments: "{}" },
        { id: "Ab3dE6gH9", name: "read", arguments: "{}" },
      ],
    },
    { id: "t1", role: "tool", toolCallId: "call_Yx8bQ2mZpL0rT4vW9nK1sD3f", content: [{ type: "text", text: "one" }] },
    { id: "t2", role: "tool", toolCallId: "toolu_01A09q90qw90lq917835lq9", content: [{ type: "text", text: "two" }] },
    { id: "t3", role: "tool", toolCallId: "Ab3dE6gH9", content: [{ type: "text", text: "three" }] },
  ];
  type Wire = { tool_calls?: { id: string }[]; tool_call_id?: string };
  const idsOf = (body: unknown) => {
    const messages = (body as { messages: Wire[] }).messages;
    return {
      calls: messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)),
      results: messages.flatMap((m) => (m.tool_call_id ? [m.tool_call_id] : [])),
    };
  };
  // Mistral's 400, in its own words (jackmpcollins/magentic#276)
  const refusal = () =>
    jsonReply(400, {
      object: "error",
      message: "Tool call id was call_Yx8bQ2mZpL0rT4vW9nK1sD3f but must be a-z, A-Z, 0-9, with a length of 9.",
      type: "invalid_request_error",
      param: null,
      code: null,
    });

  test("a Mistral model gets every id as 9 characters from the first request, each call's the same as its result's, its own ids unchanged", async () => {
    const first = idsOf(await bodyOf({ messages: history, tools: [READ] }, { model: "mistral-small-latest" }));
    expect(first.calls).toHaveLength(3);
    for (const id of first.calls) expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(new Set(first.calls).size).toBe(3);
    expect(first.results).toEqual(first.calls);
    expect(first.calls[2]).toBe("Ab3dE6gH9");
    // the same ids in the next request: the cached prefix holds
    expect(idsOf(await bodyOf({ messages: history, tools: [READ] }, { model: "mistral-small-latest" }))).toEqual(first);
    // other models get the ids as they are
    expect(idsOf(await bodyOf({ messages: history, tools: [READ] })).calls[0]).toBe("call_Yx8bQ2mZpL0rT4vW9nK1sD3f");
  });

  test("an endpoint that refuses the ids in Mistral's words gets the request again with 9-character ids, and from then on", async () => {
    const provider = await createOpenAIProvider({ model: "my-local-model", baseUrl: `${server.url}/v1` });
    const before = server.requests.length;
    server.enqueue(refusal(), sseReply(OK), sseReply(OK));
    for (let i = 0; i < 2; i++) for await (const _ of provider.stream({ system: "", messages: history, tools: [READ] }, new AbortController().signal));
    const sent = server.requests.slice(before).map((r) => idsOf(r.body).calls.every((id) => /^[A-Za-z0-9]{9}$/.test(id)));
    expect(sent).toEqual([false, true, true]);
  });
});

describe("Gemini's thought signatures through its OpenAI-compatible endpoint", () => {
  const signedTurn = (model: string): Message[] => [
    user("go"),
    {
      id: "a",
      role: "assistant",
      content: [],
      toolCalls: [
        { id: "c1", name: "read", arguments: "{}", opaque: { protocol: "openai", model, data: { extra_content: { google: { thought_signature: "sig-A" } } } } },
      ],
    },
    { id: "t", role: "tool", toolCallId: "c1", content: [{ type: "text", text: "done" }] },
  ];
  const firstCall = (body: Record<string, unknown>) => (body.messages as { tool_calls?: unknown[] }[])[1]?.tool_calls?.[0];

  test("a call goes back with the extra_content it came with, to the model that made it only", async () => {
    const mine = await bodyOf({ messages: signedTurn("gemini-3-flash-preview"), tools: [READ] }, { model: "gemini-3-flash-preview" });
    expect(firstCall(mine)).toEqual({
      id: "c1",
      type: "function",
      function: { name: "read", arguments: "{}" },
      extra_content: { google: { thought_signature: "sig-A" } },
    });
    const other = await bodyOf({ messages: signedTurn("gemini-3-flash-preview"), tools: [READ] }, { model: "gpt-test" });
    expect(firstCall(other)).not.toHaveProperty("extra_content");
  });

  test("refused for a call it did not make (a session begun on another model), it gets the request again with Google's stand-in signature", async () => {
    const provider = await createOpenAIProvider({ model: "gemini-3-flash-preview", baseUrl: `${server.url}/v1beta/openai` });
    const before = server.requests.length;
    // Gemini's compat endpoint in its own words and shape (openai/openai-agents-python#2137)
    const message = "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.";
    server.enqueue(jsonReply(400, [{ error: { code: 400, message, status: "INVALID_ARGUMENT" } }]), sseReply(OK), sseReply(OK));
    const request: ModelRequest = { system: "", messages: signedTurn("gpt-test"), tools: [READ] };
    for (let i = 0; i < 2; i++) for await (const _ of provider.stream(request, new AbortController().signal));
    const sent = server.requests.slice(before).map((r) => (firstCall(r.body as Record<string, unknown>) as { extra_content?: unknown }).extra_content);
    expect(sent).toEqual([
      undefined,
      { google: { thought_signature: "skip_thought_signature_validator" } },
      { google: { thought_signature: "skip_thought_signature_validator" } },
    ]);
  });
});

describe("the replay server's tool-call invariant", () => {
  test("a tool call without its result is refused with a 400 naming the id, and recorded", async () => {
    const messages: Message[] = [user("q"), { id: "a", role: "assistant", content: [], toolCalls: [{ id: "call_lost", name: "read", arguments: "{}" }] }];
    const provider = await createOpenAIProvider({ model: "gpt-test", baseUrl: `${server.url}/v1` });
    const run = async () => {
      for await (const _ of provider.stream({ system: "", messages, tools: [] }, new AbortController().signal));
    };
    await expect(run()).rejects.toMatchObject({ kind: "bad_request", message: expect.stringContaining("call_lost") });
    expect(server.violations).toEqual(["tool call call_lost has 0 results, expected exactly 1"]);
    server.violations.length = 0;
  });
});

const CASES: [string, unknown[], string[]][] = [
  [
    "answered once",
    [
      { role: "assistant", tool_calls: [{ id: "a" }] },
      { role: "tool", tool_call_id: "a" },
    ],
    [],
  ],
  [
    "answered twice",
    [
      { role: "assistant", tool_calls: [{ id: "a" }] },
      { role: "tool", tool_call_id: "a" },
      { role: "tool", tool_call_id: "a" },
    ],
    ["tool call a has 2 results, expected exactly 1"],
  ],
  [
    "a result before its call",
    [
      { role: "tool", tool_call_id: "a" },
      { role: "assistant", tool_calls: [{ id: "a" }] },
    ],
    ["tool message a answers no earlier tool call", "tool call a has 0 results, expected exactly 1"],
  ],
  [
    "a reused call id",
    [
      { role: "assistant", tool_calls: [{ id: "a" }, { id: "a" }] },
      { role: "tool", tool_call_id: "a" },
    ],
    ["tool call id a is used by two calls"],
  ],
];
test.each(
  CASES.map(([name, messages, problems]) => ({ title: `${name} → ${problems.length === 0 ? "no problems" : problems.join("; ")}`, messages, problems })),
)("openai-chat invariant: $title", ({ messages, problems }) => {
  expect(openaiChatToolPairs.check({ messages })).toEqual(problems);
});
