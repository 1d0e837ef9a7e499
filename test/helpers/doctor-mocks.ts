// Mock model servers that answer like a model would, from what a request asks (for `hey doctor`'s
// probes and a following `hey -p` task): no tools → a text answer; tools → one call, or two when
// the prompt says "twice"; a tool result last → a closing answer that quotes it. One speaks any of
// the four protocols; the quirky one speaks OpenAI chat with the quirks real servers have.
import type { Protocol } from "../../src/kernel/ir.ts";
import { textReply, toolCallsReply, type Call } from "./protocol-streams.ts";
import type { Reply } from "./replay-server.ts";
import { chatChunk, sse } from "./sse.ts";

export interface MockServer {
  /** http(s)://127.0.0.1:PORT */
  url: string;
  requests: { method: string; path: string; body: Record<string, unknown> }[];
  stop(): void;
}

type Body = Record<string, unknown>;
const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v : []);

/** The calls a request asks for: two echo calls for "twice", else one (echo, or read_file of notes.txt for a hey task). */
function wantedCalls(body: Body, n: number): Call[] {
  const offered = JSON.stringify(body.tools ?? []);
  const name = offered.includes('"echo"') ? "echo" : "read_file";
  const args = (i: number) => (name === "echo" ? { text: i === 0 ? "a" : "b" } : { path: i === 0 ? "notes.txt" : "other.txt" });
  return Array.from({ length: n }, (_, i) => ({ id: `call_${i + 1}_${Date.now() % 100000}`, name, args: args(i) }));
}

function hasTools(body: Body): boolean {
  return arr(body.tools).length > 0;
}

/** Whether the last input item is a tool result, in the protocol's shape. */
function lastIsToolResult(protocol: Protocol, body: Body): boolean {
  switch (protocol) {
    case "openai":
      return arr(body.messages).at(-1)?.role === "tool";
    case "responses":
      return arr(body.input).at(-1)?.type === "function_call_output";
    case "anthropic":
      return arr(arr(body.messages).at(-1)?.content).some((p) => p.type === "tool_result");
    case "google":
      return arr(arr(body.contents).at(-1)?.parts).some((p) => p.functionResponse !== undefined);
  }
}

function decide(protocol: Protocol, body: Body, signed: boolean): Reply {
  if (lastIsToolResult(protocol, body)) return textReply(protocol, "done");
  const calls = wantedCalls(body, JSON.stringify(body).includes("twice") ? 2 : 1);
  if (hasTools(body)) return signed ? signedCallsReply(protocol, calls) : toolCallsReply(protocol, calls);
  return textReply(protocol, "ready");
}

const SIGNATURE = "sig-made-by-the-mock";
const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/** A tool-call turn with reasoning the API signs: Anthropic's thinking block, Gemini's thought signature on the call. */
function signedCallsReply(protocol: Protocol, calls: Call[]): Reply {
  const headers = { "content-type": "text/event-stream" };
  const enc = (s: string) => [new TextEncoder().encode(s)];
  if (protocol === "google") {
    const parts = [
      { text: "Thinking about the call.", thought: true },
      ...calls.map((c, i) => ({ functionCall: { name: c.name, args: c.args }, ...(i === 0 ? { thoughtSignature: SIGNATURE } : {}) })),
    ];
    const chunk = {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 9, totalTokenCount: 18 },
    };
    return { status: 200, headers, chunks: enc(`data: ${JSON.stringify(chunk)}\r\n\r\n`) };
  }
  const blocks = [
    event("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }),
    event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Thinking about the call." } }),
    event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: SIGNATURE } }),
    event("content_block_stop", { type: "content_block_stop", index: 0 }),
    ...calls.flatMap((c, i) => [
      event("content_block_start", { type: "content_block_start", index: i + 1, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } }),
      event("content_block_delta", { type: "content_block_delta", index: i + 1, delta: { type: "input_json_delta", partial_json: JSON.stringify(c.args) } }),
      event("content_block_stop", { type: "content_block_stop", index: i + 1 }),
    ]),
  ];
  const start = event("message_start", {
    type: "message_start",
    message: { id: "msg_s", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } },
  });
  const end = [
    event("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 9 } }),
    event("message_stop", { type: "message_stop" }),
  ];
  return { status: 200, headers, chunks: enc([start, ...blocks, ...end].join("")) };
}

/** Whether a follow-up after a signed turn sends the signature back, as these APIs require. */
function replaysSignature(protocol: Protocol, body: Body): boolean {
  const turns = protocol === "google" ? arr(body.contents).filter((c) => c.role === "model") : arr(body.messages).filter((m) => m.role === "assistant");
  return turns.length > 0 && JSON.stringify(turns).includes(SIGNATURE);
}

/**
 * A well-behaved endpoint of `protocol` serving `model` (GET …/models lists it). `signedReasoning`
 * (anthropic, google): tool-call turns carry signed reasoning, and a tool result sent back without
 * the signature is a 400, as the real APIs answer.
 */
export function startProtocolMock(
  protocol: Protocol,
  model: string,
  opts: { tls?: { cert: string; key: string }; signedReasoning?: boolean } = {},
): MockServer {
  const requests: MockServer["requests"] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    ...(opts.tls ? { tls: opts.tls } : {}),
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? ((await req.json()) as Body) : {};
      requests.push({ method: req.method, path: url.pathname, body });
      if (req.method === "GET" && url.pathname.endsWith("/models"))
        return Response.json(
          protocol === "google" ? { models: [{ name: `models/${model}`, inputTokenLimit: 1_048_576 }] } : { data: [{ id: model, max_model_len: 32_768 }] },
        );
      if (url.pathname.endsWith(":generateContent") || (protocol !== "google" && body.stream !== true)) return Response.json({ ok: true });
      if (opts.signedReasoning && lastIsToolResult(protocol, body) && !replaysSignature(protocol, body))
        return Response.json({ error: { message: "the thinking signature of the previous turn is missing", type: "invalid_request_error" } }, { status: 400 });
      return send(decide(protocol, body, opts.signedReasoning ?? false));
    },
  });
  return { url: `${opts.tls ? "https" : "http"}://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}

function send(reply: Reply): Response {
  return new Response(Buffer.concat(reply.chunks), { status: reply.status, headers: reply.headers });
}

export interface Quirks {
  /** 400 for any message in the `developer` role */
  rejectsDeveloper?: boolean;
  /** 400 for `max_tokens`, as api.openai.com does for its reasoning models */
  wantsMaxCompletionTokens?: boolean;
  /** 400 for `max_completion_tokens`, as an older OpenAI-compatible server does */
  rejectsMaxCompletionTokens?: boolean;
  /** 400 for `tools: []` */
  rejectsEmptyTools?: boolean;
  /** streams reasoning_content, and 400s (as DeepSeek does) when a tool-call turn comes back without it */
  requiresReasoningReplay?: boolean;
  /** of two calls asked for in one turn, sends only the first — unless parallel_tool_calls is false */
  dropsParallelCalls?: boolean;
  /** streams each call whole at `index: 0`, as Ollama does (ollama/ollama#15457) */
  callsAtIndexZero?: boolean;
  /** the first chat request gets a 429 with Retry-After: 1 */
  rateLimitOnce?: boolean;
  /** sends calls as Hermes `<tool_call>` text with finish_reason stop, as vLLM does without a tool-call parser */
  callsAsText?: boolean;
}

/** An OpenAI-chat endpoint at `url + "/v1"` with `quirks`, serving `model`. */
export function startQuirkyServer(model: string, quirks: Quirks): MockServer {
  const requests: MockServer["requests"] = [];
  let limited = false;
  const reject = (message: string) => Response.json({ error: { message, type: "invalid_request_error" } }, { status: 400 });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? ((await req.json()) as Body) : {};
      requests.push({ method: req.method, path: url.pathname, body });
      if (req.method === "GET" && url.pathname === "/v1/models") return Response.json({ data: [{ id: model }] });
      if (url.pathname !== "/v1/chat/completions") return new Response("not found", { status: 404 });
      if (quirks.rateLimitOnce && !limited) {
        limited = true;
        return Response.json({ error: { message: "Rate limit reached" } }, { status: 429, headers: { "retry-after": "1" } });
      }
      const messages = arr(body.messages);
      if (quirks.rejectsDeveloper && messages.some((m) => m.role === "developer"))
        return reject("Invalid value: 'developer'. Supported values are: 'system', 'assistant', 'user', 'tool'.");
      if (quirks.wantsMaxCompletionTokens && body.max_tokens !== undefined)
        return reject("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.");
      if (quirks.rejectsMaxCompletionTokens && body.max_completion_tokens !== undefined) return reject("Unrecognized request argument: max_completion_tokens");
      if (quirks.rejectsEmptyTools && Array.isArray(body.tools) && body.tools.length === 0) return reject("[] is too short - 'tools'");
      const unreplayed = messages.findIndex((m) => m.role === "assistant" && arr(m.tool_calls).length > 0 && typeof m.reasoning_content !== "string");
      if (quirks.requiresReasoningReplay && unreplayed >= 0)
        return reject(`Missing \`reasoning_content\` field in the assistant message at message index ${unreplayed}`);
      if (body.stream !== true) return Response.json({ choices: [{ index: 0, message: { role: "assistant", content: "ready" }, finish_reason: "stop" }] });
      return new Response(quirkyStream(body, quirks), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}

function quirkyStream(body: Body, quirks: Quirks): string {
  const reasoning = quirks.requiresReasoningReplay ? [chatChunk({ reasoning: "Let me think about what is asked." })] : [];
  const usage = chatChunk({ usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 } });
  const messages = arr(body.messages);
  if (messages.at(-1)?.role === "tool")
    return sse([...reasoning, chatChunk({ content: `done: ${String(messages.at(-1)?.content)}` }), chatChunk({ finish: "stop" }), usage]);
  if (!hasTools(body)) return sse([...reasoning, chatChunk({ content: "ready" }), chatChunk({ finish: "stop" }), usage]);
  const asked = JSON.stringify(messages).includes("twice") ? 2 : 1;
  const dropped = quirks.dropsParallelCalls && body.parallel_tool_calls !== false;
  const calls = wantedCalls(body, dropped ? 1 : asked);
  if (quirks.callsAsText) {
    const text = calls.map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.args })}\n</tool_call>`).join("\n");
    return sse([chatChunk({ content: text }), chatChunk({ finish: "stop" }), usage]);
  }
  const chunks = calls.map((c, k) =>
    chatChunk({ toolCall: { index: quirks.callsAtIndexZero ? 0 : k, id: c.id, name: c.name, arguments: JSON.stringify(c.args) } }),
  );
  return sse([...reasoning, ...chunks, chatChunk({ finish: "tool_calls" }), usage]);
}
