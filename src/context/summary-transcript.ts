// The transcript a summary request reads (context/compaction.ts compactRange): the stretch's
// messages as labelled lines within the request's room, each earlier summary in it whole. Pure.
import { textOf, type Message } from "../kernel/ir.ts";
import { SUMMARY_ID, SUMMARY_PREFIX } from "./passes.ts";
import { SUMMARIZED_BELOW } from "./summary-range.ts";

/** A long stretch shows each message shorter, down to this, before the oldest are left out. */
const SUMMARY_MESSAGE_MIN_CHARS = 200;
const LEFT_OUT = "[earlier part of this stretch left out]";

/**
 * Who is given the room first. The user's own messages carry the task and its constraints ("never
 * edit mod9" in the middle of a pasted spec), which nothing else in the history restates: a
 * summary that loses them loses them for good, so they are shown whole while anything else can
 * give way. Then the assistant's text and thinking, where its findings and decisions are; tool
 * output last: it is the bulk, the agent has acted on it, and a file can be read again.
 */
const rankOf = (m: Message, cut: ReadonlySet<string>) => (m.role === "user" ? 0 : m.role !== "tool" || cut.has(m.id) ? 1 : 2);
/**
 * The most each text of a rank shows, room or not: a summary request is paid in full, uncached.
 * Tool output filling the room made each summary request ~24k tokens instead of ~4.4k, and a
 * 150-step run cost 32 % more, for nothing the summaries kept; its start and end say what it was.
 * A result the request had to cut ranks with the assistant's text: the model never saw all of it,
 * and the summary is what keeps its facts once it is replaced. Given the whole room instead, the
 * summary requests of a 20-turn session on an 8k window took ~3,500 tokens each instead of ~1,250
 * (x66's mock: 63k tokens in all instead of 22k), for a summary a few lines long either way.
 */
const RANK_CHARS = [Number.POSITIVE_INFINITY, 4000, 2000];
const RANKS = [0, 1, 2];

/**
 * `messages` as the summarizer reads them, in at most about `maxChars`: each earlier summary whole
 * (the history before it is nowhere else: a summary carries the last one forward), wherever it
 * stands — after a summary that covered both sides of a user message it follows that message and
 * the line left before it (summary-range.ts SUMMARIZED_BELOW, which says nothing and is not shown).
 * The other messages fill the room by rank (user; assistant, with the results of `cut`, those the
 * request had to cut; other tool output), each rank's texts at most RANK_CHARS long and cut,
 * longest first, only as far as they must to leave every message of the later ranks its floor;
 * past the room even at the floor, the oldest are left out.
 */
export function summaryTranscript(messages: readonly Message[], maxChars: number, cut: ReadonlySet<string> = new Set()): string {
  const rank = (m: Message) => rankOf(m, cut);
  const shown = messages.filter((m) => !(m.id.startsWith(SUMMARY_ID) && textOf(m) === SUMMARY_PREFIX + SUMMARIZED_BELOW));
  const isSummary = (m: Message) => m.id.startsWith(SUMMARY_ID);
  let room = maxChars - shown.filter(isSummary).reduce((n, m) => n + textOf(m).length + 2, 0);
  const caps = new Map<number, number>();
  for (const r of RANKS) {
    const group = shown.filter((m) => !isSummary(m) && rank(m) === r);
    const floor = sizeOf(
      shown.filter((m) => !isSummary(m) && rank(m) > r),
      SUMMARY_MESSAGE_MIN_CHARS,
    );
    const cap = widest(group, room - floor, RANK_CHARS[r]!);
    caps.set(r, cap);
    room -= sizeOf(group, cap);
  }
  const parts = shown.map((m) => ({ text: describe(m, caps.get(rank(m)) ?? SUMMARY_MESSAGE_MIN_CHARS), summary: isSummary(m) }));
  let total = parts.reduce((n, p) => n + p.text.length + 2, 0);
  let leftOut = false;
  for (const p of parts) {
    if (total <= maxChars) break;
    if (p.summary) continue;
    total -= p.text.length + 2;
    p.text = leftOut ? "" : LEFT_OUT; // the oldest first; the note where the first one was
    leftOut = true;
  }
  return parts
    .map((p) => p.text)
    .filter(Boolean)
    .join("\n\n");
}

/** Characters `group` takes with each text cut to `chars`, with the blank line between messages. */
function sizeOf(group: readonly Message[], chars: number): number {
  return group.reduce((n, m) => n + describe(m, chars).length + 2, 0);
}

/** The longest cut up to `most` (at least the floor) that fits `group` in `room`. */
function widest(group: readonly Message[], room: number, most: number): number {
  if (sizeOf(group, most) <= room) return most;
  let lo = SUMMARY_MESSAGE_MIN_CHARS;
  let hi = Math.max(lo, Math.min(room, most));
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (sizeOf(group, mid) <= room) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * `m` for the summarizer, each text cut to `chars` (a summary whole): its start and its end, where a
 * long answer's marker (`[interrupted: …]`) and a pasted log's question are. An assistant's thinking
 * is shown too: with Claude or GPT-5 the visible text between tool calls is often one line, and the
 * reasoning is where the why is.
 */
function describe(m: Message, chars: number): string {
  if (m.id.startsWith(SUMMARY_ID)) return textOf(m);
  const cut = (s: string) => {
    if (s.length <= chars) return s;
    const head = Math.ceil(chars * 0.75);
    return `${s.slice(0, head)} …(${s.length - chars} more characters)… ${s.slice(s.length - (chars - head))}`;
  };
  if (m.role === "tool") return `[${m.toolName ?? "tool"} result${m.isError ? ", failed" : ""}] ${cut(textOf(m))}`;
  const thinking = m.content.flatMap((p) => (p.type === "thinking" && p.text.trim() ? [`[thinking] ${cut(p.text)}\n`] : [])).join("");
  const calls = (m.toolCalls ?? []).map((c) => `[calls ${c.name} ${cut(c.arguments)}]`).join("\n");
  return `${thinking}[${m.role}] ${cut(textOf(m))}${calls ? `\n${calls}` : ""}`;
}
