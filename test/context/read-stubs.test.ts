// A read_file note (x49 finding 2) stays true in every request: the passes that hide or prune its
// earlier result put that result's content in the note's place, and dedup keeps the result it names.
import { expect, test } from "bun:test";
import { dedup, DUPLICATE_NOTE } from "../../src/context/passes.ts";
import { GONE_NOTE, restoreStubs, TRIMMED_NOTE } from "../../src/context/read-stubs.ts";
import { buildContext } from "../../src/context/view.ts";
import { testPolicy } from "../helpers/settings.ts";
import { textOf, type Message } from "../../src/kernel/ir.ts";

const FILE = "1\tconst a = 1; // the first of the constants this module exports\n2\tconst b = 2; // the second one";
const call = (id: string): Message => ({ id: `a-${id}`, role: "assistant", content: [], toolCalls: [{ id, name: "read_file", arguments: '{"path":"a.ts"}' }] });
const result = (id: string, text: string): Message => ({
  id: `r-${id}`,
  role: "tool",
  toolCallId: id,
  toolName: "read_file",
  content: [{ type: "text", text }],
});
const note = (target: string) =>
  `[unchanged: a.ts lines 1-2 (all 2) are the same bytes as your earlier read_file result of lines 1-2 above (call ${target}); not sent again]`;
const user: Message = { id: "u", role: "user", content: [{ type: "text", text: "go" }] };
const history = [user, call("c1"), result("c1", FILE), call("c2"), result("c2", note("c1"))];

test("dedup keeps a result that a later identical call's note points at", () => {
  const out = dedup(history, new Set());
  expect(out.count).toBe(0);
  expect(textOf(out.messages[2]!)).toBe(FILE);
  // a full read after them is the latest identical call: the result and the note before it are pruned, and no note is left to restore
  const later = dedup([...history, call("c3"), result("c3", FILE)], new Set());
  expect(later.messages.filter((m) => textOf(m) === DUPLICATE_NOTE).map((m) => m.toolCallId)).toEqual(["c1", "c2"]);
  expect(restoreStubs(later.messages, history).count).toBe(0);
});

test("a note whose earlier result the view shows is sent as it is", () => {
  expect(restoreStubs(history, history)).toEqual({ messages: history, count: 0 });
});

test("a note whose earlier result a summary or a prune took carries that result's content", () => {
  const summarized = [
    user,
    { id: "summary-a-c1", role: "user", content: [{ type: "text", text: "[summary of earlier work]\nread a.ts" }] } as Message,
    ...history.slice(3),
  ];
  const out = restoreStubs(summarized, history);
  expect(out.count).toBe(1);
  expect(textOf(out.messages.at(-1)!)).toBe(FILE);
  expect(out.messages.at(-1)!.toolCallId).toBe("c2"); // still c2's result
  const pruned = history.map((m) => (m.id === "r-c1" ? { ...m, content: [{ type: "text" as const, text: DUPLICATE_NOTE }] } : m));
  expect(textOf(restoreStubs(pruned, history).messages.at(-1)!)).toBe(FILE);
});

test("a note whose earlier result is not in the history at all says to read again", () => {
  const cleared = [user, ...history.slice(3)];
  expect(textOf(restoreStubs(cleared, cleared).messages.at(-1)!)).toBe(GONE_NOTE);
});

test("after the trim: a note whose earlier result was cut to head and tail says to read again, and keeps its handle", () => {
  const handled = (m: Message, text: string): Message => ({ ...m, content: [{ type: "text", text }] });
  const sent = [
    user,
    history[1]!,
    handled(history[2]!, "1\tconst a = 1;\n[… 40 characters left out …]\n[#aaaaa]"),
    history[3]!,
    handled(history[4]!, `${note("c1")}\n[#bbbbb]`),
  ];
  const out = restoreStubs(sent, history, true);
  expect(out.count).toBe(1);
  expect(textOf(out.messages.at(-1)!)).toBe(`${TRIMMED_NOTE}\n[#bbbbb]`);
  // before the trim (a summary, dedup), the whole result in its place
  expect(textOf(restoreStubs(sent, history).messages.at(-1)!)).toBe(`${FILE}\n[#bbbbb]`);
  // a result sent whole with its handle is whole: the note stays
  const whole = [user, history[1]!, handled(history[2]!, `${FILE}\n[#aaaaa]`), history[3]!, handled(history[4]!, `${note("c1")}\n[#bbbbb]`)];
  expect(restoreStubs(whole, history, true).count).toBe(0);
});

test("a request whose budget leaves out the earlier result sends the note as one saying to read again, within the budget", () => {
  const big = Array.from({ length: 2000 }, (_, i) => `${i + 1}\texport const v${i} = ${i};`).join("\n");
  const turn = (n: number): Message[] => [
    {
      id: `a-t${n}`,
      role: "assistant",
      content: [{ type: "text", text: `step ${n}` }],
      toolCalls: [{ id: `t${n}`, name: "bash", arguments: `{"command":"echo ${n}"}` }],
    },
    { id: `r-t${n}`, role: "tool", toolCallId: `t${n}`, toolName: "bash", content: [{ type: "text", text: `${n}` }] },
  ];
  const long = [user, call("c1"), result("c1", big), call("c2"), result("c2", note("c1")), ...turn(1), ...turn(2), ...turn(3), ...turn(4)];
  const view = buildContext({
    history: long,
    summaries: [],
    policy: testPolicy({ budgetTokens: 4_000, compressTool: false }),
    fixedTokens: 100,
    tokensPerChar: 0.25,
  });
  expect(view.stats.trimmed).toBeGreaterThan(0);
  expect(view.messages.some((m) => textOf(m).includes("export const v1000"))).toBe(false);
  expect(textOf(view.messages.find((m) => m.toolCallId === "c2")!)).toBe(TRIMMED_NOTE);
  expect(view.estimate).toBeLessThanOrEqual(4_000);
});
