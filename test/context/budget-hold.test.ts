// Cost near the budget (issue 23): a session hovering at the budget, request after request through
// `prepare` as the agent makes them. Once hey has to drop or summarize it makes room for the next
// turns, so they append to a cached prefix; and a result the ceiling cut is measured as sent.
import { describe, expect, test } from "bun:test";
import { sharedPrefix } from "../../src/context/cache.ts";
import { newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import { estimateTokens } from "../../src/context/passes.ts";
import { emptyUsage, type Message } from "../../src/kernel/ir.ts";
import { ProviderError, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { testPolicy } from "../helpers/settings.ts";

const signal = new AbortController().signal;

/** A provider that only answers summary requests: with `text`, or failing when it is undefined. */
function summarizer(text: string | undefined): Provider & { asked: number } {
  const p = {
    protocol: "openai" as const,
    model: "m",
    asked: 0,
    async *stream(): AsyncGenerator<StreamEvent> {
      p.asked++;
      if (text === undefined) throw new ProviderError("overloaded", "summarizer overloaded (503)");
      yield { type: "done", message: { id: `s${p.asked}`, role: "assistant", content: [{ type: "text", text }] }, usage: emptyUsage(), stop: "stop" };
    },
  };
  return p;
}

function depsFor(provider: Provider, budgetTokens: number): PrepareDeps {
  return {
    state: newCompactionState(),
    policy: testPolicy({ compressTool: false, budgetTokens }),
    provider,
    output: { emit: () => {} },
    tools: [],
    system: () => "system",
    taskNote: () => undefined,
    now: () => 0,
  };
}

const turn = (n: number, chars: number): Message[] => [
  { id: `a${n}`, role: "assistant", content: [], toolCalls: [{ id: `c${n}`, name: "bash", arguments: `{"command":"step ${n}"}` }] },
  {
    id: `r${n}`,
    role: "tool",
    toolCallId: `c${n}`,
    toolName: "bash",
    content: [{ type: "text", text: Array.from({ length: Math.ceil(chars / 40) }, (_, i) => `${n}:${i} ${"o".repeat(32)}`).join("\n") }],
  },
];

describe("a session hovering at the budget whose summaries fail", () => {
  test("the turns after a trim append to the same prefix: few rewrites, a summary asked for only when the budget is reached again", async () => {
    const provider = summarizer(undefined);
    const deps = depsFor(provider, 8000);
    const history: Message[] = [{ id: "u", role: "user", content: [{ type: "text", text: "go on" }] }];
    let previous: readonly Message[] | undefined;
    let rewrites = 0;
    const requests = 60;
    for (let n = 0; n < requests; n++) {
      const sent = await prepare(history, deps, signal);
      expect(deps.state.last!.estimate).toBeLessThanOrEqual(8000); // the budget is a ceiling
      if (previous && sharedPrefix(previous, sent.messages) < previous.length) rewrites++;
      previous = sent.messages;
      history.push(...turn(n, 1_500 + ((n * 7919) % 7) * 900)); // 375 to 1,950 tokens a turn
    }
    // dropping to the budget, then on to a fixed step, rewrote the prefix 27 times in these 60
    // requests and asked for a summary on every request once anything was dropped (51 times); now 12 and 12
    expect(rewrites).toBeGreaterThan(0);
    expect(rewrites).toBeLessThanOrEqual(15);
    expect(provider.asked).toBe(rewrites); // one attempt per trim, none on the requests that repeat it
  });
});

test("a big result cut by the ceiling that leaves the protected turns is measured cut: no summary while the context as sent fits", async () => {
  const provider = summarizer("what happened so far");
  const deps = depsFor(provider, 6000);
  const history: Message[] = [{ id: "u", role: "user", content: [{ type: "text", text: "run the tests" }] }];
  const sent: (readonly Message[])[] = [];
  const sizes = [9_000, 9_000, 9_000, 1_000, 1_000, 1_000]; // three test logs of ~2,250 tokens in a row, then small turns
  for (const [n, chars] of sizes.entries()) {
    history.push(...turn(n, chars));
    sent.push((await prepare(history, deps, signal)).messages);
  }
  // the three logs alone are over the budget: the third request is sent with r0 and r1 cut, to the low-water
  // mark. Whole they and the rest stay over it; as sent, cut, they fit: nothing is dropped, nothing summarized
  expect(estimateTokens(history, 0.25)).toBeGreaterThan(6000);
  expect(provider.asked).toBe(0);
  expect(deps.state.last!.stats).toMatchObject({ trimmed: 0, summarized: 0 });
  expect(deps.state.last!.stats.cut).toBe(2);
  for (let i = 3; i < sent.length; i++) expect(sharedPrefix(sent[i - 1]!, sent[i]!)).toBe(sent[i - 1]!.length); // each request extends the one before
});

test("a pasted first prompt over its share is cut once: each request after, and a resumed run's, repeats the cut as the estimate's ratio moves", async () => {
  const deps = depsFor(summarizer("what happened so far"), 20_000);
  const paste = Array.from({ length: 4_000 }, (_, i) => `log line ${i}: ${"x".repeat(40)}`).join("\n"); // ~200 KB: far over half the budget
  const history: Message[] = [{ id: "u", role: "user", content: [{ type: "text", text: `why does it fail?\n${paste}` }] }];
  const firsts: string[] = [];
  for (let n = 0; n < 8; n++) {
    history.push(...turn(n, 800));
    const sent = await prepare(history, deps, signal);
    firsts.push(JSON.stringify(sent.messages[0]));
    // what each answer's usage does (compaction.ts correctEstimate): the ratio moves a little every time
    deps.state.tokensPerChar *= n % 2 ? 0.93 : 1.08;
  }
  expect(firsts[0]).toContain("characters of this message left out");
  expect(new Set(firsts).size).toBe(1); // the same bytes: the provider's cached prefix holds past the paste
  // reckoned from the text, not the ratio: a resumed run (a new state, its own ratio) cuts it there too
  const resumed = { ...deps, state: newCompactionState([], 0.4) };
  history.push(...turn(8, 800));
  expect(JSON.stringify((await prepare(history, resumed, signal)).messages[0])).toBe(firsts[0]!);
});

test("the first request of a pasted first prompt over its share says it goes whole this once (no cache breakpoint on it); a short one does not", async () => {
  const deps = depsFor(summarizer("x"), 20_000);
  const paste = "log line ".repeat(20_000); // ~180 KB: cut in every request after the first answer
  expect((await prepare([{ id: "u", role: "user", content: [{ type: "text", text: paste }] }], deps, signal)).onceTail).toBe(true);
  const short = depsFor(summarizer("x"), 20_000);
  expect((await prepare([{ id: "u", role: "user", content: [{ type: "text", text: "fix the build" }] }], short, signal)).onceTail).toBeUndefined();
});

test("a request whose newest result leaves the context over the budget says its tail goes this once (no cache write the next request, which cuts it, would read); one within the budget does not", async () => {
  const call = (id: string, chars: number): Message[] => [
    { id: `a${id}`, role: "assistant", content: [], toolCalls: [{ id, name: "bash", arguments: `{"command":"cat ${id}"}` }] },
    { id: `r${id}`, role: "tool", toolCallId: id, toolName: "bash", content: [{ type: "text", text: `${id} ${"output line\n".repeat(chars / 12)}` }] },
  ];
  const history: Message[] = [{ id: "u", role: "user", content: [{ type: "text", text: "look at the logs" }] }, ...call("small", 2_400)];
  const deps = depsFor(summarizer("x"), 10_000);
  expect((await prepare(history, deps, signal)).onceTail).toBeUndefined();
  history.push(...call("big", 60_000)); // ~15k tokens: the newest result goes whole, over the 10k budget
  expect((await prepare(history, deps, signal)).onceTail).toBe(true);
});
