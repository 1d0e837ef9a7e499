// A request the model gave up on goes to the fallback at once (LoopDeps.fallback), built again for
// it, and the rest of the run stays there; the loop never asks for one after part of the answer
// came (its words would come twice), after an abort, or for an empty answer after tool results,
// which is how a model ends its task. Through the loop with a fake clock.
import { expect, test } from "bun:test";
import { runLoop } from "../../src/kernel/loop.ts";
import { userMessage } from "../../src/kernel/ir.ts";
import { ProviderError, type Provider } from "../../src/kernel/provider.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps } from "../helpers/loop-deps.ts";
import type { Tool } from "../../src/kernel/tool.ts";

const overloaded = () => ({ error: new ProviderError("overloaded", "the provider is failing (503): busy") });
const echo: Tool = { name: "echo", description: "echoes", parameters: { type: "object", properties: {} }, run: async () => ({ output: "echoed" }) };

/** deps whose fallback hands out `next` once, recording the errors it was asked with */
function withFallback(primary: Provider, next: Provider | undefined, tools: Tool[] = []) {
  const asked: ProviderError[] = [];
  const deps = loopDeps(primary, {
    tools,
    retry: { enabled: true, maxRetries: 1, baseDelayMs: 10, maxDelayMs: 100, jitter: false, respectRetryAfter: true },
    fallback: async (error) => {
      asked.push(error);
      return asked.length === 1 ? next : undefined;
    },
  });
  return { deps, asked };
}

test("retries spent on a 503: the same request goes to the fallback, which answers; the run ends well", async () => {
  const primary = fakeProvider([overloaded(), overloaded()], { model: "primary" });
  const fallback = fakeProvider([{ text: "from the fallback" }], { model: "fallback" });
  const { deps, asked } = withFallback(primary, fallback);
  const result = await runLoop([userMessage("q")], deps);
  expect(result.stop).toBe("end");
  expect(deps.output.text()).toBe("from the fallback");
  expect(asked.map((e) => e.message)).toEqual(["the provider is failing (503): busy — gave up after 1 retry"]);
  expect(fallback.requests[0]!.messages).toEqual(primary.requests[0]!.messages); // the same request
  expect(deps.output.of("error")).toEqual([]);
  expect(deps.output.of("turn_start")).toHaveLength(1); // one turn, though two models were asked
});

test("the rest of the run stays on the fallback: the request after its tool call goes there, not back to the model that failed", async () => {
  const primary = fakeProvider([overloaded(), overloaded(), { text: "never asked" }], { model: "primary" });
  const fallback = fakeProvider([{ toolCalls: [{ name: "echo", arguments: {} }] }, { text: "done" }], { model: "fallback" });
  const { deps } = withFallback(primary, fallback, [echo]);
  const result = await runLoop([userMessage("q")], deps);
  expect(result.stop).toBe("end");
  expect(primary.requests).toHaveLength(2);
  expect(fallback.requests).toHaveLength(2);
});

test("no fallback left: the error of the model that gave up ends the run, as without one", async () => {
  const primary = fakeProvider([overloaded(), overloaded()], { model: "primary" });
  const { deps, asked } = withFallback(primary, undefined);
  const result = await runLoop([userMessage("q")], deps);
  expect(result.stop).toBe("error");
  expect(asked).toHaveLength(1);
  expect(deps.output.of("error")).toEqual([{ type: "error", kind: "overloaded", message: "the provider is failing (503): busy — gave up after 1 retry" }]);
});

test("a fallback that fails too asks for the next one, and its error ends the run when none is left", async () => {
  const primary = fakeProvider([overloaded(), overloaded()], { model: "primary" });
  const fallback = fakeProvider([
    { error: new ProviderError("rate_limit", "rate limited (429): slow down") },
    { error: new ProviderError("rate_limit", "rate limited (429): slow down") },
  ]);
  const { deps, asked } = withFallback(primary, fallback);
  const result = await runLoop([userMessage("q")], deps);
  expect(result.stop).toBe("error");
  expect(asked.map((e) => e.kind)).toEqual(["overloaded", "rate_limit"]);
  expect(deps.output.of("error")[0]).toMatchObject({ kind: "rate_limit" });
});

test("an answer that broke off after its first words is not sent to another model: its words would come twice", async () => {
  const primary = fakeProvider([{ text: "half an ", error: new ProviderError("network", "socket closed") }], { model: "primary" });
  const fallback = fakeProvider([{ text: "never asked" }]);
  const { deps, asked } = withFallback(primary, fallback);
  const result = await runLoop([userMessage("q")], deps);
  expect(result.stop).toBe("error");
  expect(asked).toEqual([]);
  expect(fallback.requests).toEqual([]);
  expect(deps.output.of("error")[0]).toMatchObject({ kind: "stream_interrupted" });
});

test("an interrupted request asks for no fallback", async () => {
  const controller = new AbortController();
  const primary = fakeProvider([{ delayMs: 1000 }], { model: "primary" });
  const fallback = fakeProvider([{ text: "never asked" }]);
  const { deps, asked } = withFallback(primary, fallback);
  const run = runLoop([userMessage("q")], { ...deps, signal: controller.signal });
  controller.abort();
  expect((await run).stop).toBe("interrupted");
  expect(asked).toEqual([]);
});

test("an empty answer after tool results ends the task as before: no fallback is asked", async () => {
  const empty = () => ({ error: new ProviderError("empty_answer", "answered with no content") });
  const primary = fakeProvider([{ toolCalls: [{ name: "echo", arguments: {} }] }, empty(), empty()], { model: "primary" });
  const fallback = fakeProvider([{ text: "never asked" }]);
  const { deps, asked } = withFallback(primary, fallback, [echo]);
  const result = await runLoop([userMessage("q")], deps);
  expect(result.stop).toBe("end");
  expect(asked).toEqual([]);
});

test("a missing model's 404 is handed on as such: the fallback is told the endpoint has no such model", async () => {
  const missing = new ProviderError("bad_request", "request rejected (404): no model m1", { missingModel: true });
  const primary = fakeProvider([{ error: missing }], { model: "primary" });
  const fallback = fakeProvider([{ text: "here" }]);
  const { deps, asked } = withFallback(primary, fallback);
  expect((await runLoop([userMessage("q")], deps)).stop).toBe("end");
  expect(asked.map((e) => e.missingModel)).toEqual([true]);
});
