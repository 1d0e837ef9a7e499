// Large arguments of tool calls that have run (a 600 KB write_file, an edit's long new_string, a
// bash heredoc, an MCP tool's big argument): what is sent keeps each long string's first and last
// lines around a note saying where the whole is — the file the call wrote, else the session file,
// which keeps the call whole. The history is never changed. A call whose arguments are over
// LARGE_CALL_SHARE of the budget is sent cut from the first request that sends it back (cutLargeCalls,
// a pass of view.ts), so no request ever repeats it whole and the cut never moves; the budget's
// ceiling and the window's fit cut smaller ones too (budget.ts). Each cut is reckoned from the
// string and the budget alone (passes.ts textKeep), so every request cuts at the same place and the
// provider's cached prefix holds. The arguments stay a JSON object with the same keys, valid for
// every protocol. Pure.
import { parseArguments, type Message, type ToolCall } from "../kernel/ir.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { textKeep } from "./passes.ts";

/** A call whose arguments are over this share of the budget (10,000 tokens of the default 40,000) is sent cut in every request. */
const LARGE_CALL_SHARE = 0.25;
/** Each long string of a cut call keeps about this share of the budget (400 tokens of the default 40,000): its first and last lines. */
export const CALL_KEEP_SHARE = 0.01;
/** Of a cut string, this share is its head; the rest its tail. */
const HEAD_SHARE = 0.75;

/** How calls are cut: those whose arguments are over `overTokens` (estimated from their text) keep `keepTokens` of each long string. */
export interface CallCut {
  overTokens: number;
  keepTokens: number;
}

/** What cutLargeCalls does at `budgetTokens`. */
const largeCallCut = (budgetTokens: number): CallCut => ({
  overTokens: LARGE_CALL_SHARE * budgetTokens,
  keepTokens: CALL_KEEP_SHARE * budgetTokens,
});

/**
 * Every assistant message's calls that have run (a result follows) with arguments over
 * LARGE_CALL_SHARE of the budget, cut (cutCalls), and how many calls were. The same messages when
 * nothing is that large.
 */
export function cutLargeCalls(messages: readonly Message[], budgetTokens: number): { messages: readonly Message[]; count: number } {
  if (!messages.some((m) => m.toolCalls?.some((c) => c.arguments.length > LARGE_CALL_SHARE * budgetTokens))) return { messages, count: 0 }; // at least a character a token
  const results = resultsOf(messages);
  const cut = largeCallCut(budgetTokens);
  let count = 0;
  const out = messages.map((m) => {
    const shorter = m.toolCalls ? cutCalls(m, cut, results) : m;
    count += callsCut(m, shorter);
    return shorter;
  });
  return { messages: out, count };
}

/** How many calls of `before` (an assistant message) `after`, its cut, sends cut. */
export const callsCut = (before: Message, after: Message): number => after.toolCalls?.filter((c, i) => c !== before.toolCalls?.[i]).length ?? 0;

/** Per call id, its result message (the tool messages of `messages`). */
export function resultsOf(messages: readonly Message[]): ReadonlyMap<string, Message> {
  const out = new Map<string, Message>();
  for (const m of messages) if (m.role === "tool" && m.toolCallId !== undefined) out.set(m.toolCallId, m);
  return out;
}

const memo = new WeakMap<Message, { key: string; out: Message }>();

/**
 * `m` with the arguments of each call in `results` (one that has run) over `cut.overTokens` cut:
 * every string in them longer than about `cut.keepTokens` keeps its head and tail around a note
 * (cutString). A call without a result is left whole: it has not run. `m` itself when nothing was
 * cut. Memoized: the same object comes back for the same message and cut, so unchanged requests
 * compare cheaply.
 */
export function cutCalls(m: Message, cut: CallCut, results: ReadonlyMap<string, Message>): Message {
  if (!m.toolCalls) return m;
  const key = `${cut.overTokens}/${cut.keepTokens}/${m.toolCalls.map((c) => Number(results.has(c.id))).join("")}`;
  const hit = memo.get(m);
  if (hit?.key === key) return hit.out;
  let changed = false;
  const calls = m.toolCalls.map((c) => {
    const result = results.get(c.id);
    if (result === undefined || c.arguments.length <= textKeep(c.arguments, cut.overTokens)) return c;
    const shorter = cutCall(c, cut.keepTokens, !result.isError);
    if (shorter !== c) changed = true;
    return shorter;
  });
  if (!changed) return m; // not kept: the same message may be cut with another `cut` in the same request
  const out = { ...m, toolCalls: calls };
  memo.set(m, { key, out });
  return out;
}

const n = (x: number) => x.toLocaleString("en-US");

/** `call` with every string of its arguments longer than about `keepTokens` cut; `ok`: it ran without an error. */
function cutCall(call: ToolCall, keepTokens: number, ok: boolean): ToolCall {
  const args = parseArguments(call.arguments);
  if (args === undefined) {
    // not a JSON object: no protocol sends it as it is anyway; the text is cut as one string
    const text = cutString(call.arguments, keepTokens, genericNote);
    return text === call.arguments ? call : { ...call, arguments: text };
  }
  const path = typeof args.path === "string" ? args.path : undefined;
  const note = ok && path !== undefined ? fileNote(call.name, path) : undefined;
  let changed = false;
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === "string") {
      const s = cutString(v, keepTokens, (note && note(key)) ?? genericNote);
      if (s !== v) changed = true;
      return s;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  const shorter = walk(args, "");
  return changed ? { ...call, arguments: JSON.stringify(shorter) } : call;
}

/**
 * What a note says was left out: `amount` (`4,211 lines, 586 KB`, or `1,200 characters` of one
 * line); `lines`, the first and last line numbers of the string left out when they were whole lines.
 */
type Note = (amount: string, lines?: readonly [number, number]) => string;

const genericNote: Note = (amount) =>
  `[hey: ${amount} of this argument left out of the history to fit the context budget; the session file keeps the call whole]`;

/** The note for an argument of a write_file or edit that succeeded on `path`, by key; undefined for another tool or key. */
function fileNote(tool: string, path: string): ((key: string) => Note | undefined) | undefined {
  const where = JSON.stringify(path);
  if (tool === TOOL.writeFile)
    return (key) =>
      key === "content"
        ? (amount, lines) =>
            `[hey: ${lines ? `lines ${n(lines[0])}–${n(lines[1])} (${amount})` : amount} of this content left out of the history to fit the context budget; ` +
            `the call wrote it whole to ${where}: read_file${lines ? ` with offset=${lines[0]} limit=${lines[1] - lines[0] + 1}` : ""} shows it]`
        : undefined;
  if (tool === TOOL.edit)
    return (key) =>
      key === "old_string" || key === "new_string"
        ? (amount) =>
            `[hey: ${amount} of ${key} left out of the history to fit the context budget; the edit was made to ${where}: read_file shows the file as it is now]`
        : undefined;
  return undefined;
}

/**
 * `text` kept to about `keepTokens` tokens (passes.ts textKeep): its head (HEAD_SHARE) and tail, at
 * line ends when whole lines make up at least half of each, around `note`. `text` itself when
 * cutting would save less than a sixth, or nothing once the note is in.
 */
function cutString(text: string, keepTokens: number, note: Note): string {
  const keep = textKeep(text, keepTokens);
  if (text.length <= keep * 1.2) return text;
  const headRoom = Math.floor(keep * HEAD_SHARE);
  const tailRoom = keep - headRoom;
  let head = text.lastIndexOf("\n", headRoom - 1) + 1; // after the last line end within the room
  if (head < headRoom / 2) head = headRoom;
  let tail = text.indexOf("\n", text.length - tailRoom);
  tail = tail < 0 || text.length - tail - 1 < tailRoom / 2 ? text.length - tailRoom : tail + 1;
  const left = text.slice(head, tail);
  const lines = left.split("\n").length - (left.endsWith("\n") ? 1 : 0);
  const kb = n(Math.max(1, Math.round(left.length / 1024)));
  const amount = lines > 1 ? `${n(lines)} lines, ${kb} KB` : `${n(left.length)} characters`;
  const before = text.slice(0, head);
  const whole = (head === 0 || before.endsWith("\n")) && text[tail - 1] === "\n";
  const first = before.split("\n").length;
  const said = whole ? note(lines > 1 ? `${kb} KB` : amount, [first, first + lines - 1]) : note(amount);
  const out = `${before}${before === "" || before.endsWith("\n") ? "" : "\n"}${said}\n${text.slice(tail)}`;
  return out.length < text.length ? out : text; // a small budget's keep and the note can be longer than what they stand for
}
