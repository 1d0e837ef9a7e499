// buildContext on thousands of random histories (seeded, reproducible): the request view keeps
// every call paired with exactly one result, never loses a protected message, meets the budget
// whenever the protected part fits, is deterministic and leaves its input alone.
import { expect, test } from "bun:test";
import { parseArguments, textOf, type Message, type ToolCall } from "../../src/kernel/ir.ts";
import { cutNote, firstPromptKeep } from "../../src/context/passes.ts";
import { buildContext, checkCompressRange, compressSummaries, estimateTokens, type ContextInput, type Summary } from "../../src/context/view.ts";
import { testPolicy } from "../helpers/settings.ts";

const RUNS = 3000;
const BASE_SEED = 0x5eed;

/** mulberry32: a tiny seeded PRNG, [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CALLS: [string, string][] = [
  ["read_file", '{"path":"src/a.ts"}'],
  ["read_file", '{ "path": "src/a.ts" }'],
  ["read_file", '{"path":"src/b.ts","offset":10,"limit":5}'],
  ["read_file", '{"limit":5,"path":"src/b.ts","offset":10}'],
  ["bash", '{"command":"bun test"}'],
  ["bash", '{"command":"git status"}'],
  ["grep", '{"pattern":"TODO","path":"src"}'],
  ["grep", '{"pattern":"fixme"}'],
  ["write_file", '{"path":"src/c.ts","content":"x"}'],
  ["edit", '{"path":"src/a.ts","old_string":"a","new_string":"b"}'],
  ["bash", "not json"],
];

function randomInput(seed: number): ContextInput {
  const rnd = mulberry32(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: T[]): T => xs[int(xs.length)]!;
  const alphabet = rnd() < 0.1 ? "ab" : "0123456789abcdefghijklmnopqrstuvwxyz"; // "ab": handle collisions
  let serial = 0;
  const id = () => `m${(serial++).toString(36).padStart(3, "0")}${Array.from({ length: 5 }, () => pick([...alphabet])).join("")}`;
  const text = (n: number) => "x".repeat(n);
  const history: Message[] = [];
  const user = () => history.push({ id: id(), role: "user", content: [{ type: "text", text: `ask ${text(int(200))}` }] });

  if (rnd() < 0.9) {
    user();
    if (rnd() < 0.1) history[0]!.content = [{ type: "text", text: `paste ${text(5000 + int(60000))}` }]; // a first prompt over its share
  }
  const steps = int(45);
  for (let s = 0; s < steps; s++) {
    const r = rnd();
    if (r < 0.12) user();
    else if (r < 0.22)
      history.push({
        id: id(),
        role: "assistant",
        content: [...(rnd() < 0.5 ? [{ type: "thinking" as const, text: text(int(300)) }] : []), { type: "text", text: text(int(400)) }],
      });
    else if (r < 0.3 && history.some((m) => m.role === "tool")) {
      // half the time whole turns (first result … last result), else any two results
      const results = history.filter((m, i) => m.role === "tool" && (rnd() < 0.5 || (history[i - 1]!.role !== "tool" && history[i + 1]?.role !== "tool")));
      const [a, b] = [pick(results), pick(results)].sort((x, y) => history.indexOf(x) - history.indexOf(y));
      const handle = (m: Message | undefined) => (m ? m.id.slice(-5) : "zzzzz");
      const args = { start_id: `#${handle(a)}`, end_id: `[#${handle(b)}]`, summary: rnd() < 0.1 ? "" : `summary ${text(int(100))}` };
      const call: ToolCall = { id: `c${serial}`, name: "compress", arguments: JSON.stringify(args) };
      const message: Message = { id: id(), role: "assistant", content: [], toolCalls: [call] };
      history.push(message);
      const ok = args.summary !== "" && !("error" in checkCompressRange(history, args.start_id, args.end_id));
      history.push({
        id: id(),
        role: "tool",
        toolCallId: call.id,
        toolName: "compress",
        isError: !ok,
        content: [{ type: "text", text: ok ? "compressed" : "refused" }],
      });
    } else {
      const calls: ToolCall[] = Array.from({ length: 1 + int(3) }, () => {
        const [name, args] = pick(CALLS);
        return { id: `c${serial++}`, name, arguments: args };
      });
      history.push({ id: id(), role: "assistant", content: rnd() < 0.3 ? [{ type: "thinking", text: text(int(200)) }] : [], toolCalls: calls });
      for (const c of calls)
        history.push({
          id: id(),
          role: "tool",
          toolCallId: c.id,
          toolName: c.name,
          isError: rnd() < 0.15,
          content: [
            { type: "text", text: text(int(rnd() < 0.1 ? 6000 : 800)) },
            ...(rnd() < 0.03 ? [{ type: "image" as const, mediaType: "image/png", data: "AAAA" }] : []),
          ],
        });
    }
  }

  const summaries: Summary[] = [];
  for (let k = int(3); k > 0 && history.length > 2; k--) {
    const a = int(history.length);
    const b = a + int(history.length - a);
    summaries.push({ fromId: history[a]!.id, toId: history[b]!.id, text: `compaction ${text(int(300))}` });
  }
  return {
    history,
    summaries,
    policy: testPolicy({
      budgetTokens: 20 + int(rnd() < 0.5 ? 3000 : 20000),
      dedup: rnd() < 0.7,
      purgeErrorsAfter: int(7),
      compressTool: rnd() < 0.7,
      ...(rnd() < 0.3 ? { protectTurns: 1 + int(4) } : {}),
    }),
    fixedTokens: int(500),
    tokensPerChar: pick([0.25, 0.3, 0.2]),
    ...(rnd() < 0.4 ? { taskNote: `goal: ${text(int(120))}` } : {}),
  };
}

/** Every assistant call followed by exactly its results; no tool message anywhere else. */
function pairingErrors(messages: readonly Message[]): string[] {
  const errors: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "tool") {
      errors.push(`orphaned result ${m.id} at ${i}`);
      continue;
    }
    const results: string[] = [];
    while (messages[i + 1]?.role === "tool") results.push(messages[++i]!.toolCallId ?? "");
    const calls = (m.toolCalls ?? []).map((c) => c.id);
    if (results.length !== calls.length || calls.some((c) => results.filter((r) => r === c).length !== 1))
      errors.push(`calls ${calls} of ${m.id} answered by ${results}`);
  }
  return errors;
}

function protectedIds(history: readonly Message[], turns: number): Set<string> {
  const ids = new Set<string>();
  let tail = history.length;
  for (let i = history.length - 1, seen = 0; i >= 0 && seen < turns; i--) if (history[i]!.role === "assistant" && ++seen) tail = i;
  for (let i = tail; i < history.length; i++) ids.add(history[i]!.id);
  const users = history.filter((m) => m.role === "user");
  if (users.length > 0) ids.add(users[0]!.id).add(users[users.length - 1]!.id);
  return ids;
}

/** Never dropped: the first and last user message and the newest turn (the last assistant message and what follows it, but user messages). */
function pinnedIds(history: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  const last = history.findLastIndex((m) => m.role === "assistant");
  if (last >= 0) for (let i = last; i < history.length; i++) if (history[i]!.role !== "user") ids.add(history[i]!.id);
  const users = history.filter((m) => m.role === "user");
  if (users.length > 0) ids.add(users[0]!.id).add(users[users.length - 1]!.id);
  return ids;
}

const CUT = "left out to fit the context budget";

/** `original` when `sent` is it with long strings cut around a note (call-cut.ts), checked; else `sent`. */
function wholeCall(sent: ToolCall, original: ToolCall | undefined): ToolCall {
  if (!original || sent.arguments === original.arguments || sent.arguments === "{}") return sent; // "{}": purged (passes.ts purgeErrors)
  expect(sent.arguments).toContain("left out of the history to fit the context budget");
  const args = parseArguments(sent.arguments);
  const whole = parseArguments(original.arguments);
  if (args && whole) expect(Object.keys(args)).toEqual(Object.keys(whole));
  expect(sent.arguments.length).toBeLessThan(original.arguments.length);
  return original;
}

const unhandled = (m: Message) =>
  JSON.stringify({ ...m, content: m.content.map((p) => (p.type === "text" ? { ...p, text: p.text.replace(/\n?\[#[^\]]+\]$/, "") } : p)) });

function check(input: ContextInput): void {
  const before = JSON.stringify(input);
  const view = buildContext(input);
  expect(JSON.stringify(input)).toBe(before);
  expect(JSON.stringify(buildContext(input))).toBe(JSON.stringify(view));
  expect(pairingErrors(view.messages)).toEqual([]);
  expect(view.estimate).toBe(input.fixedTokens + estimateTokens(view.messages, input.tokensPerChar));

  const protect = protectedIds(input.history, input.policy.protectTurns ?? 3);
  // a call's long arguments may be sent cut (call-cut.ts): a JSON object with the same keys, with a note; checked, then compared as whole
  const calls = new Map(input.history.flatMap((m) => m.toolCalls ?? []).map((c) => [c.id, c]));
  const byId = new Map(view.messages.map((m) => [m.id, m.toolCalls ? { ...m, toolCalls: m.toolCalls.map((c) => wholeCall(c, calls.get(c.id))) } : m]));
  // a first prompt over its share of the budget keeps its start and end once answered (issue 13 row 2)
  const first = input.history.find((m) => m.role === "user");
  const keep = first ? firstPromptKeep(textOf(first), input.policy.budgetTokens) : 0;
  const answered = first !== undefined && input.history.findIndex((m) => m.role === "assistant") > input.history.indexOf(first);
  const cutFirst = answered && textOf(first).length > keep ? first : undefined;
  // protected messages are sent as they are — unless the budget cannot be met otherwise: then recent
  // ones (not pinned) may be cut (tool results, to head and tail) or dropped, once nothing
  // unprotected is left; the pinned ones are always there, whole
  const pinned = pinnedIds(input.history);
  const covered = new Set<string>(); // replaced by a summary the view shows
  const index = new Map(input.history.map((m, i) => [m.id, i]));
  for (const s of [...compressSummaries(input.history, input.policy.protectTurns ?? 3), ...input.summaries])
    if (byId.has(`summary-${s.fromId}`)) for (let i = index.get(s.fromId)!; i <= index.get(s.toId)!; i++) covered.add(input.history[i]!.id);
  // past everything else, the texts of pinned messages but the latest user message keep their start and end (budget.ts stage 5)
  const latest = input.history.findLast((m) => m.role === "user");
  const textCut = (m: Message) => view.stats.texts > 0 && m.role !== "tool" && m !== latest;
  const startsAsCut = (m: Message) => {
    const text = textOf(byId.get(m.id)!);
    expect(text).toContain("characters of this message left out to fit the context budget");
    expect(textOf(m).startsWith(text.slice(0, text.indexOf("\n[…")))).toBe(true);
  };
  let yielded = false;
  // a summary may take in the newest turn when the latest user message came after it (summary-range.ts summaryPins)
  const afterLatest = new Set(input.history.slice(input.history.findLastIndex((m) => m.role === "user")).map((m) => m.id));
  const summaryPinned = (m: Message) => pinned.has(m.id) && (m.role === "user" || afterLatest.has(m.id));
  for (const m of input.history) {
    if (!protect.has(m.id) || (covered.has(m.id) && !summaryPinned(m))) continue;
    const shown = byId.has(m.id) ? unhandled(byId.get(m.id)!) : `missing ${m.id}`;
    if (byId.has(m.id) && shown !== unhandled(m) && textCut(m)) startsAsCut(m);
    else if (m === cutFirst) {
      const text = textOf(byId.get(m.id)!);
      expect(text).toStartWith(textOf(m).slice(0, Math.floor(keep * 0.75)));
      expect(text).toContain(cutNote(textOf(m).length - keep));
    } else if (pinned.has(m.id) || shown === unhandled(m)) expect(shown).toBe(unhandled(m));
    else {
      yielded = true;
      if (shown.startsWith("missing")) continue;
      expect(m.role).toBe("tool");
      const text = textOf(byId.get(m.id)!);
      expect(text).toContain(CUT);
      expect(textOf(m).startsWith(text.slice(0, text.indexOf("[…")).replace(/\n$/, ""))).toBe(true);
    }
  }
  if (yielded) for (const m of view.messages) if (!protect.has(m.id)) expect(m.id).toMatch(/^(omitted-|task-note$|summary-)/);

  // history messages keep their order; the rest are summaries and notes
  const order = new Map(input.history.map((m, i) => [m.id, i]));
  const kept = view.messages.filter((m) => order.has(m.id)).map((m) => order.get(m.id)!);
  expect(kept).toEqual(kept.toSorted((a, b) => a - b));
  for (const m of view.messages) if (!order.has(m.id)) expect(m.id).toMatch(/^(summary-|omitted-|task-note$)/);

  if (view.overBudget) {
    expect(view.estimate).toBeGreaterThan(input.policy.budgetTokens);
    for (const m of view.messages) if (!pinned.has(m.id)) expect(m.id).toMatch(/^(omitted-|task-note$|summary-)/); // nothing droppable left
  } else expect(view.estimate).toBeLessThanOrEqual(input.policy.budgetTokens);

  if (view.summarizable) {
    const summaries = [...input.summaries, { ...view.summarizable, text: "new summary" }];
    const again = buildContext({ ...input, summaries, policy: { ...input.policy, budgetTokens: 1e9 } }); // no trim to hide it
    expect(again.messages.some((m) => m.id === `summary-${view.summarizable!.fromId}`)).toBe(true);
    expect(pairingErrors(again.messages)).toEqual([]);
  }
}

test(`${RUNS} random histories: paired, protected, within budget, deterministic, input untouched`, () => {
  const seen = { trimmed: 0, overBudget: 0, compressed: 0, deduped: 0, purged: 0, summarizable: 0, firstPromptCut: 0, textsCut: 0 };
  for (let run = 0; run < RUNS; run++) {
    const seed = BASE_SEED + run;
    const input = randomInput(seed);
    try {
      check(input);
    } catch (e) {
      console.error(`context property failed for seed ${seed} (randomInput(${seed}))`);
      throw e;
    }
    const view = buildContext(input);
    if (view.stats.trimmed > 0) seen.trimmed++;
    if (view.overBudget) seen.overBudget++;
    if (view.stats.compressed > 0) seen.compressed++;
    if (view.stats.deduped > 0) seen.deduped++;
    if (view.stats.purged > 0) seen.purged++;
    if (view.summarizable) seen.summarizable++;
    if (view.stats.texts > 0) seen.textsCut++;
    if (view.messages.some((m) => m.role === "user" && textOf(m).includes("of this message left out to fit the context budget"))) seen.firstPromptCut++;
  }
  // the generator reaches every branch often enough to mean something
  for (const [k, n] of Object.entries(seen)) expect(`${k}: ${n > RUNS / 50}`).toBe(`${k}: true`);
});
