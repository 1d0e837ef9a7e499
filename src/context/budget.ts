// The budget of one request (SPEC §10, issue 23): the last pass of `buildContext`. It fits the
// messages into the budget in stages, each only when the one before is not enough:
//   1. whole unprotected units are dropped, oldest first: once something must go, down to LOW_WATER
//      of the budget, and what one request left out stays out of the next (the hold), so the
//      request prefix — and the provider's prompt cache — stays the same until the budget is
//      reached again;
//   2. the hard ceiling: older tool results of the protected recent turns are cut to their head and
//      tail around a note that says how to get the whole back, oldest first, each only as far as
//      LOW_WATER needs (a sixth at least, and down to CUT_SHARE of the budget at most: a request 1 %
//      over no longer loses 290 of a file's 300 lines), and long arguments of their calls
//      (call-cut.ts: a write_file's content is in the file it wrote); what is cut stays cut (the hold);
//   3. recent units are dropped, oldest first;
//   4. past the model's window (when known), the newest turn's calls and results are cut too, the
//      results only to what fits the budget (a file bigger than the window still reaches the model
//      as far as it fits);
//   5. still over the budget: the long texts of what is left — the first message, the newest
//      answer — are cut to their start and end (text-cut.ts), never the latest user message.
// Never dropped: the first and the last user message, the newest turn and summaries; the newest
// turn's results are cut only in stage 4. A result the ceiling cut stays cut (the hold), and is
// measured as it is sent: a big result that leaves the protected turns is not dropped whole while
// the context as sent fits. Pure; every result keeps its call.
import { DEFAULT_TOKENS_PER_CHAR, messageChars, SUMMARY_ID, unitEnd, type HistoryFacts } from "./passes.ts";
import { textOf, type Message } from "../kernel/ir.ts";
import { cuttable, cutText, TEXT_SHARES, textCutKeep } from "./text-cut.ts";
import { CALL_KEEP_SHARE, callsCut, cutCalls, resultsOf } from "./call-cut.ts";
import { cutResult } from "./result-cut.ts";

/** The note's first line: its text is held from the request that took it (held-note.ts), so the model looks below for its updates. */
export const TASK_NOTE_PREFIX = "[task notes from .hey/task.md as of the last compaction; changes made since are in the calls below]\n";
export const TASK_NOTE_ID = "task-note";
export const omittedNote = (n: number) => `[${n} earlier messages omitted to fit the context budget; they are kept in the session file]`;
/**
 * Once stage 1 must drop, it drops down to this share of the budget (a low-water mark after the
 * budget's high-water one): the next turns append to a cached prefix until the budget is reached
 * again, instead of each dropping a little and missing the cache from there.
 */
export const LOW_WATER = 0.6;
/**
 * …but never below the system prompt and tools plus this share of the budget: where those take
 * most of it (many MCP tools), LOW_WATER alone would leave no message droppable standing, and
 * every request would drop the work just done.
 */
const LOW_ROOM = 0.2;
/** A result cut by the ceiling keeps about this share of the budget: 2,000 tokens of the default 40,000. */
export const CUT_SHARE = 0.05;
/** Characters a cut to fit leaves besides what the limit needs: the note in place of what was left out, and lines kept whole. */
const FIT_MARGIN = 400;

/** The task note takes at most this share of the budget: 8,000 tokens (32 KB) of the default 40,000, 600 of a 3,000-token budget. */
export const TASK_NOTE_SHARE = 0.2;
/** Characters kept free for the line that says what was cut from the note. */
const NOTE_CUT_ROOM = 120;
/** The line in place of what was cut from the task note; NOTE_CUT finds it again to add up a second cut. */
export const noteCutLine = (kb: number) => `[… about ${kb} KB of older notes left out to fit the context budget; .hey/task.md has all of it …]`;
const NOTE_CUT = /^\[… about (\d+) KB of older notes left out[^\n]*$/m;

const textMessage = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });

/**
 * `.hey/task.md` cut to about `maxChars`: its end, from a line start — hand-offs are appended, so
 * the newest is last — and its top (the `# Task` heading and the task, up to the first `## `
 * section) when that takes at most half, around noteCutLine saying how much was left out (an
 * earlier such line in what is left out adds its count). The note itself when it fits. Pure.
 */
export function cutTaskNote(note: string, maxChars: number): string {
  if (note.length <= maxChars) return note;
  const sections = note.search(/^## |^\[… about \d+ KB of older notes/m);
  const head = sections > 0 && sections <= maxChars / 2 ? note.slice(0, sections) : "";
  const room = Math.max(0, maxChars - head.length - NOTE_CUT_ROOM);
  let start = note.length - room;
  const nl = note.indexOf("\n", start - 1);
  if (nl >= 0 && nl + 1 - start < room / 2) start = nl + 1; // a line start, unless the last lines are one long line
  const left = note.slice(head.length, start);
  const earlier = NOTE_CUT.exec(left);
  const chars = left.length - (earlier?.[0].length ?? 0);
  const kb = Math.max(1, Math.round(chars / 1024)) + Number(earlier?.[1] ?? 0);
  return `${head}${noteCutLine(kb)}\n${note.slice(start).replace(/^\n+/, "")}`;
}

/** What trimToBudget fits the messages into. */
export interface Budget {
  budgetTokens: number;
  /** system prompt and tool schemas */
  fixedTokens: number;
  tokensPerChar: number;
  /** .hey/task.md, inserted after the first user message when anything was summarized or dropped, cut to TASK_NOTE_SHARE of the budget (cutTaskNote) */
  taskNote?: string;
  /** what the model takes at most (its window less room for the answer), when known: stage 4 */
  hardTokens?: number;
  /** what the previous request left out and cut (its Fitted.hold): left out and cut again */
  hold?: Hold;
}

/**
 * What a request left out (the first message id of each dropped unit) and cut by the ceiling
 * (ids of results, with the characters each kept, and of assistant messages whose calls' arguments
 * were cut), within `budgetTokens`: a hold made for another budget (a window learned, another
 * model) is not kept — what fits is judged afresh.
 */
export interface Hold {
  budgetTokens: number;
  dropped: ReadonlySet<string>;
  /** result id → the characters its cut kept (cutResult's `keep`); an assistant message's id → 0, its calls' arguments cut */
  cut: ReadonlyMap<string, number>;
  /** messages whose text stage 5 cut, and to how many characters */
  texts: ReadonlyMap<string, number>;
}

const NO_HOLD: Omit<Hold, "budgetTokens"> = { dropped: new Set(), cut: new Map(), texts: new Map() };

export interface Fitted {
  messages: readonly Message[];
  /** messages dropped (stages 1 and 3) */
  trimmed: number;
  /** tool results cut (stages 2 and 4) */
  cut: number;
  /** tool calls whose long arguments were cut (stages 2 and 4) */
  calls: number;
  /** texts of the first message and the newest turns cut to their start and end (stage 5): what is never left out was over the budget */
  texts: number;
  /** still over the budget: only what is never dropped is left, its results cut as far as allowed */
  overBudget: boolean;
  /** messages dropped beyond what the hold left out, and texts stage 5 cut that it had not: the budget was reached again (a summary may replace them instead) */
  newlyTrimmed: number;
  /** for the next request's Budget.hold */
  hold: Hold;
  /** tokens of fixedTokens + the messages before anything was left out or cut: the task note included when a summary brings it in anyway */
  untrimmed: number;
}

interface Unit {
  start: number;
  end: number;
  /** holds no protected message */
  droppable: boolean;
  /** holds the first or last user message or the newest turn */
  pinned: boolean;
}

/**
 * Fits `messages` into the budget (see the stages above). Dropped units become one note
 * `[N earlier messages omitted …]` per stretch, where the stretch was. What `budget.hold` left out
 * is left out again and what it cut is cut again (a cut is a function of the result and the budget
 * only: the same bytes), so a request repeats the previous one's prefix; only when that is over the
 * budget does stage 1 drop more, down to LOW_WATER, so the next several turns fit again.
 */
export function trimToBudget(messages: readonly Message[], facts: HistoryFacts, budget: Budget): Fitted {
  const units: Unit[] = [];
  const unitOf: number[] = []; // message index → its unit
  const chars: number[] = messages.map(messageChars);
  for (let i = 0; i < messages.length; ) {
    const end = unitEnd(messages, i);
    let droppable = true;
    let pinned = false;
    for (let j = i; j < end; j++) {
      const m = messages[j]!;
      if (facts.protect.has(m.id)) droppable = false;
      // a summary is all that is left of the work it covers: the next summary takes it in instead
      if (facts.pinned.has(m.id) || m.id.startsWith(SUMMARY_ID)) (pinned = true), (droppable = false);
    }
    for (let j = i; j < end; j++) unitOf.push(units.length);
    units.push({ start: i, end, droppable, pinned });
    i = end;
  }
  const summarized = messages.some((m) => m.id.startsWith(SUMMARY_ID));
  // the note is cut by the budget alone (not the corrected ratio), so each request sends the same bytes for the prompt cache
  const noteChars = Math.floor((budget.budgetTokens * TASK_NOTE_SHARE) / DEFAULT_TOKENS_PER_CHAR);
  const task = budget.taskNote === undefined ? undefined : textMessage(TASK_NOTE_ID, TASK_NOTE_PREFIX + cutTaskNote(budget.taskNote, noteChars));
  const out = [...messages];
  const drop = new Set<number>(); // unit indexes
  let kept = chars.reduce((a, b) => a + b, 0);
  let dropped = 0;
  let cut = 0;
  let calls = 0;
  const texts = new Map<string, number>(); // stage 5: message id → characters kept
  let results: ReadonlyMap<string, Message> | undefined; // per call id its result, once a call is cut
  const cutTo = new Map<number, number>(); // message index → the size its result was cut to
  const tokens = (c: number) => {
    if (dropped > 0) c += messageChars(textMessage("", omittedNote(dropped))) * stretches();
    if (task && (summarized || dropped > 0)) c += messageChars(task);
    return budget.fixedTokens + Math.ceil(c * budget.tokensPerChar);
  };
  // stretches of dropped units, counted as units are dropped: `fits` asks at every step of the stages' loops, and
  // spreading the set each time was ~11 % of what prepare allocates over a long session (40k budget, ~450 units out)
  let stretchCount = 0;
  const stretches = () => stretchCount;
  const fits = (limit = budget.budgetTokens) => tokens(kept) <= limit;
  const untrimmed = tokens(kept);
  const keep = Math.floor((budget.budgetTokens * CUT_SHARE) / DEFAULT_TOKENS_PER_CHAR);
  // once something must go, stage 1 drops and stage 2 cuts down to the low-water mark
  const low = Math.max(budget.budgetTokens * LOW_WATER, budget.fixedTokens + budget.budgetTokens * LOW_ROOM);
  const dropUnit = (u: number) => {
    if (!drop.has(u)) stretchCount += 1 - Number(drop.has(u - 1)) - Number(drop.has(u + 1));
    drop.add(u);
    for (let j = units[u]!.start; j < units[u]!.end; j++) kept -= chars[j]!;
    dropped += units[u]!.end - units[u]!.start;
  };
  /**
   * Cuts results of `which` units, oldest first, each to what the messages need to fit `limit`
   * (default: the budget) — down to `keep` at most, a sixth at least (cutResult's least worth a
   * note) — until they fit; `record` collects the ids of those cut, with the size each kept.
   */
  const cutResults = (which: (u: Unit) => boolean, limit?: number, toFit = false, record?: Map<string, number>) => {
    for (let k = 0; k < units.length; k++) {
      const unit = units[k]!;
      if (drop.has(k) || !which(unit)) continue;
      for (let j = unit.start; j < unit.end && !fits(limit); j++) {
        if (out[j]!.toolCalls) callsAt(j, toFit ? CALL_KEEP_SHARE * 1.2 : CUT_SHARE, toFit ? undefined : record);
        if (out[j]!.role !== "tool" || fits(limit)) continue;
        // past the target by `over` characters (with room for the estimate's error and the note): past
        // the window's ceiling (`toFit`) the budget, else the limit
        const target = toFit ? Math.min(limit!, budget.budgetTokens) : (limit ?? budget.budgetTokens);
        const over = Math.ceil((tokens(kept) - target) / budget.tokensPerChar) + FIT_MARGIN;
        const length = textOf(messages[j]!).length;
        const size = Math.max(keep, Math.min(textOf(out[j]!).length - over, Math.floor(length / 1.2) - 1));
        if (size < (cutTo.get(j) ?? Number.POSITIVE_INFINITY)) cutAt(j, size, unit.start, toFit ? undefined : record);
      }
      if (fits(limit)) return;
    }
  };

  // the hold: what the previous request left out and cut, as it was sent
  const hold = budget.hold?.budgetTokens === budget.budgetTokens ? budget.hold : NO_HOLD;
  const cutIds = new Map<string, number>();
  // index loops over the units, not entries(): an [index, unit] pair per step, three loops a request over the whole history
  for (let k = 0; k < units.length; k++) {
    const unit = units[k]!;
    if (unit.pinned) continue;
    if (hold.dropped.has(messages[unit.start]!.id)) {
      dropUnit(k);
      continue;
    }
    for (let j = unit.start; j < unit.end; j++) {
      const size = hold.cut.get(out[j]!.id);
      if (size !== undefined) cutAt(j, Math.max(size, keep), unit.start, cutIds);
    }
  }
  for (let j = 0; j < out.length; j++) if (hold.texts.has(out[j]!.id) && !drop.has(unitOf[j]!)) cutTextAt(j, hold.texts.get(out[j]!.id)!);
  const held = dropped;
  const heldTexts = texts.size;
  // 1: unprotected units, oldest first: once something must go, down to the low-water mark
  if (!fits()) for (let k = 0; k < units.length && !fits(low); k++) if (units[k]!.droppable && !drop.has(k)) dropUnit(k);
  // 2: the recent turns' results; 3: the recent turns themselves; 4: the newest turn's results, to the window
  // (down to the low-water mark too: cut to 80 % of the budget, or as soon as it fit, a turn of parallel reads over it
  // left room for no further read, which cut again a request later — x6 #4: two rebuilds in two requests)
  if (!fits()) cutResults((unit) => !unit.pinned, low, false, cutIds);
  for (let k = 0; k < units.length && !fits(); k++) if (!units[k]!.pinned && !drop.has(k)) dropUnit(k);
  if (budget.hardTokens !== undefined && !fits(budget.hardTokens)) cutResults((unit) => unit.pinned, budget.hardTokens, true);
  // 5: the long texts of what is left, oldest first, to the larger share of the budget, then (still over) to the smaller
  const latest = messages.findLast((m) => m.role === "user" && !m.id.startsWith(SUMMARY_ID));
  for (const share of TEXT_SHARES)
    for (let j = 0; j < out.length && !fits(); j++)
      if (!drop.has(unitOf[j]!) && cuttable(messages[j]!, latest)) cutTextAt(j, textCutKeep(messages[j]!, share, budget.budgetTokens));
  const overBudget = !fits();
  const dropIds = new Set([...drop].map((k) => messages[units[k]!.start]!.id));
  const next: Hold = { budgetTokens: budget.budgetTokens, dropped: dropIds, cut: cutIds, texts };

  const tasked = !(task && (summarized || dropped > 0));
  if (dropped === 0 && tasked && cut === 0 && calls === 0 && texts.size === 0)
    return { messages, trimmed: 0, cut: 0, calls: 0, texts: 0, overBudget, newlyTrimmed: 0, hold: next, untrimmed };
  const messagesOut = assemble(out, units, drop, tasked ? undefined : task, facts);
  return {
    messages: messagesOut,
    trimmed: dropped,
    cut,
    calls,
    texts: texts.size,
    overBudget,
    newlyTrimmed: dropped - held + texts.size - heldTexts,
    hold: next,
    untrimmed,
  };

  /** Cuts the text of message `j` to `keep` characters, from the message as it came (the same bytes every request). */
  function cutTextAt(j: number, keep: number): void {
    if (keep >= (texts.get(messages[j]!.id) ?? Number.POSITIVE_INFINITY)) return; // cut shorter already (the hold)
    const shorter = cutText(messages[j]!, keep);
    if (shorter === messages[j]) return;
    kept += messageChars(shorter) - chars[j]!;
    chars[j] = messageChars(shorter);
    out[j] = shorter;
    texts.set(messages[j]!.id, keep);
  }

  /**
   * Cuts the result at `j` (of the unit starting at `start`) to `size`, from the result as it came (the same bytes
   * for the same size), or the arguments of its calls when `j` is the assistant message; `record`: ids cut, with the size.
   */
  function cutAt(j: number, size: number, start: number, record?: Map<string, number>): void {
    if (out[j]!.toolCalls) return callsAt(j, CUT_SHARE, record);
    // a cut the hold does not record is stage 4's, to what fits: its hint asks for no more lines than a read
    // of them, the newest result, may take — what the cut kept and the room between the budget and the window
    const room = record === undefined ? size + Math.max(0, ((budget.hardTokens ?? 0) - budget.budgetTokens) / budget.tokensPerChar - FIT_MARGIN) : undefined;
    const shorter = cutResult(messages[j]!, size, callOf(messages, start, messages[j]!), room);
    if (shorter !== messages[j]) cutTo.set(j, size);
    replace(j, shorter, record, size);
  }

  /** Cuts the arguments of the calls of message `j` that are over `overShare` of the budget (call-cut.ts). */
  function callsAt(j: number, overShare: number, record?: Map<string, number>): void {
    results ??= resultsOf(messages);
    const cut = { overTokens: overShare * budget.budgetTokens, keepTokens: CALL_KEEP_SHARE * budget.budgetTokens };
    replace(j, cutCalls(out[j]!, cut, results), record, 0);
  }

  /** Message `j` sent as `shorter`, counted as one more result cut (once, however often it is cut shorter), or as the calls it cut. */
  function replace(j: number, shorter: Message, record: Map<string, number> | undefined, size: number): void {
    if (shorter === out[j]) return;
    if (shorter.role === "tool" && out[j] === messages[j]) cut++;
    else if (shorter.role !== "tool") calls += callsCut(out[j]!, shorter);
    kept += messageChars(shorter) - chars[j]!;
    chars[j] = messageChars(shorter);
    out[j] = shorter;
    record?.set(messages[j]!.id, size);
  }
}

/** The messages with the dropped units replaced by one note per stretch and the task note after the first protected user message. */
function assemble(messages: readonly Message[], units: Unit[], drop: ReadonlySet<number>, task: Message | undefined, facts: HistoryFacts): Message[] {
  const out: Message[] = [];
  let tasked = task === undefined;
  for (let k = 0; k < units.length; k++) {
    const unit = units[k]!;
    if (drop.has(k)) {
      if (drop.has(k - 1)) continue;
      let n = 0;
      for (let j = k; drop.has(j); j++) n += units[j]!.end - units[j]!.start;
      out.push(textMessage(`omitted-${messages[unit.start]!.id}`, omittedNote(n)));
      continue;
    }
    for (let j = unit.start; j < unit.end; j++) {
      const m = messages[j]!;
      out.push(m);
      if (!tasked && m.role === "user" && facts.protect.has(m.id)) {
        out.push(task!);
        tasked = true;
      }
    }
  }
  if (!tasked) out.unshift(task!);
  return out;
}

/** The name and arguments of the call `result` answers, from the assistant message that starts its unit. */
function callOf(messages: readonly Message[], unitStart: number, result: Message): { name: string; arguments: string } | undefined {
  return messages[unitStart]?.toolCalls?.find((c) => c.id === result.toolCallId);
}
