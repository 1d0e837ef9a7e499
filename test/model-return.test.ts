// What a model taught the run stays with that model: a context window learned from a server's
// refusal is still known after `/model` to another model and back (and after `hey -c` through the
// session's file), so the return sends no request the server refuses again (report x50, 2).
import { expect, test } from "bun:test";
import { createAgent, type Agent } from "../src/agent.ts";
import { ProviderError, type ModelRequest, type Provider } from "../src/kernel/provider.ts";
import { agentSettings } from "../src/runtime.ts";
import { fakeProvider, type Turn } from "./helpers/fake-provider.ts";
import { recordingOutput } from "./helpers/recording-output.ts";
import { defaultSettingsForTest } from "./helpers/settings.ts";

const size = (r: ModelRequest) => JSON.stringify(r.messages).length;

/** A served model whose window is ~4,096 tokens: a request past it is refused, as vLLM or OpenAI refuse it; counts the refusals. */
function smallModel() {
  const refused: number[] = [];
  const turn: Turn = (r) => {
    if (size(r) <= 20_000) return { text: "small answer" };
    refused.push(size(r));
    return { error: new ProviderError("context_length", "This model's maximum context length is 4096 tokens.", { status: 400, overflow: { window: 4096 } }) };
  };
  return {
    refused,
    provider: fakeProvider(
      Array.from({ length: 40 }, () => turn),
      { model: "small" },
    ),
  };
}

const bigModel = () =>
  fakeProvider(
    Array.from({ length: 40 }, () => ({ text: "big answer" }) as Turn),
    { model: "big" },
  );

function agentOn(provider: Provider, model: string, extra: { windows?: Record<string, number> } = {}): Agent {
  const settings = agentSettings(defaultSettingsForTest());
  return createAgent({
    settings: { ...settings, model: { provider: model === "small" ? "gw" : "claude", model } },
    provider,
    tools: () => [],
    output: recordingOutput(),
    cwd: "/",
    system: () => "test",
    permission: () => undefined,
    taskNote: () => undefined,
    ...extra,
  });
}
const to = (agent: Agent, provider: Provider, name: "gw" | "claude", model: string) =>
  agent.switchModel(provider, { ...agent.settings, model: { provider: name, model } });
const signal = new AbortController().signal;
const long = `${"a long file the user pasted, line after line. ".repeat(1_000)}`; // ~47 KB: ~12,000 tokens

test("a window a refusal taught is kept through /model to another model and back: the return is not refused again", async () => {
  const small = smallModel();
  const big = bigModel();
  const agent = agentOn(big, "big");
  await agent.send(long, signal);
  to(agent, small.provider, "gw", "small");
  expect((await agent.send("hi small", signal)).stop).toBe("end");
  expect(small.refused).toHaveLength(1); // learned once, as expected
  expect(agent.context.window).toBe(4096);

  to(agent, big, "claude", "big");
  expect(agent.context.window).toBeUndefined(); // the small model's window says nothing of this one
  await agent.send("on big", signal);
  to(agent, small.provider, "gw", "small");
  expect(agent.context.window).toBe(4096);
  expect((await agent.send("small again", signal)).stop).toBe("end");
  expect(small.refused).toHaveLength(1); // was 2: every return paid one oversized refused request
});

test("a resumed session's window of a model it used before the last one is known when /model returns to it", async () => {
  const small = smallModel();
  const big = bigModel();
  const agent = agentOn(big, "big", { windows: { "gw/small": 4096 } });
  await agent.send(long, signal);
  to(agent, small.provider, "gw", "small");
  expect((await agent.send("hi small", signal)).stop).toBe("end");
  expect(small.refused).toHaveLength(0);
});
