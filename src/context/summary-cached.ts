// The summary request that reads the provider's prompt cache (SPEC §10). The last request the
// model answered is sent again as it went — the same system prompt, tools, messages and effort —
// with the ask for the summary of the range, named by its first and last messages, as the request's
// note (where each adapter puts the context line, after the last message). Its prefix is then the one the provider cached a moment ago, read at about a tenth of
// the price, where a transcript under a system prompt of its own was paid in full (x91: 5.8k
// tokens at full price instead of ~1.1k). Nothing else of the request changes: Anthropic keys its
// cached messages on the tool choice and the thinking setting, and a chat template renders the
// reasoning effort into the prompt, so the model is told in words not to call tools, and an
// answer that calls one anyway is not a summary (summary-request.ts then asks with the transcript).
// Pure.
import { parseArguments, type Message } from "../kernel/ir.ts";
import type { ModelRequest, Provider } from "../kernel/provider.ts";
import { cacheLifetime } from "./cache.ts";
import { SUMMARY_ID } from "./passes.ts";
import type { SummaryRange } from "./summary-range.ts";

/** What a summary keeps: the rules of both kinds of summary request. */
export const SUMMARY_RULES =
  "keep every request and constraint of the user's (what to do and what never to do, in their words), file paths, line numbers, commands, " +
  "decisions and why, errors and how they were fixed, test results, and what remains to do. " +
  "Be exact and terse; no preamble. An earlier summary in the history is part of it: carry over what still matters.";

/** The last request a model answered (CompactionState.answered): what it sent, to which provider, when it was built. */
export interface AnsweredRequest {
  request: ModelRequest;
  by: Provider;
  at: number;
}

/** How the ask after the conversation starts: hey's words, no task of the user's. */
export const SUMMARY_ASK_START = "[hey: older work is being summarized to make room in the context.";

/** Characters of a message's words quoted to name it in the ask. */
const QUOTE_CHARS = 60;

/**
 * The summary request of `range` that repeats `last` (the request the model answered last) with
 * the ask after it, and the characters it adds to it; undefined when its cache cannot serve it:
 * another provider or model now (`provider`), older than its cache's lifetime at `now` (cache.ts cacheLifetime), or a range
 * holding messages `last` did not send (a stretch left out before) or results it had to cut
 * (range.cut: the transcript reads them whole from the session). A summary in the range whose first
 * message `last` sent (a compress `last` held back, applied since: `hey -c` rebuilds the prefix) stands
 * for what it replaced, which `last` sent: the ask names those.
 */
export function cachedSummaryRequest(
  last: AnsweredRequest | undefined,
  range: SummaryRange,
  opts: { provider: Provider; now: number; instructions?: string | undefined },
): { request: ModelRequest; askChars: number } | undefined {
  if (!last || last.by !== opts.provider || opts.now - last.at > cacheLifetime(opts.provider) || (range.cut?.size ?? 0) > 0) return undefined;
  const sent = last.request.messages;
  const messages = rangeAsSent(range.messages, sent);
  if (!messages) return undefined;
  const ask = summaryAsk(sent, { ...range, messages }, opts.instructions);
  const { note: _note, onceTail: _once, unchangedThrough: _through, maxTokens: _max, ...kept } = last.request;
  // the ask as the request's note, after what the cache holds: Anthropic and chat put it inside the last user or
  // tool turn (a user message of its own after tool results is refused by strict servers, Mistral: "Unexpected
  // role 'user' after role 'tool'"), Gemini and Responses in a user message of its own after it
  return { request: { ...kept, messages: sent.slice(), note: ask }, askChars: ask.length };
}

/**
 * `range` as `sent` holds it, from its first message to its last (which `sent` must hold): a summary
 * whose first message `sent` holds stands for the messages it replaced; undefined when another is missing.
 */
function rangeAsSent(range: readonly Message[], sent: readonly Message[]): readonly Message[] | undefined {
  const at = new Map(sent.map((m, i) => [m.id, i]));
  const where = (m: Message) => at.get(m.id) ?? (m.id.startsWith(SUMMARY_ID) ? at.get(m.id.slice(SUMMARY_ID.length)) : undefined);
  if (range.length === 0 || range.some((m) => where(m) === undefined)) return undefined;
  const [from, to] = [where(range[0]!)!, at.get(range.at(-1)!.id)];
  return to === undefined || to < from ? undefined : sent.slice(from, to + 1);
}

/**
 * The ask after the conversation: no tools, which part to summarize (its first and last messages), the rules.
 * The ask is the request's note, right after the last message sent: inside it (Anthropic, chat) or in a
 * user message of its own (Gemini, Responses). So a range that runs to that message ends "up to this
 * note", and that message is named by where it is, the same on every protocol.
 */
export function summaryAsk(sent: readonly Message[], range: SummaryRange, instructions?: string): string {
  const toTheEnd = range.messages.at(-1)!.id === sent.at(-1)?.id;
  const first = range.messages[0]!.id === sent.at(-1)?.id ? "the last message before this note" : describe(sent, range.messages[0]!.id);
  const part = toTheEnd
    ? `from ${first} to the end, up to this note`
    : ((end) => (first === end ? first : `from ${first} through ${end}`))(describe(sent, range.messages.at(-1)!.id));
  const after = toTheEnd ? "" : ", and the messages after it stay as they are, so leave them out";
  return (
    `${SUMMARY_ASK_START} Do not call any tool now (none will run); answer in plain text only. ` +
    `Summarize the part of this conversation ${part}${instructions ? ` (${instructions})` : ""}: ` +
    `your summary replaces that part${after}. Write it for yourself, to continue the work without the original: ${SUMMARY_RULES}]`
  );
}

/**
 * A message of `sent` named so the model finds it: a call by its tool and arguments, words by their start;
 * among alike ones, counted from the first over all of `sent`, which every protocol shows whole before
 * the note (the note can follow the last message, or ride inside it, so a count from the end could be one off).
 */
function describe(sent: readonly Message[], id: string): string {
  const name = (x: Message) => nameOf(sent, x);
  const own = name(sent.find((m) => m.id === id)!);
  const alike = sent.filter((x) => name(x) === own);
  if (alike.length < 2) return own;
  const k = alike.findIndex((x) => x.id === id) + 1;
  return `${own} (the ${ordinal(k)} of ${alike.length} alike)`;
}

function nameOf(sent: readonly Message[], m: Message): string {
  if (m.role === "tool") {
    const call = sent.flatMap((x) => x.toolCalls ?? []).find((c) => c.id === m.toolCallId);
    return call ? `the result of your ${callOf(call.name, call.arguments)} call` : "a tool result";
  }
  if (m.role === "assistant" && m.toolCalls?.length) return `your turn calling ${m.toolCalls.map((c) => callOf(c.name, c.arguments)).join(", ")}`;
  if (m.id.startsWith(SUMMARY_ID)) return "the summary of earlier work";
  return `${m.role === "user" ? "the user's message" : "your reply"} starting «${quote(m.content.map((p) => (p.type === "text" ? p.text : "")).join(""))}»`;
}

const callOf = (name: string, args: string) => `${name} ${quote(JSON.stringify(parseArguments(args) ?? {}))}`;

function quote(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line;
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;
