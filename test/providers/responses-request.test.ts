// The exact JSON body and headers the Responses adapter sends, as recorded by the replay server on
// the far side of the real openai SDK: stateless replay of output items, effort, hand-off.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import type { Effort, Message, ToolSpec } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { adaptHistory } from "../../src/kernel/adapt-history.ts";
import { NO_RESULT as MISSING_RESULT } from "../../src/kernel/tool-calls.ts";
import type { AdapterOptions } from "../../src/providers/common.ts";
import { createResponsesProvider } from "../../src/providers/responses.ts";
import { responsesToolPairs } from "../helpers/invariants-responses.ts";
import { fixture, jsonReply, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import type { RecordedRequest, Reply } from "../helpers/replay-server.ts";

const MODEL = "gpt-test";
const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const OK = sseReply(
  [
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"ok","sequence_number":0}\n\n',
    'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[],"usage":null},"sequence_number":1}\n\n',
  ].join(""),
);

/** Streams `request` and returns what the server received, and the events. */
async function exchange(request: Partial<ModelRequest>, opts: Partial<AdapterOptions> = {}, reply: Reply = OK) {
  server.enqueue(reply);
  const provider: Provider = await createResponsesProvider({ model: MODEL, baseUrl: `${server.url}/v1`, ...opts });
  const events: StreamEvent[] = [];
  for await (const e of provider.stream({ system: "", messages: [], tools: [], ...request }, new AbortController().signal)) events.push(e);
  const recorded: RecordedRequest | undefined = server.requests.at(-1);
  if (!recorded) throw new Error("no request recorded");
  return { recorded, events };
}
const send = async (request: Partial<ModelRequest>, opts: Partial<AdapterOptions> = {}) => (await exchange(request, opts)).recorded;
const bodyOf = async (request: Partial<ModelRequest>, opts: Partial<AdapterOptions> = {}) => (await send(request, opts)).body as Record<string, unknown>;
const inputOf = async (messages: readonly Message[]) => (await bodyOf({ messages })).input;
/** What the loop sends: the history adapted for this provider first (SPEC §5.6). */
const loopInputOf = (messages: Message[]) => inputOf(adaptHistory(messages, { protocol: "responses", model: MODEL }));

/** The assistant message a recorded stream turns into. */
async function turnFrom(name: string): Promise<Message> {
  const { events } = await exchange({ messages: [user("q")] }, {}, fixture(name));
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("no done event");
  return done.message;
}

const user = (text: string): Message => ({ id: `u-${text}`, role: "user", content: [{ type: "text", text }] });
const userItem = (text: string) => ({ role: "user", content: [{ type: "input_text", text }] });
const result = (callId: string, text: string, isError = false): Message => ({
  id: `t-${callId}`,
  role: "tool",
  toolCallId: callId,
  toolName: "read",
  ...(isError ? { isError } : {}),
  content: [{ type: "text", text }],
});
const READ: ToolSpec = {
  name: "read",
  description: "Read a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

describe("request body", () => {
  test("a plain prompt: instructions, input, stateless, encrypted reasoning included, no reasoning key without effort", async () => {
    const req = await send({ system: "You are terse.", messages: [user("hi")] });
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/responses");
    expect(req.body).toEqual({
      model: MODEL,
      instructions: "You are terse.",
      input: [userItem("hi")],
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
    });
  });

  test("tools are sent as non-strict function tools; max tokens as max_output_tokens", async () => {
    const body = await bodyOf({ messages: [user("hi")], tools: [READ] }, { maxTokens: 4096 });
    expect(body.tools).toEqual([{ type: "function", name: "read", description: "Read a file.", parameters: READ.parameters, strict: false }]);
    expect(body.max_output_tokens).toBe(4096);
    expect(body).not.toHaveProperty("previous_response_id");
  });

  test("a tool result after reasoning: the reasoning item whole, then the function call with its fc_ id, then its output", async () => {
    const turn = await turnFrom("openai-responses/reasoning-summary-function-call");
    const messages = [user("What is (12+7)*3*10?"), turn, result("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "19")];
    const thinking = turn.content[0];
    if (thinking?.type !== "thinking") throw new Error("no thinking part");
    const item = thinking.opaque?.data as { encrypted_content: string; summary: unknown };
    expect(await loopInputOf(messages)).toEqual([
      userItem("What is (12+7)*3*10?"),
      {
        type: "reasoning",
        id: "rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9",
        summary: item.summary,
        encrypted_content: item.encrypted_content,
      },
      {
        type: "function_call",
        id: "fc_01830d662ab3856501693c32151234819091cfca267e98cc5f",
        call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
        name: "calculator",
        arguments: '{"a":12,"b":7,"op":"add"}',
      },
      { type: "function_call_output", call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", output: "19" },
    ]);
    expect(item.encrypted_content).toStartWith("gAAAAABpPDIVOKrsHNZ0");
  });

  test("a reasoning item without encrypted_content cannot be replayed statelessly: dropped, the answer kept", async () => {
    const turn = await turnFrom("openai-responses/reasoning-summary-text");
    const input = (await loopInputOf([user("q"), turn])) as Record<string, unknown>[];
    expect(input.map((i) => i.type ?? i.role)).toEqual(["user", "message"]);
    expect(input[1]).toEqual({ type: "message", role: "assistant", content: [{ type: "output_text", text: expect.stringMatching(/^“John Doe”/) }] });
  });

  test("an earlier prompt's turn goes back as it came in every later request: its reasoning item, then the call with its fc_ id", async () => {
    // Codex sends every output item back; left out, each new prompt rewrote the cached prefix from the first reasoning item on
    const turn = await turnFrom("openai-responses/reasoning-summary-function-call");
    const answer: Message = { id: "a-19", role: "assistant", content: [{ type: "text", text: "19" }] };
    const messages = [user("q1"), turn, result("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "19"), answer, user("q2")];
    const within = (await loopInputOf(messages.slice(0, 3))) as unknown[];
    const later = (await loopInputOf(messages)) as unknown[];
    expect(later.slice(0, within.length)).toEqual(within);
    expect(later.map((i) => (i as { id?: string }).id ?? (i as { type?: string; role?: string }).type ?? (i as { role: string }).role)).toEqual([
      "user",
      "rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9",
      "fc_01830d662ab3856501693c32151234819091cfca267e98cc5f",
      "function_call_output",
      "message",
      "user",
    ]);
    expect(JSON.stringify(later[1])).toContain('"encrypted_content":"gAAAAABpPDIVOKrsHNZ0');
  });

  test("with thinking off (-t off) an earlier prompt's reasoning stays out, and its call goes without the fc_ id (the API would ask for that reasoning item)", async () => {
    const turn = await turnFrom("openai-responses/reasoning-summary-function-call");
    const answer: Message = { id: "a-19", role: "assistant", content: [{ type: "text", text: "19" }] };
    const messages = adaptHistory([user("q1"), turn, result("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "19"), answer, user("q2")], {
      protocol: "responses",
      model: MODEL,
    });
    expect((await bodyOf({ messages, effort: "off" })).input).toEqual([
      userItem("q1"),
      { type: "function_call", call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", name: "calculator", arguments: '{"a":12,"b":7,"op":"add"}' },
      { type: "function_call_output", call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", output: "19" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "19" }] },
      userItem("q2"),
    ]);
    // the turn in progress keeps its own, off or not
    const current = adaptHistory([user("q1"), turn, result("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "19")], { protocol: "responses", model: MODEL });
    const input = (await bodyOf({ messages: current, effort: "off" })).input as { type?: string }[];
    expect(input.map((i) => i.type ?? "user")).toEqual(["user", "reasoning", "function_call", "function_call_output"]);
  });

  test("reasoning_replay = false sends no reasoning item, not even the current turn's, and no fc_ id", async () => {
    const turn = await turnFrom("openai-responses/reasoning-summary-function-call");
    const messages = adaptHistory([user("q1"), turn, result("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "19")], { protocol: "responses", model: MODEL });
    expect((await bodyOf({ messages }, { compat: { reasoningReplay: false } })).input).toEqual([
      userItem("q1"),
      { type: "function_call", call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", name: "calculator", arguments: '{"a":12,"b":7,"op":"add"}' },
      { type: "function_call_output", call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", output: "19" },
    ]);
  });

  test("a call of a turn that had no reasoning item goes without its fc_ id", async () => {
    // gpt-5.5 at low effort: no reasoning item at all
    const plain = await turnFrom("openai-responses/function-call");
    expect(await loopInputOf([user("q"), plain, result("call_sVidsfFJ6zlzRpelrPkTPlpd", "2869461")])).toEqual([
      userItem("q"),
      { type: "function_call", call_id: "call_sVidsfFJ6zlzRpelrPkTPlpd", name: "multiply", arguments: '{"a":1231,"b":2331}' },
      { type: "function_call_output", call_id: "call_sVidsfFJ6zlzRpelrPkTPlpd", output: "2869461" },
    ]);
  });

  test("a call whose arguments were cut off (a length stop) goes back with arguments {}: the wire wants a JSON string", async () => {
    const cut: Message = { id: "a-cut", role: "assistant", content: [], toolCalls: [{ id: "call_cut", name: "read", arguments: '{"path": "b' }] };
    expect(await loopInputOf([user("q"), cut, result("call_cut", "not run")])).toEqual([
      userItem("q"),
      { type: "function_call", call_id: "call_cut", name: "read", arguments: "{}" },
      { type: "function_call_output", call_id: "call_cut", output: "not run" },
    ]);
  });

  test("a turn that is only reasoning is not sent (a reasoning item needs its following item)", async () => {
    const only: Message = {
      id: "a",
      role: "assistant",
      content: [
        {
          type: "thinking",
          text: "",
          opaque: { protocol: "responses", model: MODEL, data: { id: "rs_1", type: "reasoning", summary: [], encrypted_content: "enc" } },
        },
      ],
    };
    expect(await inputOf([user("q"), only, user("again")])).toEqual([userItem("q"), userItem("again")]);
  });

  test("reasoning after a turn's last text is left out: a reasoning item is never sent without an item of its turn after it", async () => {
    const reasoning = (id: string) => ({
      type: "thinking" as const,
      text: "",
      opaque: { protocol: "responses" as const, model: MODEL, data: { id, type: "reasoning", summary: [], encrypted_content: `enc-${id}` } },
    });
    const ended: Message = { id: "a", role: "assistant", content: [reasoning("rs_1"), { type: "text", text: "done" }, reasoning("rs_2")] };
    const input = (await loopInputOf([user("q"), ended, user("again")])) as { id?: string; type?: string; role?: string }[];
    expect(input.map((i) => i.id ?? i.type ?? i.role)).toEqual(["user", "rs_1", "message", "user"]);
  });

  test("parallel calls and their outputs in call order; an error result as text; images as data URLs", async () => {
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
          { id: "call_b", name: "read", arguments: '{"path":"b.png"}' },
          { id: "call_c", name: "read", arguments: '{"path":"c.txt"}' },
        ],
      },
      result("call_a", "A"),
      {
        id: "t-b",
        role: "tool",
        toolCallId: "call_b",
        content: [
          { type: "text", text: "b.png:" },
          { type: "image", mediaType: "image/png", data: "QUJD" },
        ],
      },
      result("call_c", "error: no such file", true),
    ];
    const body = await bodyOf({ system: "sys", messages, tools: [READ] });
    expect(body.input).toEqual([
      {
        role: "user",
        content: [
          { type: "input_text", text: "look" },
          { type: "input_image", image_url: "data:image/png;base64,iVBORw0K", detail: "auto" },
        ],
      },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Reading both." }] },
      { type: "function_call", call_id: "call_a", name: "read", arguments: '{"path":"a.txt"}' },
      { type: "function_call", call_id: "call_b", name: "read", arguments: '{"path":"b.png"}' },
      { type: "function_call", call_id: "call_c", name: "read", arguments: '{"path":"c.txt"}' },
      { type: "function_call_output", call_id: "call_a", output: "A" },
      {
        type: "function_call_output",
        call_id: "call_b",
        output: [
          { type: "input_text", text: "b.png:" },
          { type: "input_image", image_url: "data:image/png;base64,QUJD", detail: "auto" },
        ],
      },
      { type: "function_call_output", call_id: "call_c", output: "error: no such file" },
    ]);
  });

  test("a history from another protocol, adapted as the loop does: no foreign reasoning, safe call ids, missing outputs closed", async () => {
    const messages: Message[] = [
      user("q1"),
      {
        id: "a1",
        role: "assistant",
        content: [
          { type: "thinking", text: "Let me look.", opaque: { protocol: "anthropic", model: "claude-x", data: { signature: "sig" } } },
          { type: "text", text: "Reading." },
        ],
        toolCalls: [
          {
            id: "toolu_01.abc:def",
            name: "read",
            arguments: '{"path":"a"}',
            opaque: { protocol: "google", model: "gemini-3-pro", data: { thoughtSignature: "ts" } },
          },
          { id: "toolu_lost", name: "read", arguments: "{}" },
        ],
      },
      result("toolu_01.abc:def", "A"),
      user("q2"),
      {
        id: "a2",
        role: "assistant",
        content: [
          {
            type: "thinking",
            text: "Other model.",
            opaque: { protocol: "responses", model: "gpt-other", data: { id: "rs_x", type: "reasoning", summary: [], encrypted_content: "enc" } },
          },
          { type: "text", text: "Done." },
        ],
      },
    ];
    expect(await loopInputOf(messages)).toEqual([
      userItem("q1"),
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Reading." }] },
      { type: "function_call", call_id: "toolu_01_abc_def", name: "read", arguments: '{"path":"a"}' },
      { type: "function_call", call_id: "toolu_lost", name: "read", arguments: "{}" },
      { type: "function_call_output", call_id: "toolu_01_abc_def", output: "A" },
      { type: "function_call_output", call_id: "toolu_lost", output: MISSING_RESULT },
      userItem("q2"),
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] },
    ]);
  });

  test.each([
    ["another model", { protocol: "responses" as const, model: "gpt-other" }],
    ["another protocol", { protocol: "anthropic" as const, model: MODEL }],
  ])("even unadapted, reasoning from %s is never sent", async (_name, origin) => {
    const item = { id: "rs_x", type: "reasoning", summary: [], encrypted_content: "enc" };
    const turn: Message = {
      id: "a",
      role: "assistant",
      content: [
        { type: "thinking", text: "t", opaque: { ...origin, data: item } },
        { type: "text", text: "A" },
      ],
    };
    expect(await inputOf([user("q"), turn])).toEqual([userItem("q"), { type: "message", role: "assistant", content: [{ type: "output_text", text: "A" }] }]);
  });

  test.each([
    ["off", { effort: "none" }],
    ["minimal", { effort: "minimal", summary: "auto" }],
    ["low", { effort: "low", summary: "auto" }],
    ["medium", { effort: "medium", summary: "auto" }],
    ["high", { effort: "high", summary: "auto" }],
    ["xhigh", { effort: "xhigh", summary: "auto" }],
    ["max", { effort: "max", summary: "auto" }],
  ] as [Effort, unknown][])("effort %s is sent as reasoning %j", async (effort, reasoning) => {
    expect((await bodyOf({ messages: [user("hi")], effort })).reasoning).toEqual(reasoning);
  });

  test("a level the model refuses (gpt-5 takes no 'none') is sent again at once as its nearest, and so from then on", async () => {
    // The 400's wording as reported for chat completions (Kilo-Org/cloud#3807), with Responses' parameter name; not recorded.
    const refusal = jsonReply(400, {
      error: {
        message: "Unsupported value: 'reasoning.effort' does not support 'none' with this model. Supported values are: 'minimal', 'low', 'medium', and 'high'.",
        type: "invalid_request_error",
        param: "reasoning.effort",
        code: "unsupported_value",
      },
    });
    const provider = await createResponsesProvider({ model: MODEL, baseUrl: `${server.url}/v1`, effort: "off" });
    const before = server.requests.length;
    server.enqueue(refusal, OK, OK);
    for (const text of ["hi", "again"]) for await (const _ of provider.stream({ system: "", messages: [user(text)], tools: [] }, new AbortController().signal));
    expect(server.requests.slice(before).map((r) => (r.body as { reasoning?: unknown }).reasoning)).toEqual([
      { effort: "none" },
      { effort: "minimal" },
      { effort: "minimal" },
    ]);
  });

  test("a model that takes no reasoning (gpt-4.1, given the effort chosen for another model: /model, -c -m) gets the request again without it, and so from then on, told once", async () => {
    // OpenAI's wording for a model without reasoning (the unsupported_parameter 400); not recorded
    const refusal = jsonReply(400, {
      error: {
        message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
        type: "invalid_request_error",
        param: "reasoning.effort",
        code: "unsupported_parameter",
      },
    });
    const provider = await createResponsesProvider({ model: "gpt-4.1", baseUrl: `${server.url}/v1`, effort: "high" });
    const before = server.requests.length;
    server.enqueue(refusal, OK, OK);
    const notices: string[] = [];
    for (const text of ["hi", "again"])
      for await (const e of provider.stream({ system: "", messages: [user(text)], tools: [] }, new AbortController().signal))
        if (e.type === "notice") notices.push(e.message);
    expect(server.requests.slice(before).map((r) => (r.body as { reasoning?: unknown }).reasoning)).toEqual([
      { effort: "high", summary: "auto" },
      undefined,
      undefined,
    ]);
    expect(notices).toEqual(["this model takes no reasoning effort: none is sent from now on"]);
  });

  test("the request's effort wins over the provider's default", async () => {
    expect((await bodyOf({ messages: [user("hi")] }, { effort: "low" })).reasoning).toEqual({ effort: "low", summary: "auto" });
    expect((await bodyOf({ messages: [user("hi")], effort: "off" }, { effort: "low" })).reasoning).toEqual({ effort: "none" });
  });
});

test("parallel_tool_calls = false ([provider.NAME] parallel_tool_calls) is sent with tools only", async () => {
  expect(await bodyOf({ messages: [user("hi")], tools: [READ] })).not.toHaveProperty("parallel_tool_calls");
  expect((await bodyOf({ messages: [user("hi")], tools: [READ] }, { compat: { parallelToolCalls: false } })).parallel_tool_calls).toBe(false);
  expect(await bodyOf({ messages: [user("hi")] }, { compat: { parallelToolCalls: false } })).not.toHaveProperty("parallel_tool_calls");
});

describe("prompt caching", () => {
  const turn: Message[] = [
    user("fix it"),
    { id: "a", role: "assistant", content: [], toolCalls: [{ id: "call_1", name: "read", arguments: "{}" }] },
    { id: "t", role: "tool", toolCallId: "call_1", content: [{ type: "text", text: "done" }] },
  ];
  const tools: ToolSpec[] = [{ name: "read", description: "Read.", parameters: { type: "object", properties: {} } }];

  test("the note is a user message after the last item; the conversation's key is sent with agent requests", async () => {
    const body = await bodyOf({ messages: turn, tools, note: "Context: under 10% of the 40k-token budget used." });
    const input = body.input as unknown[];
    expect(input.at(-2)).toEqual({ type: "function_call_output", call_id: "call_1", output: "done" });
    expect(input.at(-1)).toEqual({ role: "user", content: [{ type: "input_text", text: "Context: under 10% of the 40k-token budget used." }] });
    expect(body.prompt_cache_key).toBe("hey-u-fix it");
    expect(await bodyOf({ messages: turn, tools }, { compat: { promptCacheKey: false } })).not.toHaveProperty("prompt_cache_key");
  });
});

describe("request headers", () => {
  test.each([
    ["no", undefined],
    ["an empty", ""],
  ])("%s API key: no Authorization header, even with OPENAI_API_KEY in the environment", async (_name, apiKey) => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-from-env";
    try {
      const req = await send({ messages: [user("hi")] }, apiKey === undefined ? {} : { apiKey });
      expect(req.headers).not.toHaveProperty("authorization");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  test("an API key is sent as Bearer, with the configured extra headers", async () => {
    const req = await send({ messages: [user("hi")] }, { apiKey: "KEY", headers: { "X-Title": "hey" } });
    expect(req.headers.authorization).toBe("Bearer KEY");
    expect(req.headers["x-title"]).toBe("hey");
  });
});

describe("the Responses tool-call invariant", () => {
  test("a function call without its output is refused with a 400 naming the call_id, and recorded", async () => {
    const messages: Message[] = [user("q"), { id: "a", role: "assistant", content: [], toolCalls: [{ id: "call_lost", name: "read", arguments: "{}" }] }];
    const provider = await createResponsesProvider({ model: MODEL, baseUrl: `${server.url}/v1` });
    const run = async () => {
      for await (const _ of provider.stream({ system: "", messages, tools: [] }, new AbortController().signal));
    };
    await expect(run()).rejects.toMatchObject({ kind: "bad_request", message: expect.stringContaining("call_lost") });
    expect(server.violations).toEqual(["function call call_lost has 0 outputs, expected exactly 1"]);
    server.violations.length = 0;
  });

  const call = (id: string) => ({ type: "function_call", call_id: id, name: "f", arguments: "{}" });
  const output = (id: string) => ({ type: "function_call_output", call_id: id, output: "" });
  const CASES: [string, unknown[], string[]][] = [
    ["answered once", [call("a"), output("a")], []],
    ["parallel calls answered in order", [call("a"), call("b"), output("a"), output("b")], []],
    ["answered twice", [call("a"), output("a"), output("a")], ["function call a has 2 outputs, expected exactly 1"]],
    [
      "an output before its call",
      [output("a"), call("a")],
      ["function_call_output a answers no earlier function call", "function call a has 0 outputs, expected exactly 1"],
    ],
    ["a reused call_id", [call("a"), call("a"), output("a")], ["call_id a is used by two function calls"]],
  ];
  test.each(CASES.map(([name, input, problems]) => ({ title: `${name} → ${problems.length === 0 ? "no problems" : problems.join("; ")}`, input, problems })))(
    "$title",
    ({ input, problems }) => {
      expect(responsesToolPairs.check({ input })).toEqual(problems);
      expect(responsesToolPairs.applies("/v1/responses")).toBe(true);
      expect(responsesToolPairs.applies("/v1/chat/completions")).toBe(false);
    },
  );
});
