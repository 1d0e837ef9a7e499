// The model's compress calls (SPEC §7): the range a call may replace, named by the handles at the
// end of tool results, checked against the history as the call saw it, and the summaries of the
// calls that succeeded, which buildContext (view.ts) applies. Pure.
import { parseArguments, type Message } from "../kernel/ir.ts";
import { HANDLE_LENGTH, PROTECT_TURNS, tailStart, unitEnd, type Summary } from "./passes.ts";

/**
 * The summaries of the model's successful compress calls made by the first `upTo` messages (default:
 * all), in call order: a call the requests since have not applied yet waits, as dedup does, until the
 * prompt cache is rebuilt anyway or its saving pays for the miss (view.ts rewriteUpTo, compaction.ts
 * chooseView). Each call is checked again against the history exactly as the tool saw it when it
 * ran: everything up to and including the assistant message that made the call.
 */
export function compressSummaries(history: readonly Message[], protectTurns: number, upTo = history.length): Summary[] {
  const out: Summary[] = [];
  for (let i = 0; i < Math.min(upTo, history.length); i++) {
    const calls = history[i]!.toolCalls;
    if (!calls?.some((c) => c.name === "compress")) continue;
    for (const call of calls) {
      if (call.name !== "compress") continue;
      let ok = false;
      for (let j = i + 1; j < history.length && history[j]!.role === "tool"; j++) if (history[j]!.toolCallId === call.id) ok = !history[j]!.isError;
      if (!ok) continue;
      const args = compressArgs(parseArguments(call.arguments) ?? {});
      if ("error" in args) continue;
      const range = checkRange(history, i + 1, args.start, args.end, protectTurns);
      if (!("error" in range)) out.push({ ...range, text: args.summary });
    }
  }
  return out;
}

/**
 * The compress tool's arguments (`start_id`, `end_id`, `summary`; SPEC §7), validated: handles as
 * text and a non-empty summary. `start`/`end` are read too: sessions recorded before the rename
 * hold calls with those names, and their summaries are derived from the calls.
 */
export function compressArgs(args: Record<string, unknown>): { start: string; end: string; summary: string } | { error: string } {
  const handle = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : undefined);
  const start = handle(args.start_id ?? args.start);
  const end = handle(args.end_id ?? args.end);
  if (start === undefined || end === undefined) return { error: "start_id and end_id must be handles as shown at the end of tool results, e.g. #k3f9a" };
  const summary = typeof args.summary === "string" ? args.summary.trim() : "";
  if (summary === "")
    return { error: "the summary is empty; write what the range holds that still matters: paths, line numbers, decisions, errors, open tasks" };
  return { start, end, summary };
}

/**
 * The history range the compress tool may replace, from the handles `start` and `end` (the call's
 * `start_id` and `end_id`; with or without `#` and brackets; a full message id works too), or why not. A tool result's handle
 * stands for its whole turn at `start` (the assistant message that made the call is included),
 * so `start` must be the first result of its turn and `end` the last. Refused: unknown or
 * ambiguous handles, end before start, a range that splits a turn, a range holding the first or
 * the last user message or reaching into the last `protectTurns` turns (at least the calling one).
 */
export function checkCompressRange(
  history: readonly Message[],
  start: string,
  end: string,
  protectTurns = PROTECT_TURNS,
): { fromId: string; toId: string } | { error: string } {
  return checkRange(history, history.length, start, end, protectTurns);
}

function checkRange(
  history: readonly Message[],
  length: number,
  start: string,
  end: string,
  protectTurns: number,
): { fromId: string; toId: string } | { error: string } {
  const show = (i: number) => `#${handleAt(history, length, i)}`;
  const s = resolveHandle(history, length, start);
  if (typeof s === "string") return { error: s };
  const e = resolveHandle(history, length, end);
  if (typeof e === "string") return { error: e };
  if (e < s) return { error: `end ${show(e)} comes before start ${show(s)}; the range runs from the older handle to the newer` };

  let from = s;
  if (history[s]!.role === "tool") {
    let first = s;
    while (first > 0 && history[first - 1]!.role === "tool") first--;
    if (first !== s)
      return { error: `start ${show(s)} would split a turn: its call and earlier results come before it; start at ${show(first)}, the turn's first result` };
    if (first > 0 && history[first - 1]!.role === "assistant") from = first - 1;
  }
  const to = e;
  if (to + 1 < length && history[to + 1]!.role === "tool") {
    const last = unitEnd(history.slice(0, length), to) - 1;
    return { error: `end ${show(e)} would split a turn: more results of its calls follow; end at ${show(last)}, the turn's last result` };
  }

  const firstUser = history.findIndex((m, i) => i < length && m.role === "user");
  const lastUser = history.findLastIndex((m, i) => i < length && m.role === "user");
  if (firstUser !== -1 && from <= firstUser && firstUser <= to)
    return { error: "the range holds the first user message, which is always kept; start after it" };
  if (lastUser !== -1 && from <= lastUser && lastUser <= to)
    return { error: "the range holds the latest user message, which is always kept; compress before or after it" };
  const turns = Math.max(1, protectTurns);
  const tail = tailStart(history, turns, length);
  if (to >= tail) {
    const latest = tail > 0 && history[tail - 1]!.role === "tool" ? `; end at ${show(tail - 1)} at the latest` : "";
    return { error: `the range reaches into the last ${turns} turns, which are always kept${latest}` };
  }
  return { fromId: history[from]!.id, toId: history[to]!.id };
}

/** Index of the message `raw` names among the first `length`, or an error. */
function resolveHandle(history: readonly Message[], length: number, raw: string): number | string {
  const h = raw.replace(/[\s[\]#]/g, "");
  if (h === "") return `empty handle ${JSON.stringify(raw)}; use a handle shown at the start of a tool result, e.g. #k3f9a`;
  const matches: number[] = [];
  for (let i = 0; i < length; i++) {
    const id = history[i]!.id;
    if (id === h) return i;
    if (h.length >= HANDLE_LENGTH && id.endsWith(h)) matches.push(i);
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) return `handle #${h} matches ${matches.length} messages; use the full handle shown on the result`;
  return `unknown handle #${h}; use a handle shown at the end of a tool result, e.g. [#k3f9a]`;
}

/** The handle shown for message `i`: as HistoryFacts.handles computes it, for the first `length` messages. */
function handleAt(history: readonly Message[], length: number, i: number): string {
  const id = history[i]!.id;
  const suffix = id.slice(-HANDLE_LENGTH);
  for (let k = 0; k < length; k++) if (k !== i && history[k]!.id.slice(-HANDLE_LENGTH) === suffix) return id;
  return suffix;
}
