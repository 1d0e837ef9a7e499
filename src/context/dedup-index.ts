// Which calls of the history have an identical later call (passes.ts dedup), kept per history
// and brought up to date with the messages appended since the last request, instead of every call's
// key hashed and compared again over the whole history per request (x119 #4, s51: ~0.5 ms a request
// at 1,000 messages, twice per request). Each call is linked to the next call with the same key, so
// a request reads only links. What is kept is checked against the array on every call — each
// message the same object, and what dedup reads of it (its calls' ids, names and arguments, a
// result's call id, tool, error flag and texts) the same values — and dropped from the first
// message that is not: after /undo, /resume or an edit in place dedup sees the history as it is. Pure.
import type { Message } from "../kernel/ir.ts";
import { isCopyResult } from "../kernel/repeats.ts";
import { callArguments, KEEP_RESULTS } from "./call-keys.ts";
import { dedup, pruneOlder } from "./passes.ts";
import { stubTarget } from "./read-stubs.ts";

/** A call dedup compares: its id, its message's position, and the calls before and after it with the same key (-1: none). */
interface Call {
  id: string;
  key: string;
  at: number;
  previous: number;
  next: number;
}

interface Index {
  /** each message read, with the values dedup read of it (signOf), its id and, for a note or a copy's result, its call id */
  seen: { m: Message; sign: unknown[]; id: string; stub?: string }[];
  /** per position: where the first message with the same id is (dedup's scope is by id) */
  firstOfId: number[];
  idAt: Map<string, number>;
  calls: Call[];
  /** per position: how many calls came before it */
  callsBefore: number[];
  /** the last call with each key */
  lastOfKey: Map<string, number>;
  /** call ids with a read_file note or a copy's result (no later call for an identical earlier one), with how many */
  stubs: Map<string, number>;
}

/** Kept by the history's first message, not by the array, as history-facts.ts keeps its ledger: replayed slices share one. */
const indexes = new WeakMap<Message, Index>();

/**
 * The ids of the calls of `history` that have an identical later call (the same tool and canonical
 * arguments, not a write_file, edit or compress call, the later one not answered by a note or a
 * copy's result), both among the messages whose ids are those of the first `upTo` messages; and
 * whether the message at a position is among those (dedup's scope). As passes.ts dedup works out
 * over the same messages.
 */
export function olderCalls(history: readonly Message[], upTo: number): { older: ReadonlySet<string>; inScope: (i: number) => boolean } {
  const first = history[0];
  let index = first && indexes.get(first);
  if (!index) index = newIndex();
  if (first) indexes.set(first, index);
  update(index, history);
  const { calls, firstOfId, stubs } = index;
  const inScope = (i: number) => firstOfId[i]! < upTo;
  const older = new Set<string>();
  for (const c of calls) {
    if (!inScope(c.at)) continue;
    for (let n = c.next; n >= 0; n = calls[n]!.next) {
      const later = calls[n]!;
      if (inScope(later.at) && !stubs.has(later.id)) {
        older.add(c.id);
        break;
      }
    }
  }
  return { older, inScope };
}

function newIndex(): Index {
  return { seen: [], firstOfId: [], idAt: new Map(), calls: [], callsBefore: [], lastOfKey: new Map(), stubs: new Map() };
}

/** What dedup reads of `m`, compared value by value by sameSign: an edit in place shows. */
function signOf(m: Message): unknown[] {
  const sign: unknown[] = [m.id, m.role, m.toolCallId, m.toolName, m.isError, m.content, m.content.length, m.toolCalls, m.toolCalls?.length];
  for (const p of m.content) sign.push(p, p.type === "text" ? p.text : undefined);
  for (const c of m.toolCalls ?? []) sign.push(c, c.id, c.name, c.arguments);
  return sign;
}

/** Whether signOf(m) would equal `sign`, without making it (it runs over every message per request). */
function sameSign(m: Message, sign: readonly unknown[]): boolean {
  const calls = m.toolCalls;
  if (
    m.id !== sign[0] ||
    m.role !== sign[1] ||
    m.toolCallId !== sign[2] ||
    m.toolName !== sign[3] ||
    m.isError !== sign[4] ||
    m.content !== sign[5] ||
    m.content.length !== sign[6] ||
    calls !== sign[7] ||
    calls?.length !== sign[8]
  )
    return false;
  let at = 9;
  for (const p of m.content) if (p !== sign[at++] || (p.type === "text" ? p.text : undefined) !== sign[at++]) return false;
  if (calls) for (const c of calls) if (c !== sign[at++] || c.id !== sign[at++] || c.name !== sign[at++] || c.arguments !== sign[at++]) return false;
  return at === sign.length;
}

function update(index: Index, history: readonly Message[]): void {
  const { seen } = index;
  let same = 0;
  const known = Math.min(seen.length, history.length);
  while (same < known && history[same] === seen[same]!.m && sameSign(history[same]!, seen[same]!.sign)) same++;
  while (seen.length > same) drop(index);
  for (let i = same; i < history.length; i++) add(index, history[i]!);
}

function add(index: Index, m: Message): void {
  const at = index.seen.length;
  const stub = m.role === "tool" && (stubTarget(m) !== undefined || isCopyResult(m)) ? m.toolCallId! : undefined;
  index.seen.push({ m, sign: signOf(m), id: m.id, ...(stub !== undefined ? { stub } : {}) });
  if (!index.idAt.has(m.id)) index.idAt.set(m.id, at);
  index.firstOfId.push(index.idAt.get(m.id)!);
  index.callsBefore.push(index.calls.length);
  if (stub !== undefined) index.stubs.set(stub, (index.stubs.get(stub) ?? 0) + 1);
  for (const c of m.toolCalls ?? []) {
    if (KEEP_RESULTS.has(c.name)) continue;
    const key = `${c.name}\0${callArguments(c)}`;
    const previous = index.lastOfKey.get(key) ?? -1;
    const n = index.calls.push({ id: c.id, key, at, previous, next: -1 }) - 1;
    if (previous >= 0) index.calls[previous]!.next = n;
    index.lastOfKey.set(key, n);
  }
}

/** Takes back what the last message read added (as it was then: it may have been edited since). */
function drop(index: Index): void {
  const at = index.seen.length - 1;
  const { id, stub } = index.seen.pop()!;
  while (index.calls.length > index.callsBefore[at]!) {
    const c = index.calls.pop()!;
    if (c.previous >= 0) (index.calls[c.previous]!.next = -1), index.lastOfKey.set(c.key, c.previous);
    else index.lastOfKey.delete(c.key);
  }
  index.callsBefore.pop();
  index.firstOfId.pop();
  if (index.idAt.get(id) === at) index.idAt.delete(id);
  if (stub === undefined) return;
  const n = index.stubs.get(stub)!;
  if (n > 1) index.stubs.set(stub, n - 1);
  else index.stubs.delete(stub);
}

/**
 * passes.ts dedup of `messages`, the view of `history` so far (summaries applied, the first prompt
 * cut), judged as of the first `upTo` messages: from the index when the view holds the history's
 * messages one for one (no summary replaced a range: a cut first prompt is no call and no result),
 * worked out over the view otherwise (a summarized history, which the budget keeps short).
 */
export function dedupView(
  history: readonly Message[],
  messages: readonly Message[],
  protect: ReadonlySet<string>,
  upTo: number,
): { messages: readonly Message[]; count: number } {
  const whole = upTo >= history.length;
  if (!alike(history, messages)) return dedup(messages, protect, whole ? undefined : new Set(history.slice(0, upTo).map((m) => m.id)));
  const { older, inScope } = olderCalls(history, upTo);
  return pruneOlder(messages, older, protect, whole ? undefined : (_, i) => inScope(i));
}

/** Whether `messages` are `history`'s, one for one, but for user messages (a cut first prompt). */
function alike(history: readonly Message[], messages: readonly Message[]): boolean {
  if (messages.length !== history.length) return false;
  for (let i = 0; i < messages.length; i++) if (messages[i] !== history[i] && (messages[i]!.role !== "user" || history[i]!.role !== "user")) return false;
  return true;
}
