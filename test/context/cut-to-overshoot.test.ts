// The budget's ceiling on a small window (an 8k-token model, a 6.5k budget): a request a little
// over the budget because last turn read a 300-line file. The read is cut only as far as the
// low-water mark needs (the room the drop stage leaves too, for the next turns), not to CUT_SHARE of
// the budget: the model keeps half the file instead of 12 of its 300 lines, and the next request
// repeats the cut byte for byte (the provider's prompt cache). x6 #4: parallel reads over the budget,
// cut to 80 % of it, were cut again at the next read; cut to the low-water mark the next read fits.
import { expect, test } from "bun:test";
import { historyFacts, estimateTokens } from "../../src/context/passes.ts";
import { LOW_WATER, trimToBudget } from "../../src/context/budget.ts";
import { sharedPrefix } from "../../src/context/cache.ts";
import { textOf, type Message } from "../../src/kernel/ir.ts";

const FIXED = 1_100; // hey's system prompt and six tools
const lines = Array.from({ length: 300 }, (_, i) => `${String(i + 1).padStart(3)}\texport function fn_a_${i + 1}(x: number): number { return x * ${i + 1}; }`);
const user = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const read = (n: number, path: string, text: string): Message[] => [
  { id: `a${n}`, role: "assistant", content: [], toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path }) }] },
  { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: [{ type: "text", text }] },
];
const answer = (id: string): Message => ({ id, role: "assistant", content: [{ type: "text", text: "done." }] });
/** The 300-line read, answered, and the user's next question. */
const history: Message[] = [user("u1", "Read a.ts please."), ...read(1, "a.ts", lines.join("\n")), answer("d1"), user("u2", "What does fn_a_150 return?")];
const estimate = FIXED + estimateTokens(history, 0.25);
/** A budget the request is 1 % over. */
const budgetTokens = Math.floor(estimate / 1.01);
const fit = (h: Message[], hold?: ReturnType<typeof trimToBudget>["hold"]) =>
  trimToBudget(h, historyFacts(h, 3), { budgetTokens, fixedTokens: FIXED, tokensPerChar: 0.25, ...(hold ? { hold } : {}) });
const linesKept = (m: Message) =>
  textOf(m)
    .split("\n")
    .filter((l) => /^\s*\d+\t/.test(l)).length;

test("a request 1 % over the budget keeps half of last turn's 300-line read, and fits with room to spare", () => {
  const out = fit(history);
  expect(out).toMatchObject({ cut: 1, trimmed: 0, overBudget: false });
  const cut = out.messages.find((m) => m.id === "r1")!;
  // was 12: a note in place of lines 10–297; cut to the low-water mark (LOW_WATER), as stage 1 drops, so the next turns extend it
  expect(linesKept(cut)).toBeGreaterThan(130);
  expect(linesKept(cut)).toBeLessThan(160);
  expect(FIXED + estimateTokens(out.messages, 0.25)).toBeLessThanOrEqual(LOW_WATER * budgetTokens);
  expect(textOf(cut)).toMatch(/left out to fit the context budget; read_file "a.ts" with offset=\d+ limit=\d+ shows them/);
  expect(FIXED + estimateTokens(out.messages, 0.25)).toBeLessThanOrEqual(budgetTokens);
});

test("the next request repeats the cut byte for byte: the cached prefix holds", () => {
  const first = fit(history);
  const next = [...history, answer("d2"), user("u3", "and fn_a_151?")];
  const second = fit(next, first.hold);
  expect(second).toMatchObject({ cut: 1, trimmed: 0, newlyTrimmed: 0 });
  expect(sharedPrefix(first.messages, second.messages)).toBe(first.messages.length); // the cached prefix holds
});

test("a turn of parallel reads over the budget is cut once: the next read of the same size extends that request instead of cutting again", () => {
  const file = (k: number) =>
    Array.from({ length: 280 }, (_, i) => `export function fn${k}_${i}(a: number, b: string): string { return b.repeat(a) + "${i}"; }`).join("\n");
  const parallel: Message[] = [
    {
      id: "a1",
      role: "assistant",
      content: [],
      toolCalls: [1, 2, 3, 4].map((k) => ({ id: `c${k}`, name: "read_file", arguments: JSON.stringify({ path: `mod${k}.ts` }) })),
    },
    ...[1, 2, 3, 4].map(
      (k): Message => ({ id: `r${k}`, role: "tool", toolCallId: `c${k}`, toolName: "read_file", content: [{ type: "text", text: file(k) }] }),
    ),
  ];
  const step = (n: number): Message[] => [
    { id: `a${n}`, role: "assistant", content: [], toolCalls: [{ id: `c${n}`, name: "bash", arguments: '{"command":"echo step"}' }] },
    { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "bash", content: [{ type: "text", text: "step" }] },
  ];
  // x6's s7 at a 20k budget: four ~6.6k-token reads in one turn, a short step, then one more read of the same size
  const budget = { budgetTokens: 20_000, fixedTokens: FIXED, tokensPerChar: 0.25 };
  const h2 = [user("u1", "read all"), ...parallel, ...step(5)];
  const second = trimToBudget(h2, historyFacts(h2, 3), budget);
  expect(second.cut).toBeGreaterThan(0);
  const h3 = [...h2, ...read(6, "mod5.ts", file(5))];
  const third = trimToBudget(h3, historyFacts(h3, 3), { ...budget, hold: second.hold });
  expect([...third.hold.cut]).toEqual([...second.hold.cut]); // before: a third read cut, the request rewritten from there (repeated 58 % of the one before)
  expect(sharedPrefix(second.messages, third.messages)).toBe(second.messages.length);
  expect(third.overBudget).toBe(false);
});
