// Anthropic's prompt-cache breakpoints on a chat-completions request, for a gateway in front of
// Claude that passes them on (OpenRouter: "Prompt caching", Anthropic caches only with
// `cache_control` breakpoints in content parts, as on Anthropic's own API). Without them every
// turn is billed at the full input price. The same blocks are marked as anthropic.ts marks: the
// system prompt and the tail of the conversation. Pure.

const EPHEMERAL = { type: "ephemeral" } as const;

/** What is read of a chat message here (openai.ts builds them): its role and content. */
type ChatMessage = { role: string; content?: unknown };
/** A content part, which may carry a breakpoint (a field the OpenAI types do not know). */
type Part = { type: string; cache_control?: typeof EPHEMERAL };

/** Whether a gateway is known to take `cache_control` for `model` without being told: OpenRouter's Claude models. */
export const takesCacheMarks = (host: string, model: string) => (host === "openrouter.ai" || host.endsWith(".openrouter.ai")) && /^anthropic\//i.test(model);

/**
 * Marks, in place, the first system message and the end of the conversation as anthropic.ts
 * markTail does: the last message of the last user turn (a user message or the tool results after
 * an assistant turn), so the next request reads everything up to it, and the last of the user turn
 * before the last assistant turn, where the previous request ended, for a request that added more
 * blocks than Anthropic's 20-block look-back. `tail` false: not the last (ModelRequest.onceTail:
 * a tail sent this once, whose write nothing would read). `unchanged`: the index of the last
 * message the previous request to this model sent as it is now (ModelRequest.unchangedThrough):
 * the last user or tool message up to it is marked too, the fourth breakpoint when it is not one
 * of those, so the request reads the cache up to there rather than only the system prompt when a
 * rewrite is far back or another model's turns came since.
 *
 * The system, user and tool messages all go as text parts whether marked or not, so each request
 * is the last one's extension but for where the markers sit, which the cache does not key on.
 * An empty text stays a string: Anthropic refuses an empty text block.
 */
export function markCacheBreakpoints(messages: ChatMessage[], tail: boolean, unchanged?: number): void {
  const system = messages.findIndex((m) => m.role === "system" || m.role === "developer");
  for (const [i, m] of messages.entries())
    if ((m.role === "user" || m.role === "tool" || i === system) && typeof m.content === "string" && m.content !== "")
      m.content = [{ type: "text", text: m.content }];
  const marked = turnEnds(messages).slice(-2, tail ? undefined : -1);
  const before =
    unchanged === undefined ? -1 : messages.findLastIndex((m, i) => i <= unchanged && (m.role === "user" || m.role === "tool") && Array.isArray(m.content));
  if (before >= 0) marked.unshift(before);
  for (const i of system >= 0 ? [system, ...marked] : marked) {
    const content = messages[i]!.content;
    const part = Array.isArray(content) ? (content as Part[]).findLast((p) => p.type === "text") : undefined;
    if (part) part.cache_control = EPHEMERAL;
  }
}

/** The indices of the messages that end a user turn: a user or tool message the next assistant message (or the end) follows. */
function turnEnds(messages: readonly ChatMessage[]): number[] {
  const ends: number[] = [];
  messages.forEach((m, i) => {
    if (m.role !== "user" && m.role !== "tool") return;
    const next = messages.slice(i + 1).find((n) => n.role !== "system" && n.role !== "developer");
    if (!next || next.role === "assistant") ends.push(i);
  });
  return ends;
}
