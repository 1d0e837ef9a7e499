// read_file answers a re-read of unchanged lines with a note pointing at its earlier result
// (tools/earlier-reads.ts). The note is true only while that result is whole in the request: this
// pass sends the earlier result's content in place of a note whose result a summary, dedup or
// purge took, so no pass can lose the lines.
import { TOOL } from "../kernel/tool-names.ts";
import type { Message } from "../kernel/ir.ts";
import { STUB_CALL } from "../tools/earlier-reads.ts";

/** The call id a read_file note points at; undefined for any other message. */
export function stubTarget(m: Message): string | undefined {
  if (m.role !== "tool" || m.toolName !== TOOL.readFile || m.isError) return undefined;
  const first = m.content[0];
  return first?.type === "text" ? STUB_CALL.exec(first.text)?.[1] : undefined;
}

export const GONE_NOTE = "[read_file: the earlier result this pointed at is no longer in the conversation; read the file again to see it]";

/**
 * `messages` (a request's view of `history`) with each read_file note whose earlier result is not
 * in them as the history has it replaced by that result's content; by a note saying to read again
 * when the history has it no more (after `/clear`). Pure.
 */
export function restoreStubs(messages: readonly Message[], history: readonly Message[]): { messages: readonly Message[]; count: number } {
  if (!messages.some((m) => stubTarget(m) !== undefined)) return { messages, count: 0 };
  const byCall = new Map<string, Message>();
  for (const m of history) if (m.role === "tool" && m.toolCallId) byCall.set(m.toolCallId, m);
  const sent = new Set(messages);
  let count = 0;
  const out = messages.map((m) => {
    const target = stubTarget(m);
    if (target === undefined) return m;
    const earlier = byCall.get(target);
    if (earlier && sent.has(earlier)) return m;
    count++;
    return { ...m, content: earlier ? earlier.content : [{ type: "text" as const, text: GONE_NOTE }] };
  });
  return { messages: out, count };
}
