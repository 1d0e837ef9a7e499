// A context-length error that cannot be about the window: an error page that quotes "exceeds the
// available context size" for a request little larger than the system prompt and tools. The
// window hey would guess from it (70 % of the request) is smaller than the system prompt and
// tools, so no request could ever be sent in it; hey does not take it as the model's window
// (and says so), and the next message is sent as `context_window = 8192` allows.
import { expect, test } from "bun:test";
import { createAgent } from "../src/lib.ts";
import { textOf } from "../src/kernel/ir.ts";
import { type ModelRequest, type Provider, ProviderError, type StreamEvent } from "../src/kernel/provider.ts";

/** A server whose first answer is an error page quoting a context-length error; every later request is answered. */
function flaky(): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    protocol: "openai",
    model: "m",
    requests,
    async *stream(request): AsyncGenerator<StreamEvent> {
      requests.push(request);
      if (requests.length === 1)
        throw new ProviderError(
          "context_length",
          "the request is larger than the model's context window (500): … the request exceeds the available context size …",
          {
            status: 500,
            overflow: {},
          },
        );
      const asked = textOf(request.messages.findLast((m) => m.role === "user")!);
      yield {
        type: "done",
        message: { id: `a${requests.length}`, role: "assistant", content: [{ type: "text", text: `answer to ${asked}` }] },
        usage: { input: 100, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        stop: "stop",
      };
    },
  };
}

test("a window guessed below the system prompt and tools is not kept: the error says so, and the next message is sent and answered", async () => {
  const provider = flaky();
  const agent = createAgent({ provider, tools: [], system: "You are a coding agent. ".repeat(200), settings: { context: { window: 8192 } } });
  const first = await agent.send("one", new AbortController().signal);
  expect(first.stop).toBe("error");
  expect(first.error?.message).toContain("exceeds the available context size"); // the server's words
  expect(first.error?.message).toMatch(/hey did not take ~[\d,]+ tokens as the model's window: the system prompt and tools alone take ~[\d,]+/);
  const second = await agent.send("two", new AbortController().signal);
  expect(second.stop).toBe("end");
  expect(provider.requests).toHaveLength(2); // sent, not refused unsent for a window of a few hundred tokens
  expect(textOf(agent.messages.at(-1)!)).toBe("answer to two");
});
