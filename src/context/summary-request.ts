// The summary request (SPEC §10): a stretch of the conversation, as a transcript within a share of
// the budget, sent to the provider with reasoning off and its own output budget, for a summary the
// agent can go on from. compaction.ts decides when; this file asks.
import { addUsage, textOf, type Protocol, type StopReason, type Usage } from "../kernel/ir.ts";
import { ProviderError, type ContextOverflow, type ModelRequest, type Provider, type ProviderErrorKind } from "../kernel/provider.ts";
import { costedStream, type RequestEstimate } from "./request-cost.ts";
import { summaryParts, type SummaryRange } from "./summary-range.ts";
import { summaryTranscript } from "./summary-transcript.ts";
import { cachedSummaryRequest, SUMMARY_RULES, type AnsweredRequest } from "./summary-cached.ts";
import { estimateTokens, type Summary } from "./passes.ts";
import { cachePrices } from "./cache.ts";
import { outputSent } from "../providers/effort.ts";
import { toolsText } from "./tools-text.ts";

/** Output budget of a summary request: it must be short to be worth anything. */
const SUMMARY_MAX_TOKENS = 4096;
/** A summary request's transcript fills at most this share of the budget (its answer and prompt need the rest). */
const SUMMARY_INPUT_SHARE = 0.6;
/**
 * Of a known window, this share is left free beside the request's estimate: the characters-per-token
 * estimate runs low on code, and a vLLM, SGLang or TGI refuses a request whose prompt and
 * max_tokens together pass its window.
 */
const WINDOW_MARGIN = 0.1;
/** The answer a summary gets at least in a small window: its transcript is shortened to leave this room. */
const SUMMARY_MIN_TOKENS = 512;
/** Tokens of the request's wrapping around the transcript ("Summarize this part of the work:"): counted with the system prompt. */
const ASK_TOKENS = 20;

const SUMMARY_SYSTEM = `You compress a coding agent's working history for the agent itself. Write a summary that lets it continue without the original: ${SUMMARY_RULES}`;

/**
 * Summarizes `range` (its messages as the view shows them: an earlier summary in it is its text, so
 * each summary carries the last one forward instead of reading the whole history again) with the
 * provider, and records the summary. First, where the provider's cache still holds the last request
 * the model answered (`state.answered`) and that request with the ask fits a known window, the
 * summary is asked after it (summary-cached.ts: the same request, read from the cache); an answer
 * that is no summary (a tool call, no text, cut words) or any refusal of that request falls back to the transcript request
 * (reasoning off, its own system prompt and output budget), both paid. The caller emits its
 * `compaction` event (summaryEvent, which the session writer persists) once it has built the view
 * with it. The transcript (summary-transcript.ts) fills at most SUMMARY_INPUT_SHARE of the
 * budget: past that, the oldest messages of the new stretch are left out (every earlier summary in
 * it is kept whole, wherever it stands). In a known window the transcript and the answer's limit
 * fit it (summarySize); a refusal as too long for the window is asked once more, shorter. Returns the summary with the tokens the request cost (they
 * count like any request's, estimated where the provider did not report them: request-cost.ts).
 * Throws a ProviderError when the provider fails, or "empty_answer" when it returns nothing, or
 * "bad_request" when its words were cut by the output limit or a refusal; its
 * `usage` says what the request cost when it was billed (it began, or came back empty), an
 * interrupted one too: summaryCost.
 */
export async function compactRange(
  range: SummaryRange,
  deps: {
    state: { summaries: Summary[]; tokensPerChar: number; summaryFailed?: boolean; answered?: AnsweredRequest | undefined };
    provider: Provider;
    budgetTokens: number;
    /** the model's window when known (configured, stated or learned): the request is sized to fit it */
    window?: number;
    /** milliseconds since the epoch: a last request older than the cache's lifetime is not asked again */
    now?: () => number;
  },
  signal: AbortSignal,
  instructions?: string,
): Promise<{ parts: Summary[]; usage: Usage }> {
  // after a failed one, half: each failed request is billed, and the stretch it would cover only grows
  const size = { window: deps.window, tokensPerChar: deps.state.tokensPerChar, shrink: deps.state.summaryFailed ? 2 : 1 };
  const cached = await askCached(range, deps, signal, instructions, () => transcriptTokens(range, deps, size));
  if (cached && "text" in cached) return done(range, deps.state, cached.text, cached.usage);
  let reply: { text: string; usage: Usage; stop: StopReason };
  try {
    try {
      reply = await ask(range, deps, size, signal, instructions);
    } catch (e) {
      // a server that counts max_tokens into the window (vLLM, SGLang, TGI) refused it as too long: it
      // says its window and the prompt's real size, so the request that fits is known; asked once more
      // with half the transcript and what is left for the answer, not counted as a failed summary
      if (!(e instanceof ProviderError) || e.kind !== "context_length" || e.usage) throw e;
      reply = await ask(range, deps, shrunk(size, e.overflow), signal, instructions);
    }
  } catch (e) {
    // the cached request's answer that was no summary was paid all the same, also when Ctrl-C comes before the next one
    throw cached?.usage ? withCost(e, cached.usage) : e;
  }
  const usage = cached?.usage ? addUsage(cached.usage, reply.usage) : reply.usage;
  if (reply.text === "") throw new ProviderError("empty_answer", "the model returned an empty summary", { usage });
  // words cut by the output limit (or a refusal's) would replace the range for good, whatever they left out
  if (reply.stop === "length" || reply.stop === "refusal") throw new ProviderError("bad_request", cutWords(reply.stop), { usage });
  return done(range, deps.state, reply.text, usage);
}

/** The summary `text` of `range` recorded in `state`, with what it cost. */
function done(range: SummaryRange, state: { summaries: Summary[] }, text: string, usage: Usage): { parts: Summary[]; usage: Usage } {
  const parts = summaryParts(range, text);
  state.summaries.push(...parts);
  return { parts, usage };
}

/**
 * The summary asked after the last request the model answered, read from the provider's cache
 * (summary-cached.ts): its `text` when the model wrote one whole, without calling a tool; only the
 * `usage` it cost when its answer was no summary (a tool call, no text, words cut by the output
 * limit or a refusal: thinking shares that limit here) or the request was refused; undefined when
 * it was not asked (nothing cached to repeat, too little room in a known window for the answer or for
 * the max_tokens the adapter really sends, or dearer than the transcript). Throws an abort, or a failure the transcript would meet too (the
 * network, the server), like compactRange.
 */
async function askCached(
  range: SummaryRange,
  deps: Parameters<typeof compactRange>[1],
  signal: AbortSignal,
  instructions: string | undefined,
  transcript: () => number,
): Promise<{ text: string; usage: Usage } | { usage?: Usage } | undefined> {
  const { state, provider, window } = deps;
  const made = cachedSummaryRequest(state.answered, range, { provider, now: deps.now?.() ?? 0, instructions });
  if (!made) return undefined;
  const { request } = made;
  const fixed = request.system.length + toolsText(request.tools).length;
  const input = Math.ceil((fixed + made.askChars) * state.tokensPerChar) + estimateTokens(request.messages, state.tokensPerChar);
  const room = window === undefined ? Number.POSITIVE_INFINITY : window - Math.ceil(WINDOW_MARGIN * window) - input;
  const maxTokens = Math.min(SUMMARY_MAX_TOKENS, room);
  if (maxTokens < SUMMARY_MIN_TOKENS) return undefined; // the transcript is sized to the window instead
  // what the adapter really sends: a Claude thinking by budget gets the budget plus an answer's room
  // whatever is asked, and a server counting max_tokens into the window refuses a request past it
  const sent = outputSent(provider.protocol, provider.model, request.effort, maxTokens);
  if (sent.maxTokens > room) return undefined;
  if (cachedCost(input, made.askChars, sent.thinking, provider.protocol, state.tokensPerChar) >= transcript()) return undefined;
  try {
    const reply = await collect(provider, { ...request, maxTokens }, { input, tokensPerChar: state.tokensPerChar }, signal);
    if (reply.called || reply.text === "" || reply.stop === "length" || reply.stop === "refusal") return { usage: reply.usage };
    return reply;
  } catch (e) {
    // a refusal of this request (a strict chat template's 400, the window's) or an empty stream leaves the
    // transcript to ask; a failing network or server would fail it too, so that is the summary's failure
    if (signal.aborted || !(e instanceof ProviderError) || !NOT_THIS_REQUEST.has(e.kind)) throw e;
    return { ...(e.usage ? { usage: e.usage } : {}) };
  }
}

/** Failures of the cached request that the transcript request, another request, need not meet. */
const NOT_THIS_REQUEST = new Set<ProviderErrorKind>(["bad_request", "context_length", "empty_answer"]);

/** Output tokens are billed at about this many input tokens' price: Claude 5× ($15 against $3), most others 4×. */
const outputPrice = (protocol: Protocol) => (protocol === "anthropic" ? 5 : 4);

/**
 * What the cached request costs, in uncached input tokens: the conversation read from the cache,
 * the ask written to it, and the `thinking` tokens its effort is expected to add
 * (outputSent: within the limit the adapter sends, Claude's budget) at the output price. The summary's own words cost the
 * same either way. Against the transcript paid in full: a short range of long results (each shown
 * at most 2 KB in a transcript) can cost less as a transcript (x91's mock: 1.4k against 5.5k). Pure.
 */
export function cachedCost(input: number, askChars: number, thinking: number, protocol: Protocol, tokensPerChar: number): number {
  const prices = cachePrices(protocol);
  const ask = Math.ceil(askChars * tokensPerChar);
  return (input - ask) * prices.read + ask * prices.miss + thinking * outputPrice(protocol);
}

/** What was paid for a summary that then failed with an error other than a ProviderError (an abort's DOMException): summaryCost reads it. */
const paidBefore = new WeakMap<object, Usage>();

/** `e` carrying `paid` too (what an earlier request of this summary cost), thrown as it came: an abort stays the abort it was. */
function withCost(e: unknown, paid: Usage): unknown {
  if (e instanceof ProviderError) e.usage = e.usage ? addUsage(paid, e.usage) : paid;
  else if (typeof e === "object" && e !== null) paidBefore.set(e, paid);
  return e;
}

const cutWords = (stop: "length" | "refusal") => (stop === "length" ? "the summary was cut by its output limit" : "the model refused to write the summary");

/** The tokens of the transcript request `ask` would make of `range` (its system prompt, the ask and the transcript): paid in full. */
function transcriptTokens(range: SummaryRange, deps: { budgetTokens: number }, size: SizeInput): number {
  const chars = summaryTranscript(range.messages, summarySize(size, deps.budgetTokens).maxChars, range.cut).length;
  return Math.ceil((SUMMARY_SYSTEM.length + chars + ASK_TOKENS / size.tokensPerChar) * size.tokensPerChar);
}

/** How a summary request is sized: the window when known, the estimate's ratio, and how many times shorter its transcript is made. */
interface SizeInput {
  window: number | undefined;
  tokensPerChar: number;
  shrink: number;
}

/**
 * The transcript's length (characters) and the answer's limit (tokens) of a summary request:
 * SUMMARY_INPUT_SHARE of the budget and SUMMARY_MAX_TOKENS, and within a known window both, with
 * WINDOW_MARGIN of it free — the transcript shortened first so the answer keeps
 * SUMMARY_MIN_TOKENS (or half of what is left, in a window too small for that). `maxTokens` is
 * what the answer may take beside a transcript of that length; a shorter one leaves it more
 * (answerTokens). Pure.
 */
export function summarySize(size: SizeInput, budgetTokens: number): { maxChars: number; maxTokens: number } {
  const share = Math.ceil((SUMMARY_INPUT_SHARE * budgetTokens) / size.tokensPerChar / size.shrink);
  if (size.window === undefined) return { maxChars: share, maxTokens: SUMMARY_MAX_TOKENS };
  const room = roomOf(size.window, size.tokensPerChar);
  const answer = Math.min(SUMMARY_MAX_TOKENS, SUMMARY_MIN_TOKENS, Math.floor(room / 2));
  const maxChars = Math.max(0, Math.min(share, Math.floor((room - answer) / size.tokensPerChar / size.shrink)));
  return { maxChars, maxTokens: answerTokens(size, maxChars) };
}

/** Tokens a known window leaves for the transcript and the answer: less its margin, the system prompt and the ask's wrapping. */
const roomOf = (window: number, tokensPerChar: number) =>
  Math.max(0, window - Math.ceil(WINDOW_MARGIN * window) - Math.ceil(SUMMARY_SYSTEM.length * tokensPerChar) - ASK_TOKENS);

/** The answer's limit beside a transcript of `chars` characters: what the window leaves (at least 1), at most SUMMARY_MAX_TOKENS. Pure. */
function answerTokens(size: SizeInput, chars: number): number {
  if (size.window === undefined) return SUMMARY_MAX_TOKENS;
  return Math.max(1, Math.min(SUMMARY_MAX_TOKENS, roomOf(size.window, size.tokensPerChar) - Math.ceil(chars * size.tokensPerChar)));
}

/** The size of the second try after a context-length refusal: within the window it states (or the one known), the transcript half as long. */
function shrunk(size: SizeInput, overflow: ContextOverflow | undefined): SizeInput {
  const window = overflow?.window === undefined ? size.window : Math.min(overflow.window, size.window ?? overflow.window);
  return { window, tokensPerChar: size.tokensPerChar, shrink: size.shrink * 2 };
}

/** One summary request of `range`'s transcript sized by `size` (summarySize), reasoning off (once more without a reasoning setting when that is refused). */
async function ask(
  range: SummaryRange,
  deps: { provider: Provider; budgetTokens: number },
  size: SizeInput,
  signal: AbortSignal,
  instructions?: string,
): Promise<{ text: string; usage: Usage; stop: StopReason }> {
  const transcript = summaryTranscript(range.messages, summarySize(size, deps.budgetTokens).maxChars, range.cut);
  const ask = `Summarize this part of the work${instructions ? ` (${instructions})` : ""}:\n\n${transcript}`;
  const request = (effort?: "off"): ModelRequest => ({
    system: SUMMARY_SYSTEM,
    messages: [{ id: "summary-request", role: "user", content: [{ type: "text", text: ask }] }],
    tools: [],
    ...(effort ? { effort } : {}),
    maxTokens: answerTokens(size, transcript.length),
  });
  const estimate = { input: Math.ceil((SUMMARY_SYSTEM.length + ask.length) * size.tokensPerChar), tokensPerChar: size.tokensPerChar };
  try {
    return await collect(deps.provider, request("off"), estimate, signal);
  } catch (e) {
    // models without reasoning reject any reasoning setting (gpt-4o: reasoning_effort): once more without it;
    // another refusal would only be paid for twice
    if (!(e instanceof ProviderError) || e.kind !== "bad_request" || !REASONING_REFUSAL.test(e.message)) throw e;
    return await collect(deps.provider, request(), estimate, signal);
  }
}

/** How a refusal names the reasoning setting: OpenAI's reasoning_effort / reasoning.effort, Anthropic's thinking. */
const REASONING_REFUSAL = /reasoning|effort|thinking/i;

/** What a failed summary request cost, when it was billed (compactRange's errors carry it): to be counted like any request's. */
export function summaryCost(e: unknown): Usage | undefined {
  if (e instanceof ProviderError) return e.usage;
  return typeof e === "object" && e !== null ? paidBefore.get(e) : undefined;
}

/** The answer's text, whether it called a tool (a summary asked with the tools described may), and what it cost. */
async function collect(
  provider: Provider,
  request: ModelRequest,
  estimate: RequestEstimate,
  signal: AbortSignal,
): Promise<{ text: string; usage: Usage; called: boolean; stop: StopReason }> {
  for await (const event of costedStream(provider.stream(request, signal), estimate))
    if (event.type === "done")
      return { text: textOf(event.message).trim(), usage: event.usage, called: (event.message.toolCalls?.length ?? 0) > 0, stop: event.stop };
  throw new ProviderError("network", "the model's stream ended without a final message"); // as the loop says it (kernel/turns.ts)
}
