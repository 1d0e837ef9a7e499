// Claude through OpenRouter (a chat-completions gateway) is cached only with Anthropic's
// `cache_control` breakpoints in content parts: the requests of a tool loop, sent through the real
// openai SDK to a loopback server standing in for openrouter.ai, carry them on the system prompt
// and the conversation's tail, move them along as it grows, and OpenRouter's cache writes are read.
import { afterAll, expect, test } from "bun:test";
import { userMessage, type Message, type Usage } from "../../src/kernel/ir.ts";
import type { ModelRequest, StreamEvent } from "../../src/kernel/provider.ts";
import { createOpenAIProvider, toRequest } from "../../src/providers/openai.ts";
import type { Compat } from "../../src/providers/common.ts";
import { drain } from "../helpers/drain.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

type Part = { type: string; text?: string; cache_control?: unknown };
type Sent = { role: string; content: string | Part[] | null };
const bodies: { messages: Sent[] }[] = [];
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    bodies.push((await req.json()) as { messages: Sent[] });
    const usage = { prompt_tokens: 3000, completion_tokens: 5, total_tokens: 3005, prompt_tokens_details: { cached_tokens: 2000, cache_write_tokens: 900 } };
    return new Response(sse([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" }), chatChunk({ usage })]), {
      headers: { "content-type": "text/event-stream" },
    });
  },
});
afterAll(() => server.stop(true));

/** Requests meant for `baseUrl` go to the loopback server: the adapter decides by the configured host, nothing leaves the machine. */
const toLoopback: typeof fetch = Object.assign((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return fetch(`http://127.0.0.1:${server.port}${url.pathname}`, init);
}, fetch);

const tools = [{ name: "read_file", description: "read", parameters: { type: "object", properties: {} } }];
const SYSTEM = "You are hey.";

/** The requests of a tool loop of `turns` reads, as the loop sends them, each one's body as the endpoint got it. */
async function loop(model: string, turns: number, opts: { baseUrl?: string; compat?: Compat } = {}) {
  bodies.length = 0;
  const provider = await createOpenAIProvider({
    model,
    baseUrl: opts.baseUrl ?? "https://openrouter.ai/api/v1",
    fetch: toLoopback,
    ...(opts.compat ? { compat: opts.compat } : {}),
  });
  const messages: Message[] = [userMessage("read the files")];
  const done: Extract<StreamEvent, { type: "done" }>[] = [];
  for (let i = 0; i <= turns; i++) {
    if (i > 0) {
      const id = `call_${i}`;
      messages.push({ id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id, name: "read_file", arguments: `{"path":"f${i}"}` }] });
      messages.push({ id: `t${i}`, role: "tool", toolCallId: id, content: [{ type: "text", text: `contents of f${i}` }] });
    }
    const request: ModelRequest = { system: SYSTEM, messages: [...messages], tools, note: `[context: turn ${i}]` };
    const { events } = await drain(provider.stream(request, new AbortController().signal));
    done.push(...events.filter((e): e is Extract<StreamEvent, { type: "done" }> => e.type === "done"));
  }
  return { sent: bodies.map((b) => b.messages), done };
}

/** Where the breakpoints of one request sit: [message index, its text]. */
const marks = (messages: Sent[]) =>
  messages.flatMap((m, i) => (Array.isArray(m.content) ? m.content.filter((p) => p.cache_control).map((p) => [i, p.text, p.cache_control]) : []));

/** A request's messages as the cache keys them: without the markers, and without the note that rides after the last message. */
const unmarked = (messages: Sent[]) =>
  messages.map((m) =>
    JSON.stringify({ ...m, content: Array.isArray(m.content) ? m.content.filter((p) => !p.text?.startsWith("[context:")) : m.content }, (k, v) =>
      k === "cache_control" ? undefined : v,
    ),
  );

test("anthropic/… on openrouter.ai: the system prompt and the last two user turns are marked, and each request extends the last", async () => {
  const { sent } = await loop("anthropic/claude-sonnet-4.5", 3);
  expect(marks(sent[0]!)).toEqual([
    [0, SYSTEM, { type: "ephemeral" }],
    [1, "read the files", { type: "ephemeral" }],
  ]);
  // after the third read: the tool result that ends the conversation, and the one the request before ended with
  expect(marks(sent[3]!)).toEqual([
    [0, SYSTEM, { type: "ephemeral" }],
    [5, "contents of f2", { type: "ephemeral" }],
    [7, "contents of f3", { type: "ephemeral" }],
  ]);
  for (const messages of sent) expect(marks(messages).length).toBeLessThanOrEqual(4);
  // the note of the request is a part after the marked one, which the next request does not repeat
  expect((sent[3]!.at(-1)!.content as Part[]).map((p) => p.text)).toEqual(["contents of f3", "[context: turn 3]"]);
  for (let i = 1; i < sent.length; i++) {
    const before = unmarked(sent[i - 1]!);
    expect(unmarked(sent[i]!).slice(0, before.length)).toEqual(before);
  }
});

test("OpenRouter's cache writes are reported as cache writes, within the input", async () => {
  const { done } = await loop("anthropic/claude-sonnet-4.5", 0);
  expect(done.map((d) => d.usage)).toEqual([{ input: 3000, output: 5, cacheRead: 2000, cacheWrite: 900, reasoning: 0 } satisfies Usage]);
});

test("another model on openrouter.ai, and Claude on another gateway, get no markers unless `cache_control = true` asks", async () => {
  expect((await loop("openai/gpt-5", 1)).sent.flatMap(marks)).toEqual([]);
  expect((await loop("anthropic/claude-sonnet-4.5", 1, { baseUrl: "https://llm.example.com/v1" })).sent.flatMap(marks)).toEqual([]);
  const asked = await loop("claude-sonnet-4-5", 1, { baseUrl: "https://llm.example.com/v1", compat: { cacheControl: true } });
  expect(asked.sent.map((m) => marks(m).length)).toEqual([2, 3]);
  const off = await loop("anthropic/claude-sonnet-4.5", 1, { compat: { cacheControl: false } });
  expect(off.sent.flatMap(marks)).toEqual([]);
});

test("a request that rewrote an earlier message (unchangedThrough) also marks the last tool or user message before it, so Claude behind the gateway reads the cache up to there", () => {
  const call = (i: number): Message => ({ id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id: `call_${i}`, name: "read_file", arguments: "{}" }] });
  const result = (i: number, text: string): Message => ({ id: `t${i}`, role: "tool", toolCallId: `call_${i}`, content: [{ type: "text", text }] });
  const messages = [userMessage("go"), call(1), result(1, "one"), call(2), result(2, "[pruned]"), call(3), result(3, "three")];
  const marked = (unchangedThrough?: string) =>
    (
      toRequest(
        { system: SYSTEM, messages, tools, ...(unchangedThrough ? { unchangedThrough } : {}) },
        { model: "anthropic/claude-sonnet-4.5", cacheMarks: true },
      ).messages as Sent[]
    ).flatMap((m, i) => (Array.isArray(m.content) && m.content.some((p) => p.cache_control) ? [i] : []));
  // the call of read 2 is the last message the previous request sent as it is now: marked at read 1's result before it
  expect(marked("a2")).toEqual([0, 3, 5, 7]);
  expect(marked()).toEqual([0, 5, 7]);
});

test("a tail sent this once (onceTail): no mark on it, the previous request's end still marked", () => {
  const messages: Message[] = [
    userMessage("go"),
    { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "call_1", name: "read_file", arguments: "{}" }] },
    { id: "t1", role: "tool", toolCallId: "call_1", content: [{ type: "text", text: "a huge read" }] },
  ];
  const sent = toRequest({ system: SYSTEM, messages, tools, onceTail: true }, { model: "anthropic/claude-sonnet-4.5", cacheMarks: true }).messages as Sent[];
  expect(sent.flatMap((m, i) => (Array.isArray(m.content) && m.content.some((p) => p.cache_control) ? [i] : []))).toEqual([0, 1]);
});
