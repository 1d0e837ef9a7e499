// A whole Messages `message` where a stream was asked for (a gateway or proxy that ignores
// `"stream": true`). Pure; the wire's words stay in the Anthropic adapter's files.
import { asObject } from "./common.ts";

/**
 * `body` as the events that say the same: message_start (its usage), each content block whole in
 * its content_block_start (the adapter reads a block's text, thinking, signature and tool input
 * from there) and its stop, message_delta with the stop reason, message_stop. undefined when
 * `body` is no whole message. Pure.
 */
export function messageAsEvents(body: unknown): string | undefined {
  const message = asObject(body);
  if (message?.type !== "message" || message.role !== "assistant" || !Array.isArray(message.content)) return undefined;
  const { content, stop_reason, stop_sequence, usage, ...rest } = message;
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    event("message_start", { message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage: usage ?? {} } }),
    ...(content as unknown[]).flatMap((block, index) => [
      event("content_block_start", { index, content_block: block }),
      event("content_block_stop", { index }),
    ]),
    event("message_delta", { delta: { stop_reason, stop_sequence: stop_sequence ?? null }, usage: usage ?? {} }),
    event("message_stop", {}),
  ].join("");
}
