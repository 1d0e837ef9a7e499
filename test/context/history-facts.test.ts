// The history's facts (which messages are protected and pinned, turns after each call, the handle
// each result shows) are kept per history array and brought up to date with what was appended. They
// must be what a fresh reading of the history gives after anything a user or an embedder does to it:
// appending, cutting it back and going on differently (/undo of a turn), a new array of the same
// messages (/resume), a message edited in place. Each case is checked against `plainFacts`, the
// facts worked out over the whole history with nothing kept (as hey did before).
import { expect, test } from "bun:test";
import { historyFacts, HANDLE_LENGTH, type HistoryFacts } from "../../src/context/history-facts.ts";
import { buildContext } from "../../src/context/view.ts";
import { INTERRUPTED_ANSWER } from "../../src/kernel/turns.ts";
import type { Message } from "../../src/kernel/ir.ts";
import { longSession } from "../helpers/long-session.ts";
import { testPolicy } from "../helpers/settings.ts";

/** The facts of the first `length` messages, read from all of them (no cache). */
function plainFacts(history: readonly Message[], turns: number, length = history.length) {
  const isTurn = (m: Message) =>
    m.role === "assistant" && !(m.content.length === 1 && m.content[0]!.type === "text" && m.content[0]!.text === INTERRUPTED_ANSWER && !m.toolCalls?.length);
  const tailStart = (n: number) => {
    let at = length;
    for (let i = length - 1, seen = 0; i >= 0 && seen < n; i--) if (isTurn(history[i]!)) (at = i), seen++;
    return at;
  };
  const protect = new Set<string>();
  for (let i = tailStart(turns); i < length; i++) protect.add(history[i]!.id);
  const pinned = new Set<string>();
  for (let i = tailStart(1); i < length; i++) if (history[i]!.role !== "user") pinned.add(history[i]!.id);
  const users = history.slice(0, length).filter((m) => m.role === "user");
  for (const m of [users[0], users.at(-1)]) if (m) protect.add(m.id), pinned.add(m.id);
  const turnsAfter = new Map<string, number>();
  for (let i = length - 1, n = 0; i >= 0; i--) if (isTurn(history[i]!)) turnsAfter.set(history[i]!.id, n++);
  const suffixes = new Map<string, number>();
  for (const m of history.slice(0, length)) suffixes.set(m.id.slice(-HANDLE_LENGTH), (suffixes.get(m.id.slice(-HANDLE_LENGTH)) ?? 0) + 1);
  const handles = new Map<string, string>();
  for (const m of history.slice(0, length))
    if (m.role === "tool") handles.set(m.id, suffixes.get(m.id.slice(-HANDLE_LENGTH)) === 1 ? m.id.slice(-HANDLE_LENGTH) : m.id);
  return { protect, pinned, turnsAfter, handles };
}

/** Expects `facts` to say of every id in `ids` what plainFacts says. */
function expectPlain(facts: HistoryFacts, history: readonly Message[], turns: number, length: number, ids: readonly string[]) {
  const plain = plainFacts(history, turns, length);
  expect([...facts.protect].sort()).toEqual([...plain.protect].sort());
  expect([...facts.pinned].sort()).toEqual([...plain.pinned].sort());
  for (const id of ids) {
    expect([id, facts.turnsAfter(id)]).toEqual([id, plain.turnsAfter.get(id)]);
    // a message the history lacks shows its id's end (addHandles)
    expect([id, facts.handle(id)]).toEqual([id, plain.handles.get(id) ?? id.slice(-HANDLE_LENGTH)]);
  }
}

const text = (id: string, role: "user" | "assistant", words: string): Message => ({ id, role, content: [{ type: "text", text: words }] });
const call = (id: string, n: number): Message => ({
  ...text(id, "assistant", `step ${n}`),
  toolCalls: [{ id: `c${id}`, name: "bash", arguments: `{"command":"ls ${n}"}` }],
});
const result = (id: string, of: string): Message => ({
  id,
  role: "tool",
  toolCallId: `c${of}`,
  toolName: "bash",
  content: [{ type: "text", text: `out of ${of}` }],
});

test("over a 200-step session the facts at every request, and as of where rewrites stopped, are those of the whole history read afresh", async () => {
  const session = longSession(200);
  const ids = new Set<string>();
  let previous = 1;
  while (await session.next()) {
    const history = session.history();
    for (const m of history) ids.add(m.id);
    for (const [turns, length] of [
      [3, history.length],
      [3, previous],
      [1, history.length],
    ] as const)
      expectPlain(historyFacts(history, turns, length), history, turns, length, [...ids]);
    previous = history.length;
  }
});

test("a history cut back and continued differently in the same array (/undo, then new turns) gets the facts of what it holds now", () => {
  const history: Message[] = [text("u0", "user", "go")];
  for (let n = 1; n <= 12; n++) history.push(call(`a${n}`, n), result(`old-r${n}`, `a${n}`));
  historyFacts(history, 3);
  const gone = history.map((m) => m.id);
  // back to the fourth turn's call, then new turns past where the old history ended before the next
  // request; one result's id ends like an old one's handle, and like a new one's
  history.length = 9;
  history.push(result("r4", "a4"), text("u2", "user", "now the tests"));
  for (let n = 20; n < 40; n++) history.push(call(`b${n}`, n), result(n === 30 ? "xx-r9" : `x-r${n}`, `b${n}`));
  history.push(result("zz-r9", "b39"), text("xd-r12", "user", "old-r12 is gone"), text("yd-r12", "user", "its handle's end is theirs"));
  expectPlain(historyFacts(history, 3), history, 3, history.length, [...gone, ...history.map((m) => m.id)]);
  expectPlain(historyFacts(history, 2, 30), history, 2, 30, [...gone, ...history.map((m) => m.id)]);
  history.length = 9; // and back again, asked at once
  expectPlain(historyFacts(history, 3), history, 3, history.length, gone);
});

test("a new array of the same messages, shorter or copied (/resume), gets the facts of what it holds", () => {
  const history: Message[] = [text("u0", "user", "go")];
  for (let n = 1; n <= 10; n++) history.push(call(`a${n}`, n), result(`r${n}`, `a${n}`));
  historyFacts(history, 3);
  for (const other of [history.slice(0, 11), structuredClone(history), [...history, text("u1", "user", "more")]])
    expectPlain(
      historyFacts(other, 3),
      other,
      3,
      other.length,
      history.map((m) => m.id),
    );
});

test("a message edited in place after the facts were read: an answer become the interrupted marker, an id changed", () => {
  const history: Message[] = [text("u0", "user", "go")];
  for (let n = 1; n <= 8; n++) history.push(call(`a${n}`, n), result(`r${n}`, `a${n}`));
  history.push(text("a9", "assistant", "and so"));
  const ids = () => [...history.map((m) => m.id), "a9", "r-old"];
  expect(historyFacts(history, 2).turnsAfter("a7")).toBe(2);
  // the last answer was cut before its first word: no turn of its own, the turn before it is the newest again
  history[history.length - 1]!.content = [{ type: "text", text: INTERRUPTED_ANSWER }];
  expectPlain(historyFacts(history, 2), history, 2, history.length, ids());
  expect(historyFacts(history, 2).turnsAfter("a7")).toBe(1);
  // a result's id edited to end like another's: both show their whole ids
  history[4]!.id = "x-r1";
  expectPlain(historyFacts(history, 2), history, 2, history.length, ids());
  expect(historyFacts(history, 2).handle("x-r1")).toBe("x-r1");
});

test("an answer edited in place into the interrupted marker is no turn in the next request: a failed call one turn back keeps its arguments", () => {
  const history: Message[] = [
    text("u0", "user", "go"),
    call("a1", 1),
    { ...result("r1", "a1"), isError: true },
    call("a2", 2),
    result("r2", "a2"),
    text("a3", "assistant", "so"),
  ];
  const input = (h: Message[]) => ({
    history: h,
    summaries: [],
    policy: { ...testPolicy({ purgeErrorsAfter: 2 }), budgetTokens: 50_000, protectTurns: 1 },
    fixedTokens: 100,
    tokensPerChar: 0.25,
  });
  const sent = (h: Message[]) => JSON.stringify(buildContext(input(h)).messages);
  expect(sent(history)).toContain("[arguments purged] out of a1"); // two turns after it
  history[5]!.content = [{ type: "text", text: INTERRUPTED_ANSWER }];
  expect(sent(history)).toBe(sent(structuredClone(history)));
  expect(sent(history)).not.toContain("[arguments purged]");
});

test("facts kept across a later call on a shorter slice of the same history still answer for their own history", () => {
  const history: Message[] = [text("u1", "user", "go")];
  for (let n = 1; n <= 4; n++) history.push(call(`a${n}`, n), result(`r${n}`, `a${n}`));
  history.push(call("a5", 5), result("x-abcde", "a5"), result("y-abcde", "a5")); // two results whose ids end alike: each shows its whole id
  const ids = history.map((m) => m.id);
  const whole = historyFacts(history, 2);
  historyFacts(history.slice(0, 3), 2); // the replay of an earlier request: the ledger is cut back to three messages
  expectPlain(whole, history, 2, history.length, ids);
  expect(whole.turnsAfter("a1")).toBe(4);
});
