// What the context passes need to know of the whole history (which messages are protected and
// pinned, how many turns came after each, the handle each result shows), kept per history and
// brought up to date with the messages appended since the last request instead of worked out again
// over all of them (x119 #4, s51: ~0.5 ms a request at 1,000 messages, twice per request). What is
// kept is checked against the array on every call — each message the same object with the same
// id, role and turn, as cheap as reading them — and dropped from the first one that is not: after
// /undo, /resume, an edit in place or any other change the facts are those of the history as it is.
// Pure.
import type { Message } from "../kernel/ir.ts";
import { cutBeforeAnswer } from "../kernel/turns.ts";

export const HANDLE_LENGTH = 5; // last characters of a message id shown as its handle: 36^5 ≈ 60M values

/**
 * What the passes need to know about the full history; computed once per request. A value: later
 * calls on other slices of the same history do not change what it answers.
 */
export interface HistoryFacts {
  /** never pruned, and dropped only to meet the budget: the first and the last user message and the protected tail */
  protect: ReadonlySet<string>;
  /** never dropped or summarized: the first and the last user message and the newest turn (the last assistant message and its results) */
  pinned: ReadonlySet<string>;
  /** for an assistant message id: how many turns came after it; undefined for any other id */
  turnsAfter(id: string): number | undefined;
  /** for a tool message id: the handle shown to the model (its id's last HANDLE_LENGTH characters, or the whole id when another id ends alike) */
  handle(id: string): string;
}

/** Whether `m` starts a turn: an assistant message, not an interrupted marker alone (cutBeforeAnswer). */
export const isTurn = (m: Message) => m.role === "assistant" && !cutBeforeAnswer(m);

/** The messages read so far, by position, and what they add up to. Positions only ever grow or are cut back from the end. */
interface Ledger {
  seen: { m: Message; id: string; role: Message["role"]; turn: boolean; suffix: string }[];
  /** positions of turns, ascending */
  turnAt: number[];
  /** positions of user messages, ascending */
  userAt: number[];
  /** a turn's ordinal (0 for the first) by its id: the first turn with that id */
  ordinal: Map<string, number>;
  /** the positions of messages whose id ends in a suffix, ascending */
  suffixAt: Map<string, number[]>;
  /** the first position of a tool message by its id */
  toolAt: Map<string, number>;
  /** facts already asked for, by length and protected turns, while no message is added or dropped */
  asked: Map<string, HistoryFacts>;
  /** the longest length facts were made of: a cut below it would change what they answer, so it leaves this ledger as it is */
  lent: number;
}

/**
 * Kept by the history's first message, not by the array: a resumed session's requests are replayed
 * over slices of one history (compaction.ts replayCache), each a new array of the same messages,
 * and read as one history cut back and grown again.
 */
const ledgers = new WeakMap<Message, Ledger>();

/** The facts of the first `length` messages of `history` (the history as it was then). */
export function historyFacts(history: readonly Message[], protectTurns: number, length = history.length): HistoryFacts {
  const first = history[0];
  const ledger = update((first && ledgers.get(first)) || newLedger(), history);
  if (first) ledgers.set(first, ledger);
  const key = `${length}:${protectTurns}`;
  let facts = ledger.asked.get(key);
  if (!facts) ledger.asked.set(key, (facts = factsAt(ledger, protectTurns, length)));
  ledger.lent = Math.max(ledger.lent, length);
  return facts;
}

function newLedger(): Ledger {
  return { seen: [], turnAt: [], userAt: [], ordinal: new Map(), suffixAt: new Map(), toolAt: new Map(), asked: new Map(), lent: 0 };
}

/**
 * Brings `ledger` to `history`: cut back to the first message that is not as it was read, then reads
 * the rest. Facts answer from the ledger within their length, which messages appended later do not
 * change; a cut below a length facts were made of would, so then the ledger is left to those facts
 * and a new one reads `history` (a replay's shorter slice, /undo: rare). Copying what facts answer
 * at each request instead (3 maps of the whole history, twice a request) was ~14 MB of the 500-turn
 * bench's peak RSS.
 */
function update(ledger: Ledger, history: readonly Message[]): Ledger {
  const { seen } = ledger;
  let same = 0;
  const known = Math.min(seen.length, history.length);
  while (same < known) {
    const m = history[same]!;
    const s = seen[same]!;
    if (m !== s.m || m.id !== s.id || m.role !== s.role || (m.role === "assistant" && isTurn(m) !== s.turn)) break;
    same++;
  }
  if (same === seen.length && same === history.length) return ledger;
  if (same < seen.length && same < ledger.lent) return update(newLedger(), history);
  ledger.asked.clear();
  while (seen.length > same) drop(ledger);
  for (let i = same; i < history.length; i++) add(ledger, history[i]!);
  return ledger;
}

function add(ledger: Ledger, m: Message): void {
  const at = ledger.seen.length;
  const turn = isTurn(m);
  const suffix = m.id.slice(-HANDLE_LENGTH);
  ledger.seen.push({ m, id: m.id, role: m.role, turn, suffix });
  if (turn) {
    if (!ledger.ordinal.has(m.id)) ledger.ordinal.set(m.id, ledger.turnAt.length);
    ledger.turnAt.push(at);
  }
  if (m.role === "user") ledger.userAt.push(at);
  if (m.role === "tool" && !ledger.toolAt.has(m.id)) ledger.toolAt.set(m.id, at);
  const positions = ledger.suffixAt.get(suffix);
  if (positions) positions.push(at);
  else ledger.suffixAt.set(suffix, [at]);
}

/** Takes back what the last message read added. */
function drop(ledger: Ledger): void {
  const at = ledger.seen.length - 1;
  const { id, role, turn, suffix } = ledger.seen.pop()!;
  if (turn) {
    ledger.turnAt.pop();
    if (ledger.ordinal.get(id) === ledger.turnAt.length) ledger.ordinal.delete(id);
  }
  if (role === "user") ledger.userAt.pop();
  if (role === "tool" && ledger.toolAt.get(id) === at) ledger.toolAt.delete(id);
  const positions = ledger.suffixAt.get(suffix)!;
  positions.pop();
  if (positions.length === 0) ledger.suffixAt.delete(suffix);
}

/** How many of the ascending `positions` are below `length`. */
function below(positions: readonly number[], length: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (positions[mid]! < length) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function factsAt(ledger: Ledger, protectTurns: number, length: number): HistoryFacts {
  const { seen, turnAt, userAt } = ledger;
  const turns = below(turnAt, length);
  // where the last `n` turns start: the first turn when there are fewer, `length` when none (passes.ts tailStart)
  const tail = (n: number) => (n <= 0 || turns === 0 ? length : turnAt[Math.max(0, turns - n)]!);
  const protect = new Set<string>();
  for (let i = tail(protectTurns); i < length; i++) protect.add(seen[i]!.id);
  const pinned = new Set<string>();
  for (let i = tail(1); i < length; i++) if (seen[i]!.role !== "user") pinned.add(seen[i]!.id);
  const users = below(userAt, length);
  const ends = users === 0 ? [] : [userAt[0]!, userAt[users - 1]!];
  for (const i of ends) protect.add(seen[i]!.id), pinned.add(seen[i]!.id);
  return {
    protect,
    pinned,
    turnsAfter(id) {
      const n = ledger.ordinal.get(id);
      return n === undefined || n >= turns ? undefined : turns - 1 - n;
    },
    handle(id) {
      // a message the history lacks (a summary, a restored note) shows its id's end
      const tool = ledger.toolAt.get(id);
      if (tool === undefined || tool >= length) return id.slice(-HANDLE_LENGTH);
      // a result whose id ends like another message's shows its whole id
      const suffix = seen[tool]!.suffix;
      return below(ledger.suffixAt.get(suffix)!, length) > 1 ? id : suffix;
    },
  };
}
