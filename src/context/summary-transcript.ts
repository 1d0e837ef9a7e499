// The transcript a summary request reads (context/compaction.ts compactRange): the stretch's
// messages as short labelled lines, each earlier summary in it whole. Pure.
import { textOf, type Message } from "../kernel/ir.ts";
import { SUMMARY_ID, SUMMARY_PREFIX } from "./passes.ts";
import { SUMMARIZED_BELOW } from "./summary-range.ts";

/** Characters of one message shown to the summarizer; long tool output matters little there. */
const SUMMARY_MESSAGE_CHARS = 2000;
/** A long stretch shows each message shorter, down to this, before the oldest are left out. */
const SUMMARY_MESSAGE_MIN_CHARS = 200;
/** The labels and the cut note describe() adds to a message. */
const DESCRIBE_OVERHEAD = 60;
const LEFT_OUT = "[earlier part of this stretch left out]";

/**
 * `messages` as the summarizer reads them, in at most about `maxChars`: each earlier summary whole
 * (the history before it is nowhere else: a summary carries the last one forward), wherever it
 * stands — after a summary that covered both sides of a user message it follows that message and
 * the line left before it (summary-range.ts SUMMARIZED_BELOW, which says nothing and is not shown); every
 * other message cut to a share of the room, and past the room the oldest of them left out.
 */
export function summaryTranscript(messages: readonly Message[], maxChars: number): string {
  const shown = messages.filter((m) => !(m.id.startsWith(SUMMARY_ID) && textOf(m) === SUMMARY_PREFIX + SUMMARIZED_BELOW));
  const isSummary = (m: Message) => m.id.startsWith(SUMMARY_ID);
  const kept = shown.filter(isSummary).reduce((n, m) => n + textOf(m).length + 2, 0);
  const others = shown.length - shown.filter(isSummary).length;
  // each message shows less, down to a floor, before any is left out: the summary should see all of them
  const room = Math.floor((maxChars - kept) / Math.max(1, others)) - DESCRIBE_OVERHEAD;
  const share = Math.max(SUMMARY_MESSAGE_MIN_CHARS, Math.min(SUMMARY_MESSAGE_CHARS, room));
  const parts = shown.map((m) => ({ text: describe(m, share), summary: isSummary(m) }));
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

/**
 * `m` for the summarizer, each text cut to `chars` (a summary whole): its start and its end, where a
 * long answer's marker (`[interrupted: …]`) and a pasted log's question are.
 */
function describe(m: Message, chars: number): string {
  if (m.id.startsWith(SUMMARY_ID)) return textOf(m);
  const cut = (s: string) => {
    if (s.length <= chars) return s;
    const head = Math.ceil(chars * 0.75);
    return `${s.slice(0, head)} …(${s.length - chars} more characters)… ${s.slice(s.length - (chars - head))}`;
  };
  if (m.role === "tool") return `[${m.toolName ?? "tool"} result${m.isError ? ", failed" : ""}] ${cut(textOf(m))}`;
  const calls = (m.toolCalls ?? []).map((c) => `[calls ${c.name} ${cut(c.arguments)}]`).join("\n");
  return `[${m.role}] ${cut(textOf(m))}${calls ? `\n${calls}` : ""}`;
}
