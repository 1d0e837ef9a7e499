// The exact JSON body, URL and headers the Gemini adapter sends, as recorded by the replay server
// on the far side of the real @google/genai SDK. Assistant turns come from replaying recorded
// streams, so the signatures sent back are the ones the API gave.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { EFFORTS, userMessage } from "../../src/kernel/ir.ts";
import type { Effort, Message, ToolSpec } from "../../src/kernel/ir.ts";
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { adaptHistory } from "../../src/kernel/adapt-history.ts";
import { createGoogleProvider } from "../../src/providers/google.ts";
import { splitBaseUrl } from "../../src/providers/api-root.ts";
import type { AdapterOptions } from "../../src/providers/common.ts";
import { googleToolPairs } from "../helpers/invariants-google.ts";
import { fixture, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import type { RecordedRequest, Reply } from "../helpers/replay-server.ts";

const MODEL = "gemini-3-pro-preview";
const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const OK = sseReply(`data: {"candidates": [{"content": {"parts": [{"text": "ok"}],"role": "model"},"finishReason": "STOP"}]}\r\n\r\n`);
type Body = { contents: unknown[]; systemInstruction?: unknown; tools?: unknown; generationConfig?: Record<string, unknown> };

/** Streams `request` (as the loop does: through adaptHistory first) and returns what the server received, and the done message. */
async function send(
  request: Partial<ModelRequest>,
  opts: Partial<AdapterOptions> = {},
  reply: Reply = OK,
): Promise<{ sent: RecordedRequest; body: Body; reply: Message }> {
  server.enqueue(reply);
  const model = opts.model ?? MODEL;
  const provider = await createGoogleProvider({ model, baseUrl: `${server.url}/v1beta`, apiKey: "KEY", ...opts });
  const messages = adaptHistory(request.messages ?? [], { protocol: "google", model });
  let done: Message | undefined;
  for await (const e of provider.stream({ system: "", tools: [], ...request, messages }, new AbortController().signal)) if (e.type === "done") done = e.message;
  const sent = server.requests.at(-1);
  if (!sent || !done) throw new Error("no request or no answer");
  return { sent, body: sent.body as Body, reply: done };
}
/** The assistant message the model gave for `name`. */
const answer = async (name: string, model = MODEL): Promise<Message> => (await send({ messages: [userMessage("q")] }, { model }, fixture(name))).reply;

const user = (text: string): Message => ({ id: `u-${text}`, role: "user", content: [{ type: "text", text }] });
const result = (call: { id: string; name: string }, text: string, isError = false): Message => ({
  id: `r-${call.id}`,
  role: "tool",
  toolCallId: call.id,
  toolName: call.name,
  content: [{ type: "text", text }],
  ...(isError ? { isError } : {}),
});
const signatureOf = (m: Message) => (m.toolCalls?.[0]?.opaque?.data as { thoughtSignature: string } | undefined)?.thoughtSignature;
const READ: ToolSpec = {
  name: "read",
  description: "Read a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

describe("request body", () => {
  test("a plain prompt: path, systemInstruction, contents, thinkingConfig; no tools key, no max tokens", async () => {
    const { sent } = await send({ system: "You are terse.", messages: [user("hi")] });
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    // No httpOptions.timeout: it would bound the whole stream (and announce itself in this header).
    expect(sent.headers).not.toHaveProperty("x-server-timeout");
    expect(sent.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      systemInstruction: { parts: [{ text: "You are terse." }] },
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
  });

  test("tools as functionDeclarations with parametersJsonSchema; max tokens as maxOutputTokens; an image as inlineData", async () => {
    const messages: Message[] = [
      {
        id: "1",
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mediaType: "image/png", data: "iVBORw0K" },
        ],
      },
    ];
    const { body } = await send({ messages, tools: [READ] }, { maxTokens: 4096 });
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: "read", description: "Read a file.", parametersJsonSchema: READ.parameters }] }]);
    expect(body.generationConfig).toEqual({ maxOutputTokens: 4096, thinkingConfig: { includeThoughts: true } });
    expect(body.contents).toEqual([{ role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: "iVBORw0K" } }] }]);
  });

  test("a tool result after thinking: the model turn goes back verbatim, thoughtSignature on the functionCall part", async () => {
    const turn = await answer("gemini/function-call-thought-signature");
    const call = turn.toolCalls![0]!;
    const { body } = await send({ messages: [user("q"), turn, result(call, "Mexico")] }, {}, fixture("gemini/text-after-function-response"));
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "q" }] },
      { role: "model", parts: [{ functionCall: { name: "get_country", args: {} }, thoughtSignature: signatureOf(turn) }] },
      { role: "user", parts: [{ functionResponse: { name: "get_country", response: { output: "Mexico" } } }] },
    ]);
    expect(signatureOf(turn)).toStartWith("EpwICpkIAXLI");
  });

  test("an error result is sent as response.error", async () => {
    const turn = await answer("gemini/function-call-thought-signature");
    const { body } = await send({ messages: [user("q"), turn, result(turn.toolCalls![0]!, "no such country", true)] });
    expect(body.contents[2]).toEqual({ role: "user", parts: [{ functionResponse: { name: "get_country", response: { error: "no such country" } } }] });
  });

  test("a trailing empty-text part carrying only a signature is sent back in the current turn", async () => {
    const turn = await answer("gemini/text-trailing-signature-chunk");
    const signature =
      (turn.content[0]?.type === "thinking" &&
        (turn.content[0].opaque?.data as { parts: { thoughtSignature?: string }[] } | undefined)?.parts[1]?.thoughtSignature) ||
      "";
    expect(signature).toStartWith("EpAICo0IAb4+");
    // The current turn (no user message after it), e.g. the summary request after max_turns.
    const { body } = await send({ messages: [user("q"), turn] });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "q" }] },
      { role: "model", parts: [{ text: 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y' }, { text: "", thoughtSignature: signature }] },
    ]);
    // Once the user has spoken again it is an earlier prompt's final answer, whose thinking never went out: its parts are not sent.
    const later = await send({ messages: [user("q"), turn, user("and blueberry?")] });
    expect(later.body.contents[1]).toEqual({ role: "model", parts: [{ text: 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y' }] });
  });

  test("parallel calls: the model turn verbatim (thought part, one signature, assembled args); all responses in one content, in call order", async () => {
    const turn = await answer("gemini/vertex-parallel-calls-partial-args");
    const calls = turn.toolCalls!;
    expect(calls.map((c) => c.name)).toEqual(["read_theme", "read_screen", "read_screen", "read_screen"]);
    // Results arrive out of order (parallel tools finish when they finish); they go back in call order.
    const results = [result(calls[2]!, "screen B"), result(calls[0]!, "theme"), result(calls[3]!, "screen C"), result(calls[1]!, "screen A")];
    const { body } = await send({ messages: [user("q"), turn, ...results] });
    const thought = turn.content[0]?.type === "thinking" ? turn.content[0].text : "";
    expect(thought).toStartWith("**Processing User Requests**");
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "q" }] },
      {
        role: "model",
        parts: [
          { text: thought, thought: true },
          { functionCall: { name: "read_theme", args: {} }, thoughtSignature: signatureOf(turn) },
          { functionCall: { name: "read_screen", args: { id: "A" } } },
          { functionCall: { name: "read_screen", args: { id: "B" } } },
          { functionCall: { name: "read_screen", args: { id: "C" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "read_theme", response: { output: "theme" } } },
          { functionResponse: { name: "read_screen", response: { output: "screen A" } } },
          { functionResponse: { name: "read_screen", response: { output: "screen B" } } },
          { functionResponse: { name: "read_screen", response: { output: "screen C" } } },
        ],
      },
    ]);
  });

  test("API-given call ids go back on the call and its response; ours never do", async () => {
    const messages: Message[] = [
      user("q"),
      {
        id: "a",
        role: "assistant",
        content: [],
        toolCalls: [
          { id: "fc-7", name: "read", arguments: '{"path":"a"}', opaque: { protocol: "google", model: MODEL, data: { id: "fc-7" } } },
          { id: "call_ours", name: "read", arguments: '{"path":"b"}' },
        ],
      },
      result({ id: "fc-7", name: "read" }, "A"),
      result({ id: "call_ours", name: "read" }, "B"),
    ];
    const { body } = await send({ messages });
    expect(body.contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          // no signature came with it: Gemini 3 is given the stand-in (see the next test)
          { functionCall: { id: "fc-7", name: "read", args: { path: "a" } }, thoughtSignature: "skip_thought_signature_validator" },
          { functionCall: { name: "read", args: { path: "b" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "fc-7", name: "read", response: { output: "A" } } },
          { functionResponse: { name: "read", response: { output: "B" } } },
        ],
      },
    ]);
  });

  test("a history from another protocol or model: rebuilt from text and calls, with no foreign signature and no made-up ids; for Gemini 3 each step's first call carries the documented stand-in signature", async () => {
    const gemini25 = await answer("gemini/function-call-thought-signature", "gemini-2.5-pro");
    const messages: Message[] = [
      user("q1"),
      {
        id: "a1",
        role: "assistant",
        content: [
          { type: "thinking", text: "Let me read.", opaque: { protocol: "anthropic", model: "claude-x", data: { signature: "sig-anthropic" } } },
          { type: "text", text: "Reading." },
        ],
        toolCalls: [{ id: "toolu_01", name: "read", arguments: '{"path":"a.txt"}' }],
      },
      result({ id: "toolu_01", name: "read" }, "A"),
      { ...gemini25, id: "a2" },
      result(gemini25.toolCalls![0]!, "Mexico"),
      // A call cut short on another protocol (a `length` stop) still becomes an object.
      { id: "a3", role: "assistant", content: [], toolCalls: [{ id: "call_cut", name: "read", arguments: '{"path": "b' }] },
      result({ id: "call_cut", name: "read" }, "B"),
    ];
    // ai.google.dev/gemini-api/docs/thought-signatures: Gemini 3 refuses a step whose first call has no signature
    const stub = { thoughtSignature: "skip_thought_signature_validator" };
    const { body } = await send({ messages });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "q1" }] },
      { role: "model", parts: [{ text: "Reading." }, { functionCall: { name: "read", args: { path: "a.txt" } }, ...stub }] },
      { role: "user", parts: [{ functionResponse: { name: "read", response: { output: "A" } } }] },
      { role: "model", parts: [{ functionCall: { name: "get_country", args: {} }, ...stub }] },
      { role: "user", parts: [{ functionResponse: { name: "get_country", response: { output: "Mexico" } } }] },
      { role: "model", parts: [{ functionCall: { name: "read", args: {} }, ...stub }] },
      { role: "user", parts: [{ functionResponse: { name: "read", response: { output: "B" } } }] },
    ]);
    const foreign = (gemini25.toolCalls![0]!.opaque!.data as { thoughtSignature: string }).thoughtSignature;
    expect(JSON.stringify(body)).not.toContain(foreign);
    // Gemini 2.5 does not ask for them: nothing is made up
    expect(JSON.stringify((await send({ messages }, { model: "gemini-2.5-flash" })).body)).not.toContain("thoughtSignature");
  });

  test("parallel calls of another model: only the first call of the step gets the stand-in", async () => {
    const messages: Message[] = [
      user("q"),
      {
        id: "a1",
        role: "assistant",
        content: [],
        toolCalls: [
          { id: "c1", name: "read", arguments: '{"path":"a"}' },
          { id: "c2", name: "read", arguments: '{"path":"b"}' },
        ],
      },
      result({ id: "c1", name: "read" }, "A"),
      result({ id: "c2", name: "read" }, "B"),
    ];
    const { body } = await send({ messages });
    expect(body.contents[1]).toEqual({
      role: "model",
      parts: [
        { functionCall: { name: "read", args: { path: "a" } }, thoughtSignature: "skip_thought_signature_validator" },
        { functionCall: { name: "read", args: { path: "b" } } },
      ],
    });
  });

  test("a call without a result (an interrupted run) gets adaptHistory's synthetic error result", async () => {
    const turn = await answer("gemini/function-call-thought-signature");
    const { body } = await send({ messages: [user("q"), turn, user("never mind")] });
    expect(body.contents[2]).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "get_country", response: { error: "interrupted: hey stopped before this call finished" } } }],
    });
  });

  const level = (thinkingLevel: string) => ({ includeThoughts: true, thinkingLevel });
  const budget = (thinkingBudget: number, includeThoughts = true) => ({ includeThoughts, thinkingBudget });
  const TABLE: Record<string, Record<Effort, unknown>> = {
    // Gemini 3 Pro takes LOW and HIGH only (ai.google.dev/gemini-api/docs/thinking): the nearest, a lower one on a tie
    "gemini-3-pro-preview": {
      off: level("LOW"),
      minimal: level("LOW"),
      low: level("LOW"),
      medium: level("LOW"),
      high: level("HIGH"),
      xhigh: level("HIGH"),
      max: level("HIGH"),
    },
    "gemini-3-flash-preview": {
      off: level("MINIMAL"),
      minimal: level("MINIMAL"),
      low: level("LOW"),
      medium: level("MEDIUM"),
      high: level("HIGH"),
      xhigh: level("HIGH"),
      max: level("HIGH"),
    },
    "gemini-2.5-flash": {
      off: budget(0, false),
      minimal: budget(1024),
      low: budget(2048),
      medium: budget(8192),
      high: budget(16384),
      xhigh: budget(24576),
      max: budget(24576), // its most: 0–24576
    },
    // 2.5 pro cannot turn thinking off: its minimum budget instead.
    "gemini-2.5-pro": {
      off: budget(128),
      minimal: budget(1024),
      low: budget(2048),
      medium: budget(8192),
      high: budget(16384),
      xhigh: budget(24576),
      max: budget(32768), // its most: 128–32768
    },
  };
  const rows = Object.entries(TABLE).flatMap(([model, byEffort]) => EFFORTS.map((effort) => [model, effort, byEffort[effort]] as const));
  test.each(rows)("%s at effort %s sends thinkingConfig %j", async (model, effort, thinkingConfig) => {
    const { body } = await send({ messages: [user("hi")], effort }, { model });
    expect(body.generationConfig).toEqual({ thinkingConfig: thinkingConfig as Record<string, unknown> });
  });

  test("the request's effort wins over the provider's default", async () => {
    expect((await send({ messages: [user("hi")] }, { effort: "low" })).body.generationConfig).toEqual({ thinkingConfig: level("LOW") });
    expect((await send({ messages: [user("hi")], effort: "high" }, { effort: "low" })).body.generationConfig).toEqual({ thinkingConfig: level("HIGH") });
  });
});

describe("tool names Gemini refuses", () => {
  const RENDER: ToolSpec = { name: "3d_render", description: "Render a scene.", parameters: { type: "object", properties: {} } };
  const called = (name: string) =>
    sseReply(
      `data: {"candidates": [{"content": {"parts": [{"functionCall": {"name": "${name}", "args": {}}}],"role": "model"},"finishReason": "STOP"}]}\r\n\r\n`,
    );

  test("an MCP tool named 3d_render is sent as _3d_render (Gemini's names start with a letter or _) and its calls come back as 3d_render", async () => {
    const first = await send({ messages: [user("render it")], tools: [READ, RENDER] }, {}, called("_3d_render"));
    expect((first.body.tools as { functionDeclarations: { name: string }[] }[])[0]!.functionDeclarations.map((d) => d.name)).toEqual(["read", "_3d_render"]);
    const call = first.reply.toolCalls![0]!;
    expect(call.name).toBe("3d_render"); // what permission entries, the session and the tool table know it by

    // the call and its result go back under the name Gemini knows (the turn rebuilt, as after /model)
    const rebuilt: Message = { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "3d_render", arguments: "{}" }] };
    const { body } = await send({ messages: [user("render it"), rebuilt, result({ id: "c1", name: "3d_render" }, "done")], tools: [READ, RENDER] });
    expect(body.contents.slice(1)).toEqual([
      { role: "model", parts: [{ functionCall: { name: "_3d_render", args: {} }, thoughtSignature: expect.any(String) }] },
      { role: "user", parts: [{ functionResponse: { name: "_3d_render", response: { output: "done" } } }] },
    ]);
  });
  test("3d_render beside a tool named _3d_render goes out under a name of its own, and each tool's calls come back to it", async () => {
    const UNDERSCORED: ToolSpec = { ...RENDER, name: "_3d_render" };
    const sent = (body: { tools?: unknown }) => (body.tools as { functionDeclarations: { name: string }[] }[])[0]!.functionDeclarations.map((d) => d.name);
    const first = await send({ messages: [user("render it")], tools: [RENDER, UNDERSCORED] }, {}, called("_3d_render"));
    expect(sent(first.body)).toEqual(["_2_3d_render", "_3d_render"]);
    expect(first.reply.toolCalls![0]!.name).toBe("_3d_render");
    const second = await send({ messages: [user("render it")], tools: [RENDER, UNDERSCORED] }, {}, called("_2_3d_render"));
    expect(second.reply.toolCalls![0]!.name).toBe("3d_render");

    const rebuilt: Message = { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "3d_render", arguments: "{}" }] };
    const { body } = await send({ messages: [user("render it"), rebuilt, result({ id: "c1", name: "3d_render" }, "done")], tools: [RENDER, UNDERSCORED] });
    expect(JSON.stringify(body.contents.slice(1))).toContain('"name":"_2_3d_render"');
    expect(JSON.stringify(body.contents.slice(1))).not.toContain('"name":"_3d_render"');
  });
});

describe("prompt caching", () => {
  test("the note is a user content of its own after the last one (a text part beside functionResponse parts may be refused)", async () => {
    const call = { id: "c1", name: "read" };
    const messages: Message[] = [user("fix it"), { id: "a", role: "assistant", content: [], toolCalls: [{ ...call, arguments: "{}" }] }, result(call, "done")];
    const { body } = await send({ messages, note: "Context: under 10% of the 40k-token budget used." });
    expect(body.contents.at(-1)).toEqual({ role: "user", parts: [{ text: "Context: under 10% of the 40k-token budget used." }] });
    expect(JSON.stringify(body.contents.at(-2))).toContain("functionResponse");
  });
});

describe("URL and API version", () => {
  test.each([
    ["https://generativelanguage.googleapis.com/v1beta", "", "https://generativelanguage.googleapis.com", "v1beta"],
    ["https://generativelanguage.googleapis.com/v1beta/", "", "https://generativelanguage.googleapis.com", "v1beta"],
    ["https://generativelanguage.googleapis.com", "", "https://generativelanguage.googleapis.com", "v1beta"],
    ["https://generativelanguage.googleapis.com/", "", "https://generativelanguage.googleapis.com", "v1beta"],
    ["https://generativelanguage.googleapis.com/v1", "", "https://generativelanguage.googleapis.com", "v1"],
    ["https://generativelanguage.googleapis.com/v1alpha", "", "https://generativelanguage.googleapis.com", "v1alpha"],
    ["https://aiplatform.googleapis.com/v1beta1", "", "https://aiplatform.googleapis.com", "v1beta1"],
    ["https://generativelanguage.googleapis.com/v1beta", "v1", "https://generativelanguage.googleapis.com", "v1"],
    ["https://gateway.example/google/v1beta", "", "https://gateway.example/google", "v1beta"],
    ["https://gateway.example/v1beta-proxy", "", "https://gateway.example/v1beta-proxy", "v1beta"],
    ["http://127.0.0.1:8080", "v1alpha", "http://127.0.0.1:8080", "v1alpha"],
  ])("splitBaseUrl(%s, '%s') → %s + %s", (input, apiVersion, baseUrl, version) => {
    expect(splitBaseUrl(input, apiVersion)).toEqual({ baseUrl, apiVersion: version });
  });

  test.each([
    ["/v1beta", "", "/v1beta"],
    ["", "", "/v1beta"],
    ["/v1beta/", "", "/v1beta"],
    ["/v1", "", "/v1"],
    ["/v1beta", "v1alpha", "/v1alpha"],
    ["", "v1", "/v1"],
    ["/gw/google/v1beta", "", "/gw/google/v1beta"],
  ])("base URL …%s with api_version '%s' streams from %s/models/…", async (suffix, apiVersion, prefix) => {
    const { sent } = await send({ messages: [user("hi")] }, { baseUrl: `${server.url}${suffix}`, ...(apiVersion ? { apiVersion } : {}) });
    expect(sent.path).toBe(`${prefix}/models/${MODEL}:streamGenerateContent?alt=sse`);
  });
});

describe("request headers and the environment", () => {
  test("an API key is sent as x-goog-api-key, with the configured extra headers", async () => {
    const { sent } = await send({ messages: [user("hi")] }, { apiKey: "KEY", headers: { "X-Title": "hey" } });
    expect(sent.headers["x-goog-api-key"]).toBe("KEY");
    expect(sent.headers["x-title"]).toBe("hey");
  });

  test("without a key, a gateway's own key header is sent as configured", async () => {
    const { sent } = await send({ messages: [user("hi")] }, { apiKey: undefined, headers: { "x-goog-api-key": "gateway-key" } });
    expect(sent.headers["x-goog-api-key"]).toBe("gateway-key");
  });

  const ENV = {
    GOOGLE_API_KEY: "key-from-env",
    GEMINI_API_KEY: "other-key-from-env",
    GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:9/never",
    GOOGLE_GENAI_API_VERSION: "v1alpha",
    GOOGLE_GENAI_USE_VERTEXAI: "true",
    GOOGLE_GENAI_USE_ENTERPRISE: "true",
    GOOGLE_CLOUD_PROJECT: "project-from-env",
    GOOGLE_CLOUD_LOCATION: "us-central1",
  };
  test.each([
    ["no", undefined],
    ["an empty", ""],
  ])("%s API key: no key header at all, and the SDK's environment variables are ignored", async (_name, apiKey) => {
    const saved = Object.fromEntries(Object.keys(ENV).map((k) => [k, process.env[k]]));
    Object.assign(process.env, ENV);
    try {
      const { sent } = await send({ messages: [user("hi")] }, { apiKey });
      expect(sent.path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
      expect(sent.headers).not.toHaveProperty("x-goog-api-key");
      expect(sent.headers).not.toHaveProperty("authorization");
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });
});

describe("the Gemini tool-call invariant", () => {
  const call = (name: string, id?: string) => ({ functionCall: { name, args: {}, ...(id ? { id } : {}) } });
  const response = (name: string, id?: string) => ({ functionResponse: { name, response: {}, ...(id ? { id } : {}) } });
  const model = (...parts: unknown[]) => ({ role: "model", parts });
  const userC = (...parts: unknown[]) => ({ role: "user", parts });
  const CASES: [string, unknown[], string[]][] = [
    ["answered in order", [model(call("a"), call("b")), userC(response("a"), response("b"))], []],
    ["answered with matching ids", [model(call("a", "1")), userC(response("a", "1"))], []],
    ["not answered", [model(call("a")), userC({ text: "next" })], ["model content 0 calls [a] but content 1 answers []"]],
    [
      "answered out of order",
      [model(call("a"), call("b")), userC(response("b"), response("a"))],
      ["model content 0 calls [a, b] but content 1 answers [b, a]"],
    ],
    ["answered twice", [model(call("a")), userC(response("a"), response("a"))], ["model content 0 calls [a] but content 1 answers [a, a]"]],
    ["a wrong id", [model(call("a", "1")), userC(response("a", "2"))], ["function call 1 is answered by id 2"]],
    ["a made-up id", [model(call("a")), userC(response("a", "call_x"))], ["function response call_x answers a call that has no id"]],
    ["a response with no call", [userC({ text: "q" }), userC(response("a"))], ["content 1 has function responses but follows no function call turn"]],
    ["a name that starts with a digit", [model(call("3d")), userC(response("3d"))], ['invalid function name "3d"', 'invalid function name "3d"']],
  ];
  test.each(
    CASES.map(([name, contents, problems]) => ({ title: `${name} → ${problems.length === 0 ? "no problems" : problems.join("; ")}`, contents, problems })),
  )("$title", ({ contents, problems }) => {
    expect(googleToolPairs.check({ contents })).toEqual(problems);
  });

  test("a request breaking it is refused by the replay server with a 400, and recorded", async () => {
    const provider = await createGoogleProvider({ model: MODEL, baseUrl: server.url });
    const messages: Message[] = [user("q"), { id: "a", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] }];
    const run = async () => {
      for await (const _ of provider.stream({ system: "", messages, tools: [] }, new AbortController().signal));
    };
    await expect(run()).rejects.toMatchObject({ kind: "bad_request" });
    expect(server.violations).toEqual(["model content 1 calls [read] but content 2 answers []"]);
    server.violations.length = 0;
  });
});

describe("a tool result with an image (read_file of a .png)", () => {
  const call = { id: "call_1", name: "read" };
  const png = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };
  const history = (): Message[] => [
    user("look at the logo"),
    { id: "a1", role: "assistant", content: [], toolCalls: [{ ...call, arguments: '{"path":"logo.png"}' }] },
    { ...result(call, "logo.png: 1 image"), content: [{ type: "text", text: "logo.png: 1 image" }, png] },
  ];
  type Parts = { parts: Record<string, unknown>[] }[];

  test("Gemini 3: the image goes inside the function response (its multimodal function responses)", async () => {
    const { body } = await send({ messages: history(), tools: [READ] });
    expect((body.contents as Parts).at(-1)!.parts).toEqual([
      {
        functionResponse: { name: "read", response: { output: "logo.png: 1 image" }, parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }] },
      },
    ]);
  });

  test("Gemini 2.5: the image goes as a part after the function responses of the same turn, which names it", async () => {
    const { body } = await send({ messages: history(), tools: [READ] }, { model: "gemini-2.5-flash" });
    expect((body.contents as Parts).at(-1)!.parts).toEqual([
      { functionResponse: { name: "read", response: { output: "logo.png: 1 image\n[image image/png follows the function responses]" } } },
      { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
    ]);
  });
});
