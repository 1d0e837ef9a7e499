// Dedup's comparison of calls is kept per history and brought up to date with what was appended
// (dedup-index.ts). Whatever happens to the history — it grows, is cut back and continued (/undo),
// comes back as a new array (/resume), has a call or a result edited in place, or is summarized —
// the duplicates pruned must be those the plain pass (passes.ts dedup, nothing kept) prunes.
import { expect, test } from "bun:test";
import { dedupView } from "../../src/context/dedup-index.ts";
import { applySummaries, dedup, DUPLICATE_NOTE, historyFacts } from "../../src/context/passes.ts";
import { sameCallResult } from "../../src/kernel/repeats.ts";
import type { Message } from "../../src/kernel/ir.ts";
import { longSession } from "../helpers/long-session.ts";

/** dedup with nothing kept, judged as of the first `upTo` messages. */
const plain = (history: readonly Message[], messages: readonly Message[], upTo: number) =>
  dedup(messages, historyFacts(history, 3, upTo).protect, upTo >= history.length ? undefined : new Set(history.slice(0, upTo).map((m) => m.id)));
const kept = (history: readonly Message[], messages: readonly Message[], upTo: number) =>
  dedupView(history, messages, historyFacts(history, 3, upTo).protect, upTo);
const shown = (r: { messages: readonly Message[]; count: number }) => JSON.stringify(r);

function expectPlain(history: readonly Message[], upTo = history.length, messages: readonly Message[] = history) {
  expect(shown(kept(history, messages, upTo))).toBe(shown(plain(history, messages, upTo)));
}

const OUT = "a long output that is worth pruning when the same call comes again ".repeat(3);
const turn = (n: number, command: string, out = `${OUT}${n}`): Message[] => [
  {
    id: `a${n}`,
    role: "assistant",
    content: [{ type: "text", text: `step ${n}` }],
    toolCalls: [{ id: `c${n}`, name: "bash", arguments: JSON.stringify({ command }) }],
  },
  { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "bash", content: [{ type: "text", text: out }] },
];
const start = (): Message[] => [{ id: "u0", role: "user", content: [{ type: "text", text: "fix it" }] }];
const pruned = (history: readonly Message[], id: string) =>
  JSON.stringify(kept(history, history, history.length).messages.find((m) => m.id === id)).includes(DUPLICATE_NOTE);

test("over a 200-step session of repeated calls, each request prunes what the plain pass prunes, as of now and of where rewrites stopped", async () => {
  const session = longSession(200);
  let previous = 1;
  let count = 0;
  while (await session.next()) {
    const history = session.history();
    for (const upTo of [history.length, previous, Math.floor(previous / 2)]) expectPlain(history, upTo);
    count += kept(history, history, history.length).count;
    previous = history.length;
  }
  expect(count).toBeGreaterThan(1000); // the session repeats its calls: there is much to prune
});

test("a history cut back and continued differently in the same array (/undo, then new turns): an older call is pruned only for the calls there now", () => {
  const history = start();
  for (let n = 1; n <= 6; n++) history.push(...turn(n, n % 2 ? "npm test" : `ls ${n}`));
  expect(pruned(history, "r3")).toBe(true); // run again in turn 5
  history.length = 7; // back to after turn 3, then other commands
  history.push(...turn(8, "git status"), ...turn(9, "git diff"), ...turn(10, "ls"), ...turn(11, "pwd"));
  expectPlain(history);
  expect(pruned(history, "r3")).toBe(false);
  expect(pruned(history, "r1")).toBe(true);
  history.length = 5;
  expectPlain(history);
});

test("a new array of the same messages, shorter or copied (/resume), prunes what the plain pass prunes", () => {
  const history = start();
  for (let n = 1; n <= 12; n++) history.push(...turn(n, ["npm test", "ls", "pwd"][n % 3]!));
  expectPlain(history);
  for (const other of [history.slice(0, 15), structuredClone(history), [...history, ...turn(13, "ls")]]) expectPlain(other);
});

test("a call's arguments edited in place: the older call it repeated is no longer pruned; a result edited into a copy's result no longer counts as a later call", () => {
  const history = start();
  for (let n = 1; n <= 8; n++) history.push(...turn(n, n === 2 || n === 6 ? "npm test" : `ls ${n}`));
  expect(pruned(history, "r2")).toBe(true);
  history[11]!.toolCalls![0]!.arguments = JSON.stringify({ command: "npm run lint" }); // turn 6's call
  expectPlain(history);
  expect(pruned(history, "r2")).toBe(false);
  history[11]!.toolCalls![0]!.arguments = JSON.stringify({ command: "npm test" });
  expect(pruned(history, "r2")).toBe(true);
  history[12]!.content = [{ type: "text", text: sameCallResult(0) }]; // turn 6's result: a copy, which never ran
  expectPlain(history);
  expect(pruned(history, "r2")).toBe(false);
});

test("a summarized history (a range replaced) prunes what the plain pass prunes over the same view", () => {
  const history = start();
  for (let n = 1; n <= 10; n++) history.push(...turn(n, n === 3 || n === 5 ? "npm test" : `ls ${n}`));
  kept(history, history, history.length);
  expect(pruned(history, "r3")).toBe(true);
  // a summary replaces turns 4 to 6: turn 5's repeat of turn 3 is gone from the view, and with it the reason to prune turn 3's output
  const view = applySummaries(history, [{ fromId: "a4", toId: "r6", text: "did things" }], new Set()).messages;
  expect(view.length).toBeLessThan(history.length);
  expectPlain(history, history.length, view);
  expect(JSON.stringify(kept(history, view, history.length).messages.find((m) => m.id === "r3"))).not.toContain(DUPLICATE_NOTE);
});
