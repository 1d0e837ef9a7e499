// Which of a chat-completions history's reasoning goes back (openai.ts toRequest), in which field,
// and which endpoints want every tool-call turn's. Pure.
import type { Message, ThinkingPart } from "../kernel/ir.ts";
import type { ReasoningDetail } from "./openrouter-details.ts";

/** Which turns' reasoning goes back (openai.ts RequestOptions.reasoningReplay). */
export type ReasoningReplay = "all" | "sent" | "none";

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
 * DeepSeek's own words when it wants the reasoning back (deepseek/error-400-*.json): "Missing
 * `reasoning_content` field in the assistant message at message index 2", "The reasoning_content in
 * the thinking mode must be passed back to the API." Only these make hey send every turn's: another
 * 400 naming the field (Groq's "property 'reasoning_content' is unsupported") refuses it.
 */
export const REASONING_WANTED = /missing\W+reasoning_content\W+field|reasoning_content\W+in the thinking mode must be passed back/i;

/**
 * What rides in `Opaque.data` of a chat-completions thinking part, when anything does: `field`, the
 * field the server streamed the reasoning in when it was `reasoning` (Groq, OpenRouter, newer vLLM;
 * absent: DeepSeek's `reasoning_content`), sent back in the same; `details`, OpenRouter's
 * `reasoning_details` as they were streamed (openrouter-details.ts), sent back whole, in order.
 */
export interface ChatReasoningData {
  field?: "reasoning";
  details?: ReasoningDetail[];
}

/**
 * The reasoning fields of the assistant message `m` when `needed` (openai.ts RequestOptions.reasoningReplay):
 * what went out once — the current user turn's, and a tool-call turn's, which went with its results —
 * keeps going out, as the cached prefix holds it; a final answer's never went out and stays out.
 * Thinking from another protocol or model is never sent (SPEC §5.6); `always` (REPLAY_ALL): those
 * endpoints refuse a tool-call turn without the field ("Missing `reasoning_content` field"), so one
 * another model made (`/model`, `-c -m`) gets it empty.
 * OpenRouter's `reasoning_details` go back in place of the text wherever the history kept them (the
 * current turn and every tool-call turn: kernel/adapt-history.ts), as OpenRouter asks.
 */
export function reasoningFields(m: Message, model: string, needed: boolean, always: boolean): Record<string, unknown> {
  const mine = m.content.filter((p): p is ThinkingPart => p.type === "thinking" && p.opaque?.protocol === "openai" && p.opaque.model === model);
  const data = mine.map((p) => (p.opaque?.data ?? {}) as ChatReasoningData);
  const details = data.flatMap((d) => d.details ?? []);
  if (details.length > 0) return { reasoning_details: details };
  if (!needed) return {};
  if (mine.length === 0) return always ? { reasoning_content: "" } : {};
  return { [data[0]!.field ?? "reasoning_content"]: mine.map((p) => p.text).join("") };
}
