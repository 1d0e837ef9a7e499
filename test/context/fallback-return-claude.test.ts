// The primary model back on Claude after a fallback (x150 #1, #3): its request goes on from its own
// last answered request, and that prefix must be read from Anthropic's cache, not written again at
// 1.25×; and a summary due on its first request back reads the cache too, not a full-price transcript.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { anthropicBlocks, anthropicCache } from "../../scripts/cache-emulator.ts";
import { createAgent, type Fallback } from "../../src/agent.ts";
import type { Message } from "../../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { toRequest } from "../../src/providers/anthropic.ts";
import { agentSettings } from "../../src/runtime.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { isCachedSummary, isTranscriptSummary } from "../helpers/summary-requests.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.remove());

type Kind = "work" | "cached" | "transcript" | "failed";
const busy = new ProviderError("rate_limit", "rate limited (429): slow down");

/** An Anthropic-protocol model: work turns from a script (a turn with `error` fails, unanswered), summary requests answered; every request kept with its kind. */
function claude(model: string, script: Turn[]) {
  const work = fakeProvider(script, { model });
  const all: { kind: Kind; request: ModelRequest }[] = [];
  const p: Provider & { all: typeof all } = {
    protocol: "anthropic",
    model,
    all,
    async *stream(request, signal): AsyncGenerator<StreamEvent> {
      const kind: Kind = isCachedSummary(request) ? "cached" : isTranscriptSummary(request) ? "transcript" : "work";
      const entry: { kind: Kind; request: ModelRequest } = { kind, request: { ...request, messages: structuredClone(request.messages) } };
      all.push(entry);
      if (kind !== "work") {
        const message: Message = { id: `s${all.length}`, role: "assistant", content: [{ type: "text", text: "SUMMARY: files read." }] };
        return yield { type: "done", message, usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, stop: "stop" };
      }
      try {
        yield* work.stream(request, signal);
      } catch (e) {
        entry.kind = "failed";
        throw e;
      }
    },
  };
  return p;
}

const read: Tool = {
  name: "read_file",
  description: "reads",
  parameters: {},
  run: async (args) => ({ output: `${args.path}: ${`line of ${args.path} `.repeat(150)}` }),
};
const reads = (prefix: string, n: number): Turn[] =>
  Array.from({ length: n }, (_, k) => ({ toolCalls: [{ name: "read_file", arguments: { path: `${prefix}${k}.ts` } }] }));
const signal = () => new AbortController().signal;

/** model-a (Claude) with model-b as its fallback; `budget`: the context budget in tokens */
function agent(a: ReturnType<typeof claude>, b: ReturnType<typeof claude>, budget?: number) {
  const base = defaultSettingsForTest();
  if (budget !== undefined) base.agent.budgetTokens = budget;
  const settingsOf = (model: string) => ({ ...agentSettings(base), model: { provider: "fake", model }, retry: { ...base.retry, maxRetries: 0 } });
  return createAgent({
    settings: settingsOf("model-a"),
    provider: a,
    tools: () => [read],
    output: recordingOutput(),
    cwd: dir.path,
    system: () => "You are a coding agent.",
    permission: () => undefined,
    taskNote: () => undefined,
    fallback: async (_e, tried): Promise<Fallback | undefined> =>
      tried.has("fake/model-b") ? undefined : { provider: b, settings: settingsOf("model-b"), why: "is rate-limited" },
  });
}

/** What Anthropic's cache reads and writes for each request model-a's cache took (a failed one wrote nothing), in order. */
const cacheOfA = (a: ReturnType<typeof claude>) =>
  anthropicCache(a.all.filter((r) => r.kind !== "failed").map((r) => anthropicBlocks(toRequest(r.request, { model: "model-a" }) as never)));

test.each([2, 12])("back on Claude after a fallback made %i tool calls, the primary's request reads the prefix its last request cached", async (n) => {
  const a = claude("model-a", [...reads("a", 6), { text: "done" }, { error: busy }, { text: "done again" }]);
  const b = claude("model-b", [...reads("b", n), { text: "from b" }]);
  const it = agent(a, b);
  await it.send("read the a files", signal());
  await it.send("now the b files", signal()); // model-a busy: model-b reads them
  await it.send("and what now?", signal()); // back on model-a
  const counts = cacheOfA(a);
  const [before, back] = [counts.at(-2)!, counts.at(-1)!];
  // all that model-a's last answered request sent is read back (12 calls are 48 blocks: past the 20-block look-back from the tail marks)
  expect(back.read).toBeGreaterThanOrEqual(before.read + before.write);
  expect(back.read).toBeGreaterThan(2000);
});

test("/model to another Claude model for a 12-call turn and /model back within minutes: the first model's request reads what it cached", async () => {
  const a = claude("model-a", [...reads("a", 6), { text: "done" }, { text: "done again" }]);
  const b = claude("model-b", [...reads("b", 12), { text: "from b" }]);
  const it = agent(a, b);
  const base = it.settings;
  await it.send("read the a files", signal());
  it.switchModel(b, { ...base, model: { provider: "fake", model: "model-b" } });
  await it.send("now the b files", signal());
  it.switchModel(a, base);
  await it.send("and what now?", signal());
  const counts = cacheOfA(a);
  const [before, back] = [counts.at(-2)!, counts.at(-1)!];
  expect(back.read).toBeGreaterThanOrEqual(before.read + before.write);
});

test("a summary due on the primary's first request back reads the last request it answered from the cache, not a transcript", async () => {
  const a = claude("model-a", [...reads("a", 3), { text: "done" }, { error: busy }, { text: "done again" }]);
  const b = claude("model-b", [...reads("b", 1), { text: `from b: ${"the b files say this. ".repeat(70)}` }]);
  const it = agent(a, b, 2500);
  await it.send("read the a files", signal());
  await it.send("now the b file", signal());
  await it.send("and what now?", signal());
  const summaries = [...a.all, ...b.all].filter((r) => r.kind === "cached" || r.kind === "transcript");
  expect(summaries.length).toBeGreaterThan(0);
  expect(a.all.filter((r) => r.kind === "cached" || r.kind === "transcript").map((r) => r.kind)).toEqual(["cached"]);
});
