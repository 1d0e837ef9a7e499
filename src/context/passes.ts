// Dynamic context pruning (SPEC §10): the deterministic passes that `buildContext` (view.ts)
// runs over the full history to derive what one model request sends. Each pass is pure, returns
// new messages without touching its input, and keeps every tool call with all its results: it
// rewrites or drops whole units only (a unit is an assistant message with the results after it,
// or a lone user message).
import { textOf, type Message } from "../kernel/ir.ts";
import { isCopyResult } from "../kernel/repeats.ts";
import { reckonedPages } from "../fs/pdf-bytes.ts";
import { kept } from "./kept.ts";
import { stubTarget } from "./read-stubs.ts";
import { callArguments, KEEP_RESULTS } from "./call-keys.ts";
import { type HistoryFacts, isTurn } from "./history-facts.ts";

export { HANDLE_LENGTH, historyFacts, type HistoryFacts } from "./history-facts.ts";

export const DEFAULT_TOKENS_PER_CHAR = 0.25; // SPEC §10: characters/4 until the provider reports better
export const PROTECT_TURNS = 3;
const MESSAGE_CHARS = 16; // role, ids and framing of a message or a tool call on the wire (~4 tokens)
const IMAGE_CHARS = 6_000; // an image costs ~1,500 tokens on the major APIs, whatever its base64 size
/**
 * A PDF page costs its text, 1,500–3,000 tokens, and its page image besides (docs.claude.com "PDF
 * support", "Estimate your costs"): the top of that range, 3,000 tokens, as characters.
 */
export const PDF_PAGE_CHARS = 12_000;

/** A summary that replaces the history from fromId to toId inclusive (a compaction by the provider). */
export interface Summary {
  fromId: string;
  toId: string;
  text: string;
  /**
   * read_file results in its range that notes after it point at (read-stubs.ts), when the history
   * lacks the range: a resume loads them with it (sessions/pointed-at.ts), so a note is sent as the
   * run that made the summary sent it
   */
  results?: readonly Message[];
}

export const SUMMARY_PREFIX = "[summary of earlier work]\n";
export const DUPLICATE_NOTE = "[pruned: duplicate call — the latest identical call's output is below]";
export const PURGED_PREFIX = "[arguments purged] ";
export const SUMMARY_ID = "summary-";

const textMessage = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });
export const summaryMessage = (s: Summary): Message => textMessage(SUMMARY_ID + s.fromId, SUMMARY_PREFIX + s.text);

/**
 * Characters a message weighs on the wire (text, thinking, tool calls, a flat rate per image and per
 * PDF page). Worked out each time, never kept: it adds up lengths, as cheap as checking a kept
 * weight still holds, and so it is right for a message edited in place (x126 #1, #2).
 */
export function messageChars(m: Message): number {
  let n = MESSAGE_CHARS;
  for (const p of m.content) n += p.type === "image" ? IMAGE_CHARS : p.type === "document" ? PDF_PAGE_CHARS * reckonedPages(p) : p.text.length;
  if (m.toolCalls) for (const c of m.toolCalls) n += MESSAGE_CHARS + c.name.length + c.arguments.length;
  return n;
}

/**
 * A message's rewritten forms, kept with the object (kept.ts: while it is unchanged): the history
 * is append-only and a view's rewrites are new objects, and every request compares and rewrites
 * the same ones again (x119: CPU per request grew with the history).
 */
const duplicateOf = kept<Message, Message>();
const purgedOf = kept<Message, { calls: string; out: Message }>();

/** Estimated tokens of `messages`: their characters times `tokensPerChar`, rounded up. */
export function estimateTokens(messages: readonly Message[], tokensPerChar: number): number {
  let chars = 0;
  for (const m of messages) chars += messageChars(m);
  return Math.ceil(chars * tokensPerChar);
}

/**
 * Index where the protected tail starts: the `turns`-th last assistant message (a turn is one
 * assistant message and its results, one model request). With fewer turns, the first assistant
 * message; with none or `turns` ≤ 0, `history.length` (no tail). An interrupted marker alone (the
 * user stopped the turn before the model's next word: after the results, or before any answer) is
 * no turn of its own: it closes the turn before it, whose results stay the newest.
 */
export function protectedFrom(history: readonly Message[], turns: number): number {
  return tailStart(history, turns, history.length);
}

/** protectedFrom over the first `length` messages only. */
export function tailStart(history: readonly Message[], turns: number, length: number): number {
  let at = length;
  let seen = 0;
  for (let i = length - 1; i >= 0 && seen < turns; i--) {
    if (isTurn(history[i]!)) {
      at = i;
      seen++;
    }
  }
  return at;
}

/** End (exclusive) of the unit starting at `i`: an assistant message or a run of orphaned results takes the results after it. */
export function unitEnd(messages: readonly Message[], i: number): number {
  if (messages[i]!.role !== "assistant" && messages[i]!.role !== "tool") return i + 1;
  let j = i + 1;
  while (j < messages.length && messages[j]!.role === "tool") j++;
  return j;
}

/**
 * Replaces each summary's range by one user message `[summary of earlier work]\n<text>` with id
 * `summary-<fromId>`. Later summaries win: one is ignored when its range is not found, is
 * reversed, overlaps a later one, would split a call from its results or holds a protected
 * message. Never throws.
 */
export function applySummaries(
  history: readonly Message[],
  summaries: Summary[],
  protect: ReadonlySet<string>,
): { messages: readonly Message[]; applied: Summary[]; replaced: number } {
  if (summaries.length === 0) return { messages: history, applied: [], replaced: 0 };
  const index = new Map(history.map((m, i) => [m.id, i]));
  const taken: { from: number; to: number; summary: Summary }[] = [];
  for (const s of summaries.toReversed()) {
    const from = index.get(s.fromId);
    const to = index.get(s.toId);
    if (from === undefined || to === undefined || from > to) continue;
    if (history[from]!.role === "tool" || history[to + 1]?.role === "tool") continue;
    if (taken.some((t) => from <= t.to && t.from <= to)) continue;
    if (history.slice(from, to + 1).some((m) => protect.has(m.id))) continue;
    taken.push({ from, to, summary: s });
  }
  if (taken.length === 0) return { messages: history, applied: [], replaced: 0 };
  taken.sort((a, b) => a.from - b.from);
  const messages: Message[] = [];
  let at = 0;
  let replaced = 0;
  for (const t of taken) {
    messages.push(...history.slice(at, t.from), summaryMessage(t.summary));
    replaced += t.to - t.from + 1;
    at = t.to + 1;
  }
  messages.push(...history.slice(at));
  return { messages, applied: taken.map((t) => t.summary), replaced };
}

/** Once answered, the first prompt takes at most this share of the budget in a request (issue 13 row 2). */
export const FIRST_PROMPT_SHARE = 0.5;
export const cutNote = (n: number) => `[… ${n} characters of this message left out to fit the context budget; the session file keeps it whole …]`;

/**
 * A first prompt far over the budget (a 40 MB paste) is sent whole once; in every request after
 * an answer to it, its text keeps only its start (¾) and end (¼) — FIRST_PROMPT_SHARE of the
 * budget in all (firstPromptKeep) — around a note. Its images and every other message are left alone.
 */
export function trimFirstPrompt(messages: readonly Message[], budgetTokens: number): readonly Message[] {
  const i = messages.findIndex((m) => m.role === "user");
  if (i < 0 || messages.findIndex((m) => m.role === "assistant") < i) return messages;
  const first = messages[i]!;
  const text = textOf(first);
  const keep = firstPromptKeep(text, budgetTokens);
  if (text.length <= keep) return messages;
  const out = [...messages];
  out[i] = { ...first, content: [{ type: "text", text: headAndTail(text, keep) }, ...first.content.filter((p) => p.type !== "text")] };
  return out;
}

/** `text` (longer than `keep`) as its start (¾ of `keep`) and end (¼) around cutNote. */
export function headAndTail(text: string, keep: number): string {
  const head = Math.floor(keep * 0.75);
  return `${text.slice(0, head)}\n${cutNote(text.length - keep)}\n${text.slice(text.length - (keep - head))}`;
}

/**
 * The characters of a first prompt `text` kept within FIRST_PROMPT_SHARE of the budget. Reckoned
 * from the text alone — a character outside ASCII as a token, four ASCII ones as one, over its start
 * and end (what is kept) — never from the estimate's ratio, which moves with every answer: the cut
 * is at the same place in every request and in a resumed run's, so the provider's cached prefix
 * holds past it. Pure.
 */
export function firstPromptKeep(text: string, budgetTokens: number): number {
  return textKeep(text, budgetTokens * FIRST_PROMPT_SHARE);
}

/** The characters of `text` that make about `tokens` tokens, reckoned from the text alone as firstPromptKeep says. Pure. */
export function textKeep(text: string, tokens: number): number {
  const sample = text.length <= 2 * KEEP_SAMPLE ? text : text.slice(0, KEEP_SAMPLE) + text.slice(-KEEP_SAMPLE);
  let wide = 0;
  for (let k = 0; k < sample.length; k++) if (sample.charCodeAt(k) > 0x7f) wide++;
  const perChar = (wide + (sample.length - wide) / 4) / Math.max(1, sample.length);
  return Math.floor(tokens / Math.max(perChar, 0.25));
}

/** How much of a first prompt's start and of its end firstPromptKeep reads. */
const KEEP_SAMPLE = 256 * 1024;

/**
 * Dedup: when a later call has the same tool name and canonically equal arguments, an older
 * result's content becomes DUPLICATE_NOTE. The later call may sit anywhere after it, in the
 * protected tail too; its result may be an error (the older output is stale either way: a
 * read_file before and after an edit is the same call). Untouched: results of write_file, edit
 * and compress, protected results, and outputs no longer than the note itself. A read_file note
 * pointing at an earlier result (read-stubs.ts) is no later call for it: the lines are in that result;
 * nor is a copy in one reply (kernel/repeats.ts isCopyResult), which never ran: its output is its first's. With `scope`, only
 * calls and results of those message ids take part (the history as it was when dedup last ran).
 */
export function dedup(
  messages: readonly Message[],
  protect: ReadonlySet<string>,
  scope?: ReadonlySet<string>,
): { messages: readonly Message[]; count: number } {
  const seen = new Set<string>();
  const older = new Set<string>(); // call ids with an identical later call
  const stubs = new Set<string>();
  for (const m of messages) if (stubTarget(m) !== undefined || isCopyResult(m)) stubs.add(m.toolCallId!);
  for (let i = messages.length - 1; i >= 0; i--) {
    const calls = messages[i]!.toolCalls;
    if (!calls || (scope && !scope.has(messages[i]!.id))) continue;
    for (let k = calls.length - 1; k >= 0; k--) {
      const c = calls[k]!;
      if (KEEP_RESULTS.has(c.name)) continue;
      const key = `${c.name}\0${callArguments(c)}`;
      if (seen.has(key)) older.add(c.id);
      else if (!stubs.has(c.id)) seen.add(key); // a note or a copy is older than a later call, never later than the one it names
    }
  }
  return pruneOlder(messages, older, protect, scope && ((m) => scope.has(m.id)));
}

/**
 * dedup's rewrite: each result of a call in `older` becomes DUPLICATE_NOTE, but for protected
 * results, results `inScope` (by message and position) leaves out, and outputs no longer than the note.
 */
export function pruneOlder(
  messages: readonly Message[],
  older: ReadonlySet<string>,
  protect: ReadonlySet<string>,
  inScope?: (m: Message, i: number) => boolean,
): { messages: readonly Message[]; count: number } {
  if (older.size === 0) return { messages, count: 0 };
  let count = 0;
  const out = messages.map((m, i) => {
    if (m.role !== "tool" || !older.has(m.toolCallId ?? "") || protect.has(m.id) || (inScope && !inScope(m, i))) return m;
    if (messageChars(m) <= DUPLICATE_NOTE.length + MESSAGE_CHARS) return m;
    count++;
    let out = duplicateOf.get(m); // the same object every request: an unchanged request compares cheaply (cache.ts sharedPrefix)
    if (!out) duplicateOf.set(m, (out = { ...m, content: [{ type: "text" as const, text: DUPLICATE_NOTE }] }));
    return out;
  });
  return { messages: out, count };
}

/**
 * Error purge: a failed call made `after` or more turns ago keeps its error text, prefixed with
 * PURGED_PREFIX, and loses its arguments (`{}`, valid for every protocol). `after` = 0 turns the
 * pass off. Protected turns and write_file/edit/compress calls are untouched.
 */
export function purgeErrors(messages: readonly Message[], after: number, facts: HistoryFacts): { messages: readonly Message[]; count: number } {
  if (after <= 0) return { messages, count: 0 };
  const purge = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (!m.toolCalls || protect(m) || (facts.turnsAfter(m.id) ?? 0) < after) continue;
    for (let j = i + 1; j < messages.length && messages[j]!.role === "tool"; j++) {
      const r = messages[j]!;
      const call = m.toolCalls.find((c) => c.id === r.toolCallId);
      if (!r.isError || !call || KEEP_RESULTS.has(call.name) || protect(r) || callArguments(call) === "{}") continue;
      purge.add(call.id);
    }
  }
  if (purge.size === 0) return { messages, count: 0 };
  const out = messages.map((m): Message => {
    if (m.role === "tool" ? !purge.has(m.toolCallId ?? "") : !m.toolCalls?.some((c) => purge.has(c.id))) return m;
    // the same object every request while the same calls are purged: an unchanged request compares cheaply
    const calls = m.role === "tool" ? "" : m.toolCalls!.map((c) => (purge.has(c.id) ? "1" : "0")).join("");
    const memo = purgedOf.get(m);
    if (memo?.calls === calls) return memo.out;
    const rewritten =
      m.role === "tool" ? prefixText(m, PURGED_PREFIX) : { ...m, toolCalls: m.toolCalls!.map((c) => (purge.has(c.id) ? { ...c, arguments: "{}" } : c)) };
    purgedOf.set(m, { calls, out: rewritten });
    return rewritten;
  });
  return { messages: out, count: purge.size };

  function protect(m: Message): boolean {
    return facts.protect.has(m.id);
  }
}

/**
 * Ends every tool result with its handle, `[#k3f9a]`, so the model can name ranges for the
 * compress tool. Costs ~3 tokens per result; every result gets one (write_file and edit results
 * too: they may end a range).
 */
export function addHandles(messages: readonly Message[], handleOf: HistoryFacts["handle"]): readonly Message[] {
  return messages.map((m) => {
    if (m.role !== "tool") return m;
    const handle = `[#${handleOf(m.id)}]`;
    const memo = handled.get(m);
    if (memo?.handle === handle) return memo.out;
    const out = suffixText(m, handle);
    handled.set(m, { handle, out });
    return out;
  });
}

/** The handled form of each result already shown: the same object every request, so unchanged requests compare cheaply. */
const handled = new WeakMap<Message, { handle: string; out: Message }>();

/** `prefix` before the first text part; a message without one (images only) gets one. */
function prefixText(m: Message, prefix: string): Message {
  let done = false;
  const content = m.content.map((p) => {
    if (done || p.type !== "text") return p;
    done = true;
    return { ...p, text: prefix + p.text };
  });
  return { ...m, content: done ? content : [{ type: "text", text: prefix.trimEnd() }, ...m.content] };
}

/**
 * `handle` on a line of its own after the last text part (a message without one gets one). At
 * the end, not the start, so a result keeps its own first words (`blocked by permission rules:`).
 */
function suffixText(m: Message, handle: string): Message {
  const last = m.content.findLastIndex((p) => p.type === "text");
  if (last < 0) return { ...m, content: [...m.content, { type: "text", text: handle }] };
  const content = m.content.map((p, i) => (i === last && p.type === "text" ? { ...p, text: p.text === "" ? handle : `${p.text}\n${handle}` } : p));
  return { ...m, content };
}

/** Whether a first prompt, answered, is cut in the requests after (trimFirstPrompt). */
export function willBeCut(first: Message, budgetTokens: number): boolean {
  const text = textOf(first);
  return text.length > firstPromptKeep(text, budgetTokens);
}
