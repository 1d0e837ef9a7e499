// A "no data for N seconds" watchdog for streaming model requests, shared by the adapters.
//
// Why: the SDKs' `timeout` covers only the wait for response headers, so a stream that stalls
// after the headers would hang until Bun's socket idle timeout (sdk-facts §1.1, §5.3).
import { AsyncLocalStorage } from "node:async_hooks";
import { ProviderError, type StreamEvent } from "../kernel/provider.ts";
import { UNFINISHED } from "./common.ts";
import { foreignEventsError, type ProtocolPlace, StreamShape } from "./stream-shape.ts";

/**
 * Default `[retry] idle_timeout_ms` (it replaces Bun's 5-minute socket idle timeout, which the
 * adapters turn off): 120 s. While a model reasons, every API hey speaks sends something — Anthropic
 * thinking deltas, Responses reasoning summaries (hey always asks for them), Gemini thought parts,
 * DeepSeek reasoning_content — so a healthy stream's gaps are seconds. The silent case is OpenAI
 * reasoning models over Chat Completions, which stream nothing until the answer: gaps of ~32 s at
 * default effort and over 60 s at high effort on 10k–50k-token contexts are reported
 * (NousResearch/hermes-agent#90449, 2389-research/tracker#577); 120 s is twice that. Today's 300 s
 * made a dead server cost 30 minutes over six attempts; xhigh/max effort on Chat Completions may
 * need more (raise the key, or use protocol "responses").
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/**
 * How many idle timeouts keep-alives alone (SSE comments, Anthropic's pings: no event of the
 * answer) may hold a try open: they prove the connection lives, not that the model works — OpenRouter
 * sends `: OPENROUTER PROCESSING` every few seconds while an upstream provider hangs, for ever. 10
 * minutes at the default, Claude Code's own limit on a request (API_TIMEOUT_MS); a model that
 * thinks in silence longer needs a larger idle_timeout_ms. A try so ended before any event counts
 * toward kernel/retry.ts SILENT_TRIES, so a stuck endpoint holds a run two such tries at most.
 */
export const KEEP_ALIVE_TIMEOUTS = 5;

export interface IdleWatchdog {
  /**
   * Aborts when the caller's signal aborts, when `watch` has waited `idleMs` for an item, or
   * KEEP_ALIVE_TIMEOUTS × `idleMs` with only keep-alives (`touch`). Pass it to the SDK.
   */
  readonly signal: AbortSignal;
  /** Whether the watchdog (not the caller) aborted the request. */
  readonly fired: boolean;
  /** Whether anything of the body came (a chunk `touch`ed, an item): else a stall is ProviderError.silent. */
  readonly heard: boolean;
  /** Whether an item (an event of the answer) came: else a stall is ProviderError.answerless. */
  readonly answered: boolean;
  /**
   * Passes the vendor stream through. The timer runs only while waiting for the next item: the
   * time the consumer spends holding one (rendering, a slow subscriber) does not count as silence.
   * An item `opening` names (a start event that holds none of the answer) is passed on but counts
   * as a keep-alive: it is not an event of the answer.
   */
  watch<T>(source: AsyncIterable<T>, opening?: (item: T) => boolean): AsyncGenerator<T>;
  /** Bytes arrived that the SDK parses away (an SSE comment, Anthropic's `ping`): while waiting, the silence starts again, not the time since the last item. */
  touch(): void;
  /** Stop the timer, unlink from the caller's signal and abort the request (a connection left open is closed); call in `finally`. */
  dispose(): void;
}

/**
 * Starts timing at once, so a server that never sends headers is caught too. Never throws;
 * guardedStream turns `fired` into `idleError(idleMs)` (or the keep-alives stall it aborted with)
 * after the SDK has given up.
 */
export function startIdleWatchdog(parent: AbortSignal, idleMs: number): IdleWatchdog {
  const controller = new AbortController();
  let fired = false;
  let heard = false;
  let answered = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** runs from the last item on, which a keep-alive (touch) does not re-arm */
  let eventTimer: ReturnType<typeof setTimeout> | undefined;
  /** false while the consumer holds an item */
  let waiting = true;
  const onParentAbort = () => controller.abort(parent.reason);
  const stall = (error: ProviderError) => {
    fired = true;
    controller.abort(error);
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stall(idleError(idleMs)), idleMs);
  };
  const armEvents = () => {
    clearTimeout(eventTimer);
    eventTimer = setTimeout(() => stall(keepAlivesError(idleMs * KEEP_ALIVE_TIMEOUTS, !answered)), idleMs * KEEP_ALIVE_TIMEOUTS);
  };

  if (parent.aborted) onParentAbort();
  else {
    parent.addEventListener("abort", onParentAbort, { once: true });
    arm();
    armEvents();
  }
  return {
    signal: controller.signal,
    get fired() {
      return fired;
    },
    get heard() {
      return heard;
    },
    get answered() {
      return answered;
    },
    async *watch(source, opening) {
      for await (const item of source) {
        // Anthropic's message_start and Responses' response.created come before the keep-alives of a
        // stuck upstream: they neither answer nor restart the keep-alives' limit
        const ofAnswer = !opening?.(item);
        heard = true;
        answered ||= ofAnswer;
        waiting = false;
        clearTimeout(timer);
        if (ofAnswer) clearTimeout(eventTimer);
        yield item;
        waiting = true;
        if (!controller.signal.aborted) {
          arm();
          if (ofAnswer) armEvents();
        }
      }
    },
    touch: () => {
      heard = true;
      if (waiting && !controller.signal.aborted) arm();
    },
    dispose: () => {
      clearTimeout(timer);
      clearTimeout(eventTimer);
      parent.removeEventListener("abort", onParentAbort);
      // the stream is done with: a connection the server holds open (quietAfter ended it) is closed
      if (!controller.signal.aborted) controller.abort(new DOMException("the answer is complete", "AbortError"));
    },
  };
}

/** How the error of a request the server accepted and never answered ends its first part: ui/setup-help.ts tells it from one that never reached a server by it. */
export const NOT_A_BYTE = "not a byte";

/**
 * The error a stalled stream ends with: retryable like any network failure, so stalls use the retry
 * budget and its backoff. `silent`: not a byte of the body came before it; `answerless`: no event of
 * the answer came, keep-alives at most (kernel/retry.ts SILENT_TRIES ends the retries of a request
 * stalled either way twice in a row).
 */
export function idleError(idleMs: number, silent = false, answerless = silent): ProviderError {
  if (silent) return new ProviderError("network", `no answer in ${idleMs / 1000} s, ${NOT_A_BYTE}`, { silent: true });
  return new ProviderError("network", `no data from the model for ${idleMs / 1000} s`, { answerless, stalledMs: idleMs });
}

/**
 * The error of a stream that sent keep-alives and no event for `ms`: a stall like idleError
 * (retried, or "broke off" after part of an answer), never silent — bytes came. `answerless`: no
 * event of the answer came at all (not just none for `ms`), so it counts toward SILENT_TRIES.
 */
export function keepAlivesError(ms: number, answerless = false): ProviderError {
  const what = answerless ? "and no event of the answer" : "after part of the answer, and no further event";
  return new ProviderError("network", `${KEEP_ALIVES_ONLY} for ${formatMs(ms)} ${what}`, { answerless, stalledMs: ms });
}

/** How the message of a keep-alive stall starts: create.ts names the endpoint before it and the setting after it. */
export const KEEP_ALIVES_ONLY = "sent only keep-alives";

/** The keep-alives stall the watchdog fired with, when that is why it fired. */
const keepAlivesIn = (reason: unknown) => (reason instanceof ProviderError && reason.message.startsWith(KEEP_ALIVES_ONLY) ? reason : undefined);

/** "10 min", "45 s", "1.5 s". */
const formatMs = (ms: number) => (ms >= 120_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/**
 * One streaming request as every adapter runs it: `open` starts it with the watchdog's signal and
 * returns the vendor's event stream, `map` turns that into IR events; `opening` names the vendor's
 * events that start an answer without holding any of it (watch). `idleTimeoutMs` undefined
 * means DEFAULT_IDLE_TIMEOUT_MS. The caller's abort always ends as a throw of its reason (the
 * SDKs differ: openai and anthropic end their loop silently, genai throws AbortError); a stall
 * becomes `idleError`; any other failure goes through `classify`, the adapter's pure
 * `toProviderError`. `place`: the adapter's protocol and where it is set, so that a stream of
 * another protocol's events (which the adapter reads as one cut short, or empty) fails at once
 * naming both (stream-shape.ts), and a stream whose body closed inside an event is a cut
 * connection, retried, not an endpoint that does not speak the protocol.
 */
export async function* guardedStream<E>(
  signal: AbortSignal,
  idleTimeoutMs: number | undefined,
  open: (signal: AbortSignal) => Promise<AsyncIterable<E>>,
  map: (events: AsyncIterable<E>) => AsyncGenerator<StreamEvent>,
  classify: (e: unknown) => ProviderError,
  opening?: (event: E) => boolean,
  place?: ProtocolPlace,
): AsyncGenerator<StreamEvent> {
  const idleMs = idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const watchdog = startIdleWatchdog(signal, idleMs);
  try {
    const events = await requestsOf.run(watchdog, () => open(watchdog.signal));
    for await (const event of map(endOnAbort(watchdog.watch(events, opening), watchdog.signal))) {
      // the caller's abort ends the stream at once: not after the events the SDK had already read
      // (one read can hold many), which would still be shown and kept as the interrupted answer
      signal.throwIfAborted();
      yield event;
    }
  } catch (e) {
    signal.throwIfAborted();
    const shape = shapes.get(watchdog);
    const foreign = place && shape?.foreign(place.protocol);
    if (place && foreign) throw foreignEventsError(foreign, place);
    if (watchdog.fired) throw stallCauses.get(watchdog) ?? keepAlivesIn(watchdog.signal.reason) ?? idleError(idleMs, !watchdog.heard, !watchdog.answered);
    throw providerErrorIn(e) ?? (e instanceof SyntaxError ? (shape?.cutInEvent ? cutInEventError() : malformedError(e, place?.baseUrl)) : classify(e));
  } finally {
    watchdog.dispose();
  }
}

/** The watchdog of the stream whose request is being made: the SDKs call fetch inside `open`. */
const requestsOf = new AsyncLocalStorage<IdleWatchdog>();
/** What a stalled request's fetch found the stall was (the SDKs report an aborted fetch as an abort, without it). */
const stallCauses = new WeakMap<IdleWatchdog, ProviderError>();
/** What the bytes of a stream's body showed (watchedResponse): its events' protocol, a cut inside an event. */
const shapes = new WeakMap<IdleWatchdog, StreamShape>();

/**
 * Records, for the stream whose request is being made, why its fetch failed: when the watchdog had
 * fired, guardedStream throws this instead of idleError (a proxy that never answered CONNECT is no
 * silent model). Called by the one fetch every adapter is given (create.ts).
 */
export function explainStall(failure: ProviderError): void {
  const watchdog = requestsOf.getStore();
  if (watchdog) stallCauses.set(watchdog, failure);
}

/**
 * `response` with every chunk of its body counting as activity for the watchdog of the stream
 * that asked for it (unchanged outside guardedStream). The SDKs drop SSE comments (OpenRouter's
 * `: OPENROUTER PROCESSING`, a gateway's `: keep-alive`) and Anthropic's `ping` events, which
 * servers send precisely while a model thinks in silence; such a stream is alive, not stalled.
 * The bytes also feed the stream's StreamShape (read by guardedStream when the stream fails).
 * Called by the one fetch every adapter is given (create.ts).
 */
export function watchedResponse(response: Response): Response {
  const watchdog = requestsOf.getStore();
  if (!watchdog || !response.body) return response;
  const shape = new StreamShape();
  shapes.set(watchdog, shape);
  const decoder = new TextDecoder();
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        watchdog.touch();
        shape.push(decoder.decode(chunk, { stream: true }));
        out.enqueue(chunk);
      },
      flush: () => shape.end(), // a clean close: a reset or an abort errors the stream instead
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A ProviderError an SDK wrapped (thrown by hey's own fetch: see create.ts), found along the `cause` chain. */
function providerErrorIn(e: unknown): ProviderError | undefined {
  for (let depth = 0; depth < 5 && typeof e === "object" && e !== null; depth++, e = (e as { cause?: unknown }).cause) if (e instanceof ProviderError) return e;
  return undefined;
}

/**
 * The SDKs' event parsers throw SyntaxError on an event that is not JSON: a server whose events are
 * whole and not JSON does not speak the protocol, retrying cannot help (cutInEventError is the other case).
 */
function malformedError(e: SyntaxError, baseUrl = "base_url"): ProviderError {
  return new ProviderError("protocol", `the model's answer is malformed (${e.message}); the server at ${baseUrl} does not speak this protocol as expected`);
}

/**
 * A body that closed in the middle of an event of JSON (its last `data:` line cut short): a proxy's
 * or gateway's cut (a limit on a stream's length, an upstream that died), closed cleanly instead of
 * reset. Retried like the reset, or "broke off" after part of an answer.
 */
function cutInEventError(): ProviderError {
  return new ProviderError("network", `${UNFINISHED}: the stream ended in the middle of an event`);
}

/** A stream that ended because of an abort (silently, or with its body already read) throws instead. */
async function* endOnAbort<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  yield* source;
  signal.throwIfAborted();
}

/**
 * `chunks`, ended `graceMs` after the one `isLast` names if nothing more comes: a server may keep
 * the connection open after a complete answer without the trailer hey asked for (chat completions'
 * usage chunk when stream_options is ignored), which would otherwise cost the idle timeout or the
 * server's own socket timeout on every request. A chunk that does come in time is passed on.
 */
export async function* quietAfter<T>(chunks: AsyncIterable<T>, isLast: (chunk: T) => boolean, graceMs: number): AsyncGenerator<T> {
  const it = chunks[Symbol.asyncIterator]();
  let last = false;
  try {
    for (;;) {
      const next = last ? await nextWithin(it, graceMs) : await it.next(); // a timer only once the last chunk came
      if (next === "quiet" || next.done) return;
      last ||= isLast(next.value);
      yield next.value;
    }
  } finally {
    // not awaited: a source still waiting for its next chunk finishes its return only once that
    // comes; the request's abort (guardedStream's dispose) closes the connection
    void it.return?.()?.catch(() => {});
  }
}

/** `it`'s next chunk, or "quiet" when none comes within `ms`. */
async function nextWithin<T>(it: AsyncIterator<T>, ms: number): Promise<IteratorResult<T> | "quiet"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quiet = new Promise<"quiet">((resolve) => (timer = setTimeout(() => resolve("quiet"), ms)));
  return Promise.race([it.next(), quiet]).finally(() => clearTimeout(timer));
}
