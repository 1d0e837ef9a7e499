// A provider that reports no usage (a stream without `stream_options`, a server that sends none)
// is counted with hey's estimate, marked so: the request as the context estimate counts it, and the
// characters of the answer at the same ratio. A stream cut or interrupted after it began counts its
// estimate too — but the input and cache counts its provider sent as it began stand.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../src/kernel/output.ts";
import { ProviderError } from "../src/kernel/provider.ts";
import { createAgent } from "../src/lib.ts";
import { usageReport } from "../src/ui/usage-report.ts";
import { fakeProvider } from "./helpers/fake-provider.ts";

const usageEvents = (events: AgentEvent[]) => events.filter((e) => e.type === "usage");

test("an answer without usage: input is the request's estimate, output the answer's, both marked estimated", async () => {
  const events: AgentEvent[] = [];
  const agent = createAgent({
    provider: fakeProvider([{ text: "word ".repeat(200), usage: { estimated: true } }]),
    output: { emit: (e) => void events.push(e) },
  });
  const result = await agent.send("hello", new AbortController().signal);
  expect(result.usage.estimated).toBe(true);
  expect(result.usage.input).toBe(agent.context.last!.estimate); // the request as sent, estimated once
  expect(result.usage.output).toBeGreaterThan(200); // 1,000 characters at the estimate's ratio
  expect(usageEvents(events)).toMatchObject([{ estimated: true, input_tokens: result.usage.input, output_tokens: result.usage.output }]);
  expect(events.at(-1)).toMatchObject({ type: "done", usage: { estimated: true } });
  expect(agent.usage.total.estimated).toBe(true);
  // /usage marks the estimated counts and says why
  const report = usageReport(agent);
  expect(report).toMatch(
    /^session: ~[\d,]+ in \(0 cached, 0 cache writes\) · ~[\d,]+ out \(0 reasoning\) · 1 request \(~: estimated where a response was cut or interrupted, or came without usage\)$/m,
  );
  expect(report).toMatch(/^last request: ~[\d,]+ in \(0 cached\) · ~[\d,]+ out$/m);
});

test("an answer with usage is counted as reported, not marked", async () => {
  const events: AgentEvent[] = [];
  const agent = createAgent({ provider: fakeProvider([{ text: "hi", usage: { input: 70, output: 3 } }]), output: { emit: (e) => void events.push(e) } });
  const result = await agent.send("hello", new AbortController().signal);
  expect(result.usage).toEqual({ input: 70, output: 3, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
  expect(usageEvents(events)[0]).not.toHaveProperty("estimated");
  expect(usageReport(agent)).not.toContain("~:");
});

test("a stream cut after part of its answer counts the request and the part received, estimated", async () => {
  const events: AgentEvent[] = [];
  const cut = { text: "word ".repeat(100), error: new ProviderError("network", "the connection was reset") };
  const agent = createAgent({ provider: fakeProvider([cut]), output: { emit: (e) => void events.push(e) } });
  const result = await agent.send("hello", new AbortController().signal);
  expect(result.stop).toBe("error");
  expect(result.usage.estimated).toBe(true);
  expect(result.usage.input).toBeGreaterThan(0);
  expect(result.usage.output).toBeGreaterThan(100);
  expect(usageEvents(events)).toHaveLength(1);
});

/** 5,000 input tokens, 4,000 of them read from the prompt cache and 500 written to it: message_start's counts. */
const EARLY = { input: 5000, output: 1, cacheRead: 4000, cacheWrite: 500, reasoning: 0 };

test("a stream cut after its provider sent the input counts: input, cache reads and writes as reported, only the output estimated", async () => {
  const events: AgentEvent[] = [];
  const cut = { early: EARLY, text: "word ".repeat(100), error: new ProviderError("network", "the connection was reset") };
  const agent = createAgent({ provider: fakeProvider([cut]), output: { emit: (e) => void events.push(e) } });
  const result = await agent.send("hello", new AbortController().signal);
  expect(result.stop).toBe("error");
  expect(result.usage).toMatchObject({ input: 5000, cacheRead: 4000, cacheWrite: 500, estimated: true });
  expect(result.usage.output).toBeGreaterThan(100); // 500 characters received, at the estimate's ratio
  expect(usageEvents(events)).toMatchObject([{ input_tokens: 5000, cache_read_tokens: 4000, cache_write_tokens: 500, estimated: true }]);
});

test("an answer interrupted by the user keeps its reported counts; /usage neither blames the provider nor hides the cache", async () => {
  const controller = new AbortController();
  const events: AgentEvent[] = [];
  const slow = { early: EARLY, text: "word ".repeat(100) };
  const agent = createAgent({
    provider: fakeProvider([{ text: "hi", usage: { input: 300, output: 3 } }, slow]),
    output: {
      emit(e) {
        events.push(e);
        if (e.type === "text_delta" && events.filter((x) => x.type === "text_delta").length === 10) controller.abort();
      },
    },
  });
  await agent.send("first", new AbortController().signal);
  const result = await agent.send("second", controller.signal);
  expect(result.stop).toBe("interrupted");
  expect(result.usage).toMatchObject({ input: 5000, cacheRead: 4000, cacheWrite: 500, estimated: true });
  const report = usageReport(agent);
  expect(report).toMatch(
    /^session: ~5,300 in \(4,000 cached = 76%, 500 cache writes\) · ~[\d,]+ out \(0 reasoning\) · 2 requests \(~: estimated where a response was cut or interrupted, or came without usage\)$/m,
  );
  expect(report).toMatch(/^last request: ~5,000 in \(4,000 cached = 80%, 500 cache writes\) · ~[\d,]+ out$/m);
});
