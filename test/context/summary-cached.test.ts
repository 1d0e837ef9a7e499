// The summary request that reads the provider's prompt cache (context/summary-cached.ts): the last
// request the model answered, sent again as it went, with the ask for the summary of the range as
// its note (inside the last turn); the transcript request when the answer is no summary, the window
// has no room for it, or the endpoint refuses it.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createAgent, type Agent } from "../../src/agent.ts";
import { cachedSummaryRequest, SUMMARY_ASK_START, type AnsweredRequest } from "../../src/context/summary-cached.ts";
import { compactRange } from "../../src/context/summary-request.ts";
import type { Message } from "../../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { toRequest } from "../../src/providers/anthropic.ts";
import { cacheLifetimeOf } from "../../src/providers/cache-lifetime.ts";
import { toRequest as toChatRequest } from "../../src/providers/openai.ts";
import { agentSettings } from "../../src/runtime.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput, type RecordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { isCachedSummary, isTranscriptSummary } from "../helpers/summary-requests.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

type Kind = "work" | "cached" | "transcript";
const usage = { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 };

/** An Anthropic-protocol provider: work turns from a script, summary requests answered by `cached` and `transcript`; every request recorded in order. */
function provider(script: Turn[], answers: { cached?: (r: ModelRequest) => Message; transcript?: string } = {}) {
  const work = fakeProvider(script, { model: "claude-test" });
  const all: { kind: Kind; request: ModelRequest }[] = [];
  const p: Provider & { all: typeof all } = {
    protocol: "anthropic",
    model: "claude-test",
    all,
    async *stream(request, signal): AsyncGenerator<StreamEvent> {
      const kind: Kind = isCachedSummary(request) ? "cached" : isTranscriptSummary(request) ? "transcript" : "work";
      all.push({ kind, request: { ...request, messages: structuredClone(request.messages) } });
      if (kind === "work") return yield* work.stream(request, signal);
      const text = answers.transcript ?? "TRANSCRIPT SUMMARY: files 1-3 read.";
      const message: Message =
        kind === "cached" && answers.cached ? answers.cached(request) : { id: `s${all.length}`, role: "assistant", content: [{ type: "text", text }] };
      yield { type: "done", message, usage, stop: message.toolCalls ? "tool_calls" : "stop" };
    },
  };
  return p;
}

/** Six turns each reading a ~2 KB file, then an answer, on a 2,500-token budget: a summary is due on the way. */
function longTask(p: Provider, output: RecordingOutput = recordingOutput()): Agent {
  const settings = defaultSettingsForTest();
  settings.agent.budgetTokens = 2500;
  const readBig = {
    name: "read_big",
    description: "reads",
    parameters: {},
    run: async (args: Record<string, unknown>) => ({ output: `file ${args.n}: ${"lorem ipsum dolor ".repeat(120)}` }),
  };
  return createAgent({
    settings: agentSettings(settings),
    provider: p,
    tools: () => [readBig],
    output,
    cwd: dir.path,
    system: () => "You are a coding agent.",
    permission: () => undefined,
    taskNote: () => undefined,
  });
}
const readTurns = (n: number): Turn[] => Array.from({ length: n }, (_, i) => ({ toolCalls: [{ name: "read_big", arguments: { n: i + 1 } }] }));

test("the summary request is the last request the model answered, byte for byte, with the ask for the summary inside its last turn", async () => {
  const p = provider([...readTurns(6), { text: "done" }]);
  const output = recordingOutput();
  await longTask(p, output).send("fix the parser", new AbortController().signal);
  const at = p.all.findIndex((r) => r.kind === "cached");
  expect(at).toBeGreaterThan(0);
  const last = p.all[at - 1]!.request;
  const summary = p.all[at]!.request;
  expect(p.all[at - 1]!.kind).toBe("work");
  // the same system prompt, tools and thinking setting; no tool choice of its own (Anthropic keys its cached messages on it)
  expect([summary.system, summary.tools, summary.effort, summary.toolChoice]).toEqual([last.system, last.tools, last.effort, undefined]);
  expect(JSON.stringify(summary.messages)).toBe(JSON.stringify(last.messages));
  const ask = summary.note!;
  expect(ask.startsWith(SUMMARY_ASK_START)).toBe(true);
  expect(ask).toContain("Do not call any tool now");
  // the part to fold runs to the result this ask is appended to: it ends at the ask, not at a message named around it
  expect(ask).toContain('from your turn calling read_big {"n":1} to the end, up to this note: your summary replaces that part. Write');
  // on the wire: system, tools and messages with their cache marks as they were; only the note at the end of the last turn differs
  const model = { model: "claude-test" };
  const [was, now] = [toRequest(last, model), toRequest(summary, model)];
  expect(JSON.stringify([now.system, now.tools])).toBe(JSON.stringify([was.system, was.tools]));
  expect(JSON.stringify(now.messages.slice(0, -1))).toBe(JSON.stringify(was.messages.slice(0, -1))); // the earlier user turn's mark too
  const without = (messages: unknown, note: string | undefined) =>
    JSON.stringify(messages).replace(`,${JSON.stringify({ type: "text", text: note ?? "" })}`, "");
  expect(without(now.messages, ask)).toBe(without(was.messages, last.note));
  expect(JSON.stringify(now.messages.at(-1)).endsWith(`${JSON.stringify({ type: "text", text: ask })}]}`)).toBe(true);
  // its summary is used as the transcript's was
  expect(output.of("compaction").find((e) => e.kind === "summary")).toMatchObject({ summary: "TRANSCRIPT SUMMARY: files 1-3 read." });
  expect(p.all.some((r) => r.kind === "transcript")).toBe(false);
});

test("a summary request answered with a tool call is asked again as the transcript; both are counted", async () => {
  const call = (): Message => ({
    id: "c",
    role: "assistant",
    content: [{ type: "text", text: "Let me read more." }],
    toolCalls: [{ id: "t1", name: "read_big", arguments: '{"n":9}' }],
  });
  const p = provider([...readTurns(6), { text: "done" }], { cached: call, transcript: "FROM THE TRANSCRIPT" });
  const output = recordingOutput();
  const agent = longTask(p, output);
  const result = await agent.send("fix the parser", new AbortController().signal);
  expect(result.stop).toBe("end");
  const at = p.all.findIndex((r) => r.kind === "cached");
  expect(p.all[at + 1]?.kind).toBe("transcript"); // at once, before the turn goes on
  expect(output.of("compaction").find((e) => e.kind === "summary")).toMatchObject({ summary: "FROM THE TRANSCRIPT" });
  expect(agent.messages.some((m) => m.toolCalls?.some((c) => c.id === "t1"))).toBe(false); // the call never ran nor joined the history
  expect(output.of("usage").map((e) => e.input_tokens)).toContain(200); // the tool-call answer and the transcript's: one summary's cost
});

test("a summary request refused as too long is asked again as the transcript", async () => {
  let refused = 0;
  const p = provider([...readTurns(6), { text: "done" }]);
  const inner = p.stream.bind(p);
  p.stream = async function* (request, signal) {
    if (isCachedSummary(request)) {
      refused++;
      p.all.push({ kind: "cached", request });
      throw new ProviderError("context_length", "prompt is too long: 200000 tokens > 199999 maximum", { status: 400 });
    }
    yield* inner(request, signal);
  };
  const output = recordingOutput();
  await longTask(p, output).send("fix the parser", new AbortController().signal);
  expect(refused).toBeGreaterThan(0);
  const at = p.all.findIndex((r) => r.kind === "cached");
  expect(p.all[at + 1]?.kind).toBe("transcript");
  expect(output.of("compaction").find((e) => e.kind === "summary")).toMatchObject({ summary: "TRANSCRIPT SUMMARY: files 1-3 read." });
});

test("in a window without room for the last request and the summary's answer, the transcript is asked, sized to the window", async () => {
  const p = provider([...readTurns(6), { text: "done" }]);
  const agent = longTask(p);
  agent.settings.context.window = 2900; // 80 % of it is the budget: the last request and 512 tokens of answer pass 90 % of it
  await agent.send("fix the parser", new AbortController().signal);
  expect(p.all.some((r) => r.kind === "cached")).toBe(false);
  const transcript = p.all.find((r) => r.kind === "transcript")!.request;
  expect(transcript.maxTokens).toBeLessThanOrEqual(2900);
});

const turn = (id: string, n: number): Message[] => [
  { id: `a${id}`, role: "assistant", content: [], toolCalls: [{ id: `c${id}`, name: "read_file", arguments: JSON.stringify({ path: `f${n}.ts` }) }] },
  { id: `r${id}`, role: "tool", toolCallId: `c${id}`, content: [{ type: "text", text: "lines" }] },
];
const sent: Message[] = [
  { id: "u1", role: "user", content: [{ type: "text", text: "fix it" }] },
  ...turn("1", 1),
  ...turn("2", 2),
  ...turn("3", 1),
  ...turn("4", 3),
];
const by: Provider = { protocol: "anthropic", model: "m", stream: async function* () {} };
const last: AnsweredRequest = { request: { system: "s", messages: sent, tools: [], note: "Context: 90%" }, by, at: 1_000 };
const range = { fromId: "a1", toId: "r3", messages: sent.slice(1, 7) };

test("the cached request is made only for the same provider, within the cache's lifetime, for a range the last request sent whole", () => {
  const made = cachedSummaryRequest(last, range, { provider: by, now: 2_000 })!;
  expect(made.request.note).not.toContain("Context: 90%"); // the context line is the request's own, not part of the prefix
  expect(made.request.messages).toEqual(sent);
  expect(made.request.note).toContain(
    'from your turn calling read_file {"path":"f1.ts"} (the 1st of 2 alike) through the result of your read_file {"path":"f1.ts"} call (the 2nd of 2 alike)',
  );
  const other: Provider = { ...by };
  expect(cachedSummaryRequest(last, range, { provider: other, now: 2_000 })).toBeUndefined(); // after /model: another cache
  expect(cachedSummaryRequest(last, range, { provider: by, now: 1_000 + 5 * 60_000 + 1 })).toBeUndefined(); // Anthropic's cache is gone
  // an OpenAI-style endpoint's cache outlives 5 minutes: 7 minutes on, the summary is still asked from it (before: a transcript at full price)
  const openai: Provider = {
    protocol: "openai",
    model: "m",
    cacheLifetimeMs: cacheLifetimeOf({ protocol: "openai", baseUrl: "https://api.openai.com/v1", model: "m" }),
    stream: by.stream,
  };
  const answeredThere = { ...last, by: openai };
  expect(cachedSummaryRequest(answeredThere, range, { provider: openai, now: 1_000 + 7 * 60_000 })?.request.messages).toEqual(sent);
  expect(cachedSummaryRequest(answeredThere, range, { provider: openai, now: 1_000 + 25 * 3_600_000 })).toBeUndefined(); // past its 24 hours
  const unsent = { ...range, messages: [...range.messages, { id: "x", role: "user" as const, content: [] }] };
  expect(cachedSummaryRequest(last, unsent, { provider: by, now: 2_000 })).toBeUndefined(); // a message the last request did not hold
  expect(cachedSummaryRequest(last, { ...range, cut: new Set(["r2"]) }, { provider: by, now: 2_000 })).toBeUndefined(); // a result it sent cut: read whole from the session
  expect(cachedSummaryRequest(undefined, range, { provider: by, now: 2_000 })).toBeUndefined(); // nothing answered yet (a resumed run)
});

test("a compress the last request held back and the resumed view applies (hey -c, then /compact): the ask names what the last request sent in its place (r6 #6)", () => {
  // the view after `hey -c` holds the compress's summary where the last request sent a1..r2 (turns 1 and 2) as they were
  const compressed: Message = { id: "summary-a1", role: "user", content: [{ type: "text", text: "[summary of earlier work] read f1 and f2" }] };
  const viewRange = { fromId: "summary-a1", toId: "r3", messages: [compressed, ...sent.slice(5, 7)] };
  const made = cachedSummaryRequest(last, viewRange, { provider: by, now: 2_000 });
  expect(made?.request.messages).toEqual(sent); // the cached ask, not the transcript at full price
  expect(made!.request.note).toBe(cachedSummaryRequest(last, range, { provider: by, now: 2_000 })!.request.note);
  // a summary whose first message the last request never sent, or a range ending on one, is still the transcript's
  const foreign = { ...viewRange, messages: [{ ...compressed, id: "summary-zz" }, ...sent.slice(5, 7)] };
  expect(cachedSummaryRequest(last, foreign, { provider: by, now: 2_000 })).toBeUndefined();
  expect(cachedSummaryRequest(last, { ...viewRange, messages: [...sent.slice(1, 3), compressed] }, { provider: by, now: 2_000 })).toBeUndefined();
});

test("/compact asks after the last request too, with the user's words in the ask", async () => {
  const p = provider([...readTurns(3), { text: "done" }]);
  const agent = longTask(p);
  agent.settings.context.budgetTokens = 100_000; // nothing summarized on the way
  await agent.send("fix the parser", new AbortController().signal);
  expect(await agent.compact("keep the file names", new AbortController().signal)).toBe(true);
  const [last, summary] = p.all.slice(-2).map((r) => r.request);
  expect(p.all.at(-1)!.kind).toBe("cached");
  expect(JSON.stringify(summary!.messages)).toBe(JSON.stringify(last!.messages));
  expect(summary!.note).toContain("(keep the file names)");
});

/** A last request of six reads whose results are `chars` long each, to the provider that answers every request with a summary. */
function readsAnswered(chars: number) {
  const requests: ModelRequest[] = [];
  const p: Provider = {
    protocol: "anthropic",
    model: "m",
    async *stream(request): AsyncGenerator<StreamEvent> {
      requests.push(request);
      yield { type: "done", message: { id: "s", role: "assistant", content: [{ type: "text", text: "S" }] }, usage, stop: "stop" };
    },
  };
  const messages: Message[] = [{ id: "u1", role: "user", content: [{ type: "text", text: "go" }] }];
  for (let i = 1; i <= 6; i++)
    messages.push(
      { id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"f${i}.ts"}` }] },
      { id: `r${i}`, role: "tool", toolCallId: `c${i}`, content: [{ type: "text", text: "x".repeat(chars) }] },
    );
  const state = { summaries: [], tokensPerChar: 0.25, answered: { request: { system: "s", messages, tools: [] }, by: p, at: 0 } };
  return { requests, messages, deps: { state, provider: p, budgetTokens: 40_000, now: () => 1 } };
}

test("the summary goes as the transcript where that costs less than reading the conversation from the cache: a short range of long results", async () => {
  const long = readsAnswered(40_000); // one 40 KB result to fold: a transcript shows 2 KB of it; the cache would serve all 240 KB at a tenth
  await compactRange({ fromId: "a1", toId: "r1", messages: long.messages.slice(1, 3) }, long.deps, new AbortController().signal);
  expect(long.requests.map((r) => (isCachedSummary(r) ? "cached" : "transcript"))).toEqual(["transcript"]);
  const short = readsAnswered(2_000); // five 2 KB results to fold, all shown whole by a transcript: the cache serves them for less
  await compactRange({ fromId: "a1", toId: "r5", messages: short.messages.slice(1, 11) }, short.deps, new AbortController().signal);
  expect(short.requests.map((r) => (isCachedSummary(r) ? "cached" : "transcript"))).toEqual(["cached"]);
});

test("on chat completions the ask goes inside the last tool result: no user turn after tool results, which Mistral refuses", () => {
  const made = cachedSummaryRequest(last, range, { provider: by, now: 2_000 })!;
  const wire = toChatRequest(made.request, { model: "devstral" });
  expect(wire.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant", "tool"]);
  expect(String(wire.messages.at(-1)!.content)).toEndWith(`lines\n\n${made.request.note}`);
});

test("after a refused prompt, /compact does not send the refused words again: the summary is asked as the transcript", async () => {
  const p = provider([...readTurns(3), { text: "done" }, { text: "I can't help with that.", stop: "refusal" }]);
  const agent = longTask(p);
  agent.settings.context.budgetTokens = 100_000; // nothing summarized on the way
  await agent.send("fix the parser", new AbortController().signal);
  await agent.send("REFUSED-WORDS-XYZ", new AbortController().signal);
  expect(await agent.compact(undefined, new AbortController().signal)).toBe(true);
  const summary = p.all.at(-1)!;
  expect(summary.kind).toBe("transcript");
  expect(JSON.stringify(summary.request)).not.toContain("REFUSED-WORDS-XYZ");
});
