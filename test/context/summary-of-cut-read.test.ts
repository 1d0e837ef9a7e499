// A summary on a small window after the request had to cut a read: the request sent part of a
// 300-line file (budget.ts's ceiling), and the next turn's read brings the budget's summary, which
// replaces it. The summary reads the file from the history, not as the request cut it, and as much
// of it as of the assistant's own text: it is all that will keep the file's facts.
import { expect, test } from "bun:test";
import { newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import { emptyUsage, textOf, type Message } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { testPolicy } from "../helpers/settings.ts";

const signal = new AbortController().signal;
const file = (name: string) =>
  Array.from(
    { length: 300 },
    (_, i) =>
      `${String(i + 1).padStart(3)}\texport function fn_${name}_${i + 1}(x: number): number { return x * ${i + 1} + 17; } // line ${i + 1} of ${name}.ts padding text`,
  ).join("\n");
const user = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const read = (n: number, path: string, text: string): Message[] => [
  { id: `a${n}`, role: "assistant", content: [], toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path }) }] },
  { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: [{ type: "text", text }] },
];
const answer = (id: string): Message => ({ id, role: "assistant", content: [{ type: "text", text: "done." }] });

/** A provider that answers summary requests and keeps what each asked. */
function summarizer(): Provider & { asked: ModelRequest[] } {
  const asked: ModelRequest[] = [];
  return {
    protocol: "openai",
    model: "m",
    asked,
    async *stream(request): AsyncGenerator<StreamEvent> {
      asked.push(request);
      yield {
        type: "done",
        message: { id: `s${asked.length}`, role: "assistant", content: [{ type: "text", text: "read a.ts" }] },
        usage: emptyUsage(),
        stop: "stop",
      };
    },
  };
}

test("the summary of a read the request had to cut reads twice as much of it as of other tool output", async () => {
  const provider = summarizer();
  const deps: PrepareDeps = {
    state: newCompactionState(),
    policy: testPolicy({ compressTool: false, budgetTokens: 6_553, window: 8_192 }),
    provider,
    output: { emit: () => {} },
    tools: [],
    system: () => "s".repeat(4_400), // hey's system prompt and tools: ~1,100 tokens
    taskNote: () => undefined,
    now: () => 0,
  };
  const history: Message[] = [user("u1", "Read a.ts please."), ...read(1, "a.ts", file("a")), answer("d1"), user("u2", "Now read b.ts.")];
  const first = await prepare(history, deps, signal);
  const sentA = textOf(first.messages.find((m) => m.id === "r1")!);
  expect(sentA.includes("left out to fit the context budget")).toBe(true); // the request had to cut it
  expect(sentA.includes("fn_a_150(")).toBe(false);
  history.push(...read(2, "b.ts", file("b")));
  await prepare(history, deps, signal);
  expect(provider.asked).toHaveLength(1);
  const transcript = textOf(provider.asked[0]!.messages[0]!);
  // as much as the assistant's own text (4,000 characters: lines 1–30 and 291–300), not the 2,000 other tool output gets (lines 1–15 and 296–300)
  for (const line of [1, 25, 292, 300]) expect(transcript.includes(`fn_a_${line}(`)).toBe(true);
});
