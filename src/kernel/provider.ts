// The Provider interface and the one typed error every adapter throws (SPEC §4).
import type { Effort, Message, Protocol, StopReason, ToolCall, ToolSpec, Usage } from "./ir.ts";

/** One model request, protocol-agnostic. The provider knows its own model and limits. */
export interface ModelRequest {
  system: string;
  messages: readonly Message[];
  tools: ToolSpec[];
  /** undefined = the provider's configured default; see providers/effort.ts for the mapping */
  effort?: Effort;
  /** output token limit for this request only (a summary's own budget); undefined = the provider's */
  maxTokens?: number;
  /**
   * "none": the tools are described (a history with tool calls needs them on some APIs) but
   * the model must answer in text (the hand-off). An adapter whose API keys its prompt cache on
   * the tool choice (Anthropic, Gemini) sends none: the request then reads the cached prefix of
   * the one before, and the prompt says no tool may be called (calls made anyway are dropped).
   * undefined = the model chooses.
   */
  toolChoice?: "none";
  /**
   * A short line for this request only (the context use), sent after the last message. Adapters
   * keep it out of the prefix a prompt cache reuses: the next request leaves it out again.
   */
  note?: string;
  /**
   * The request's tail goes as it is this once (a first prompt over its share, cut in every request
   * after; a request over the context budget, whose newest result the next one cuts or summarizes):
   * adapters that mark cache breakpoints mark none on its last user turn, whose cache write nothing
   * would read, but still mark where the previous request ended, which this one reads.
   */
  onceTail?: true;
  /**
   * The id of the last message this request repeats of the previous request to this model as it
   * was sent: where the prefix that model's cache holds ends. Adapters that mark cache breakpoints
   * mark it too, so the request reads the cache up to there rather than only as far as its other
   * marks reach (Anthropic looks back about 20 blocks from a mark): after a later message was
   * rewritten (dedup, an error purge, a cut), or after another model's requests (a fallback,
   * `/model` and back) added more than that since. Usually the same spot the tail's marks name.
   */
  unchangedThrough?: string;
}

/**
 * What a provider streams, in order: any number of `text` / `thinking` deltas, complete
 * `tool_call`s and early `usage` counts, then exactly one `done` carrying the whole assistant message (with the opaque
 * vendor data the next request needs), the response's usage and why it stopped.
 */
export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "thinking"; delta: string }
  | { type: "tool_call"; call: ToolCall }
  /** what the user should hear, once, of a change the adapter made to go on (an effort level the model refused, replaced) */
  | { type: "notice"; message: string }
  /**
   * the counts the provider has sent of this request before its end (Anthropic's message_start,
   * Gemini's usageMetadata): what a stream that breaks before `done` is counted with, its input
   * and cache counts as reported (context/request-cost.ts); `done.usage` supersedes it
   */
  | { type: "usage"; usage: Usage }
  /**
   * `detail`: the provider's own words on a stop the user must hear about (why it refused, what
   * blocked the prompt, the call it could not parse); `server`: the server software that answered, when its answer names it
   * ("ollama", "llama.cpp": providers/served-context.ts); `maxTokens`: the output token limit the
   * request went with, where the adapter chose it rather than the configuration (Anthropic's
   * default, lowered to what the endpoint takes, or raised above a thinking budget), for what a
   * `length` stop tells the user; `requestInput`: the input tokens of the request as the caller
   * built it, when `usage` sums more requests than that one (an Anthropic paused turn's
   * continuations, each billed): the context estimate is corrected by it, not by the sum; `cut`:
   * the server cut the request to fit its context (Ollama does, silently): `usage.input` counts
   * what it read, not what was sent, and corrects no estimate; its window is `serverWindow()`'s
   */
  | {
      type: "done";
      message: Message;
      usage: Usage;
      stop: StopReason;
      detail?: string;
      server?: string;
      maxTokens?: number;
      requestInput?: number;
      cut?: boolean;
    };

/**
 * A model endpoint speaking one protocol.
 *
 * `stream` never retries (retry is owned by the loop) and throws only `ProviderError`s, already
 * classified. When `signal` aborts, iteration stops early by throwing; callers tell an abort
 * from a failure by `signal.aborted`, not by the error.
 */
export interface Provider {
  readonly protocol: Protocol;
  readonly model: string;
  /**
   * the configured name of the provider (`[provider.NAME]`): the opaque data of its answers carries
   * it (Opaque.provider), and only a provider of the same name is sent it back. undefined: an
   * embedder's provider without one, sent back only opaque data that names none
   */
  readonly name?: string;
  /**
   * how long the endpoint keeps a prompt prefix it cached, in milliseconds (providers/cache-lifetime.ts):
   * a prefix older than this is taken as gone, so rewrites held back to keep it are made then
   * (context/cache.ts). undefined: an embedder's provider, whose protocol's default applies
   */
  readonly cacheLifetimeMs?: number;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
  /**
   * the context (in tokens) the server runs the model with, when it tells (Ollama, llama-server,
   * LM Studio, or the window the endpoint's model list states: asked after the first answer,
   * providers/server-window.ts), and where it said so; undefined until then or when it does not
   * tell. Never rejects.
   */
  serverWindow?(): Promise<StatedWindow | undefined>;
}

/** What a wrapper of `p` (a Provider passing its stream through) keeps of it: protocol, model, name and cache lifetime. */
export function identityOf(p: Provider): Pick<Provider, "protocol" | "model" | "name" | "cacheLifetimeMs"> {
  return {
    protocol: p.protocol,
    model: p.model,
    ...(p.name === undefined ? {} : { name: p.name }),
    ...(p.cacheLifetimeMs === undefined ? {} : { cacheLifetimeMs: p.cacheLifetimeMs }),
  };
}

/** A context window the endpoint stated: its tokens, and where it said so, for the user ("Ollama's GET /api/ps"). */
export interface StatedWindow {
  tokens: number;
  from: string;
  /** what a model list says of the model, not what a server runs it with: it never raises a window known before (agent.ts) */
  listed?: true;
}

/** The error kinds of SPEC §4; the names are those of the JSON `error` event (§18). */
export type ProviderErrorKind =
  | "auth"
  | "rate_limit"
  | "overloaded"
  | "quota_exhausted"
  | "network"
  | "bad_request"
  | "stream_interrupted"
  /** the server answered, but not in the protocol (an HTML page, JSON instead of a stream, malformed events) */
  | "protocol"
  /** the request is larger than the model's context window (ProviderError.overflow says what the server stated) */
  | "context_length"
  /** the server is still loading the model (llama-server's 503 "Loading model"): waited for, up to retry.ts LOADING_WAIT_MS, whatever max_retries says */
  | "loading"
  /** the stream ended as the server ended it with nothing in it (no text, thinking or tool call): retried at most retry.ts EMPTY_RETRIES times */
  | "empty_answer"
  /** hey's own setup failed around the request (the approvals record kept locked by another hey): never retried */
  | "config";

/** What a context-length error states, each part when it does: the model's window, the prompt's tokens, the answer's share it counted in. */
export interface ContextOverflow {
  window?: number;
  prompt?: number;
  completion?: number;
  /**
   * the limit is the endpoint's on one request, not the model's window: its name as the server gave
   * it ("tokens per minute (TPM)", Groq's free tier and OpenAI's low tiers refuse any request larger
   * than a minute's tokens); `window` is that limit, which requests are built under like a window
   */
  ceiling?: string;
}

/** The kinds a retry can help with (SPEC §6); the others fail at once. */
export const RETRYABLE_KINDS: ReadonlySet<string> = new Set<ProviderErrorKind>(["rate_limit", "overloaded", "network", "empty_answer", "loading"]);

/**
 * A classified provider failure. `message` is already fit for the user (it names the key
 * variable for `auth`, carries the provider's own words for `bad_request`). `retryAfterMs` is the
 * server-given delay when it sent one; `cause`, when given, is the error it was classified from.
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  /** retrying cannot help although the kind usually can (nothing listens on a local port) */
  readonly final: boolean;
  /** kind "context_length": what the server said about the window */
  readonly overflow: ContextOverflow | undefined;
  /** the idle timeout ended the try before a single byte of an answer came (kernel/retry.ts SILENT_TRIES) */
  readonly silent: boolean;
  /**
   * the try stalled before any event of the answer came: not a byte (silent), or keep-alives only
   * (kernel/retry.ts SILENT_TRIES counts such tries in a row too)
   */
  readonly answerless: boolean;
  /** the try was ended as no event came for this long (the idle timeout, or keep-alives alone): a stall, not a cut connection */
  readonly stalledMs: number | undefined;
  /** the endpoint said it has no such model (a 404 naming it): another model may answer where this one cannot (a fallback) */
  readonly missingModel: boolean;
  /** given up unretried as the server's wait is longer than hey waits ([retry] max_delay_ms): a longer wait or another model would help (retried-request.ts) */
  readonly waitTooLong: boolean;
  /**
   * the server failed the request because it could not parse the tool call the model wrote (Groq's
   * `tool_use_failed`): what it said of the call. The model's slip, not the request's: the provider's
   * stream ends as stop "malformed_call" with it, and the loop asks the model to make the call again
   */
  readonly failedCall: string | undefined;
  /**
   * kind "empty_answer": the answer finished for a tool call and brought none (a gateway's or server's
   * tool parser lost it). Its reasoning is the plan for that call, never taken as the answer when the
   * retries are spent (kernel/retried-request.ts)
   */
  readonly lostCall: boolean;
  /**
   * kind "bad_request": the provider's content filter refused the prompt (Azure OpenAI's 400
   * `content_filter`, OpenAI's flagged prompt). Sent again it is refused again, so the run keeps the
   * exchange marked as refused, which no later request sends (kernel/refusal.ts)
   */
  readonly refusedPrompt: boolean;
  /**
   * what the failed request cost, when it is known: a stream cut after part of its answer was billed,
   * and whoever holds the estimator sets its estimate (Usage.estimated) here; the run counts it
   */
  usage: Usage | undefined;
  /**
   * the endpoint that failed, in words (`http://…/v1 (provider gw)`), set by whoever knows it when
   * the message does not name it: a retry line stays short, the give-up line names it (turns.ts)
   */
  endpoint: string | undefined;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    opts: {
      status?: number;
      retryAfterMs?: number;
      final?: boolean;
      overflow?: ContextOverflow;
      silent?: boolean;
      answerless?: boolean;
      stalledMs?: number;
      missingModel?: boolean;
      waitTooLong?: boolean;
      failedCall?: string;
      lostCall?: boolean;
      refusedPrompt?: boolean;
      cause?: unknown;
      usage?: Usage;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "ProviderError";
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
    this.final = opts.final ?? false;
    this.overflow = opts.overflow;
    this.silent = opts.silent ?? false;
    this.answerless = this.silent || (opts.answerless ?? false);
    this.stalledMs = opts.stalledMs;
    this.missingModel = opts.missingModel ?? false;
    this.waitTooLong = opts.waitTooLong ?? false;
    this.failedCall = opts.failedCall;
    this.lostCall = opts.lostCall ?? false;
    this.refusedPrompt = opts.refusedPrompt ?? false;
    this.usage = opts.usage;
    this.endpoint = undefined;
  }

  get retryable(): boolean {
    return RETRYABLE_KINDS.has(this.kind) && !this.final;
  }
}

/**
 * No text of a request counts fewer tokens a character than this (prose and code about 0.25–0.3,
 * hey's tool schemas about that): a provider's count far under it is of part of what was sent — a
 * server that cut the request (providers/ollama-context.ts), or one that counts only what its cache
 * lacked (Ollama's runner before ollama/ollama#16428) — and the context estimate learns nothing from it.
 */
export const FEWEST_TOKENS_PER_CHAR = 0.2;
