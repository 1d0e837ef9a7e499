// Finished answers with nothing to show: nothing at all, or reasoning alone (thinking, no text and no
// call). Both are a known flake where no API documents them as an end — Gemini's empty or
// thought-only STOP (Gemini CLI retries a stream that ended with thoughts alone), OpenRouter's free
// endpoints — and are retried as empty answers (the kernel owns the retries: kernel/retry.ts
// EMPTY_RETRIES). Reasoning alone still so after them is taken as the answer
// (kernel/retried-request.ts). Chat completions is the exception for reasoning alone: a server's
// reasoning parser puts all of a model's output in `reasoning_content` when the model does not think
// (vLLM's qwen3 parser with thinking off, where no </think> ever comes), so there such an answer is
// taken at once, as it always was: a retry costs the whole context and brings the same. A finish
// for a tool call that brought none is empty whatever reasoning came with it, and retried. Pure;
// create.ts applies it to every protocol.
import { claudeVersion } from "./claude-models.ts";
import { noContentError } from "./common.ts";
import type { ContentBlock, Message, StopReason } from "../kernel/ir.ts";
import type { ModelRequest, StreamEvent } from "../kernel/provider.ts";
import { EMPTY_RETRIES } from "../kernel/retry.ts";

/** What an endpoint "answered with" (noContentError) when its answer was reasoning alone. */
export const ONLY_REASONING = "only reasoning";

/** What an endpoint "answered with" when it finished for a tool call and sent none, with reasoning before it. */
export const NO_CALL = "reasoning and a tool-call finish but no call";

/** Answers of reasoning alone in a row to the user's message after which an endpoint's are taken at once: one request and all its retries. */
export const REASONING_HABIT = EMPTY_RETRIES + 1;

/**
 * What the user is told, once, when an answer on chat completions came as reasoning alone and is
 * taken as the answer. The reasoning parser is named only for a server on this machine or the local
 * network: a gateway's is a model that reasoned and ended there (Claude, DeepSeek through one).
 */
export const reasoningAsAnswer = (nearby: boolean) =>
  `the model's answer came only as reasoning, its content empty: it is taken as the answer${nearby ? ". A server's reasoning parser does this with a model that is not thinking (vLLM --reasoning-parser with thinking off): start the server without it, or turn thinking on" : ""}`;

/** What the user is told when an endpoint's answers of reasoning alone start to be taken at once. */
export const reasoningHabit = (endpoint: string) =>
  `${endpoint} answered with only reasoning ${REASONING_HABIT} times in a row: from now on such an answer is taken as the answer at once, without retries`;

/** What the user is told when an answer of reasoning alone after tool results is taken after its one retry of the run. */
export const REASONING_AFTER_TOOLS =
  "the model answered with only reasoning after tool results again: its reasoning is taken as the answer (such an answer is retried once a run)";

/**
 * An endpoint's answers of reasoning alone: how many in a row (an answer with words ends the row),
 * whether the chat-completions notice was said, whether one after tool results was retried (once a run).
 */
export interface ReasoningRow {
  inARow: number;
  hinted: boolean;
  retriedAfterTools: boolean;
}

/**
 * Whether a finished reply with nothing to show is a flake to retry: a reply to the user's own message
 * is; after tool results, an empty end_turn is how Claude may end a task (Anthropic documents it,
 * under "Empty responses with end_turn" in its stop-reason guide), so on that protocol, and for a
 * Claude model (`model`) through a gateway's chat completions, the task ends there — its private
 * reasoning is not printed as an answer. Elsewhere no API documents an empty answer as an end, and it is a known flake after tool
 * results: Gemini's empty STOP after a function response (Gemini CLI retries it too), OpenRouter's
 * free endpoints' empty `stop` on chat completions.
 */
export const emptyIsFlake = (request: ModelRequest, protocol: string, model: string) =>
  afterUser(request) || (protocol !== "anthropic" && claudeVersion(model) === undefined);

const afterUser = (request: ModelRequest) => request.messages.at(-1)?.role === "user";

/**
 * The events `done` (a finished answer of the endpoint `endpoint` on `protocol`, for `request`;
 * `nearby`: the endpoint is on this machine or the local network) passes on as. Where an empty
 * answer is a flake (emptyIsFlake) and the answer ended as a finished one (FINISHED): one with
 * nothing in it throws noContentError, and so does one of reasoning alone that finished for a tool
 * call and brought none (NO_CALL: the reasoning is its plan, not an answer). One of reasoning alone becomes an answer of that text (a
 * `text` event, then `done` holding it as text) at once on chat completions (said once); on the
 * other protocols it throws noContentError, ONLY_REASONING, to be retried — after tool results once
 * a run (then taken at once, said), to the user's message until the endpoint has answered so
 * REASONING_HABIT times in a row (`row`), then taken at once. An answer with words ends the row.
 */
export function* checkedAnswer(
  done: Extract<StreamEvent, { type: "done" }>,
  ctx: { request: ModelRequest; protocol: string; model: string; endpoint: string; nearby: boolean; row: ReasoningRow },
): Generator<StreamEvent> {
  const { row } = ctx;
  const said = onlyReasoning(done.message);
  if (said === undefined && done.message.content.some((p) => p.type === "text" && p.text.trim() !== "")) row.inARow = 0;
  if (said === undefined && !nothingIn(done.message)) return yield done;
  if (!FINISHED.has(done.stop) || !emptyIsFlake(ctx.request, ctx.protocol, ctx.model)) return yield done;
  if (said === undefined) throw noContentError(undefined, done.usage);
  // a call was announced and none came: the reasoning is the plan for it, not an answer (r6 #7)
  if (done.stop === "tool_calls") throw noContentError(undefined, done.usage, NO_CALL, true);
  row.inARow++;
  const notice = takenBecause(ctx, row);
  if (notice === undefined) throw noContentError(undefined, done.usage, ONLY_REASONING);
  if (notice !== "") yield { type: "notice", message: notice };
  yield { type: "text", delta: said };
  const answer: ContentBlock[] = [{ type: "text", text: said }];
  yield { ...done, message: { ...done.message, content: answer } };
}

/**
 * The stops of an answer that ended as a finished one: "stop", and "tool_calls" with no call in it — the
 * same flake, where a gateway's or a server's tool parser lost the call (OpenRouter's free routes,
 * vLLM's): nothing ran, and a new sample usually brings the call.
 */
const FINISHED: ReadonlySet<StopReason> = new Set(["stop", "tool_calls"]);

/** Whether an answer of reasoning alone is taken now (and what the user is told, "" for nothing) or, undefined, retried. */
function takenBecause(ctx: { request: ModelRequest; protocol: string; endpoint: string; nearby: boolean }, row: ReasoningRow): string | undefined {
  if (ctx.protocol === "openai") {
    const told = row.hinted;
    row.hinted = true;
    return told ? "" : reasoningAsAnswer(ctx.nearby);
  }
  if (!afterUser(ctx.request)) {
    if (!row.retriedAfterTools) {
      row.retriedAfterTools = true;
      return undefined;
    }
    return REASONING_AFTER_TOOLS;
  }
  if (row.inARow <= REASONING_HABIT) return undefined;
  return row.inARow === REASONING_HABIT + 1 ? reasoningHabit(ctx.endpoint) : "";
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
