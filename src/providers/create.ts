// A Provider for one endpoint, by protocol (SPEC §1, §4). Each adapter module — and with it its
// vendor SDK — is imported only here and only when its protocol is used, so start-up never parses
// the others. Used by the composition root (wire.ts) and by embedders (lib.ts).
import { asObject, type AdapterOptions, type ProviderOptions } from "./common.ts";
import { identityOf, ProviderError, type Provider, type StreamEvent } from "../kernel/provider.ts";
import type { Opaque } from "../kernel/ir.ts";
import { isUnknownHost, NetError } from "../net/errors.ts";
import { isLoopback } from "../net/proxy.ts";
import { fittingImages } from "./image-fit.ts";
import { fittingDocuments } from "./document-fit.ts";
import { takesPdfs } from "./documents.ts";
import { cacheLifetimeOf } from "./cache-lifetime.ts";
import { DEFAULT_IDLE_TIMEOUT_MS, explainStall, KEEP_ALIVE_TIMEOUTS, KEEP_ALIVES_ONLY, NOT_A_BYTE, watchedResponse } from "./stream-guard.ts";
import { isLocalHost } from "./served-context.ts";
import { netFailure, noContentError } from "./common.ts";
import { checkedAnswer, NO_CALL, ONLY_REASONING, type ReasoningRow } from "./empty-answers.ts";

export type { ProviderOptions };

/**
 * The adapter for `opts.protocol`, its PDFs and images fitted to what its API takes (document-fit.ts, image-fit.ts). A refused connection to this machine fails at once instead of
 * being retried: nothing listens there (Ollama not started, a wrong port). A try that got not a
 * byte of an answer says which endpoint was silent. Throws only what the adapter's factory throws.
 */
export async function createProvider(opts: ProviderOptions): Promise<Provider> {
  const adapter = await adapterFor(opts.protocol);
  const whole = { came: false, told: false };
  const fetchImpl = streamsOnly(
    typoFailsAtOnce(opts.fetch ?? fetch, opts.baseUrl, opts.builtInUrl ? undefined : (opts.baseUrlSetting ?? "base_url")),
    opts.baseUrl,
    opts.protocol === "anthropic",
    (body) => {
      const events = adapter.wholeAnswerAsEvents(body);
      whole.came ||= events !== undefined;
      return events;
    },
  );
  const { proxy, protocol: _, ...adapterOptions } = opts;
  const where = proxy ? `${opts.baseUrl} (through ${proxy})` : opts.baseUrl;
  const host = URL.canParse(opts.baseUrl) ? new URL(opts.baseUrl).hostname : "";
  const sendsPdfs = opts.protocol !== "openai" || (opts.compat?.pdfs ?? takesPdfs(host));
  const made = await adapter.create({ ...adapterOptions, fetch: fetchImpl, idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS });
  const fitted = fittingDocuments(fittingImages(made), sendsPdfs, opts.name);
  const provider = { ...fitted, cacheLifetimeMs: cacheLifetimeOf({ ...opts, cacheControl: opts.compat?.cacheControl }) };
  return namedFailures(
    opts.name === undefined ? provider : { ...provider, name: opts.name },
    opts.baseUrl,
    opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    where,
    { setting: opts.builtInUrl ? undefined : opts.baseUrlSetting, whole },
  );
}

/**
 * `base`, except that a host name that does not resolve (ENOTFOUND, EAI_NONAME) before any request
 * of this provider got an answer fails at once, not retried: a name that never resolved is almost
 * always a typo in `setting` — or, for hey's built-in address (`setting` undefined), a machine with no
 * network or DNS, which a retry seconds later does not mend either. Once an answer came, the name is known to exist and the same failure
 * is a flaky resolver, retried like any network error. A resolver that cannot be asked (EAI_AGAIN)
 * is always retried.
 */
function typoFailsAtOnce(base: typeof fetch, baseUrl: string, setting: string | undefined): typeof fetch {
  let answered = false;
  const checked = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    try {
      const response = await base(input, init);
      answered = true;
      return response;
    } catch (e) {
      if (answered || !isUnknownHost(e)) throw e;
      const host = URL.canParse(baseUrl) ? new URL(baseUrl).hostname : baseUrl;
      const fix = setting ? `check the host name in ${setting}` : "this machine cannot resolve it: check its network connection, or this machine's DNS";
      throw new ProviderError("network", `the host ${host} does not resolve (no such host), so hey does not retry: ${fix}`, {
        final: true,
        cause: e,
      });
    }
  };
  return Object.assign(checked, { preconnect: base.preconnect }) as typeof fetch;
}

/** Content types that are certainly not an event stream: a login page, a non-streaming JSON answer. */
const NOT_A_STREAM = /text\/html|application\/(json|xml|x-ndjson)|text\/xml/i;
/** How much of such a body the error quotes. */
const QUOTED_CHARS = 160;
/** How much of a JSON body is read to find an error or a whole answer in it: an answer of 128k output tokens is about 0.5 MB. */
const JSON_BODY_CHARS = 16 * 1024 * 1024;
/** The start of an event stream: a `data:` or `event:` line, or a `:` comment (OpenRouter's `: OPENROUTER PROCESSING`). */
const SSE_START = /^(?:data|event|id|retry)?:/;
/** A body labelled an event stream: its first character tells events from JSON. */
const EVENT_STREAM = /text\/event-stream/i;
/** Enough of a body's start to tell events from JSON or a page ("event:" and "retry:" are the longest words SSE_START needs). */
const START_CHARS = 6;

/**
 * `base`, except that a successful answer to a streaming request (`"stream":true` in the body,
 * Gemini's `alt=sse`) that is plainly not an event stream fails as a `protocol` error quoting its
 * start — a captive portal's page or a proxy's JSON is not a network failure to retry. Its type
 * is not the last word: events labelled JSON are read as the stream they are, a body that is one
 * JSON value is read as JSON whatever its label (text/plain, none, even text/event-stream), a JSON body
 * holding an `error` (OpenRouter documents a 200 with its error body) reaches the SDK as the error
 * event a stream carries, classified as such, and a whole answer of the protocol (a server that
 * ignores `stream: true`), which `wholeAnswer` turns into the events that say the same, is read as
 * that stream: it was paid for. `namedEvents`: the protocol names its events (an
 * error is `event: error`). The SDKs wrap what fetch throws; guardedStream finds it again. A real
 * stream's bytes feed the idle watchdog (watchedResponse), keep-alives included.
 */
function streamsOnly(base: typeof fetch, baseUrl: string, namedEvents: boolean, wholeAnswer: (body: unknown) => string | undefined): typeof fetch {
  const checked = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await base(input, init).catch((e: unknown) => {
      const failure = netFailure(e);
      if (failure) explainStall(failure);
      throw e;
    });
    if (response.redirected && !response.ok) throw redirectedError(input, init, response, baseUrl);
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !isStreaming(input, init)) return response;
    if (!response.body) {
      if (!NOT_A_STREAM.test(type)) return response;
      throw notAStream(baseUrl, type, "");
    }
    // its bytes, not its label, say what it is: a server that ignores `stream: true` may send its
    // whole JSON answer as text/plain, with no type, or even as text/event-stream. A real stream's
    // first byte is `d`, `e` or `:` (every recorded one: fixtures/wire), so this waits for one chunk
    const watched = watchedResponse(response);
    const reader = watched.body!.getReader();
    const head: Uint8Array[] = [];
    const decoder = new TextDecoder();
    let text = "";
    let ended = false;
    const more = async () => {
      const next = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (next.value) head.push(next.value);
      text += next.value ? decoder.decode(next.value, { stream: true }) : "";
      ended = next.done;
    };
    const labelled = EVENT_STREAM.test(type);
    // a first `:` (a keep-alive comment), `{` or `[` says enough at once
    while (!ended && text.trimStart().length < (labelled || /^\s*[:{[]/.test(text) ? 1 : START_CHARS)) await more();
    const start = text.trimStart();
    const json = /^[{[]/.test(start);
    // events (labelled so, or by their first line), or an empty body not said to be something else, go to the SDK as they come
    if (!json && (labelled || SSE_START.test(start) || (start === "" && !NOT_A_STREAM.test(type)))) return withBody(watched, rejoined(head, reader));
    // the whole JSON value, not the end of the body: a server may keep the connection open after it
    while (json && !ended && text.length < JSON_BODY_CHARS && !(/[}\]]\s*$/.test(text) && parsed(text) !== undefined)) await more();
    await reader.cancel().catch(() => {});
    const body = parsed(text);
    const error = errorBody(body);
    if (error !== undefined) return withBody(response, `${namedEvents ? "event: error\n" : ""}data: ${error}\n\n`);
    const events = body === undefined ? undefined : wholeAnswer(body);
    if (events !== undefined) return withBody(response, events);
    throw notAStream(baseUrl, type, text);
  };
  return Object.assign(checked, { preconnect: base.preconnect }) as typeof fetch;
}

/**
 * The error for a request that was redirected and then failed: a 301/302 (an http→https upgrade, a
 * moved host) turns the POST into a GET, which the new address answers 404 or 405 — read as a
 * missing model; a 307/308 to another origin arrives without the API key. Either way base_url should
 * be the address redirected to. Final: the same request is redirected again.
 */
function redirectedError(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1], response: Response, baseUrl: string): ProviderError {
  const asked = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  const base = baseUrl.replace(/\/+$/, "");
  const path = new URL(asked).pathname.slice(new URL(base).pathname.replace(/\/+$/, "").length);
  const to = new URL(response.url);
  const moved = to.pathname.endsWith(path) ? `${to.origin}${to.pathname.slice(0, to.pathname.length - path.length)}` : undefined;
  return new ProviderError(
    "bad_request",
    `the server redirected ${method} ${asked.split("?")[0]} to ${to.origin}${to.pathname}, where it answered ${response.status} — ${moved ? `set base_url to ${moved}` : "set base_url to where the server now serves its API"} (a redirect turns a POST into a GET, and drops the API key for another host)`,
    { final: true, status: response.status },
  );
}

/** The protocol error of an answer of content type `type` that is no event stream, quoting the start of its `text`. */
function notAStream(baseUrl: string, type: string, text: string): ProviderError {
  const quoted = text.replace(/\s+/g, " ").trim().slice(0, QUOTED_CHARS);
  return new ProviderError(
    "protocol",
    `${baseUrl} answered with ${type.split(";")[0] || "a body of no content type"} instead of a stream of events${quoted ? `: ${JSON.stringify(quoted)}` : ""}; check base_url and protocol`,
  );
}

/** `text` parsed as JSON; undefined when it is not JSON (yet). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `body` as one line of JSON when it is an object holding an `error`; else undefined. */
function errorBody(body: unknown): string | undefined {
  const error = asObject(body)?.error;
  return error === undefined || error === null ? undefined : JSON.stringify(body);
}

/** The bytes already read, then the rest of the body as it comes; cancelling it cancels the body. */
function rejoined(
  head: Uint8Array[],
  reader: { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(why?: unknown): Promise<void> },
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(out) {
      const first = head.shift();
      if (first) return out.enqueue(first);
      const next = await reader.read();
      if (next.value) out.enqueue(next.value);
      if (next.done) out.close();
    },
    cancel: (why) => reader.cancel(why),
  });
}

/** `response` with `body`, said to be an event stream. */
function withBody(response: Response, body: string | ReadableStream<Uint8Array>): Response {
  const headers = new Headers(response.headers);
  headers.set("content-type", "text/event-stream");
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function isStreaming(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): boolean {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  return /[?&]alt=sse\b/.test(url) || (typeof init?.body === "string" && /"stream"\s*:\s*true/.test(init.body));
}

/** What create.ts takes of an adapter module: its factory, and its reading of a whole answer (each protocol's whole-answer file, beside its adapter). */
interface AdapterModule {
  create(opts: AdapterOptions): Promise<Provider>;
  wholeAnswerAsEvents(body: unknown): string | undefined;
}

/** The adapter module of `protocol`, loaded now (with its SDK) and only for it. */
async function adapterFor(protocol: ProviderOptions["protocol"]): Promise<AdapterModule> {
  switch (protocol) {
    case "openai": {
      const { createOpenAIProvider, wholeAnswerAsEvents } = await import("./openai.ts");
      return { create: createOpenAIProvider, wholeAnswerAsEvents };
    }
    case "responses": {
      const { createResponsesProvider, wholeAnswerAsEvents } = await import("./responses.ts");
      return { create: createResponsesProvider, wholeAnswerAsEvents };
    }
    case "google": {
      const { createGoogleProvider, wholeAnswerAsEvents } = await import("./google.ts");
      return { create: createGoogleProvider, wholeAnswerAsEvents };
    }
    case "anthropic": {
      const { createAnthropicProvider, wholeAnswerAsEvents } = await import("./anthropic.ts");
      return { create: createAnthropicProvider, wholeAnswerAsEvents };
    }
    default: // the callers check the protocol first (config/schema.ts, lib.ts); this names it rather than failing on undefined later
      throw new Error(`no adapter for protocol ${JSON.stringify(protocol)}`);
  }
}

const REFUSED = /ECONNREFUSED|Unable to connect|connection refused/i;

/**
 * `provider`, its network failures said for this endpoint: a silent try (ProviderError.silent) names
 * `where` (the base URL, and the proxy when one is used: the silence may be its own) and the wait;
 * a refused connection to this machine is final. A refused connection names `setting`, where the
 * address was set (OPENAI_BASE_URL, OLLAMA_HOST, a table's base_url): what to change or unset. An answer that ended as it should with nothing in
 * it (no text or call: nothing, or reasoning alone) where that is a flake (empty-answers.ts), or
 * a stream that ended so before its finish (common.ts noContentError), is an empty answer of this
 * endpoint, retried as such; Anthropic's empty end_turn after tool results ends the task (the loop
 * says so). The opaque data of its answers names the provider (signed).
 */
function namedFailures(
  provider: Provider,
  baseUrl: string,
  idleMs: number,
  where: string,
  named: { setting: string | undefined; whole: { came: boolean; told: boolean } },
): Provider {
  const local = URL.canParse(baseUrl) && isLoopback(new URL(baseUrl).hostname);
  const nearby = URL.canParse(baseUrl) && isLocalHost(new URL(baseUrl).hostname);
  const from = named.setting ? `, set by ${named.setting}` : "";
  // which of several endpoints failed (a gateway's 502 page, an OPENAI_BASE_URL left set); "cli" is --base-url's, no table of the user's
  const endpoint = provider.name && provider.name !== "cli" ? `${where} (provider ${provider.name})` : where;
  const row: ReasoningRow = { inARow: 0, hinted: false, retriedAfterTools: false }; // its answers of reasoning alone (empty-answers.ts)
  return {
    ...identityOf(provider),
    async *stream(request, signal) {
      try {
        for await (const streamed of provider.stream(request, signal)) {
          const events =
            streamed.type === "done"
              ? checkedAnswer(streamed, { request, protocol: provider.protocol, model: provider.model, endpoint: baseUrl, nearby, row })
              : [streamed];
          for (const event of events) {
            if (named.whole.came && !named.whole.told) {
              named.whole.told = true;
              yield { type: "notice", message: `${baseUrl} ${NOT_STREAMED}: each answer shows once it is complete` };
            }
            yield signed(event, provider.name);
          }
        }
      } catch (e) {
        if (e instanceof ProviderError && e.kind === "empty_answer")
          throw noContentError(baseUrl, e.usage, e.lostCall ? NO_CALL : e.message.endsWith(ONLY_REASONING) ? ONLY_REASONING : undefined, e.lostCall);
        if (e instanceof ProviderError && e.retryable && !e.message.includes(baseUrl)) e.endpoint ??= endpoint;
        if (!(e instanceof ProviderError) || e.kind !== "network") throw e;
        if (e.silent)
          throw new ProviderError("network", `no answer from ${where} in ${idleMs / 1000} s, ${NOT_A_BYTE}${nearby ? NEARBY_SILENCE : ""}`, {
            silent: true,
            cause: e,
          });
        if (e.message.startsWith(KEEP_ALIVES_ONLY))
          throw new ProviderError("network", `${where} ${e.message} (keep-alives hold a try ${KEEP_ALIVE_TIMEOUTS} × [retry] idle_timeout_ms at most)`, {
            answerless: e.answerless,
            ...(e.stalledMs === undefined ? {} : { stalledMs: e.stalledMs }),
            cause: e,
          });
        // a proxy that refuses names its own setting (net/errors.ts)
        if (!REFUSED.test(e.message) || (e.cause instanceof NetError && e.cause.kind !== "upstream")) throw e;
        if (local) throw new ProviderError("network", `cannot connect to ${baseUrl}${from}: connection refused (is the server running?)`, { final: true });
        if (named.setting) throw new ProviderError("network", `${e.message}; the address is set by ${named.setting}`, { cause: e }); // retried as it was
        throw e;
      }
    },
  };
}

/** What the notice of an endpoint that sends whole answers says of it (doctor/probe.ts tells it by these words). */
export const NOT_STREAMED = 'does not stream (it ignores "stream": true)';

/** Why a server on this machine or its network that took the request says nothing: Ollama and LM Studio hold it while they load the model. */
const NEARBY_SILENCE = ": a local server may still be loading the model (a large one takes minutes the first time) or reading a long prompt";

/**
 * `event` with the opaque data it carries (a thinking signature, an encrypted reasoning item, a
 * thought signature) naming the provider `name` that produced it (Opaque.provider), which
 * kernel/adapt-history.ts sends it back to alone. The adapters make that data fresh for each answer.
 */
function signed(event: StreamEvent, name: string | undefined): StreamEvent {
  if (name === undefined) return event;
  const sign = (o: Opaque | undefined) => {
    if (o && o.provider === undefined) o.provider = name;
  };
  if (event.type === "tool_call") sign(event.call.opaque);
  if (event.type !== "done") return event;
  for (const p of event.message.content) if (p.type === "thinking") sign(p.opaque);
  for (const c of event.message.toolCalls ?? []) sign(c.opaque);
  return event;
}
