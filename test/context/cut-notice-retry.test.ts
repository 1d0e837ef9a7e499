// x80 finding 4: the line saying the model got only part of a result was skipped after a
// context-length retry. The refused request had carried the result whole, and hey counted it as
// seen; the retry, built to the window the error taught, cut it, and the user went on believing
// `✓ 300 lines` reached the model. What the model has seen is now what a request it answered held.
import { expect, test } from "bun:test";
import { createAgent } from "../../src/lib.ts";
import { textOf, type Message } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { type ModelRequest, type Provider, ProviderError, type StreamEvent } from "../../src/kernel/provider.ts";
import type { Tool } from "../../src/kernel/tool.ts";

const LINES = 300;
const file = Array.from(
  { length: LINES },
  (_, i) => `${String(i + 1).padStart(3)}\texport function fn_${i + 1}(x: number): number { return x * ${i + 1} + 17; }`,
).join("\n");
const readFile: Tool = { name: "read_file", description: "Reads a file.", parameters: { type: "object" }, run: async () => ({ output: file }) };

/** A model that reads a.ts, is refused as too long for a 4,096-token window once it holds all of it, and answers the retry. */
function smallWindowModel(): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  const done = (message: Message): StreamEvent => ({
    type: "done",
    message,
    usage: { input: 100, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    stop: "stop",
  });
  return {
    protocol: "openai",
    model: "m",
    requests,
    async *stream(request): AsyncGenerator<StreamEvent> {
      requests.push(request);
      if (requests.length === 1) {
        yield done({ id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.ts"}' }] });
        return;
      }
      const sent = request.messages.map(textOf).join("").length;
      if (requests.length === 2)
        throw new ProviderError("context_length", "maximum context length is 4096 tokens", {
          status: 400,
          overflow: { window: 4096, prompt: Math.ceil(sent / 3) },
        });
      yield done({ id: `a${requests.length}`, role: "assistant", content: [{ type: "text", text: "read it" }] });
    },
  };
}

test("a result sent whole only in a request refused as too long, then cut for the retry: the user is told the model got part", async () => {
  const provider = smallWindowModel();
  const events: AgentEvent[] = [];
  const agent = createAgent({ provider, tools: [readFile], system: "system", output: { emit: (e) => events.push(e) } });
  const result = await agent.send("Read a.ts.", new AbortController().signal);
  expect(result.stop).toBe("end");
  expect(provider.requests).toHaveLength(3);
  const retried = provider.requests[2]!.messages.find((m) => m.role === "tool")!;
  const kept = textOf(retried)
    .split("\n")
    .filter((l) => /^\s*\d+\t/.test(l)).length;
  expect(kept).toBeLessThan(LINES); // the retry did cut it
  const notices = events.flatMap((e) => (e.type === "notice" ? [e.message] : []));
  expect(notices).toEqual([`read a.ts: ${kept} of ${LINES} lines sent to the model; the rest was left out to fit the context budget`]);
});
