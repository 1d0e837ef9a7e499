// The agent's side of a fallback: the model switched to is said (a `fallback` event, then the
// `model` event the session records), the rest of the send stays on it, and the send's end goes
// back to the model it began on, so the next prompt tries that one again (and `hey -c` resumes it).
import { expect, test } from "bun:test";
import { createAgent, type Fallback } from "../../src/agent.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { agentSettings } from "../../src/runtime.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

const base = defaultSettingsForTest();
const settingsOf = (provider: string, model: string) => ({
  ...agentSettings(base),
  model: { provider, model },
  retry: { ...base.retry, maxRetries: 0 },
});
const busy = () => ({ error: new ProviderError("rate_limit", "rate limited (429): slow down") });

test("a send that gave up on its model goes on with the fallback; the next send starts on the model again", async () => {
  const primary = fakeProvider([busy(), { text: "back on a" }], { model: "m1" });
  const fallback = fakeProvider([{ text: "from b" }], { model: "m2" });
  const asked: string[][] = [];
  const output = recordingOutput();
  const agent = createAgent({
    settings: settingsOf("a", "m1"),
    provider: primary,
    tools: () => [],
    output,
    cwd: process.cwd(),
    system: () => "test",
    permission: () => undefined,
    taskNote: () => undefined,
    fallback: async (_error, tried): Promise<Fallback | undefined> => {
      asked.push([...tried]);
      return tried.has("b/m2") ? undefined : { provider: fallback, settings: settingsOf("b", "m2"), why: "is rate-limited" };
    },
  });
  const first = await agent.send("q1", new AbortController().signal);
  expect(first.stop).toBe("end");
  expect(asked).toEqual([["a/m1"]]);
  expect(output.of("fallback")).toEqual([
    {
      type: "fallback",
      from: "a/m1",
      to: "b/m2",
      kind: "rate_limit",
      message: "falling back from a/m1 to b/m2 for the rest of this run: a/m1 is rate-limited (rate limited (429): slow down)",
    },
  ]);
  // said, then recorded for the session: b answers this send; a is the model again once it ended
  expect(output.of("model").map((e) => `${e.provider}/${e.model}`)).toEqual(["b/m2", "a/m1"]);
  expect(agent.settings.model).toEqual({ provider: "a", model: "m1" });
  const second = await agent.send("q2", new AbortController().signal);
  expect(second.stop).toBe("end");
  expect(primary.requests).toHaveLength(2);
  expect(fallback.requests).toHaveLength(1);
});
