// The budget's ceiling on a small window (an 8k-token model, a 6.5k budget): a request a little
// over the budget because last turn read a 300-line file. The read is cut only as far as the
// overshoot needs (with room for the next short exchanges), not to CUT_SHARE of the budget: the
// model keeps most of the file instead of 12 of its 300 lines, and the next request repeats the cut
// byte for byte (the provider's prompt cache).
import { expect, test } from "bun:test";
import { historyFacts, estimateTokens } from "../../src/context/passes.ts";
import { trimToBudget } from "../../src/context/budget.ts";
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

test("a request 1 % over the budget keeps most of last turn's 300-line read, and fits", () => {
  const out = fit(history);
  expect(out).toMatchObject({ cut: 1, trimmed: 0, overBudget: false });
  const cut = out.messages.find((m) => m.id === "r1")!;
  expect(linesKept(cut)).toBeGreaterThan(200); // was 12: a note in place of lines 10–297
  expect(linesKept(cut)).toBeLessThan(300);
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
