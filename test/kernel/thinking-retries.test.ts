// What a request does when its answer came as thinking alone (kernel/retried-request.ts): a stream
// cut after thinking is retried like one cut before any output (a reasoning model thinks before
// every call), the thinking dropped; an answer of reasoning alone that its provider calls empty is
// retried as empty answers are, then taken as the answer; after answer text nothing is retried.
import { expect, test } from "bun:test";
import { runLoop } from "../../src/kernel/loop.ts";
import { reasoningTaken } from "../../src/kernel/retried-request.ts";
import { textOf, userMessage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps } from "../helpers/loop-deps.ts";

const reset = () => new ProviderError("network", "the connection closed before the model finished its answer");
const onlyReasoning = (input = 0) =>
  new ProviderError(
    "empty_answer",
    "http://gw/v1 answered with only reasoning",
    input ? { usage: { input, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 5 } } : {},
  );

test("a stream cut after thinking alone is retried, the thinking dropped: the answer of the retry is the run's", async () => {
  const provider = fakeProvider([{ thinking: "I will call read_file.", error: reset() }, { text: "It says hello." }]);
  const deps = loopDeps(provider);
  const messages = [userMessage("q")];
  expect(await runLoop(messages, deps)).toMatchObject({ stop: "end", turns: 1 });
  expect(deps.output.of("retry")).toHaveLength(1);
  expect(deps.output.of("error")).toEqual([]);
  expect(messages.map((m) => [m.role, textOf(m)])).toEqual([
    ["user", "q"],
    ["assistant", "It says hello."],
  ]);
});

test("after thinking alone, a failure no retry can mend ends the run as itself, not as a broken-off answer", async () => {
  const deps = loopDeps(fakeProvider([{ thinking: "Hmm.", error: new ProviderError("bad_request", "the model failed mid-stream: bad tool schema") }]));
  await runLoop([userMessage("q")], deps);
  expect(deps.output.of("error")).toEqual([{ type: "error", kind: "bad_request", message: "the model failed mid-stream: bad tool schema" }]);
});

test("cut after thinking on every try (a gateway's limit on a stream's length): retried once, not five times, then given up as the cut it is, its thinking not taken as an answer", async () => {
  const provider = fakeProvider(Array.from({ length: 6 }, () => ({ thinking: "Thinking…", error: reset() })));
  const deps = loopDeps(provider);
  expect((await runLoop([userMessage("q")], deps)).stop).toBe("error");
  expect(provider.requests).toHaveLength(2);
  expect(deps.output.of("retry")).toHaveLength(1);
  expect(deps.output.text()).toBe("");
  expect(deps.output.of("error")[0]!.message).toBe(
    "the connection closed before the model finished its answer — the connection was cut after thinking on 2 tries in a row, so hey stopped (a gateway's or proxy's limit on a stream's length cuts one that thinks this long every time)",
  );
});

test("silent after its reasoning on every try (the idle timeout, nothing cut): given up after one retry, saying so and naming [retry] idle_timeout_ms", async () => {
  const stalled = () => new ProviderError("network", "no data from the model for 3 s", { stalledMs: 3_000 });
  const provider = fakeProvider(Array.from({ length: 6 }, () => ({ thinking: "Thinking…", error: stalled() })));
  const deps = loopDeps(provider);
  expect((await runLoop([userMessage("q")], deps)).stop).toBe("error");
  expect(provider.requests).toHaveLength(2);
  expect(deps.output.of("error")[0]!.message).toBe(
    "no data from the model for 3 s — the model sent no event for 3 s after its reasoning on 2 tries in a row, so hey stopped (a model that pauses longer between its reasoning and its answer needs a larger [retry] idle_timeout_ms)",
  );
});

test("a gateway's timeout of a long thinking (its error chunk, not a cut connection) on every try is given up after one retry too, not sent 6 times", async () => {
  const timedOut = () => new ProviderError("overloaded", "the model failed mid-stream: upstream request timed out");
  const provider = fakeProvider(Array.from({ length: 6 }, () => ({ thinking: "Thinking…", error: timedOut() })));
  const deps = loopDeps(provider);
  expect((await runLoop([userMessage("q")], deps)).stop).toBe("error");
  expect(provider.requests).toHaveLength(2);
});

test("a cut after thinking between other failures keeps the whole max_retries: only cuts in a row after thinking end the retries early", async () => {
  const provider = fakeProvider([{ thinking: "Thinking…", error: reset() }, { error: reset() }, { thinking: "Thinking…", error: reset() }, { text: "42." }]);
  const deps = loopDeps(provider);
  expect(await runLoop([userMessage("q")], deps)).toMatchObject({ stop: "end" });
  expect(provider.requests).toHaveLength(4);
});

test.each([
  ["a mid-stream overload", () => new ProviderError("overloaded", "the provider is failing mid-stream (overloaded_error): Overloaded")],
  ["a rate limit with a wait", () => new ProviderError("rate_limit", "rate limited (429): slow down", { retryAfterMs: 10 })],
])("%s after thinking on every try is retried max_retries times, not given up as a cut connection", async (_, failure) => {
  const provider = fakeProvider([...Array.from({ length: 3 }, () => ({ thinking: "Thinking…", error: failure() })), { text: "42." }]);
  const deps = loopDeps(provider);
  expect(await runLoop([userMessage("q")], deps)).toMatchObject({ stop: "end" });
  expect(provider.requests).toHaveLength(4);
  expect(deps.output.of("retry")).toHaveLength(3);
  expect(deps.output.text()).toBe("42.");
});

test("the notice counts the tries that answered with reasoning alone, not one that failed otherwise", async () => {
  const provider = fakeProvider([
    { error: reset() },
    { thinking: "42.", error: onlyReasoning() },
    { thinking: "42.", error: onlyReasoning() },
    { thinking: "42.", error: onlyReasoning() },
  ]);
  const deps = loopDeps(provider);
  expect(await runLoop([userMessage("q")], deps)).toMatchObject({ stop: "end" });
  expect(provider.requests).toHaveLength(3);
  expect(deps.output.of("notice")).toEqual([
    { type: "notice", message: "the model answered with only reasoning on 2 of 3 tries: its reasoning is taken as the answer" },
  ]);
});

test("an answer of reasoning alone is retried as an empty one; a retry that answers is the run's", async () => {
  const provider = fakeProvider([
    { thinking: "I think 42.", error: onlyReasoning() },
    { thinking: "Sure.", text: "42." },
  ]);
  const deps = loopDeps(provider);
  expect(await runLoop([userMessage("q")], deps)).toMatchObject({ stop: "end" });
  expect(deps.output.of("retry")).toEqual([{ type: "retry", attempt: 1, delay_ms: 2000, error: "http://gw/v1 answered with only reasoning", retries: 2 }]);
  expect(deps.output.text()).toBe("42.");
});

test("reasoning alone on every try: after the retries of an empty answer its reasoning is the answer, said, shown and kept; every try billed", async () => {
  const provider = fakeProvider(Array.from({ length: 3 }, () => ({ thinking: "I think the answer is 42.", error: onlyReasoning(100) })));
  const deps = loopDeps(provider);
  const messages = [userMessage("q")];
  const result = await runLoop(messages, deps);
  expect(result).toMatchObject({ stop: "end", turns: 1, usage: { input: 300, output: 15 } });
  expect(provider.requests).toHaveLength(3);
  expect(deps.output.of("notice")).toEqual([{ type: "notice", message: reasoningTaken({ reasoned: 3, tries: 3 }) }]);
  expect(deps.output.text()).toBe("I think the answer is 42.");
  expect(deps.output.of("error")).toEqual([]);
  expect(messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "I think the answer is 42." }] });
});

test("reasoning before a tool-call finish that brought no call, on every try: retried, then the run fails as empty; the plan is no answer (r6 #7)", async () => {
  const lost = () => new ProviderError("empty_answer", "http://gw/v1 answered with reasoning and a tool-call finish but no call", { lostCall: true });
  const provider = fakeProvider(Array.from({ length: 3 }, () => ({ thinking: "I should call bash with ls.", error: lost() })));
  const deps = loopDeps(provider);
  const messages = [userMessage("list the files")];
  expect(await runLoop(messages, deps)).toMatchObject({ stop: "error" });
  expect(provider.requests).toHaveLength(3);
  expect(deps.output.of("retry")).toHaveLength(2);
  expect(deps.output.of("notice")).toEqual([]);
  expect(deps.output.text()).toBe("");
  expect(deps.output.of("error")).toMatchObject([{ kind: "empty_answer" }]);
});

test("with retries off, reasoning alone is the answer at once", async () => {
  const deps = loopDeps(fakeProvider([{ thinking: "42.", error: onlyReasoning() }]), {
    retry: { enabled: false, maxRetries: 5, baseDelayMs: 2000, maxDelayMs: 60000, jitter: false, respectRetryAfter: true },
  });
  expect(await runLoop([userMessage("q")], deps)).toMatchObject({ stop: "end" });
  expect(deps.output.of("notice")).toEqual([{ type: "notice", message: reasoningTaken({ reasoned: 1, tries: 1 }) }]);
  expect(reasoningTaken({ reasoned: 1, tries: 1 })).toBe("the model answered with only reasoning on its only try: its reasoning is taken as the answer");
});
