// Esc after the tools' results, before the model's next word (README "Keys"): the user stopped the
// agent there, and the history says so — `[interrupted by the user]` as the answer to the results —
// so the next message is read as a change of course, not as more on top of work the model would go
// on with. Every protocol takes it there: the adapters' requests keep their tool-pair rules, and
// Anthropic's and Gemini's alternate roles.
import { expect, test } from "bun:test";
import { adaptHistory } from "../../src/kernel/adapt-history.ts";
import { emptyUsage, textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import { runLoop } from "../../src/kernel/loop.ts";
import type { Provider } from "../../src/kernel/provider.ts";
import { INTERRUPTED_ANSWER } from "../../src/kernel/turns.ts";
import { toRequest as anthropicRequest } from "../../src/providers/anthropic.ts";
import { toRequest as googleRequest } from "../../src/providers/google.ts";
import { toRequest as chatRequest } from "../../src/providers/openai.ts";
import { toRequest as responsesRequest } from "../../src/providers/responses.ts";
import { anthropicToolPairs } from "../helpers/invariants-anthropic.ts";
import { googleToolPairs } from "../helpers/invariants-google.ts";
import { responsesToolPairs } from "../helpers/invariants-responses.ts";
import { loopDeps, sleepTool } from "../helpers/loop-deps.ts";
import { openaiChatToolPairs } from "../helpers/replay-server.ts";

/** A run whose model calls a tool, then is stopped (Esc) while it has said nothing about the result. */
async function stoppedAfterTools(): Promise<Message[]> {
  const abort = new AbortController();
  let asked = 0;
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream(_request, signal) {
      if (++asked === 1) {
        const call = { id: "call_1", name: "t", arguments: "{}" };
        yield { type: "tool_call", call };
        yield { type: "done", message: { id: "a1", role: "assistant", content: [], toolCalls: [call] }, usage: emptyUsage(), stop: "tool_calls" };
        return;
      }
      abort.abort(); // Esc while `working…`, after the tool's ✓
      throw signal.reason;
    },
  };
  const messages = [userMessage("clean up the build")];
  const result = await runLoop(messages, loopDeps(provider, { tools: [sleepTool("t", 1)], signal: abort.signal }));
  expect(result.stop).toBe("interrupted");
  return messages;
}

test("Esc after the tools' results, before the model's next word: the results are followed by [interrupted by the user]", async () => {
  const messages = await stoppedAfterTools();
  expect(messages.map((m) => [m.role, m.role === "tool" ? "result" : textOf(m)])).toEqual([
    ["user", "clean up the build"],
    ["assistant", ""],
    ["tool", "result"],
    ["assistant", INTERRUPTED_ANSWER],
  ]);
});

test("the next message after it is a request every protocol takes: tool pairs whole, roles alternating where they must", async () => {
  const messages = [...(await stoppedAfterTools()), userMessage("after lag")];
  const opts = { model: "m" };
  const req = (protocol: Provider["protocol"]) => ({ system: "s", messages: adaptHistory(messages, { protocol, model: "m" }), tools: [] });
  const chat = chatRequest(req("openai"), opts).messages;
  expect(openaiChatToolPairs.check({ messages: chat })).toEqual([]);
  expect(chat.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
  const responses = responsesRequest(req("responses"), opts).input;
  expect(responsesToolPairs.check({ input: responses })).toEqual([]);
  const anthropic = anthropicRequest(req("anthropic"), opts).messages;
  expect(anthropicToolPairs.check({ messages: anthropic })).toEqual([]);
  expect(anthropic.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  expect(JSON.stringify(anthropic[3])).toContain(INTERRUPTED_ANSWER);
  const google = googleRequest(req("google"), opts).contents as { role: string }[];
  expect(googleToolPairs.check({ contents: google })).toEqual([]);
  expect(google.map((c) => c.role)).toEqual(["user", "model", "user", "model", "user"]);
});
