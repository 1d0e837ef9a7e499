// A hand-off reply's calls are dropped from a copy (turns.ts): the reply was weighed while it streamed, and
// its weight is kept by object, so a reply edited in place would still count the calls it no longer has.
import { expect, test } from "bun:test";
import { createAgent } from "../src/lib.ts";
import { fakeProvider } from "./helpers/fake-provider.ts";
import { isSummaryRequest } from "./helpers/summary-requests.ts";

test("a hand-off's dropped call does not weigh on the next run: nothing is left out, no summary is asked for", async () => {
  const p = fakeProvider([
    { text: "working", toolCalls: [{ name: "noop", arguments: { a: 1 } }], usage: { estimated: true } },
    // max_turns reached: the model writes a 200 KB call anyway, and the provider reports no usage
    { text: "Done so far: X. Remaining: Y.", toolCalls: [{ name: "noop", arguments: { content: "x".repeat(200_000) } }], usage: { estimated: true } },
    { text: "ok", usage: { estimated: true } },
    { text: "summary", usage: { estimated: true } },
  ]);
  const noop = {
    name: "noop",
    description: "n",
    parameters: { type: "object", properties: {} },
    run: async () => ({ content: [{ type: "text", text: "fine" }] }),
  } as never;
  const agent = createAgent({ provider: p, tools: [noop], settings: { limits: { maxTurns: 1 } as never, context: { budgetTokens: 30_000 } as never } });
  const signal = new AbortController().signal;
  await agent.send("first", signal);
  expect(agent.messages.at(-1)?.toolCalls).toBeUndefined();
  await agent.send("go on", signal);
  const later = p.requests.slice(2);
  expect(later.filter(isSummaryRequest)).toHaveLength(0);
  expect(JSON.stringify(later.map((r) => r.messages))).not.toContain("omitted");
  expect(JSON.stringify(later.at(-1)!.messages)).toContain("Done so far: X. Remaining: Y.");
});
