// An answer that came only as reasoning: a chat-completions server's reasoning parser that puts all
// of a model's output in `reasoning_content` when the model does not think (vLLM's qwen3 parser
// with thinking turned off, where no </think> ever comes), so `content` stays empty. What the
// model said is its answer: shown and kept as such. Pure; openai.ts applies it.
import type { ContentBlock } from "../kernel/ir.ts";
import type { StreamEvent } from "../kernel/provider.ts";

/** What the user is told, once, when an answer came only as reasoning. */
export const REASONING_AS_ANSWER =
  "the model's answer came only as reasoning (reasoning_content), its content empty: it is taken as the answer. A server's reasoning parser does this with a model that is not thinking (vLLM --reasoning-parser with thinking off): start the server without it, or turn thinking on";

/**
 * `events`, where a finished answer (stop "stop") with no text and no tool calls but some thinking
 * becomes an answer of that text: a `text` event of it before the `done`, whose message holds it as
 * text instead of thinking. The first time (`told`), a notice says so. Throws what `events` throws.
 */
export async function* reasoningAsAnswer(events: AsyncIterable<StreamEvent>, told: { reasoning: boolean }): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    if (event.type !== "done" || event.stop !== "stop" || event.message.toolCalls?.length) {
      yield event;
      continue;
    }
    const { content } = event.message;
    const said = content
      .flatMap((p) => (p.type === "thinking" ? [p.text] : []))
      .join("")
      .trim();
    if (said === "" || content.some((p) => p.type === "text" && p.text.trim() !== "")) {
      yield event;
      continue;
    }
    if (!told.reasoning) yield { type: "notice", message: REASONING_AS_ANSWER };
    told.reasoning = true;
    yield { type: "text", delta: said };
    const answer: ContentBlock[] = [{ type: "text", text: said }];
    yield { ...event, message: { ...event.message, content: answer } };
  }
}
