// A summary request on a model with a small window (a vLLM, SGLang or TGI started with
// --max-model-len 4096): such a server refuses any request whose prompt and max_tokens together
// pass its window, so the summary's answer limit and transcript fit the window hey knows, and a
// refusal as too long (a window hey did not know) is asked once more, shorter, within the window
// the refusal states.
import { expect, test } from "bun:test";
import { compactRange, newCompactionState } from "../../src/context/compaction.ts";
import { textOf, type Message } from "../../src/kernel/ir.ts";
import { type ModelRequest, type Provider, ProviderError, type StreamEvent } from "../../src/kernel/provider.ts";

/** 40 reads of 2 KB: far more than a small window's summary can show. */
const stretch: Message[] = Array.from({ length: 40 }, (_, i) =>
  i % 2 === 0
    ? { id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"f${i}.ts"}` }] }
    : { id: `r${i}`, role: "tool", toolCallId: `c${i - 1}`, toolName: "read_file", content: [{ type: "text", text: `line of f${i}.ts\n`.repeat(130) }] },
);

/** A server that counts a token per 4 characters and refuses, in vLLM's words, a prompt and max_tokens over `window`. */
function vllm(window: number, real = window): Provider & { requests: ModelRequest[]; refused: number } {
  const requests: ModelRequest[] = [];
  const server = {
    protocol: "openai" as const,
    model: "m",
    requests,
    refused: 0,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      requests.push(request);
      const prompt = Math.ceil((request.system.length + request.messages.map(textOf).join("").length) / 4);
      const completion = request.maxTokens ?? 0;
      if (prompt + completion > real) {
        server.refused++;
        throw new ProviderError(
          "context_length",
          `This model's maximum context length is ${window} tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion).`,
          { status: 400, overflow: { window, prompt, completion } },
        );
      }
      yield {
        type: "done",
        message: { id: "s", role: "assistant", content: [{ type: "text", text: "read f1…f39; nothing changed yet" }] },
        usage: { input: prompt, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        stop: "stop",
      };
    },
  };
  return server;
}

const summarize = (provider: Provider, budgetTokens: number, window?: number) =>
  compactRange(
    { fromId: "a0", toId: "r39", messages: stretch },
    { state: newCompactionState(), provider, budgetTokens, ...(window === undefined ? {} : { window }) },
    new AbortController().signal,
  );

test.each([4096, 6144, 8192])(
  "with a known window of %d tokens the summary asks for an answer that fits beside its transcript: not refused",
  async (window) => {
    const server = vllm(window);
    const { parts } = await summarize(server, Math.floor(0.8 * window), window);
    expect(parts.at(-1)!.text).toContain("read f1");
    expect(server.requests).toHaveLength(1);
    expect(server.refused).toBe(0);
    expect(server.requests[0]!.maxTokens).toBeGreaterThanOrEqual(512); // still room for a real summary
  },
);

test("a large window keeps the summary's usual answer limit", async () => {
  const server = vllm(200_000);
  await summarize(server, 40_000, 200_000);
  expect(server.requests[0]!.maxTokens).toBe(4096);
});

test("a summary refused as too long for a window hey did not know is asked once more within the window the refusal states", async () => {
  const server = vllm(4096);
  const { parts } = await summarize(server, 40_000); // the default budget: no window known
  expect(parts.at(-1)!.text).toContain("read f1");
  expect(server.requests).toHaveLength(2);
  expect(server.refused).toBe(1);
  const second = server.requests[1]!;
  expect(textOf(second.messages[0]!).length).toBeLessThan(textOf(server.requests[0]!.messages[0]!).length);
});

test("a summary refused twice as too long is not asked a third time", async () => {
  const server = vllm(4096, 100); // a server that takes less than it says
  await expect(summarize(server, 40_000)).rejects.toThrow("maximum context length is 4096");
  expect(server.requests).toHaveLength(2);
});
