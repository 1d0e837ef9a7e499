// A read_file note (x49 finding 2) stays true in every request: the passes that hide or prune its
// earlier result put that result's content in the note's place, and dedup keeps the result it names.
import { expect, test } from "bun:test";
import { dedup, DUPLICATE_NOTE } from "../../src/context/passes.ts";
import { GONE_NOTE, restoreStubs } from "../../src/context/read-stubs.ts";
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
