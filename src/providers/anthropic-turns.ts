// What the Messages API takes of the assistant turns a request sends back. Pure; each function
// changes the body it is given. The API answers 400 to an assistant turn whose last block is
// thinking ("messages.N: The final block in an assistant message cannot be `thinking`") and to a
// turn with no content ("messages.N: all messages must have non-empty content except for the
// optional final assistant message"); hey sends neither (tailcallhq/forgecode#2107,
// anthropics/claude-code#6774: each kept such a turn and every later request was refused).

/** What of a request body this changes (the SDK's type stays in anthropic.ts, the one file that imports it). */
export interface Body {
  thinking?: { type: string };
  messages: { role: string; content: string | { type: string }[] }[];
}

const isThinking = (b: { type: string }) => b.type === "thinking" || b.type === "redacted_thinking";

/**
 * Thinking of turns before the last prompt is left out with thinking off, as before earlier turns'
 * thinking was sent at all (kernel/adapt-history.ts): a model that keeps it in context thinks, and
 * one that is told not to has no use for it; and, with `always`, with thinking on too (the API
 * refused a turn's thinking there: anthropic-adapt.ts). The turn in progress keeps its own.
 */
export function earlierThinkingOff(body: Body, always = false): void {
  if (body.thinking?.type !== "disabled" && !always) return;
  // a prompt: a user turn of its own, not tool results (the context line rides on theirs)
  const prompt = body.messages.findLastIndex((m) => m.role === "user" && (typeof m.content === "string" || !m.content.some((b) => b.type === "tool_result")));
  for (const m of body.messages.slice(0, Math.max(prompt, 0))) dropThinking(m);
}

/** An assistant turn without its thinking blocks, signed or redacted. */
export function dropThinking(m: Body["messages"][number]): void {
  if (m.role === "assistant" && Array.isArray(m.content)) m.content = m.content.filter((b) => !isThinking(b));
}

/**
 * Every assistant turn ends in something besides thinking, and none is empty: thinking after a
 * turn's last text is left out (nothing came of it, and a turn with tool calls ends in them), and
 * a turn left with nothing — thinking alone, Claude ending a task or cut off while it thought, or
 * thinking left out with thinking off — goes entirely, the user turns on either side joined as one.
 * Thinking before text or a tool call stays: the API wants it back unchanged. The last message of
 * the request, when it is an assistant turn, is judged the same way: a final turn's thinking is no
 * prefill the API takes either.
 */
export function answeredTurns(body: Body): void {
  const kept: Body["messages"] = [];
  for (const m of body.messages) {
    if (m.role === "assistant" && Array.isArray(m.content)) {
      const end = m.content.findLastIndex((b) => !isThinking(b));
      if (end < 0) continue;
      if (end < m.content.length - 1) m.content = m.content.slice(0, end + 1);
    }
    const last = kept.at(-1);
    if (last?.role === m.role && Array.isArray(last.content) && Array.isArray(m.content)) last.content.push(...m.content);
    else kept.push(m);
  }
  body.messages = kept;
}
