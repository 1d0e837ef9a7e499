// A whole chat completion where a stream was asked for: a server that ignores `"stream": true`
// (text-generation-webui modes, gateways that buffer, simple proxies) answers with the
// `chat.completion` object the SDK would read for a non-streaming request. Pure; the wire's words stay
// in the chat adapter's files (openai.ts).
import { asObject } from "./common.ts";

/**
 * `body` as the event stream that says the same (one chunk whose delta is the whole message, its
 * tool calls numbered, its finish and usage; then `data: [DONE]`), so that the stream's own reading
 * (think tags, tool calls, reasoning fields, usage) applies unchanged; undefined when `body` is no
 * whole chat completion. Pure.
 */
export function chatAnswerAsEvents(body: unknown): string | undefined {
  const whole = asObject(body);
  const choices = Array.isArray(whole?.choices) ? whole.choices.map(asObject) : undefined;
  if (!whole || !choices || (whole.object ?? "chat.completion") !== "chat.completion") return undefined;
  if (choices.length === 0 ? whole.object !== "chat.completion" : !choices.every((c) => asObject(c?.message))) return undefined;
  const deltas = choices.map((choice) => {
    const { message, ...rest } = choice!;
    const { tool_calls: calls, ...said } = asObject(message)!;
    const numbered = Array.isArray(calls) ? { tool_calls: calls.map((call, index) => ({ index, ...asObject(call) })) } : {};
    return { ...rest, delta: { ...said, ...numbered } };
  });
  return `data: ${JSON.stringify({ ...whole, object: "chat.completion.chunk", choices: deltas })}\n\ndata: [DONE]\n\n`;
}
