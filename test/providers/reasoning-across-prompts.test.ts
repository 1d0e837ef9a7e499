// A new prompt extends the previous request instead of rewriting it: the previous turn's tool-call
// messages go back with the reasoning they went out with (chat completions' reasoning_content,
// Gemini's thought parts), so a provider's cached prefix serves the whole previous turn. Each
// conversation runs as the loop runs it: adaptHistory, then the adapter, through the real SDK.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { adaptHistory } from "../../src/kernel/adapt-history.ts";
import type { Message, Protocol, ToolSpec } from "../../src/kernel/ir.ts";
import type { Provider } from "../../src/kernel/provider.ts";
import type { AdapterOptions } from "../../src/providers/common.ts";
import { createGoogleProvider } from "../../src/providers/google.ts";
import { createOpenAIProvider } from "../../src/providers/openai.ts";
import { sseReply, startReplayServer, type Reply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const READ: ToolSpec = { name: "read", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } } } };
const user = (text: string): Message => ({ id: `u-${text}`, role: "user", content: [{ type: "text", text }] });
const BIG = Array.from({ length: 300 }, (_, i) => `line ${i + 1} of the notes`).join("\n");

/** A tool call after reasoning, then an answer after reasoning, as each protocol streams them. */
const replies: Record<"openai" | "google", { call: Reply; answer: Reply; plain: Reply }> = {
  openai: {
    call: sseReply(
      sse([
        chatChunk({ reasoning: "I should read notes.txt." }),
        chatChunk({ toolCall: { index: 0, id: "call_1", name: "read", arguments: '{"path":"notes.txt"}' } }),
        chatChunk({ finish: "tool_calls" }),
      ]),
    ),
    answer: sseReply(sse([chatChunk({ reasoning: "It has 300 lines." }), chatChunk({ content: "300 lines." }), chatChunk({ finish: "stop" })])),
    plain: sseReply(sse([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" })])),
  },
  google: {
    call: geminiReply([
      { text: "I should read notes.txt.", thought: true },
      { functionCall: { name: "read", args: { path: "notes.txt" } }, thoughtSignature: "c2lnLTE=" },
    ]),
    answer: geminiReply([{ text: "It has 300 lines.", thought: true }, { text: "300 lines." }]),
    plain: geminiReply([{ text: "ok" }]),
  },
};

function geminiReply(parts: unknown[]): Reply {
  return sseReply(`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] })}\r\n\r\n`);
}

/** What a request body holds of the conversation, in the order a provider caches it. */
const conversationOf = (protocol: "openai" | "google", body: unknown) => (body as Record<string, unknown[]>)[protocol === "openai" ? "messages" : "contents"]!;

/**
 * Turn 1 (a read of a big file: the call, its result, the answer), then a second prompt: the bodies
 * of the last request of turn 1 and of the first of turn 2.
 */
async function twoPrompts(protocol: "openai" | "google", opts: Partial<AdapterOptions> = {}, call = replies[protocol].call): Promise<[unknown[], unknown[]]> {
  const model = "model-a";
  const options = { model, baseUrl: `${server.url}/${protocol === "openai" ? "v1" : "v1beta"}`, apiKey: "KEY", ...opts };
  const provider: Provider = protocol === "openai" ? await createOpenAIProvider(options) : await createGoogleProvider(options);
  const history: Message[] = [user("read notes.txt")];
  const bodies: unknown[][] = [];
  const ask = async (reply: Reply) => {
    server.enqueue(reply);
    const messages = adaptHistory(history, { protocol: protocol as Protocol, model });
    for await (const e of provider.stream({ system: "S", tools: [READ], messages }, new AbortController().signal))
      if (e.type === "done") history.push(e.message);
    bodies.push(conversationOf(protocol, server.requests.at(-1)!.body));
  };
  await ask(call);
  const made = history.at(-1)!.toolCalls![0]!;
  history.push({ id: "r1", role: "tool", toolCallId: made.id, toolName: "read", content: [{ type: "text", text: BIG }] });
  await ask(replies[protocol].answer);
  history.push(user("and the first line?"));
  await ask(replies[protocol].plain);
  return [bodies[1]!, bodies[2]!];
}

describe.each(["openai", "google"] as const)("%s: the first request of a new prompt", (protocol) => {
  test("repeats the previous request's conversation byte for byte: the tool-call turn keeps its reasoning", async () => {
    const [last, next] = await twoPrompts(protocol);
    expect(JSON.stringify(last)).toContain("I should read notes.txt.");
    expect(next.slice(0, last.length)).toEqual(last);
    expect(JSON.stringify(next).startsWith(JSON.stringify(last).slice(0, -1))).toBe(true);
  });

  test("sends no reasoning of the final answer: it never went out", async () => {
    const [, next] = await twoPrompts(protocol);
    expect(JSON.stringify(next)).toContain("300 lines.");
    expect(JSON.stringify(next)).not.toContain("It has 300 lines.");
  });
});

test("chat completions with reasoning_replay = false send no reasoning, before or after a new prompt", async () => {
  const [last, next] = await twoPrompts("openai", { compat: { reasoningReplay: false } });
  expect(JSON.stringify([last, next])).not.toContain("reasoning");
  expect(next.slice(0, last.length)).toEqual(last);
});

test("chat completions send the reasoning in the field it came in (`reasoning`: Groq, OpenRouter, newer vLLM)", async () => {
  const call = sseReply(
    sse([
      { choices: [{ index: 0, delta: { reasoning: "I should read notes.txt." }, finish_reason: null }] },
      chatChunk({ toolCall: { index: 0, id: "call_1", name: "read", arguments: '{"path":"notes.txt"}' } }),
      chatChunk({ finish: "tool_calls" }),
    ]),
  );
  const [last, next] = await twoPrompts("openai", {}, call);
  const reasoned = (next as Record<string, unknown>[]).filter((m) => "reasoning" in m || "reasoning_content" in m);
  expect(reasoned).toEqual([expect.objectContaining({ role: "assistant", reasoning: "I should read notes.txt." })]);
  expect(next.slice(0, last.length)).toEqual(last);
});
