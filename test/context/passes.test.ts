// Each context pass on small hand-made histories (SPEC §10): summaries, dedup, error purge,
// handles, the budget trim and the task note; then nudgeLine, estimateTokens and protectedFrom.
import { describe, expect, test } from "bun:test";
import type { Message, ToolCall } from "../../src/kernel/ir.ts";
import { buildContext, estimateTokens, nudgeLine, protectedFrom, type ContextInput } from "../../src/context/view.ts";
import { addHandles, applySummaries, dedup, DUPLICATE_NOTE, historyFacts, purgeErrors } from "../../src/context/passes.ts";
import { cutTaskNote, omittedNote, trimToBudget, type Fitted } from "../../src/context/budget.ts";
import { cutResult } from "../../src/context/result-cut.ts";
import { sharedPrefix } from "../../src/context/cache.ts";
import { testPolicy } from "../helpers/settings.ts";

const user = (id: string, text = "q"): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const say = (id: string, text = "a"): Message => ({ id, role: "assistant", content: [{ type: "text", text }] });
const call = (id: string, name = "read_file", args = '{"path":"a.ts"}'): ToolCall => ({ id, name, arguments: args });
const ask = (id: string, ...calls: ToolCall[]): Message => ({ id, role: "assistant", content: [], toolCalls: calls });
const result = (id: string, c: ToolCall, text = "x".repeat(200), isError = false): Message => ({
  id,
  role: "tool",
  toolCallId: c.id,
  toolName: c.name,
  isError,
  content: [{ type: "text", text }],
});
/** One turn: an assistant message with one call and its result. */
const turn = (n: number, name = "read_file", args = `{"path":"f${n}"}`, text = "x".repeat(200), isError = false): Message[] => {
  const c = call(`c${n}`, name, args);
  return [ask(`a${n}`, c), result(`r${n}`, c, text, isError)];
};
const ids = (messages: readonly Message[]) => messages.map((m) => m.id);
const textOf = (m: Message | undefined) => (m?.content[0]?.type === "text" ? m.content[0].text : undefined);
const facts = (history: Message[], turns = 3) => historyFacts(history, turns);

describe("applySummaries", () => {
  const history = [user("u1"), ...turn(1), ...turn(2), user("u2"), ...turn(3), ...turn(4), ...turn(5), ...turn(6)];
  const protect = facts(history).protect; // u1, u2 and a4…r6

  test("replaces a range of whole turns by one user message with a stable id", () => {
    const out = applySummaries(history, [{ fromId: "a1", toId: "r2", text: "read f1 and f2" }], protect);
    expect(ids(out.messages)).toEqual(["u1", "summary-a1", "u2", "a3", "r3", "a4", "r4", "a5", "r5", "a6", "r6"]);
    expect(out.messages[1]).toEqual({ id: "summary-a1", role: "user", content: [{ type: "text", text: "[summary of earlier work]\nread f1 and f2" }] });
    expect(out.replaced).toBe(4);
  });

  test.each([
    ["an unknown id", { fromId: "nope", toId: "r2" }],
    ["a reversed range", { fromId: "a2", toId: "r1" }],
    ["a range starting on a result", { fromId: "r1", toId: "r2" }],
    ["a range ending between a call and its result", { fromId: "a1", toId: "a2" }],
    ["a range holding the first user message", { fromId: "u1", toId: "r1" }],
    ["a range holding the last user message", { fromId: "a2", toId: "r3" }],
    ["a range reaching into the last 3 turns", { fromId: "a3", toId: "r4" }],
  ])("ignores %s", (_name, range) => {
    const out = applySummaries(history, [{ ...range, text: "s" }], protect);
    expect(out.messages).toBe(history);
    expect(out.applied).toEqual([]);
  });

  test("a later summary wins over an earlier one it overlaps; disjoint ones both apply in order", () => {
    const early = { fromId: "a1", toId: "r1", text: "early" };
    const late = { fromId: "a1", toId: "r2", text: "late" };
    expect(ids(applySummaries(history, [early, late], protect).messages).slice(0, 3)).toEqual(["u1", "summary-a1", "u2"]);
    expect(textOf(applySummaries(history, [early, late], protect).messages[1])).toEndWith("late");
    const out = applySummaries(history, [{ fromId: "a3", toId: "r3", text: "b" }, early], protect);
    expect(ids(out.messages).slice(0, 6)).toEqual(["u1", "summary-a1", "a2", "r2", "u2", "summary-a3"]);
  });
});

describe("dedup", () => {
  const run = (history: Message[]) => dedup(history, facts(history, 0).protect);

  test("same tool and canonically equal arguments (key order, spacing): older results pruned, the latest kept", () => {
    const history = [
      user("u1"),
      ...turn(1, "read_file", '{"path":"a.ts","limit":5}'),
      ...turn(2, "edit", '{"path":"a.ts"}'),
      ...turn(3, "read_file", '{ "limit": 5, "path": "a.ts" }'),
    ];
    const out = run(history);
    expect(textOf(out.messages[2])).toBe(DUPLICATE_NOTE); // read before the edit: stale, pruned
    expect(out.messages[6]).toBe(history[6]!);
    expect(out.count).toBe(1);
  });

  test.each([
    ["different arguments", turn(2, "read_file", '{"path":"b.ts"}')],
    ["another tool", turn(2, "grep", '{"path":"a.ts"}')],
    ["a nested difference", turn(2, "read_file", '{"path":"a.ts","x":[1,{"b":2}]}')],
  ])("%s are not duplicates", (_name, later) => {
    const history = [user("u1"), ...turn(1, "read_file", '{"path":"a.ts","x":[1,{"b":3}]}'), ...later];
    expect(run(history)).toEqual({ messages: history, count: 0 });
  });

  test.each([["write_file"], ["edit"], ["compress"]])("%s results are never pruned", (name) => {
    const history = [user("u1"), ...turn(1, name, '{"path":"a.ts"}'), ...turn(2, name, '{"path":"a.ts"}')];
    expect(run(history).count).toBe(0);
  });

  test("protected results stay, even with a later duplicate; an unprotected one is pruned by a duplicate in the tail", () => {
    const history = [user("u1"), ...turn(1), ...turn(2), ...turn(3), ...turn(4)].map((m) =>
      m.toolCalls ? { ...m, toolCalls: [{ ...m.toolCalls[0]!, arguments: "{}" }] } : m,
    );
    const out = dedup(history, facts(history, 3).protect); // a2…r4 protected
    expect(ids(out.messages.filter((m) => textOf(m) === DUPLICATE_NOTE))).toEqual(["r1"]);
  });

  test("arguments that are not JSON compare as text; short outputs are left alone", () => {
    const history = [user("u1"), ...turn(1, "bash", "ls -l"), ...turn(2, "bash", "ls -l"), ...turn(3, "bash", "pwd", "/"), ...turn(4, "bash", "pwd", "/")];
    expect(ids(run(history).messages.filter((m) => textOf(m) === DUPLICATE_NOTE))).toEqual(["r1"]);
  });
});

describe("purgeErrors", () => {
  // u1, a1 (failed), then `later` more turns
  const history = (later: number, name = "bash") => [
    user("u1"),
    ...turn(1, name, '{"command":"make"}', "make: *** no rule", true),
    ...Array.from({ length: later }, (_, i) => turn(i + 2)).flat(),
  ];

  test.each([
    [1, 2, false],
    [2, 2, true],
    [5, 2, true],
    [5, 0, false], // 0 turns the pass off
  ])("%i turns after the failure, purge after %i: purged %p", (later, after, purged) => {
    const h = history(later);
    const out = purgeErrors(h, after, facts(h, 0));
    expect(out.count).toBe(purged ? 1 : 0);
    expect(out.messages[1]!.toolCalls![0]!.arguments).toBe(purged ? "{}" : '{"command":"make"}');
    expect(textOf(out.messages[2])).toBe(purged ? "[arguments purged] make: *** no rule" : "make: *** no rule");
  });

  test("successful calls, write_file/edit failures and protected turns keep their arguments", () => {
    const ok = [user("u1"), ...turn(1, "bash", '{"command":"make"}'), ...turn(2), ...turn(3)];
    expect(purgeErrors(ok, 1, facts(ok, 0)).count).toBe(0);
    for (const name of ["write_file", "edit"]) expect(purgeErrors(history(3, name), 1, facts(history(3, name), 0)).count).toBe(0);
    expect(purgeErrors(history(2), 1, facts(history(2), 3)).count).toBe(0); // a1 is one of the last 3 turns
  });
});

describe("addHandles", () => {
  test("each result gets the last 5 characters of its id; the whole id where two ids end alike; images get a text part", () => {
    const c = call("c1");
    const image: Message = {
      id: "img-k3f9a",
      role: "tool",
      toolCallId: "c2",
      toolName: "read_file",
      content: [{ type: "image", mediaType: "image/png", data: "AA" }],
    };
    const history = [user("u1"), ask("a1", c, call("c2"), call("c3")), result("0012xyabcde", c, "out"), image, result("9999zzabcde", call("c3"), "out")];
    const out = addHandles(history, facts(history).handle);
    expect(out.map((m) => (m.content.at(-1)?.type === "text" ? (m.content.at(-1) as { text: string }).text : undefined))).toEqual([
      "q",
      undefined,
      "out\n[#0012xyabcde]",
      "[#k3f9a]",
      "out\n[#9999zzabcde]",
    ]);
    expect(out[3]!.content[0]).toEqual(image.content[0]!);
    expect(out[0]).toBe(history[0]!);
  });
});

describe("trimToBudget", () => {
  // u1 and 6 turns of ~2,072 characters; the last 3 turns are protected
  const history = [user("u1", "task"), ...Array.from({ length: 6 }, (_, i) => turn(i + 1, "read_file", `{"path":"f${i + 1}"}`, "x".repeat(2000))).flat()];
  const fit = (budgetTokens: number, h = history, taskNote?: string) =>
    trimToBudget(h, facts(h), { budgetTokens, fixedTokens: 0, tokensPerChar: 0.25, ...(taskNote !== undefined ? { taskNote } : {}) });

  test("within budget: unchanged", () => {
    expect(fit(10_000)).toMatchObject({ messages: history, trimmed: 0, cut: 0, overBudget: false, newlyTrimmed: 0 });
  });

  test("drops whole turns from the oldest end, down to the low-water mark, and says so where they were", () => {
    const out = fit(2200); // two turns would fit the budget; the next turn would be over it again
    expect(ids(out.messages)).toEqual(["u1", "omitted-a1", "a4", "r4", "a5", "r5", "a6", "r6"]);
    expect(textOf(out.messages[1])).toBe(omittedNote(6));
    expect(out).toMatchObject({ trimmed: 6, newlyTrimmed: 6, cut: 0, overBudget: false });
    expect(estimateTokens(out.messages, 0.25)).toBeLessThanOrEqual(2200); // all it may drop: the protected turns alone are over LOW_WATER
    // the next request leaves out the same, and nothing new: the prefix stays
    const h = [...history, ...turn(7, "read_file", '{"path":"f7"}', "x".repeat(400))];
    const next = trimToBudget(h, facts(h), { budgetTokens: 2200, fixedTokens: 0, tokensPerChar: 0.25, hold: out.hold });
    expect(next).toMatchObject({ trimmed: 6, newlyTrimmed: 0 });
    expect(next.messages.slice(0, out.messages.length)).toEqual([...out.messages]);
    // a hold made for another budget (a larger window now) is not kept: all that fits comes back
    expect(trimToBudget(h, facts(h), { budgetTokens: 10_000, fixedTokens: 0, tokensPerChar: 0.25, hold: out.hold })).toMatchObject({ trimmed: 0 });
  });

  test("keeps the last user message wherever it is, with one note per stretch left out, where it was", () => {
    const h = [...history.slice(0, 5), user("u2"), ...history.slice(5)];
    const out = fit(1700, h);
    expect(out.overBudget).toBe(false);
    expect(ids(out.messages)).toEqual(["u1", "omitted-a1", "u2", "omitted-a3", "a4", "r4", "a5", "r5", "a6", "r6"]);
    expect([textOf(out.messages[1]), textOf(out.messages[3])]).toEqual([omittedNote(4), omittedNote(2)]);
  });

  test("the ceiling: when the protected turns alone are over, their older results are cut to head and tail; the newest stays whole", () => {
    const out = fit(1000);
    expect(ids(out.messages)).toEqual(["u1", "omitted-a1", "a4", "r4", "a5", "r5", "a6", "r6"]);
    expect(out).toMatchObject({ trimmed: 6, cut: 2, overBudget: false });
    expect(textOf(out.messages[3])).toContain("characters left out to fit the context budget; call the tool again to see them");
    expect(out.messages[7]).toBe(history.at(-1)!); // the newest result reaches the model whole
    expect(estimateTokens(out.messages, 0.25)).toBeLessThanOrEqual(1000);
    expect(fit(1000).messages[3]).toBe(out.messages[3]); // a cut is the same object next time: cheap to compare, same bytes
  });

  test("then whole recent turns go, oldest first; over budget only with the pinned messages left, the newest result whole", () => {
    const out = fit(560);
    expect(ids(out.messages)).toEqual(["u1", "omitted-a1", "a6", "r6"]);
    expect(out).toMatchObject({ trimmed: 10, overBudget: false });
    const over = fit(300);
    expect(ids(over.messages)).toEqual(["u1", "omitted-a1", "a6", "r6"]);
    expect(over.overBudget).toBe(true);
    expect(over.messages[3]).toBe(history.at(-1)!);
  });

  test("past the model's window (hardTokens) the newest results are cut too, to what fits the budget", () => {
    const out = trimToBudget(history, facts(history), { budgetTokens: 300, fixedTokens: 0, tokensPerChar: 0.25, hardTokens: 400 });
    expect(ids(out.messages)).toEqual(["u1", "omitted-a1", "a6", "r6"]);
    expect(textOf(out.messages[3])).toContain("characters left out to fit the context budget");
    expect(estimateTokens(out.messages, 0.25)).toBeLessThanOrEqual(300);
    expect(estimateTokens(out.messages, 0.25)).toBeGreaterThan(200); // not cut to CUT_SHARE of the budget (15 tokens)
  });

  test("a file read whole that is bigger than a 16k model's window: the model gets what the window holds of it, its lines named", () => {
    const numbered = Array.from(
      { length: 720 },
      (_, i) => `${String(i + 1).padStart(3)}\texport function f${i}(x: number): number { return x * ${i}; } // line ${i}`,
    ).join("\n");
    const read = call("c1", "read_file", '{"path":"src/big.ts"}');
    const h = [user("u1", "read src/big.ts"), ask("a1", read), result("r1", read, numbered)];
    const out = trimToBudget(h, facts(h), { budgetTokens: 12_800, fixedTokens: 1_500, tokensPerChar: 0.25, hardTokens: 14_400 });
    const sent = estimateTokens(out.messages, 0.25) + 1_500;
    expect(sent).toBeLessThanOrEqual(12_800); // the budget: 80 % of the window, room for the answer and the estimate's error
    expect(sent).toBeGreaterThan(11_500); // not 5 % of the budget: ~640 tokens of a 15k-token file
    expect(textOf(out.messages[2])).toMatch(
      /\[… lines \d+–\d+ left out to fit the context budget; read_file "src\/big\.ts" with offset=\d+ limit=\d+ shows them …\]/,
    );
  });

  test("a cut read_file result says which lines to read again; a cut bash result names its full output", () => {
    const numbered = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(3)}\tconst line${i} = ${i};`).join("\n");
    const read = call("c1", "read_file", '{"path":"src/big.ts"}');
    const cut = cutResult(result("r1", read, numbered), 1200, read);
    expect(textOf(cut)).toStartWith("  1\tconst line0 = 0;");
    expect(textOf(cut)).toMatch(/\[… lines (\d+)–(\d+) left out to fit the context budget; read_file "src\/big\.ts" with offset=\1 limit=\d+ shows them …\]/);
    expect(textOf(cut)).toEndWith("400\tconst line399 = 399;");
    const [, first, last, limit] = /lines (\d+)–(\d+) .* limit=(\d+)/.exec(textOf(cut)!)!;
    expect(Number(last) - Number(first) + 1).toBe(Number(limit));
    expect(textOf(cut)).toContain(`\n${String(Number(first) - 1).padStart(3)}\t`); // the head ends right before the gap
    const bash = call("c2", "bash", '{"command":"make"}');
    const out =
      Array.from({ length: 300 }, (_, i) => `building module ${i}`).join("\n") + "\n[exit code 0]\n[full output: /home/u/.cache/hey/outputs/s1/c2.txt]";
    expect(textOf(cutResult(result("r2", bash, out), 1000, bash))).toContain(
      "lines left out to fit the context budget; the full output is in /home/u/.cache/hey/outputs/s1/c2.txt …]",
    );
    const short = result("r3", bash, "ok");
    expect(cutResult(short, 1000, bash)).toBe(short);
  });

  test("a cut grep result advises a narrower grep, not the same call again (which returns the same lines)", () => {
    const grep = call("c3", "grep", '{"pattern":",ERR,","context":5}');
    const lines = Array.from({ length: 400 }, (_, i) => `data/big.csv-${i + 1}- row ${i},OK,${"x".repeat(40)}`).join("\n");
    const text = textOf(cutResult(result("r4", grep, lines), 1000, grep));
    expect(text).toContain("lines left out to fit the context budget; narrow the grep (path, glob, a smaller context or max_results) to see them …]");
    expect(text).not.toContain("call the tool again");
  });

  test("the task note follows the first user message when anything is dropped, and is counted", () => {
    const out = fit(2200, history, "goal: X");
    expect(ids(out.messages).slice(0, 3)).toEqual(["u1", "task-note", "omitted-a1"]);
    expect(textOf(out.messages[1])).toBe("[task notes from .hey/task.md as of the last compaction; changes made since are in the calls below]\ngoal: X");
    expect(estimateTokens(out.messages, 0.25)).toBeLessThanOrEqual(2200);
    expect(fit(10_000, history, "goal: X").messages).toBe(history); // nothing dropped or summarized: no note
  });

  // hand-offs are appended to .hey/task.md: the newest is at its end
  const handOffs = (n: number) =>
    "# Task\n\nfix the parser\n\n" +
    Array.from({ length: n }, (_, i) => `## Stopped at the turn limit (${i})\n\nRemaining: old step ${i} ${"y".repeat(900)}\n`).join("\n") +
    "\n## Stopped at the turn limit (last)\n\nNEWEST-HANDOFF-MARKER Remaining: fix parser.c line 42\n";

  test("a task note over its share of the budget keeps its heading and its newest hand-off, says what was cut, and the request fits", () => {
    const out = fit(3000, history, handOffs(40)); // a 40 KB note: ~10,000 tokens whole
    const note = textOf(out.messages.find((m) => m.id === "task-note")) ?? "";
    expect(note).toStartWith(
      "[task notes from .hey/task.md as of the last compaction; changes made since are in the calls below]\n# Task\n\nfix the parser\n\n[… about ",
    );
    expect(note).toMatch(/\[… about \d+ KB of older notes left out to fit the context budget; \.hey\/task\.md has all of it …\]\n## Stopped/);
    expect(note).toEndWith("NEWEST-HANDOFF-MARKER Remaining: fix parser.c line 42\n");
    expect(note).not.toContain("old step 0 ");
    expect(note.length).toBeLessThanOrEqual(3000 * 0.2 * 4 + 100); // a fifth of the budget
    expect(estimateTokens(out.messages, 0.25)).toBeLessThanOrEqual(3000);
    expect(out.overBudget).toBe(false);
  });

  test("cutTaskNote: a note that fits is itself; a second cut adds up what both left out; a heading over half the room is not kept", () => {
    expect(cutTaskNote("# Task\n\nshort", 100)).toBe("# Task\n\nshort");
    const once = cutTaskNote(handOffs(40), 20_000);
    const twice = cutTaskNote(once, 4000);
    const kb = (t: string) => Number(/about (\d+) KB/.exec(t)![1]);
    expect(kb(twice)).toBeGreaterThan(kb(once));
    expect(twice.match(/older notes left out/g)).toHaveLength(1);
    expect(Math.abs(kb(twice) * 1024 - (handOffs(40).length - twice.length))).toBeLessThan(2048);
    const long = `# Task\n\n${"z".repeat(3000)}\n\n${handOffs(3)}`;
    expect(cutTaskNote(long, 4000)).toStartWith("[… about ");
    expect(cutTaskNote(long, 4000)).toEndWith("fix parser.c line 42\n");
  });

  /** Requests made as the history grows by `turns`, each given the previous one's hold: how many do not start with the previous request whole. */
  const rewrites = (budgetTokens: number, turns: Message[][], start = 4) => {
    let h = [user("u1"), ...turns.slice(0, start).flat()];
    let previous: Fitted | undefined;
    let count = 0;
    for (const t of turns.slice(start)) {
      h = [...h, ...t];
      const out = trimToBudget(h, facts(h), { budgetTokens, fixedTokens: 0, tokensPerChar: 0.25, ...(previous ? { hold: previous.hold } : {}) });
      expect(out.overBudget).toBe(false);
      expect(estimateTokens(out.messages, 0.25)).toBeLessThanOrEqual(budgetTokens); // the budget is a ceiling
      if (previous && sharedPrefix(previous.messages, out.messages) < previous.messages.length) count++;
      previous = out;
    }
    return count;
  };

  test("once something must go it drops down to the low-water mark, so the next turns append to the same prefix", () => {
    // a session hovering at the budget: 40 turns of 0.7 to 3 KB (175 to 750 tokens) against a 4,000-token budget
    const sized = Array.from({ length: 44 }, (_, i) => turn(i + 1, "bash", `{"command":"step ${i + 1}"}`, "y".repeat(700 + ((i * 7919) % 5) * 580)));
    const count = rewrites(4000, sized);
    expect(count).toBeGreaterThan(0);
    // each drop makes room for 40 % of the budget, ~3.5 turns here: at most one rewrite in 4 requests (dropping to the budget and on to a fixed step rewrote 18 of these 40)
    expect(count).toBeLessThanOrEqual(10);
    const small = Array.from({ length: 24 }, (_, i) => turn(i + 1, "bash", `{"command":"step ${i + 1}"}`, "y".repeat(250)));
    expect(rewrites(1000, small)).toBeLessThanOrEqual(20 / 4);
  });

  test("a result the ceiling cut stays cut, and is measured cut: when it leaves the protected turns nothing is dropped while the context as sent fits", () => {
    // three big results in a row: the two older protected ones are cut by the ceiling, to the low-water mark; then a small turn
    const big = (n: number) => turn(n, "bash", `{"command":"test ${n}"}`, Array.from({ length: 150 }, (_, i) => `line ${i} of test run ${n}`).join("\n")); // ~3,400 chars
    const h1 = [user("u1"), ...big(1), ...big(2), ...big(3)];
    const budget = { budgetTokens: 2200, fixedTokens: 0, tokensPerChar: 0.25 };
    const first = trimToBudget(h1, facts(h1), budget);
    expect(first).toMatchObject({ trimmed: 0, cut: 2, overBudget: false });
    const h2 = [...h1, ...turn(4, "read_file", '{"path":"a.ts"}', "z".repeat(400))];
    const second = trimToBudget(h2, facts(h2), { ...budget, hold: first.hold });
    // r1, whole, would be over the budget (~3,500 tokens); as sent (cut) it fits: nothing is dropped, the request extends the previous one
    expect(estimateTokens(h2, 0.25)).toBeGreaterThan(2200);
    expect(second).toMatchObject({ trimmed: 0, newlyTrimmed: 0, overBudget: false });
    expect(second.messages.slice(0, first.messages.length)).toEqual([...first.messages]);
    expect(second.messages[2]).toBe(first.messages[2]); // the same cut, the same object
  });
});

describe("buildContext", () => {
  const history = [
    user("u1", "task"),
    ...turn(1),
    ...turn(2, "bash", '{"command":"make"}', "boom", true),
    ...turn(3),
    ...turn(8, "read_file", '{"path":"f1"}'),
    ...turn(4),
    ...turn(5),
    ...turn(6),
    ...turn(7),
  ];
  const input = (over: Partial<ContextInput> = {}): ContextInput => ({
    history,
    summaries: [],
    policy: testPolicy({ purgeErrorsAfter: 2 }),
    fixedTokens: 1000,
    tokensPerChar: 0.25,
    ...over,
  });

  test("runs every pass and reports what each did", () => {
    const view = buildContext(input({ summaries: [{ fromId: "a3", toId: "r3", text: "looked at f3" }], taskNote: "goal" }));
    expect(ids(view.messages)).toEqual(["u1", "task-note", "a1", "r1", "a2", "r2", "summary-a3", "a8", "r8", "a4", "r4", "a5", "r5", "a6", "r6", "a7", "r7"]);
    expect(view.messages.map(textOf)[3]).toBe(`${DUPLICATE_NOTE}\n[#r1]`);
    expect(view.messages.map(textOf)[5]).toBe("[arguments purged] boom\n[#r2]");
    expect(view.stats).toEqual({ deduped: 1, purged: 1, summarized: 2, compressed: 0, pending: 0, trimmed: 0, cut: 0, calls: 0, texts: 0 }); // a summary's messages, no compress ranges
    expect(view.estimate).toBe(1000 + estimateTokens(view.messages, 0.25));
    expect(view.overBudget).toBe(false);
  });

  test("the context before a trim counts the task note a summary brings in: the trim never reports the context growing", () => {
    const view = buildContext(
      input({
        summaries: [{ fromId: "a3", toId: "r3", text: "looked at f3" }],
        taskNote: "n".repeat(8000),
        policy: testPolicy({ purgeErrorsAfter: 2, budgetTokens: 1600 }),
      }),
    );
    expect(view.stats.trimmed).toBeGreaterThan(0);
    expect(view.estimate).toBeLessThanOrEqual(1600);
    expect(view.untrimmedEstimate).toBeGreaterThan(view.estimate);
    const note = estimateTokens([view.messages.find((m) => m.id === "task-note")!], 0.25);
    expect(note).toBeGreaterThan(300); // cut to a fifth of the budget, ~320 tokens
    expect(view.untrimmedEstimate).toBe(buildContext(input({ summaries: [{ fromId: "a3", toId: "r3", text: "looked at f3" }] })).estimate + note);
  });

  test("summarizable: the largest unprotected stretch in history ids, through summaries (as their text); feeding it back replaces it", () => {
    const view = buildContext(input({ summaries: [{ fromId: "a1", toId: "r1", text: "s" }] }));
    expect(view.summarizable).toMatchObject({ fromId: "a1", toId: "r4" });
    expect(ids(view.summarizable!.messages)).toEqual(["summary-a1", "a2", "r2", "a3", "r3", "a8", "r8", "a4", "r4"]);
    expect(textOf(view.summarizable!.messages[0])).toBe("[summary of earlier work]\ns"); // the previous summary, not the history it replaced
    const again = buildContext(
      input({
        summaries: [
          { fromId: "a1", toId: "r1", text: "s" },
          { ...view.summarizable!, text: "all of it" },
        ],
      }),
    );
    expect(ids(again.messages)).toEqual(["u1", "summary-a1", "a5", "r5", "a6", "r6", "a7", "r7"]);
    expect(again.summarizable).toBeUndefined(); // one message left to summarize: nothing worth it
  });

  test("without the compress tool, results carry no handles", () => {
    expect(buildContext(input({ policy: testPolicy({ dedup: false, purgeErrorsAfter: 0, compressTool: false }) })).messages).toEqual(history);
  });
});

describe("nudgeLine", () => {
  test.each([
    [500, 40_000, 0.7, undefined], // not worth a word yet
    [19_900, 40_000, 0.7, undefined],
    [20_000, 40_000, 0.7, "Context: 50-60% of the 40k-token budget used."],
    [
      12_300,
      40_000,
      0.3,
      "Context: 30-40% of the 40k-token budget used. Older messages are being left out to fit it: use compress on finished stretches of work (tool results show their [#handle]) to keep what matters of them.",
    ],
    [
      30_000,
      40_000,
      0.7,
      "Context: 70-80% of the 40k-token budget used. Older messages are being left out to fit it: use compress on finished stretches of work (tool results show their [#handle]) to keep what matters of them.",
    ],
    [30_000, 40_000, Infinity, "Context: 70-80% of the 40k-token budget used."],
    [28_000, 40_000, 0.7, "Context: 70-80% of the 40k-token budget used."], // at the threshold, not above it
    [70_000, 128_500, 0.7, "Context: 50-60% of the 128.5k-token budget used."],
    [
      900,
      800,
      0.7,
      "Context: over the 800-token budget. Older messages are being left out to fit it: use compress on finished stretches of work (tool results show their [#handle]) to keep what matters of them.",
    ],
    [10, 0, 0.7, undefined],
  ])("%i of %i (threshold %d)", (estimate, budget, threshold, line) => {
    expect(nudgeLine(estimate, budget, threshold)).toBe(line);
    if (line) expect(line.length).toBeLessThan(200);
  });
});

describe("estimateTokens", () => {
  const c = call("c1", "bash", '{"a":1}');
  test.each([
    ["nothing", [], 0.25, 0],
    ["text: 16 characters per message plus the text", [user("u", "abcd")], 0.25, 5],
    [
      "thinking, text and calls",
      [
        {
          ...ask("a", c),
          content: [
            { type: "thinking" as const, text: "xx" },
            { type: "text" as const, text: "yy" },
          ],
        },
      ],
      0.25,
      12,
    ],
    [
      "an image at a flat rate",
      [{ id: "i", role: "user" as const, content: [{ type: "image" as const, mediaType: "image/png", data: "A".repeat(100_000) }] }],
      0.25,
      1504,
    ],
    ["a corrected ratio, rounded up", [user("u", "abcd")], 0.3, 6],
  ])("%s", (_name, messages, tokensPerChar, tokens) => {
    expect(estimateTokens(messages as Message[], tokensPerChar)).toBe(tokens);
  });
});

describe("protectedFrom", () => {
  const h = [user("u1"), ...turn(1), say("s2"), user("u2"), ...turn(3), ...turn(4)];
  test.each([
    [3, 3], // s2, a3, a4: from s2
    [1, 7],
    [2, 5],
    [9, 1], // fewer turns than asked: from the first assistant message
    [0, 9],
  ])("the last %i turns start at %i", (turns, index) => {
    expect(protectedFrom(h, turns)).toBe(index);
  });
  test("no assistant message: no tail", () => {
    expect(protectedFrom([user("u1"), user("u2")], 3)).toBe(2);
  });
});
