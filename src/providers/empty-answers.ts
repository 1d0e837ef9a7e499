// Finished answers with nothing to show: nothing at all, or reasoning alone (thinking, no text and no
// call). Both are a known flake where no API documents them as an end — Gemini's empty or
// thought-only STOP (Gemini CLI retries a stream that ended with thoughts alone), OpenRouter's free
// endpoints — and are retried as empty answers (the kernel owns the retries: kernel/retry.ts
// EMPTY_RETRIES). Reasoning alone still so after them is taken as the answer
// (kernel/retried-request.ts). A chat-completions server's reasoning parser puts all of a model's
// output in `reasoning_content` when the model does not think (vLLM's qwen3 parser with thinking off,
// where no </think> ever comes): an endpoint that answered with reasoning alone REASONING_HABIT
// times in a row answers so on purpose, and its next such answers are taken at once. Pure;
// create.ts applies it to every protocol.
import { noContentError } from "./common.ts";
import type { ContentBlock, Message } from "../kernel/ir.ts";
import type { ModelRequest, StreamEvent } from "../kernel/provider.ts";
import { EMPTY_RETRIES } from "../kernel/retry.ts";

/** What an endpoint "answered with" (noContentError) when its answer was reasoning alone. */
export const ONLY_REASONING = "only reasoning";

/** Answers of reasoning alone in a row after which an endpoint's are taken at once: one request and all its retries. */
export const REASONING_HABIT = EMPTY_RETRIES + 1;

/** What the user is told, once, with the first answer of reasoning alone on chat completions: where it comes from there. */
export const REASONING_ONLY_HINT =
  "an answer came only as reasoning (reasoning_content), its content empty. A server's reasoning parser does this with a model that is not thinking (vLLM --reasoning-parser with thinking off): start the server without it, or turn thinking on";

/** What the user is told when an endpoint's answers of reasoning alone start to be taken at once. */
export const reasoningHabit = (endpoint: string) =>
  `${endpoint} answered with only reasoning ${REASONING_HABIT} times in a row: from now on such an answer is taken as the answer at once, without retries`;

/** An endpoint's answers of reasoning alone: how many in a row, and whether the hint was said. */
export interface ReasoningRow {
  inARow: number;
  hinted: boolean;
}

/**
 * Whether a finished reply with nothing to show is a flake to retry: a reply to the user's own message
 * is; after tool results, an empty end_turn is how Claude may end a task (Anthropic documents it,
 * under "Empty responses with end_turn" in its stop-reason guide), so on that protocol the task ends
 * there. Elsewhere no API documents an empty answer as an end, and it is a known flake after tool
 * results: Gemini's empty STOP after a function response (Gemini CLI retries it too), OpenRouter's
 * free endpoints' empty `stop` on chat completions.
 */
export const emptyIsFlake = (request: ModelRequest, protocol: string) => request.messages.at(-1)?.role === "user" || protocol !== "anthropic";

/**
 * The events `done` (a finished answer of the endpoint `endpoint` on `protocol`, for `request`)
 * passes on as. Where an empty answer is a flake (emptyIsFlake) and the answer ended as a finished
 * one (stop "stop"): one with nothing in it throws noContentError; one of reasoning alone throws it
 * too, ONLY_REASONING (on chat completions with REASONING_ONLY_HINT said first, once) — or, once
 * the endpoint has answered so REASONING_HABIT times in a row (`row`), becomes an answer of that
 * text: a `text` event, then `done` holding it as text. Any other answer passes and ends the row.
 */
export function* checkedAnswer(
  done: Extract<StreamEvent, { type: "done" }>,
  ctx: { request: ModelRequest; protocol: string; endpoint: string; row: ReasoningRow },
): Generator<StreamEvent> {
  const { row } = ctx;
  const said = onlyReasoning(done.message);
  const shown = said === undefined && !nothingIn(done.message);
  if (shown) row.inARow = 0;
  if (shown || done.stop !== "stop" || !emptyIsFlake(ctx.request, ctx.protocol)) return yield done;
  if (said === undefined) throw noContentError(undefined, done.usage);
  row.inARow++;
  if (row.inARow <= REASONING_HABIT) {
    if (ctx.protocol === "openai" && !row.hinted) yield { type: "notice", message: REASONING_ONLY_HINT };
    row.hinted ||= ctx.protocol === "openai";
    throw noContentError(undefined, done.usage, ONLY_REASONING);
  }
  if (row.inARow === REASONING_HABIT + 1) yield { type: "notice", message: reasoningHabit(ctx.endpoint) };
  yield { type: "text", delta: said };
  const answer: ContentBlock[] = [{ type: "text", text: said }];
  yield { ...done, message: { ...done.message, content: answer } };
}

/** The words of a message that holds reasoning alone: thinking with words in it, no call, no text but whitespace; undefined for any other. */
function onlyReasoning(m: Message): string | undefined {
  if (m.toolCalls?.length || m.content.some((p) => p.type !== "thinking" && !blank(p))) return undefined;
  const said = m.content
    .flatMap((p) => (p.type === "thinking" ? [p.text] : []))
    .join("")
    .trim();
  return said === "" ? undefined : said;
}

/** A message with nothing in it: no tool call, no words (thinking blocks that carry only a signature included). */
const nothingIn = (m: Message) => !m.toolCalls?.length && m.content.every(blank);

/** A text or thinking block without a word. */
const blank = (p: ContentBlock) => (p.type === "text" || p.type === "thinking") && p.text.trim() === "";
