// A summary (compaction) request is billed like any request, also when it fails after it began: cut
// mid-stream, answered without usage, interrupted with the run, or empty. Each is counted as a normal
// turn is — reported usage, else hey's estimate — in its `usage` event, the run's total (`done`,
// the `--max-run-tokens` cap) and `/usage`.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createAgent, type Agent } from "../../src/agent.ts";
import { emptyUsage, newId, unreportedUsage, type Usage } from "../../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { agentSettings } from "../../src/runtime.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput, type RecordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { isSummaryRequest } from "../helpers/summary-requests.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const SUMMARY_TEXT = "SUMMARY: read the files; ".repeat(20);

/** How the summary request is answered: whole with `usage`, cut after part of its text, or held until the run is interrupted. */
type SummaryAnswer = { usage: Usage } | { cut: true; early?: Usage } | { interrupt: AbortController } | { empty: Usage };

/** Work turns from `fakeProvider` (each counted 0: the run's tokens are the summaries'); summary requests answered as `answer` says. */
function provider(script: Turn[], answer: SummaryAnswer): Provider & { summaries: number } {
  const work = fakeProvider(script);
  const p = {
    protocol: "openai" as const,
    model: "fake-model",
    summaries: 0,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
      if (!isSummaryRequest(request)) return yield* work.stream(request, signal);
      p.summaries++;
      if ("empty" in answer) return yield { type: "done", message: { id: newId(), role: "assistant", content: [] }, usage: answer.empty, stop: "stop" };
      if ("cut" in answer && answer.early) yield { type: "usage", usage: answer.early };
      for (const word of SUMMARY_TEXT.split(" ")) yield { type: "text", delta: `${word} ` };
      if ("cut" in answer) throw new ProviderError("network", "ECONNRESET: the socket connection was closed unexpectedly");
      if ("interrupt" in answer) {
        answer.interrupt.abort();
        throw signal.reason;
      }
      yield { type: "done", message: { id: newId(), role: "assistant", content: [{ type: "text", text: SUMMARY_TEXT }] }, usage: answer.usage, stop: "stop" };
    },
  };
  return p;
}

/** Six turns each reading a ~2 KB file, then an answer, under a 2,500-token budget: a summary is asked for on the way. */
function longTask(p: Provider, output: RecordingOutput, maxRunTokens?: number): Agent {
  const settings = defaultSettingsForTest();
  settings.agent.budgetTokens = 2500;
  if (maxRunTokens !== undefined) settings.agent.maxRunTokens = maxRunTokens;
  const readBig = { name: "read_big", description: "reads", parameters: {}, run: async () => ({ output: "lorem ipsum dolor ".repeat(120) }) };
  return createAgent({
    settings: agentSettings(settings),
    provider: p,
    tools: () => [readBig],
    output,
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
  });
}
const readTurns = (n: number): Turn[] => Array.from({ length: n }, (_, i) => ({ toolCalls: [{ name: "read_big", arguments: { n: i + 1 } }] }));

/** The usage events that are not of a work turn (each counted 0): the summary requests'. */
const summaryUsage = (output: RecordingOutput) => output.of("usage").filter((u) => u.input_tokens > 0 || u.output_tokens > 0);

test("a summary request cut mid-stream is counted with an estimate: its usage event, the run's total, /usage's requests", async () => {
  const p = provider([...readTurns(6), { text: "done" }], { cut: true });
  const output = recordingOutput();
  const agent = longTask(p, output);
  const result = await agent.send("go", new AbortController().signal);
  expect(result.stop).toBe("end");
  expect(p.summaries).toBeGreaterThan(0);
  expect(output.of("compaction").some((e) => e.kind === "trim" && e.error?.includes("ECONNRESET"))).toBe(true);
  const counted = summaryUsage(output);
  expect(counted).toHaveLength(p.summaries);
  for (const u of counted) {
    expect(u.estimated).toBe(true);
    expect(u.input_tokens).toBeGreaterThan(300); // the transcript it sent: well over a thousand characters
    expect(u.output_tokens).toBeGreaterThan(20); // the partial summary it received
  }
  const summaries = counted.reduce((n, u) => n + u.input_tokens, 0);
  expect(result.usage.input).toBe(summaries);
  expect(output.of("done")[0]!.usage).toMatchObject({ input_tokens: summaries, estimated: true });
  expect(agent.usage.requests).toBe(7 + p.summaries);
});

test("a summary request cut after its provider sent its input counts: those counts stand, only the output is estimated", async () => {
  const early = { input: 1700, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
  const p = provider([...readTurns(6), { text: "done" }], { cut: true, early });
  const output = recordingOutput();
  await longTask(p, output).send("go", new AbortController().signal);
  const counted = summaryUsage(output);
  expect(counted.length).toBeGreaterThan(0);
  for (const u of counted) expect(u).toMatchObject({ input_tokens: 1700, estimated: true });
});

test("a summary answered without usage is estimated as a turn is, not counted as 0", async () => {
  const p = provider([...readTurns(6), { text: "done" }], { usage: unreportedUsage() });
  const output = recordingOutput();
  await longTask(p, output).send("go", new AbortController().signal);
  expect(output.of("compaction").some((e) => e.kind === "summary")).toBe(true);
  const counted = summaryUsage(output);
  expect(counted).toHaveLength(p.summaries);
  for (const u of counted) {
    expect(u.estimated).toBe(true);
    expect(u.input_tokens).toBeGreaterThan(300);
    expect(u.output_tokens).toBeGreaterThan(100); // the whole summary's characters
  }
});

test("a summary request interrupted with the run is counted: its usage event and done's total", async () => {
  const interrupt = new AbortController();
  const p = provider([...readTurns(6), { text: "done" }], { interrupt });
  const output = recordingOutput();
  const agent = longTask(p, output);
  const result = await agent.send("go", interrupt.signal);
  expect(result.stop).toBe("interrupted");
  expect(p.summaries).toBe(1);
  const [counted] = summaryUsage(output);
  expect(counted).toMatchObject({ estimated: true });
  expect(counted!.input_tokens).toBeGreaterThan(300);
  expect(result.usage.input).toBe(counted!.input_tokens);
  expect(output.of("done")[0]!.usage.input_tokens).toBe(result.usage.input);
  expect(agent.usage.total.input).toBe(result.usage.input);
});

test("a cut summary's estimate counts toward --max-run-tokens", async () => {
  // the work turns count nothing: the cut summaries' estimates alone pass the cap
  const p = provider([...readTurns(6), { text: "done" }, { text: "hand-off" }], { cut: true });
  const output = recordingOutput();
  const result = await longTask(p, output, 300).send("go", new AbortController().signal);
  expect(p.summaries).toBeGreaterThan(0);
  expect(result.stop).toBe("max_run_tokens");
});

test("/compact whose summary request is cut still counts what it cost", async () => {
  const p = provider([...readTurns(8), { text: "done" }], { cut: true });
  const output = recordingOutput();
  const agent = longTask(p, output);
  agent.settings.context.budgetTokens = 100_000; // nothing compacted on the way
  await agent.send("go", new AbortController().signal);
  const before = { ...agent.usage };
  await expect(agent.compact(undefined, new AbortController().signal)).rejects.toThrow("ECONNRESET");
  expect(agent.usage.requests).toBe(before.requests + 1);
  expect(agent.usage.total.input).toBeGreaterThan(before.total.input + 300);
  expect(output.of("usage").at(-1)).toMatchObject({ estimated: true });
});

test("/compact with an empty summary counts the tokens its provider reported, for the cached request and the transcript asked after it", async () => {
  const p = provider([...readTurns(8), { text: "done" }], { empty: { ...emptyUsage(), input: 1234, output: 2 } });
  const output = recordingOutput();
  const agent = longTask(p, output);
  agent.settings.context.budgetTokens = 100_000;
  await agent.send("go", new AbortController().signal);
  await expect(agent.compact(undefined, new AbortController().signal)).rejects.toThrow("empty summary");
  expect(output.of("usage").at(-1)).toMatchObject({ input_tokens: 2 * 1234, output_tokens: 2 * 2 });
});
