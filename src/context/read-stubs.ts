// read_file answers a re-read of unchanged lines with a note pointing at its earlier result
// (tools/earlier-reads.ts). The note is true only while that result is whole in the request: this
// pass sends the earlier result's content in place of a note whose result a summary, dedup or
// purge took, so no pass can lose the lines.
import { TOOL } from "../kernel/tool-names.ts";
import type { Message } from "../kernel/ir.ts";

/** How every note of read_file's starts (tools/earlier-reads.ts stubText writes them); `(call <id>)` in it names the earlier call. */
export const STUB_CALL = /^\[unchanged: [^\n]*\(call ([^()\s]+)\)/;

/** The call id a read_file note points at; undefined for any other message. */
export function stubTarget(m: Message): string | undefined {
  if (m.role !== "tool" || m.toolName !== TOOL.readFile || m.isError) return undefined;
  const first = m.content[0];
  return first?.type === "text" ? STUB_CALL.exec(first.text)?.[1] : undefined;
}

export const GONE_NOTE = "[read_file: the earlier result this pointed at is no longer in the conversation; read the file again to see it]";
/** A note's place when the budget's trim left out or cut its earlier result: the lines are not sent twice over a budget already reached. */
export const TRIMMED_NOTE = "[read_file: the earlier result this pointed at was left out or cut to fit the context budget; read the file again to see it]";

/**
 * `messages` (a request's view of `history`) with each read_file note whose earlier result is not
 * in them whole (as the history has it; a handle after it aside) replaced by that result's
 * content, with what the view added after the note (its handle); by a note saying to read again
 * when the history has it no more (after `/clear`), or, `trimmed`, when the budget's trim took it. Pure.
 */
export function restoreStubs(messages: readonly Message[], history: readonly Message[], trimmed = false): { messages: readonly Message[]; count: number } {
  if (!messages.some((m) => stubTarget(m) !== undefined)) return { messages, count: 0 };
  // a note points at the latest result of its call id before it: an id can come back (a resumed run
  // cannot see the ids inside summarized ranges; servers whose ids are not random), and a later
  // call's result must not take the place of the lines the note stands for
  const byCall = new Map<string, Message>();
  const byId = new Map<string, Message>();
  const pointedAt = new Map<string, Message | undefined>();
  for (const m of history) {
    const target = stubTarget(m);
    if (target !== undefined) pointedAt.set(m.id, byCall.get(target));
    if (m.role === "tool" && m.toolCallId) byCall.set(m.toolCallId, m), byId.set(m.id, m);
  }
  const sent = new Map<string, string>();
  let count = 0;
  const out = messages.map((m) => {
    if (m.role === "tool" && m.toolCallId) sent.set(m.toolCallId, firstText(m)); // after the note's own lookup: its id is its own call's
    const target = stubTarget(m);
    if (target === undefined) return m;
    const earlier = pointedAt.has(m.id) ? pointedAt.get(m.id) : byCall.get(target);
    if (earlier && sent.get(target)?.startsWith(firstText(earlier))) return m;
    count++;
    const added = firstText(m).slice(firstText(byId.get(m.id) ?? m).length); // `\n[#k3f9a]`, or nothing
    const content = earlier && !trimmed ? earlier.content : [{ type: "text" as const, text: earlier ? TRIMMED_NOTE : GONE_NOTE }];
    return { ...m, content: added ? withTextAfter(content, added) : content };
  });
  return { messages: out, count };
}

const firstText = (m: Message) => (m.content[0]?.type === "text" ? m.content[0].text : "");

/** `content` with `text` after its last text part. */
function withTextAfter(content: Message["content"], text: string): Message["content"] {
  const last = content.findLastIndex((p) => p.type === "text");
  return content.map((p, i) => (i === last && p.type === "text" ? { ...p, text: p.text + text } : p));
}
