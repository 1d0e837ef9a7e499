// Context management through the agent (SPEC §10): over budget, the provider summarizes older
// work; when that fails the deterministic trim carries the turn; .hey/task.md survives both.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, type Agent } from "../../src/agent.ts";
import { readTaskNote } from "../../src/context/task-note.ts";
import { textOf, type Message } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { runCommand, type CommandContext } from "../../src/ui/commands.ts";
import { usageReport } from "../../src/ui/usage-report.ts";
import { estimateTokens } from "../../src/context/view.ts";
import { summaryWorth } from "../../src/context/summary-worth.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput, type RecordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { agentSettings } from "../../src/runtime.ts";
import { isSummaryRequest } from "../helpers/summary-requests.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir.path, ".hey"));
  writeFileSync(join(dir.path, ".hey", "task.md"), "# Task\nGOAL: make the parser accept trailing commas\nREMAINING: tests for nested arrays\n");
});
afterEach(() => dir.remove());

/** Work turns from a script; summary requests answered by `summarize` (throw to fail them). */
function provider(script: Turn[], summarize: (r: ModelRequest) => string) {
  const work = fakeProvider(script);
  const summaries: ModelRequest[] = [];
  const p: Provider & { work: typeof work; summaries: ModelRequest[] } = {
    protocol: "openai",
    model: "fake-model",
    work,
    summaries,
    async *stream(request, signal): AsyncGenerator<StreamEvent> {
      if (!isSummaryRequest(request)) return yield* work.stream(request, signal);
      summaries.push(request);
      const text = summarize(request);
      yield {
        type: "done",
        message: { id: "s", role: "assistant", content: [{ type: "text", text }] },
        usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        stop: "stop",
      };
    },
  };
  return p;
}

/** Six turns each reading a ~2 KB file, then an answer; budget far below what that adds up to. */
function longTask(p: Provider, output: RecordingOutput, system = "system", read = (n: unknown) => `file ${n}: ` + "lorem ipsum dolor ".repeat(120)): Agent {
  const settings = defaultSettingsForTest();
  settings.agent.budgetTokens = 2500;
  const readBig = {
    name: "read_big",
    description: "reads",
    parameters: {},
    run: async (args: Record<string, unknown>) => ({ output: read(args.n) }),
  };
  return createAgent({
    settings: agentSettings(settings),
    provider: p,
    tools: () => [readBig],
    output,
    cwd: dir.path,
    system: () => system,
    permission: () => undefined,
    taskNote: () => readTaskNote(dir.path),
  });
}
const readTurns = (n: number): Turn[] => Array.from({ length: n }, (_, i) => ({ toolCalls: [{ name: "read_big", arguments: { n: i + 1 } }] }));
const sent = (r: ModelRequest) => r.messages.map((m: Message) => textOf(m)).join("\n");

test("over budget, older work is summarized by the provider and the summary is sent instead", async () => {
  const p = provider([...readTurns(6), { text: "done" }], () => "Read files 1-3; nothing wrong in them.");
  const output = recordingOutput();
  const agent = longTask(p, output);
  const result = await agent.send("fix the parser", new AbortController().signal);
  expect(result.stop).toBe("end");
  expect(p.summaries.length).toBeGreaterThan(0);
  expect(p.summaries[0]!.maxTokens).toBe(4096); // its own output budget, reasoning off
  const compaction = output.of("compaction").find((e) => e.kind === "summary")!;
  expect(compaction).toMatchObject({ summary: "Read files 1-3; nothing wrong in them." });
  const last = p.work.requests.at(-1)!;
  expect(sent(last)).toContain("[summary of earlier work]");
  expect(sent(last)).toContain("GOAL: make the parser accept trailing commas"); // task.md re-injected
  expect(textOf(last.messages[0]!)).toBe("fix the parser"); // the first user message is kept
  expect(agent.messages.filter((m) => m.role === "tool")).toHaveLength(6); // the history itself is whole
});

test("a summary request is announced as it starts, for the spinner, and its compaction event follows it", async () => {
  const output = recordingOutput();
  const p = provider([...readTurns(6), { text: "done" }], () => {
    expect(output.events.at(-1)?.type).toBe("summarizing"); // said before the request, not after
    return "Read files 1-3.";
  });
  await longTask(p, output).send("fix the parser", new AbortController().signal);
  const types = output.events.map((e) => e.type);
  const at = types.indexOf("summarizing");
  expect(at).toBeGreaterThan(types.indexOf("turn_start"));
  expect(types.slice(at + 1).find((t) => t !== "usage")).toBe("compaction");
  expect(output.of("summarizing")).toHaveLength(p.summaries.length);
});

test("when the summary request fails the turn proceeds on the deterministic trim, and task.md is still sent", async () => {
  const p = provider([...readTurns(6), { text: "done" }], () => {
    throw new ProviderError("overloaded", "summarizer overloaded (503)");
  });
  const output = recordingOutput();
  const agent = longTask(p, output);
  const result = await agent.send("fix the parser", new AbortController().signal);
  expect(result.stop).toBe("end");
  expect(p.summaries.length).toBeGreaterThan(0);
  const trims = output.of("compaction").filter((e) => e.kind === "trim");
  expect(trims[0]!.error).toContain("summarizer overloaded (503)");
  const later = p.work.requests.at(-1)!;
  expect(sent(later)).toContain("earlier messages omitted to fit the context budget");
  expect(sent(later)).toContain("GOAL: make the parser accept trailing commas");
  expect(output.of("error")).toEqual([]); // the run itself did not fail
});

test("/usage reports tokens, context against the budget and what was pruned", async () => {
  const p = provider([...readTurns(3), { text: "done", usage: { input: 900, output: 12 } }], () => "s");
  const agent = longTask(p, recordingOutput());
  await agent.send("go", new AbortController().signal);
  const report = usageReport(agent);
  expect(report).toContain("· 4 requests");
  expect(report).toMatch(/^last request: 900 in \(0 cached\) · 12 out$/m);
  expect(report).toMatch(/^context: ~[\d,]+ of 2,500 tokens \(\d+%\) · 8 messages in the session$/m);
});

test("summary requests count: in the run's usage (its cap, done), in /usage's requests, as usage events", async () => {
  const p = provider([...readTurns(6), { text: "done" }], () => "Read files 1-3; nothing wrong in them.");
  const output = recordingOutput();
  const agent = longTask(p, output);
  const result = await agent.send("fix the parser", new AbortController().signal);
  const summaries = p.summaries.length;
  expect(summaries).toBeGreaterThan(0);
  expect(agent.usage.requests).toBe(p.work.requests.length + summaries);
  expect(output.of("usage")).toHaveLength(p.work.requests.length + summaries);
  // the fake work turns report no usage: what the run counted is the summaries' 10 + 10 each
  expect(result.usage).toMatchObject({ input: 10 * summaries, output: 10 * summaries });
  expect(output.of("done")[0]!.usage).toMatchObject({ input_tokens: 10 * summaries, output_tokens: 10 * summaries });
});

test("/usage before the first request counts the system prompt and the tools, as the first request's estimate then does; after it, the answer too", async () => {
  const p = provider([{ text: "done" }], () => "s");
  const agent = longTask(p, recordingOutput(), "You are a careful coding agent. ".repeat(100));
  agent.settings.context.budgetTokens = 100_000;
  const usage = async () => (await runCommand("/usage", { agent, signal: new AbortController().signal } as unknown as CommandContext)).text;
  const context = (r: string) => Number(/^context: ~([\d,]+) of 100,000 tokens/m.exec(r)?.[1]?.replace(/,/g, "") ?? Number.NaN);
  const start = context(await usage());
  // 3,200 characters of system prompt and the read_big tool's schema, at the estimate's 0.25 tokens a character
  expect(start).toBeGreaterThan(800);
  await agent.send("go", new AbortController().signal);
  // the request sent holds the same system prompt and tools, and the one message more
  const [prompt] = agent.messages;
  expect(agent.context.last!.estimate).toBe(start + estimateTokens([prompt!], agent.context.tokensPerChar));
  // after it, the one the next request would hold: the answer counts too
  expect(context(await usage())).toBe(agent.context.last!.estimate + estimateTokens([agent.messages.at(-1)!], agent.context.tokensPerChar));
});

test("/compact: its request is counted; /usage tells messages summarized from compressed ranges, in the right plural", async () => {
  const p = provider([...readTurns(8), { text: "done" }], () => "s");
  const agent = longTask(p, recordingOutput());
  agent.settings.context.budgetTokens = 100_000; // nothing compacted on the way
  await agent.send("go", new AbortController().signal);
  const before = agent.usage.requests;
  const context = (r: string) => Number(/context: ~([\d,]+) of/.exec(r)![1]!.replace(/,/g, ""));
  const full = context(usageReport(agent));
  expect(usageReport(agent)).toMatch(/^pruned: nothing yet$/m); // eight reads, nothing pruned: said in two words
  expect(await agent.compact(undefined, new AbortController().signal)).toBe(true);
  expect(agent.usage.requests).toBe(before + 1);
  const report = usageReport(agent);
  // what the next request holds now, not the last one sent before the summary
  expect(context(report)).toBeLessThan(full / 2);
  expect(report).toContain(`· ${before + 1} requests`);
  // only what was pruned: no row of zeros
  expect(report).toMatch(/^pruned: \d+ messages summarized · 1 summary$/m);
});

test("a trim event reports the tokens before the trim and after it", async () => {
  const p = provider([...readTurns(6), { text: "done" }], () => {
    throw new ProviderError("overloaded", "summarizer overloaded (503)");
  });
  const output = recordingOutput();
  await longTask(p, output).send("fix the parser", new AbortController().signal);
  const trims = output.of("compaction").filter((e) => e.kind === "trim");
  expect(trims.length).toBeGreaterThan(0);
  for (const t of trims) expect(t.tokens_before).toBeGreaterThan(t.tokens_after);
});

test("a summary and a trim of the same request report the same tokens_before: the whole context, over the budget", async () => {
  const run = async (summarize: (r: ModelRequest) => string) => {
    const output = recordingOutput();
    await longTask(provider([...readTurns(6), { text: "done" }], summarize), output).send("fix the parser", new AbortController().signal);
    return output.of("compaction")[0]!;
  };
  const summary = await run(() => "Read files 1-3.");
  const trim = await run(() => {
    throw new ProviderError("overloaded", "summarizer overloaded (503)");
  });
  expect([summary.kind, trim.kind]).toEqual(["summary", "trim"]);
  // the same history at the same turn: the context that request would have held, before either step
  expect(summary.tokens_before).toBe(trim.tokens_before);
  expect(summary.tokens_before).toBeGreaterThan(2500);
  // after either, what the request holds: within the budget, system prompt and kept turns included
  for (const e of [summary, trim]) expect(e.tokens_after).toBeLessThan(e.tokens_before);
  expect(trim.tokens_after).toBeLessThanOrEqual(2500);
  expect(summary.tokens_after).toBeLessThanOrEqual(2500);
  expect(summary.tokens_after).toBeGreaterThan(Math.ceil("Read files 1-3.".length / 4)); // not the summary's own size
});

test("/compact's summary event: the next request's context without the summary, then with it", async () => {
  const p = provider([...readTurns(8), { text: "done" }], () => "s");
  const output = recordingOutput();
  const agent = longTask(p, output);
  agent.settings.context.budgetTokens = 100_000;
  await agent.send("go", new AbortController().signal);
  const preview = await agent.preview(new AbortController().signal);
  expect(await agent.compact(undefined, new AbortController().signal)).toBe(true);
  const event = output.of("compaction").find((e) => e.kind === "summary")!;
  expect(event.tokens_before).toBe(preview.estimate);
  expect(event.tokens_after).toBe(agent.context.last!.estimate);
});

test("/compact's summary event after an old result was cut: before is the context /usage showed, not that result whole", async () => {
  const p = provider([...readTurns(4), { text: "done" }, { text: "nothing more" }], () => "s");
  const output = recordingOutput();
  // the last read is far over the budget: once it is not the newest result it is cut to head and tail
  const agent = longTask(p, output, "system", (n) => (n === 4 ? "x ".repeat(20_000) : "small"));
  await agent.send("go", new AbortController().signal);
  await agent.send("and now?", new AbortController().signal);
  const preview = await agent.preview(new AbortController().signal);
  expect(preview.estimate).toBeLessThan(agent.settings.context.budgetTokens);
  expect(await agent.compact(undefined, new AbortController().signal)).toBe(true);
  const event = output.of("compaction").findLast((e) => e.kind === "summary")!;
  expect(event.tokens_before).toBe(preview.estimate);
});

test("summaries are incremental: the next one reads the last one's text and what came after, never the history it covered", async () => {
  let n = 0;
  const p = provider([...readTurns(12), { text: "done" }], () => `SUMMARY ${++n}: files read so far.`);
  const agent = longTask(p, recordingOutput());
  await agent.send("fix the parser", new AbortController().signal);
  expect(p.summaries.length).toBeGreaterThan(1);
  // what each summary request shows the model: the conversation as last sent, with the ask after it
  const shown = p.summaries.map((r) => r.messages.map(textOf).join("\n"));
  expect(shown[0]).toContain("file 1: "); // every message of the stretch is shown
  for (const [i, t] of shown.entries()) {
    expect(t.length).toBeLessThanOrEqual(Math.ceil(2500 / 0.25) + 2000); // bounded by the budget (and the ask), not the whole history (~27 KB)
    if (i === 0) continue;
    expect(t).toContain(`SUMMARY ${i}: files read so far.`); // the previous summary carried on
    expect(t).not.toContain("file 1: "); // file 1 was summarized by the first summary: never read again
  }
  // each stretch is summarized once: summaries are a handful, not one per turn
  expect(p.summaries.length).toBeLessThanOrEqual(6);
});

test("/usage shows what the prompt cache served, and the model's window once it is learned", async () => {
  const p = provider(
    [
      { toolCalls: [{ name: "read_big", arguments: { n: 1 } }], usage: { input: 1000, output: 10, cacheRead: 0 } },
      { text: "done", usage: { input: 1200, output: 12, cacheRead: 900 } },
    ],
    () => "s",
  );
  const agent = longTask(p, recordingOutput());
  agent.settings.context.budgetTokens = 100_000;
  await agent.send("go", new AbortController().signal);
  const report = usageReport(agent);
  expect(report).toMatch(/^session: 2,200 in \(900 cached = 41%, 0 cache writes\)/m); // this run is the session: one line
  expect(report).not.toContain("this run:");
  expect(report).toMatch(/^last request: 1,200 in \(900 cached = 75%\) · 12 out$/m);
  expect(report).not.toContain("window");
  (agent.context as { window: number | undefined }).window = 16_000;
  expect(usageReport(agent)).toMatch(/^context: ~[\d,]+ of 12,800 tokens \(\d+%\) · the model's window 16,000 tokens \(from the server\) · /m);
});

test("/usage says where the model's window came from: the endpoint that stated it, a context-length error, or context_window", async () => {
  const p = provider([{ text: "one", usage: { input: 1000, output: 10, cacheRead: 0 } }, { text: "two" }, { text: "three" }], () => "s");
  const stated = Object.assign(p, { serverWindow: async () => ({ tokens: 16_000, from: "the endpoint's model list, GET /models" }) });
  const agent = longTask(stated, recordingOutput());
  agent.settings.context.budgetTokens = 100_000;
  await agent.send("go", new AbortController().signal);
  await agent.send("again", new AbortController().signal); // the window is taken before the request after the first answer
  expect(usageReport(agent)).toContain("the model's window 16,000 tokens (from the endpoint's model list, GET /models)");
  agent.settings.context.window = 12_000; // a smaller context_window is what holds
  expect(usageReport(agent)).toContain("the model's window 12,000 tokens (context_window)");
});

test("a summary's tokens_before is what the context held, not more: a result only ever sent cut to the window counts as sent", async () => {
  const p = provider([{ toolCalls: [{ name: "read_huge", arguments: {} }] }, ...readTurns(6), { text: "done" }], () => "Read the huge file and six others.");
  const output = recordingOutput();
  const settings = defaultSettingsForTest();
  settings.agent.budgetTokens = 100_000;
  const tools = [
    { name: "read_huge", description: "reads", parameters: {}, run: async () => ({ output: "huge line of the file\n".repeat(1000) }) }, // ~5,500 tokens
    {
      name: "read_big",
      description: "reads",
      parameters: {},
      // ~525 tokens: the huge result, cut, leaves the protected turns while the rest fits; six of them do not
      run: async (args: Record<string, unknown>) => ({ output: `file ${args.n}: ` + "lorem ".repeat(350) }),
    },
  ];
  const agent = createAgent({
    settings: { ...agentSettings(settings), context: { ...agentSettings(settings).context, window: 4000 } }, // budget 3,200, at most 3,600
    provider: p,
    tools: () => tools,
    output,
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
  });
  await agent.send("read them", new AbortController().signal);
  const summary = output.of("compaction").find((e) => e.kind === "summary")!;
  expect(summary).toBeDefined();
  expect(summary.tokens_before).toBeLessThan(4000); // it never held more than the window: the huge result went cut to it
  expect(summary.tokens_before).toBeGreaterThan(summary.tokens_after);
});

test("hey -c: the model list's window does not raise the one the session kept (a context-length error taught it), but a server's word replaces it", async () => {
  for (const [stated, expected] of [
    [
      { tokens: 16_000, from: "the endpoint's model list, GET /models", listed: true as const },
      "the model's window 8,000 tokens (from the session it continues)",
    ],
    [{ tokens: 16_000, from: "Ollama's GET /api/ps" }, "the model's window 16,000 tokens (from Ollama's GET /api/ps)"],
  ] as const) {
    const p = Object.assign(
      provider([{ text: "one" }, { text: "two" }], () => "s"),
      { serverWindow: async () => stated },
    );
    const settings = defaultSettingsForTest();
    const agent = createAgent({
      settings: agentSettings(settings),
      provider: p,
      window: 8000, // the session's model entry: what a context-length error taught it
      tools: () => [],
      output: recordingOutput(),
      cwd: dir.path,
      system: () => "system",
      permission: () => undefined,
      taskNote: () => undefined,
    });
    await agent.send("go", new AbortController().signal);
    await agent.send("again", new AbortController().signal); // the window is taken before the request after the first answer
    expect(usageReport(agent)).toContain(expected);
  }
});

test("a newest result bigger than the budget by itself, Esc in its turn: the next message asks for no summary that would save next to nothing; the small work before it is trimmed, the result goes whole", async () => {
  const huge = "a line of a very long build log\n".repeat(1500); // ~12,000 tokens against the budget of 2,500
  const esc = new AbortController();
  const script: Turn[] = [
    { toolCalls: [{ name: "read_big", arguments: { n: 1 } }] },
    { toolCalls: [{ name: "read_big", arguments: { n: 2 } }] },
    () => {
      esc.abort(); // Esc while the model reads the result
      return { text: "" };
    },
    { text: "It is a build log; the error is at its end." },
  ];
  // a summary asked for on the way is where Esc lands (as hey did before): the next message asked for it again
  const p = provider(script, () => {
    if (esc.signal.aborted) return "Read file 1.";
    esc.abort();
    throw esc.signal.reason;
  });
  const output = recordingOutput();
  const agent = longTask(p, output, "system", (n) => (n === 2 ? huge : `file ${n}: short`));
  const first = await agent.send("read both files", esc.signal);
  const next = await agent.send("what is in the second?", new AbortController().signal);
  expect(p.summaries).toHaveLength(0); // a summary of `file 1: short` would have cost a request and saved ~20 tokens
  expect([first.stop, next.stop]).toEqual(["interrupted", "end"]);
  const last = p.work.requests.at(-1)!;
  expect(sent(last)).toContain(huge.trimEnd()); // the newest turn's result, whole: the model asked for it
  expect(sent(last)).toContain("earlier messages omitted to fit the context budget");
  expect(output.of("compaction").map((e) => e.kind)).toEqual(["trim"]);
});

test("summaryWorth: a summary replaces at least a tenth of the budget in work no earlier summary holds", () => {
  const m = (id: string, chars: number): Message => ({ id, role: "tool", toolCallId: "c", content: [{ type: "text", text: "x".repeat(chars) }] });
  const range = (...messages: Message[]) => ({ fromId: messages[0]!.id, toId: messages.at(-1)!.id, messages });
  // 0.25 tokens a character: 4,000 characters are 1,000 tokens, a tenth of 10,000
  expect(summaryWorth(range(m("a", 2000), m("b", 2000)), 10_000, 0.25)).toBe(true);
  expect(summaryWorth(range(m("a", 1000), m("b", 1000)), 10_000, 0.25)).toBe(false);
  expect(summaryWorth(range(m("summary-a", 20_000), m("b", 1000)), 10_000, 0.25)).toBe(false); // an earlier summary is carried over, not saved
  expect(summaryWorth(range(m("summary-a", 20_000), m("b", 4000)), 10_000, 0.25)).toBe(true);
});
