// A summary due before a request, on a model that has just started failing, is handed to the
// fallback with the request: the fallback summarizes the older messages and answers on them, no
// message is dropped for a summary that failed, and the failing model is not asked the request as
// well. With no fallback left the trim stands as before, and the summary is not asked twice.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createAgent, type Agent, type Fallback } from "../../src/agent.ts";
import { emptyUsage, newId, type Message } from "../../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { agentSettings } from "../../src/runtime.ts";
import { tempDir } from "../helpers/e2e.ts";
import { recordingOutput, type RecordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { isSummaryRequest } from "../helpers/summary-requests.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const SUMMARY_TEXT = "SUMMARY-OF-THE-FILES-READ ".repeat(10);
const READS = 6;
const done = (message: Message): StreamEvent => ({ type: "done", message, usage: emptyUsage(), stop: "stop" });

/**
 * A model working on one task (`task.reads`, shared by the models of a run): a ~2 KB file read per
 * turn, READS times, then "done on NAME"; a summary request answered with SUMMARY_TEXT.
 * `limited`: from its first summary request on, every request it gets is rate-limited (429).
 */
function model(name: string, task: { reads: number }, limited = false) {
  const asked = { work: [] as ModelRequest[], summaries: 0, refused: 0 };
  let failing = false;
  const provider: Provider = {
    protocol: "openai",
    model: name,
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      const summary = isSummaryRequest(request);
      failing ||= summary && limited;
      if (failing) {
        asked.refused++;
        throw new ProviderError("rate_limit", "rate limited (429): slow down");
      }
      if (summary) {
        asked.summaries++;
        yield { type: "text", delta: SUMMARY_TEXT };
        return yield done({ id: newId(), role: "assistant", content: [{ type: "text", text: SUMMARY_TEXT }] });
      }
      asked.work.push(request);
      if (task.reads++ < READS)
        return yield done({
          id: newId(),
          role: "assistant",
          content: [],
          toolCalls: [{ id: `call_${newId()}`, name: "read_big", arguments: JSON.stringify({ n: task.reads }) }],
        });
      yield { type: "text", delta: `done on ${name}` };
      yield done({ id: newId(), role: "assistant", content: [{ type: "text", text: `done on ${name}` }] });
    },
  };
  return { provider, asked };
}

/** An agent on model a under a 2,500-token budget, with `fallback` (b) as its fallback ("spent": the fallbacks were all used) and `maxRetries` (none). */
function agentOn(a: Provider, output: RecordingOutput, fallback: Provider | "spent", maxRetries = 0): Agent {
  const settings = defaultSettingsForTest();
  settings.agent.budgetTokens = 2500;
  const retry = { ...settings.retry, maxRetries, baseDelayMs: 0, jitter: false };
  const settingsOf = (provider: string, m: string) => ({ ...agentSettings(settings), model: { provider, model: m }, retry });
  const readBig = { name: "read_big", description: "reads", parameters: {}, run: async () => ({ output: "lorem ipsum dolor ".repeat(120) }) };
  return createAgent({
    settings: settingsOf("a", "m1"),
    provider: a,
    tools: () => [readBig],
    output,
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
    fallback: async (_e, tried): Promise<Fallback | undefined> =>
      fallback === "spent" || tried.has("b/m2") ? undefined : { provider: fallback, settings: settingsOf("b", "m2"), why: "is rate-limited" },
  });
}

const dropped = (output: RecordingOutput) => output.of("compaction").filter((e) => e.error?.includes("summary failed"));

test("the summary the failing model could not make goes to the fallback, which answers on it: no message dropped, the failing model not asked again", async () => {
  const task = { reads: 0 };
  const [a, b] = [model("m1", task, true), model("m2", task)];
  const output = recordingOutput();
  const result = await agentOn(a.provider, output, b.provider).send("go", new AbortController().signal);
  expect(result.stop).toBe("end");
  expect(output.of("fallback").map((e) => `${e.from} → ${e.to}: ${e.kind}`)).toEqual(["a/m1 → b/m2: rate_limit"]);
  expect(a.asked.refused).toBe(1); // the summary request, and nothing after it
  expect(b.asked.summaries).toBeGreaterThan(0);
  expect(dropped(output)).toEqual([]);
  // the fallback's first request holds the summary of what it did not see
  expect(JSON.stringify(b.asked.work[0]!.messages) + JSON.stringify(b.asked.work[0]!)).toContain("SUMMARY-OF-THE-FILES-READ");
  expect(
    output
      .of("text_delta")
      .map((e) => e.text)
      .join(""),
  ).toContain("done on m2");
});

test("with no fallback left, a failed summary leaves the trim as before, asked once, and the request still goes", async () => {
  const task = { reads: 0 };
  const a = model("m1", task, true);
  const output = recordingOutput();
  const result = await agentOn(a.provider, output, "spent").send("go", new AbortController().signal);
  expect(result.stop).toBe("error");
  expect(dropped(output)).toHaveLength(1);
  expect(a.asked.refused).toBe(2); // the summary, then the trimmed request
  expect(output.of("summarizing")).toHaveLength(1);
});

test("the failing model's summary is tried again as its request would be, then handed on: one round of retries, not two", async () => {
  const task = { reads: 0 };
  const [a, b] = [model("m1", task, true), model("m2", task)];
  const output = recordingOutput();
  const result = await agentOn(a.provider, output, b.provider, 1).send("go", new AbortController().signal);
  expect(result.stop).toBe("end");
  expect(a.asked.refused).toBe(2); // the summary and its one retry; the request itself went to b
  expect(output.of("retry")).toHaveLength(1);
  expect(output.of("fallback").map((e) => e.message)).toEqual([
    "falling back from a/m1 to b/m2 for the rest of this run: a/m1 is rate-limited (rate limited (429): slow down — gave up after 1 retry)",
  ]);
  expect(b.asked.summaries).toBeGreaterThan(0);
  expect(dropped(output)).toEqual([]);
});
