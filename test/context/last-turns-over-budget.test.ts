// The last turns alone over the budget (x16): a 60 KB answer, then `hey -c` on a model of a small
// window. Everything else left out, the long texts of what is left are cut to their start and end
// (budget.ts stage 5), the same bytes in every request; the latest user message never; a summary
// may then take the long answer in (summary-range.ts), and the compaction events carry the real
// before and after.
import { describe, expect, test } from "bun:test";
import { newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import { buildContext, summaryParts, type ContextInput } from "../../src/context/view.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { emptyUsage, textOf, type Message } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { testPolicy } from "../helpers/settings.ts";

const text = (id: string, role: "user" | "assistant", t: string): Message => ({ id, role, content: [{ type: "text", text: t }] });
const ANSWER = `START\n${Array.from({ length: 1200 }, (_, i) => `line ${i} of the long answer `.padEnd(49, ".")).join("\n")}\nEND`; // 60 KB
const history = (latest = "next"): Message[] => [
  text("u1", "user", "hi"),
  text("a1", "assistant", "ok"),
  text("u2", "user", "big 60000"),
  text("a2", "assistant", ANSWER),
  text("u3", "user", latest),
];
/** A 10,000-token window: the budget is 80 % of it, no request past 90 %. */
const input = (over: Partial<ContextInput> = {}): ContextInput => ({
  history: history(),
  summaries: [],
  policy: testPolicy({ budgetTokens: 8000, compressTool: false }),
  fixedTokens: 1100,
  tokensPerChar: 0.25,
  hardTokens: 9000,
  ...over,
});
const shown = (view: { messages: readonly Message[] }, id: string) => textOf(view.messages.find((m) => m.id === id)!);

describe("the last turns alone over the budget", () => {
  test("the long answer keeps its start and end around a note; the request fits the budget; the latest message is whole", () => {
    const view = buildContext(input());
    expect(view.estimate).toBeLessThanOrEqual(8000);
    expect(view.overBudget).toBe(false);
    expect(view.stats.texts).toBe(1);
    const answer = shown(view, "a2");
    expect(answer).toStartWith("START\nline 0 of the long answer");
    expect(answer).toEndWith("END");
    expect(answer).toMatch(/\n\[… \d+ characters of this message left out to fit the context budget; the session file keeps it whole …\]\n/);
    expect(answer.length).toBeLessThan(ANSWER.length / 3);
    expect(shown(view, "u3")).toBe("next");
  });

  test.each([0.25, 0.3, 0.2])("the cut is the same bytes whatever the estimate's ratio (%p): the provider's cached prefix holds", (ratio) => {
    const first = buildContext(input());
    expect(shown(buildContext(input({ tokensPerChar: ratio })), "a2")).toBe(shown(first, "a2"));
    // and a request after it, through the hold, cuts it again the same way
    const next = buildContext(
      input({ tokensPerChar: ratio, hold: first.hold, history: [...history(), text("a3", "assistant", "ok"), text("u4", "user", "more")] }),
    );
    expect(shown(next, "a2")).toBe(shown(first, "a2"));
  });

  test("a long latest message is never cut: the texts before it are cut further instead", () => {
    const latest = "q".repeat(20_000); // ~5,000 tokens of the 8,000
    const view = buildContext(input({ history: history(latest) }));
    expect(shown(view, "u3")).toBe(latest);
    expect(shown(view, "a2")).toContain("characters of this message left out to fit the context budget");
    expect(shown(view, "a2").length).toBeLessThan(shown(buildContext(input()), "a2").length / 2);
    expect(view.estimate).toBeLessThanOrEqual(8000);
  });

  test("in a tool loop the next request cuts the answer the same way (the hold), keeps it, and asks for no summary", () => {
    const call = (n: number): Message => ({
      ...text(`a${n}`, "assistant", n === 3 ? ANSWER : ""),
      toolCalls: [{ id: `c${n}`, name: "bash", arguments: "{}" }],
    });
    const result = (n: number): Message => ({ id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "bash", content: [{ type: "text", text: "done" }] });
    const first = [text("u1", "user", "hi"), text("u2", "user", "go"), call(3), result(3)];
    const view = buildContext(input({ history: first }));
    expect(view.stats.texts).toBe(1);
    expect(view.newlyTrimmed).toBe(1); // newly cut: a summary may be asked for
    const next = buildContext(input({ history: [...first, call(4), result(4)], hold: view.hold }));
    expect(shown(next, "a3")).toBe(shown(view, "a3"));
    expect(next.newlyTrimmed).toBe(0);
    expect(next.stats.trimmed).toBe(0);
  });

  test("within the budget nothing is cut", () => {
    const view = buildContext(input({ policy: testPolicy({ budgetTokens: 40_000, compressTool: false }), hardTokens: undefined }));
    expect(view.stats.texts).toBe(0);
    expect(shown(view, "a2")).toBe(ANSWER);
  });

  test("a summary may then take in the long answer (and the question it answered): the next request holds the summary, nothing cut", () => {
    const view = buildContext(input());
    expect(view.summarizable).toMatchObject({ fromId: "a1", toId: "a2" });
    const summaries = summaryParts(view.summarizable!, "the user asked for a long text; it was written");
    const after = buildContext(input({ summaries }));
    expect(after.messages.map((m) => m.id)).toEqual(["u1", "summary-a1", "u3"]);
    expect(after.stats.texts).toBe(0);
  });
});

describe("prepare", () => {
  /** A provider that answers every request with a summary, and the requests it was sent. */
  const summarizer = () => {
    const asked: ModelRequest[] = [];
    const reply: Message = text("s", "assistant", "a long text was written");
    const provider: Provider = {
      protocol: "openai",
      model: "m",
      stream: async function* (request): AsyncGenerator<StreamEvent> {
        asked.push(request);
        yield { type: "done", message: reply, usage: emptyUsage(), stop: "stop" };
      },
    };
    return { provider, asked };
  };
  const deps = (provider: Provider, events: AgentEvent[]): PrepareDeps => ({
    state: { ...newCompactionState(), window: 10_000 },
    policy: testPolicy({ compressTool: false }),
    provider,
    output: { emit: (e) => events.push(e) },
    tools: [],
    system: () => "s".repeat(4400),
    taskNote: () => undefined,
    now: () => 0,
  });

  test("the long answer of the last turns is summarized, and the compaction says how much smaller the context got", async () => {
    const { provider, asked } = summarizer();
    const events: AgentEvent[] = [];
    const prepared = await prepare(history(), deps(provider, events), new AbortController().signal);
    expect(asked.length).toBe(1);
    expect(prepared.messages.map((m) => m.id)).toEqual(["u1", "summary-a1", "u3"]);
    const [event] = events.filter((e) => e.type === "compaction");
    expect(event).toMatchObject({ kind: "summary", from_id: "a1", to_id: "a2" });
    if (event?.type === "compaction") expect(event.tokens_after).toBeLessThan(event.tokens_before / 4);
  });

  test("without a summary (a retry after a context-length error) the cut is said, with its real before and after", async () => {
    const events: AgentEvent[] = [];
    const { provider, asked } = summarizer();
    await prepare(history(), deps(provider, events), new AbortController().signal, { deterministic: true });
    expect(asked).toEqual([]);
    const [event] = events.filter((e) => e.type === "compaction");
    expect(event).toMatchObject({ kind: "trim", texts_cut: 1 });
    if (event?.type === "compaction") expect(event.tokens_after).toBeLessThan(event.tokens_before / 2);
  });
});
