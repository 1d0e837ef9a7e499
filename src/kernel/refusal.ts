// A refused answer (Anthropic's `refusal` stop, a Gemini SAFETY stop or blocked prompt, a
// Responses refusal or content filter, a prompt a content filter refused with an error: Azure
// OpenAI's 400 `content_filter`, OpenAI's flagged prompt) and what later requests send of it. Anthropic's
// handle-streaming-refusals page: "you must reset the conversation context before continuing. You
// can remove or rephrase the turn that triggered the refusal … Attempting to continue without
// resetting will result in continued refusals"; a prompt Gemini blocked is blocked again for as
// long as it is sent. So the session keeps the refused exchange (the user's message, what the run
// did, a marker in place of the refused words), and no later request sends any of it: the next
// message takes its place, as a rephrased one. Pure.
import type { Message } from "./ir.ts";

/**
 * The `error` event of a run whose reply the model or its provider's filter refused, with the
 * provider's words when it gave some.
 */
export const refused = (detail: string | undefined) =>
  `the model refused to answer${detail ? ` (${detail})` : ""}; your message is not sent again: say it another way in the next one`;

/** The refused marker's detail for a prompt the provider's content filter refused with an error (ProviderError.refusedPrompt). */
export const FILTERED = "content filter";

/**
 * The `error` event of a run whose request the provider's content filter refused (`said`: the
 * error's words): the message is left out of every later request, as a refused answer's is.
 */
export const promptRefused = (said: string) =>
  `${said.replace(/[.\s]+$/, "")}; your message is left out of the conversation from now on (the session keeps it, marked refused): say it another way in the next one`;

/**
 * A refused answer as the session keeps it: a marker in place of what came. The words and thinking
 * of a refusal (the start of what the provider's filter stopped, or nothing at all: a Gemini SAFETY
 * stop) are never kept.
 */
export function refusedAnswer(reply: Message, detail: string | undefined): Message {
  return { id: reply.id, role: "assistant", content: [{ type: "text", text: `[refused${detail ? ` (${detail})` : ""}: ${NOT_ANSWERED}]` }] };
}

const NOT_ANSWERED = "this request was not answered";
const MARKER = new RegExp(`^\\[refused(?: \\([\\s\\S]*\\))?: ${NOT_ANSWERED}\\]$`);

/** Whether `m` is a refused answer's marker (refusedAnswer). */
export function isRefusedAnswer(m: Message): boolean {
  const only = m.content.length === 1 ? m.content[0] : undefined;
  return m.role === "assistant" && !m.toolCalls?.length && only?.type === "text" && MARKER.test(only.text);
}

/**
 * How many of the first `n` messages of `messages` withoutRefused keeps: a position in the whole
 * history (a resumed session's cache start) as one in what is sent.
 */
export function keptOf(messages: Message[], n: number): number {
  const kept = new Set(withoutRefused(messages));
  let count = 0;
  for (const m of messages.slice(0, n)) if (kept.has(m)) count++;
  return count;
}

/**
 * `messages` without their refused exchanges: each marker and everything from the user's message
 * before it (the run it ended: its tool calls and results too, so no call loses its result).
 * Returns `messages` itself when none was refused (the common case, every turn).
 */
export function withoutRefused(messages: Message[]): Message[] {
  if (!messages.some(isRefusedAnswer)) return messages;
  const out: Message[] = [];
  for (const m of messages) {
    if (!isRefusedAnswer(m)) {
      out.push(m);
      continue;
    }
    const asked = out.findLastIndex((x) => x.role === "user");
    if (asked >= 0) out.length = asked;
  }
  return out;
}
