// A summary request after one that failed carries half the transcript (summary-request.ts). The
// bench's long session whose summaries fail cost 8.6 % more once the transcript filled its whole
// allowance: each failed request is billed, and the stretch it would cover grows with every turn.
import { expect, test } from "bun:test";
import { emptyUsage, type Message } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { compactRange } from "../../src/context/summary-request.ts";

const messages: Message[] = Array.from({ length: 200 }, (_, n) =>
  n % 2 === 0
    ? { id: `u${n}`, role: "user" as const, content: [{ type: "text" as const, text: `step ${n}: ${"go on with the task. ".repeat(20)}` }] }
    : { id: `a${n}`, role: "assistant" as const, content: [{ type: "text" as const, text: `turn ${n}: ${"found and decided things. ".repeat(40)}` }] },
);

/** The characters of the summary request `compactRange` sends, the summary before it failed or not. */
async function sent(summaryFailed: boolean): Promise<number> {
  let asked = "";
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream(req: ModelRequest): AsyncIterable<StreamEvent> {
      asked = JSON.stringify(req.messages);
      yield { type: "done", message: { id: "s", role: "assistant", content: [{ type: "text", text: "summary" }] }, usage: emptyUsage(), stop: "stop" };
    },
  };
  const state = { summaries: [], tokensPerChar: 0.25, summaryFailed };
  await compactRange({ fromId: "u0", toId: "a199", messages }, { state, provider, budgetTokens: 40_000 }, new AbortController().signal);
  return asked.length;
}

test("after a failed summary the next request carries at most about half the transcript", async () => {
  const first = await sent(false);
  const again = await sent(true);
  expect(first).toBeGreaterThan(80_000); // the allowance: 60 % of the budget, in characters
  expect(again).toBeLessThan(first * 0.55);
});
