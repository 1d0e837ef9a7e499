// Which of a chat-completions history's reasoning goes back as DeepSeek's `reasoning_content`
// (openai.ts toRequest), and which endpoints want every tool-call turn's. Pure.
import type { Message, ThinkingPart } from "../kernel/ir.ts";

/** Which turns' reasoning goes back as reasoning_content (openai.ts RequestOptions.reasoningReplay). */
export type ReasoningReplay = "all" | "turn" | "none";

/**
 * Endpoints whose thinking mode needs every tool-call turn's reasoning back in all later requests,
 * or answers 400 "Missing `reasoning_content` field in the assistant message at message index 2"
 * (deepseek/error-400-*.json; api-docs.deepseek.com/guides/thinking_mode: "must be passed back to the
 * API in all subsequent user interaction rounds"); Moonshot's Kimi thinking models likewise.
 */
const REPLAY_ALL = /deepseek|moonshot|kimi/i;

/** Whether the endpoint at `host` serving `model` gets every tool-call turn's reasoning back by default. */
export const replaysEveryTurn = (host: string, model: string) => REPLAY_ALL.test(`${host} ${model}`);

/**
 * The reasoning of `m` when `needed` (openai.ts RequestOptions.reasoningReplay): within the current user
 * turn every endpoint takes it; before it only those of REPLAY_ALL need it, and elsewhere it would
 * be paid for in every request. Thinking from another protocol or model is never sent (SPEC §5.6);
 * `always`: those endpoints refuse a tool-call turn without the field ("Missing `reasoning_content`
 * field"), so one another model made (`/model`, `-c -m`) gets it empty.
 */
export function reasoningToSend(m: Message, model: string, needed: boolean, always: boolean): string | undefined {
  if (!needed) return undefined;
  const mine = m.content.filter((p): p is ThinkingPart => p.type === "thinking" && p.opaque?.protocol === "openai" && p.opaque.model === model);
  return mine.length > 0 ? mine.map((p) => p.text).join("") : always ? "" : undefined;
}
