// What every adapter does the same way, whatever its vendor: the options a factory takes, the wording
// and the status rules of the errors it classifies, and the flattening of IR content its wire has no
// richer place for. Pure; no SDK, not even its types: vendor words stay in the vendor's files.
import type { ContentBlock, DocumentPart, Effort, ImagePart, Protocol, Usage } from "../kernel/ir.ts";
import { ProviderError, type ModelRequest } from "../kernel/provider.ts";
import { NetError } from "../net/errors.ts";
import { ceilingWords, contextOverflow } from "./context-length.ts";
import { IMAGES_REFUSED } from "./image-words.ts";
import { modelLoadError } from "./model-load.ts";
import { parseRetryAfter, retryHintOf } from "./retry-after.ts";
/** Each adapter sends a tool's schema through this (tool-schema.ts). */
export { sentSchema } from "./tool-schema.ts";

// ---------------------------------------------------------------------------------------------
// Factory options

/**
 * What an endpoint needs that its protocol's defaults do not give: `[provider.NAME]` keys, found
 * and written by `hey doctor --write`. undefined = the adapter's default. Only the adapters named
 * read each flag.
 */
export interface Compat {
  /** openai: which field carries the output limit; default max_completion_tokens on api.openai.com, else max_tokens */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** openai: the role of the system prompt; default "system" */
  systemRole?: "system" | "developer";
  /** openai: send the model's reasoning_content back with its tool-call turns (DeepSeek needs it); responses: false sends no reasoning item; default true */
  reasoningReplay?: boolean;
  /** openai, responses: false sends `parallel_tool_calls: false` (one call per turn); default: not sent */
  parallelToolCalls?: boolean;
  /** openai, responses: send `prompt_cache_key` (OpenAI routes a conversation's requests to its cache by it); default on api.openai.com and on responses */
  promptCacheKey?: boolean;
  /** openai: PDFs as `file` parts; default on the hosts documents.ts names */
  pdfs?: boolean;
  /** openai: Anthropic's `cache_control` breakpoints (a gateway in front of Claude); default on openrouter.ai for `anthropic/…` models */
  cacheControl?: boolean;
}

/**
 * What a Provider is built from: `createProvider` (create.ts) chooses the adapter by `protocol`,
 * and every adapter's factory takes the same options. Only the adapter named reads
 * `legacyThinking` and `apiVersion`.
 */
export interface ProviderOptions {
  protocol: Protocol;
  model: string;
  /** The configured provider's name (Provider.name): the opaque data of its answers carries it. */
  name?: string;
  /** As the user wrote it; each adapter says which forms it accepts. */
  baseUrl: string;
  /** undefined or "" = send no key at all (local servers, keyless gateways). */
  apiKey?: string;
  /** The variable the key came from, for auth error messages. */
  apiKeyVar?: string;
  /** Why no key is sent though one was given, empty (`OPENAI_API_KEY is set but empty`), for auth error messages. */
  apiKeyEmpty?: string;
  /** Where the key is given, for auth error messages; default `api_key in the provider's config, --api-key or HEY_API_KEY` (the CLI's). */
  apiKeySetting?: string;
  /** Sent on every request; they win over the adapter's own. */
  headers?: Record<string, string>;
  maxTokens?: number;
  /** The provider's default; `ModelRequest.effort` wins when set. */
  effort?: Effort;
  fetch?: typeof fetch;
  /** The proxy requests go through, in words (net/fetch.ts proxyNameOf), named when a try got not a byte: it may be the silent one. */
  proxy?: string;
  /** Where `baseUrl` was set, for the error of a host that does not resolve: `base_url of [provider.NAME] in FILE`, `--base-url`. */
  baseUrlSetting?: string;
  /** Where `protocol` was set, for the error of a stream of another protocol's events: `[provider.NAME] in FILE`; undefined: --protocol (HEY_PROTOCOL). */
  protocolSetting?: string;
  /** `baseUrl` is hey's own built-in address (no one wrote it): a name that does not resolve is this machine's network or DNS, not a typo. */
  builtInUrl?: boolean;
  /** Abort when nothing arrives for this long; default DEFAULT_IDLE_TIMEOUT_MS (stream-guard.ts). */
  idleTimeoutMs?: number;
  compat?: Compat;
  /** anthropic: `thinking: {type: "enabled", budget_tokens}` instead of adaptive thinking */
  legacyThinking?: boolean;
  /** google: `[provider.X] api_version`; wins over a version in `baseUrl` */
  apiVersion?: string;
  /**
   * openai: run tool calls the answer's text ends with (each starting a line outside code and `>`
   * quotes, prose between them kept; none when prose follows the last), as a server that does not
   * parse them leaves them (text-call-stream.ts), until the endpoint sends a call of its own; default
   * off: a call in the text is then text the model quotes. hey sets it for every endpoint but a
   * vendor's own API.
   */
  textCalls?: boolean;
}

/** A factory's options: the protocol is the factory's own. */
export type AdapterOptions = Omit<ProviderOptions, "protocol">;

/** What every adapter's pure `toRequest` is given besides the request; an adapter adds its own few. */
export interface RequestBasics {
  model: string;
  /** The provider's output limit; `ModelRequest.maxTokens` wins when set. */
  maxTokens?: number;
  /** The provider's default; `ModelRequest.effort` wins when set. */
  effort?: Effort;
}

/** The RequestBasics of a factory's options. */
export function requestBasics(opts: AdapterOptions): RequestBasics {
  return {
    model: opts.model,
    ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
    ...(opts.effort !== undefined ? { effort: opts.effort } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Errors

/** What an adapter's `toProviderError` needs besides the error: the words of its messages. */
export interface ErrorContext {
  /** The environment variable the key came from, named in auth errors. */
  keyVar?: string;
  /** Where the key is given, named in auth errors (ProviderOptions.apiKeySetting). */
  keySetting?: string;
  /** false when no key was configured (so none was sent). Default true. */
  hasKey?: boolean;
  /** Why none was, when one was given empty (ProviderOptions.apiKeyEmpty). */
  keyEmpty?: string;
  baseUrl: string;
  /** For HTTP-date Retry-After values; default Date.now(). */
  now?: number;
}

/** The ErrorContext of a factory: an empty key counts as none, as the factories send none. */
export function errorContextOf(opts: AdapterOptions): ErrorContext {
  return {
    baseUrl: opts.baseUrl,
    hasKey: Boolean(opts.apiKey),
    ...(opts.apiKeyVar !== undefined ? { keyVar: opts.apiKeyVar } : {}),
    ...(opts.apiKeySetting !== undefined ? { keySetting: opts.apiKeySetting } : {}),
    ...(opts.apiKeyEmpty ? { keyEmpty: opts.apiKeyEmpty } : {}),
  };
}

/** What an adapter read from a failed response, for the rules every adapter applies to it. */
export interface Failure {
  status: number;
  /** The provider's own words. */
  said: string;
  /** How the message names the failure: `(429)` by default; Anthropic's in-stream errors say `mid-stream (type)`. */
  where?: string;
  /** The vendor's own sign of a bad key on a status other than 401/403 (Gemini's 400 API_KEY_INVALID). */
  badKey?: boolean;
  /** The vendor's sign that the quota or credit is spent: retrying cannot help. */
  quota?: boolean;
  /** A vendor's own API answered (Google's error object), not a server the user starts: no server flag turns tools on. */
  hosted?: boolean;
  /** The server says a retry of this 5xx would fail again (Anthropic's `x-should-retry: false`). */
  final?: boolean;
  retryAfterMs?: number;
  /** The status was read from an in-stream error, not from the HTTP response: the ProviderError carries none. */
  noStatus?: boolean;
  /** The error object of the body, for numbers some servers put beside the message (llama.cpp's `n_ctx`). */
  body?: Record<string, unknown>;
}

/**
 * The status rules every adapter shares, applied once its vendor's own reading is done: 401/403
 * (or a vendor's bad-key sign) → auth; a spent quota → quota_exhausted; a context-length error
 * (context-length.ts) on any other 4xx or 5xx → context_length; 429 → rate_limit; 408 →
 * network; 5xx → overloaded; anything else → bad_request, naming the base URL on a 404. Only the
 * retryable kinds carry `retryAfterMs`: the response's own, else the wait a 429's words ask for
 * (retryHintOf). Pure; never throws.
 */
export function classifyFailure(f: Failure, ctx: ErrorContext): ProviderError {
  const { status } = f;
  const said = oneLine(f.said);
  const where = f.where ?? `(${status})`;
  const plain = f.noStatus ? {} : { status };
  // a 429's own words, not a 5xx page's: "try again in 5 minutes" on a proxy's error page is boilerplate
  const retryAfterMs = f.retryAfterMs ?? (status === 429 ? retryHintOf(f.said) : undefined);
  const opts = { ...plain, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  if (status === 401 || status === 403 || f.badKey) return new ProviderError("auth", authMessage(where, said, ctx), plain);
  if (f.quota) return new ProviderError("quota_exhausted", `quota exhausted ${where}: ${said}`, plain);
  // a 429 is a rate, unless one request alone is over the limit (OpenAI's "Request too large … Limit 30000, Requested 45000")
  const overflow = status === 408 ? undefined : contextOverflow(f.said, f.body);
  if (overflow?.ceiling) return new ProviderError("context_length", `${ceilingWords(overflow)} ${where}: ${said}`, { ...plain, overflow });
  if (overflow && status !== 429)
    return new ProviderError("context_length", `the request is larger than the model's context window ${where}: ${said}`, { ...plain, overflow });
  // whatever the status (llama.cpp says it with a 500): asking again cannot help
  if (status !== 429 && TOOLS_REFUSED.test(f.said))
    return new ProviderError("bad_request", `request rejected ${where}: ${said}${f.hosted ? NO_TOOLS_HINT : `${NO_TOOLS_HINT}${SERVER_TOOLS_HINT}`}`, plain);
  // a model without vision (Ollama's 500 "missing data required for image input"): the model, not a flake; openai-adapt.ts sends its images as lines
  if (status !== 429 && IMAGES_REFUSED.test(f.said)) return new ProviderError("bad_request", `request rejected ${where}: ${said}`, plain);
  if (status === 400 && PROMPT_FILTERED.test(`${f.said} ${f.body?.code ?? ""}`))
    return new ProviderError("bad_request", `the provider's content filter refused the request ${where}: ${said}`, { ...plain, refusedPrompt: true });
  if (status === 429) return new ProviderError("rate_limit", `rate limited ${where}: ${said}`, opts);
  if (status === 408) return new ProviderError("network", `request timed out ${where}: ${said}`, opts);
  const load = modelLoadError(status, said, where, opts); // a model loading is waited for; one too large for memory is final
  if (load) return load;
  if (status >= 500 && f.final) return new ProviderError("bad_request", `the provider failed ${where} and says retrying will not help: ${said}`, plain);
  if (status >= 500) return new ProviderError("overloaded", `the provider is failing ${where}: ${said}`, opts);
  const hint = status === 404 ? `${CHECK_NAME} ${ctx.baseUrl}` : "";
  return new ProviderError("bad_request", `request rejected ${where}: ${said}${hint}`, plain);
}

export const CHECK_NAME = " — check the model name and base URL"; // after a 404's words; a run replaces it when they name a missing model (config/missing-model.ts)

/**
 * A model or server that takes no tool definitions, in its own words: Ollama's 400 ("… does not
 * support tools"), vLLM's 400 without tool parsing ("\"auto\" tool choice requires
 * --enable-auto-tool-choice and --tool-call-parser to be set"), llama.cpp's 500 `server_error`
 * without templates ("tools param requires --jinja flag"), OpenRouter's 404 ("No endpoints found
 * that support tool use"), DeepInfra's 405 ("Tool calling is not supported for model: …"), Azure
 * OpenAI's 400 ("Functions are not supported for this API version or this model version."),
 * Gemini's 400 for Gemma ("Function calling is not enabled for models/gemma-3-27b-it": agno#3505,
 * litellm#10313), ADK's ("Tool use with function calling is unsupported": google/adk-python#134).
 */
const TOOLS_REFUSED =
  /does not support tools|tool choice requires --enable-auto-tool-choice|tools param requires --jinja|no endpoints found that support tool use|(?:tools?|tool use(?: with function calling)?|tool calling|function calling|functions) (?:is|are) (?:not supported|not enabled|unsupported)/i;
const NO_TOOLS_HINT =
  " — this model or server takes no tools, and hey works through them (reading files, running commands): pick a model that calls tools (-m)";
/** Only where the server is the user's own to start with other flags: a vendor's API has none. */
const SERVER_TOOLS_HINT = ", or turn tool calling on in the server (vLLM: --enable-auto-tool-choice --tool-call-parser NAME; llama.cpp: --jinja)";

/**
 * A prompt the provider's content filter refused, in its words or code: Azure OpenAI's 400 (`code:
 * "content_filter"`, "The response was filtered due to the prompt triggering Azure OpenAI's content
 * management policy", innererror ResponsibleAIPolicyViolation), OpenAI's 400 `invalid_prompt` ("Invalid
 * prompt: your prompt was flagged as potentially violating our usage policy").
 */
const PROMPT_FILTERED = /\bcontent_filter\b|content management policy|ResponsibleAIPolicyViolation|prompt was flagged|flagged as potentially violating/i;

/** How much of a provider's words an error message quotes. */
const SAID_CHARS = 300;

/**
 * The provider's words as one line of an error message: an HTML page (a gateway's or a proxy's
 * error page, sent whole) by its title, else by its text; runs of whitespace as one space; cut at
 * SAID_CHARS with "…"; nothing, or an empty JSON value (`{}`, a 429 from some gateways), said as such. Pure.
 */
export function oneLine(said: string): string {
  let text = said;
  if (/<(!doctype\s+html|html|head|body|title)\b/i.test(text)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.trim();
    const page = title || text.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ");
    text = `an HTML page: ${page.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e]!)}`;
  }
  text = text.replace(/\s+/g, " ").trim();
  if (/^(\{\s*\}|\[\s*\]|null|""|)$/.test(text)) return "no details given (an empty body)";
  return text.length > SAID_CHARS ? `${text.slice(0, SAID_CHARS - 1)}…` : text;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** An auth failure's message, saying what to fix: the key that was sent, or that none was. */
export function authMessage(where: string, said: string, ctx: ErrorContext): string {
  const head = `authentication failed ${where}: ${said}`;
  const setting = ctx.keySetting ?? "api_key in the provider's config, --api-key or HEY_API_KEY";
  // `OPENAI_API_KEY=` exported (a CI secret this job cannot read): "set it" would send the user to what they did
  if (ctx.hasKey === false && ctx.keyEmpty) return `${head} — no API key was sent to ${ctx.baseUrl}: ${ctx.keyEmpty}; give it the key (or use ${setting})`;
  if (ctx.hasKey === false) return `${head} — no API key was sent to ${ctx.baseUrl}; set ${ctx.keyVar ?? "one"} (${setting})`;
  return `${head} — check ${ctx.keyVar ?? ctx.keySetting ?? "the provider's api_key"}`;
}

/**
 * A failure with no status and no body: the request never got an answer (connection refused or
 * reset, DNS, TLS). Names the base URL and, when there is one, the underlying cause.
 */
export function networkError(said: string, cause: unknown, baseUrl: string): ProviderError {
  const because = cause instanceof Error && cause.message ? ` (${withoutFetchHint(cause.message)})` : "";
  return new ProviderError("network", `network error talking to ${baseUrl}: ${withoutFetchHint(said)}${because}`);
}

/** Bun's fetch ends its errors with advice for fetch's own callers, which means nothing to a hey user. */
const withoutFetchHint = (text: string) => text.replace(/\s*For more information, pass `verbose: true` in the second argument to fetch\(\)\.?/g, "");

/**
 * The ProviderError for a NetError (net/errors.ts) thrown by hey's fetch, found in `e` or its cause
 * chain (the SDKs wrap what fetch throws): a proxy's demand for credentials is `auth`, the rest
 * `network`, and a permanent one is final — retrying cannot help. Its `cause` is the NetError, so a
 * caller can tell the proxy's `auth` from the endpoint's. Undefined when there is none.
 */
export function netFailure(e: unknown): ProviderError | undefined {
  for (let cause = e, depth = 0; typeof cause === "object" && cause !== null && depth < 4; depth++) {
    if (cause instanceof NetError) return new ProviderError(cause.kind === "proxy_auth" ? "auth" : "network", cause.message, { final: cause.permanent, cause });
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a request the server took, then closed without a finished answer, fails with (ui/setup-help.ts tells a running server by it). */
export const UNFINISHED = "the connection closed before the model finished its answer";

/** A stream that ended without the vendor's sign of a finished answer: a cut connection, retryable. */
export function unfinishedError(): ProviderError {
  return new ProviderError("network", UNFINISHED);
}

/**
 * A stream that ended as its server ended it (closed, or its end marker sent) with nothing in it: no
 * text, no thinking, no tool call. Not a dropped connection: the endpoint answered, with nothing (a
 * transient flake of some models), retried a few times (kernel/retry.ts EMPTY_RETRIES). create.ts
 * names the endpoint in place of `endpoint`; `usage` is what the empty answer was billed, when its
 * server said (a request whose answer is empty still costs its input); `said`: what it answered
 * with (empty-answers.ts: "only reasoning"); `lostCall`: ProviderError.lostCall.
 */
export function noContentError(endpoint = "the endpoint", usage?: Usage, said = "no content", lostCall = false): ProviderError {
  return new ProviderError("empty_answer", `${endpoint} answered with ${said}`, { ...(usage ? { usage } : {}), ...(lostCall ? { lostCall } : {}) });
}

/**
 * The SDK's own message minus the status prefix its HTTP errors start with ("502 Bad Gateway" →
 * "Bad Gateway"); "" for the words the openai and anthropic SDKs put in place of an empty body
 * ("502 status code (no body)"), which oneLine says as such.
 */
export function sdkWords(message: unknown): string {
  const msg = (typeof message === "string" ? message : "").replace(/^\d{3}\s+/, "");
  if (msg === "status code (no body)") return "";
  return msg || "(no message)";
}

/**
 * A reader of the response headers an SDK error carries: a `Headers`, or a plain record of
 * strings (as some SDK versions build them); anything else has none.
 */
export function headerReader(headers: unknown): (name: string) => string | null | undefined {
  return (name) => {
    if (headers instanceof Headers) return headers.get(name);
    const v = typeof headers === "object" && headers !== null ? (headers as Record<string, unknown>)[name] : undefined;
    return typeof v === "string" ? v : undefined;
  };
}

/** The delay the response's Retry-After headers ask for (see parseRetryAfter), or undefined. */
export function retryAfterOf(headers: unknown, now: number | undefined): number | undefined {
  return parseRetryAfter(headerReader(headers), now ?? Date.now());
}

// ---------------------------------------------------------------------------------------------
// IR content

/** The text parts, one per line; images and thinking are left out. */
export function joinText(content: ContentBlock[]): string {
  return content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
}

/** Content for a place that carries text only (a tool result on some wires, a text-only model): each image and PDF is named, `[image TYPE omitted]` or what `where` says of it. */
export function toolText(content: ContentBlock[], where = "omitted"): string {
  const named = (p: ContentBlock) => (p.type === "image" ? [`[image ${p.mediaType} ${where}]`] : p.type === "document" ? [`[PDF ${p.name} ${where}]`] : []);
  return content.flatMap((p) => (p.type === "text" ? [p.text] : named(p))).join("\n");
}

/** An image or a PDF as a `data:` URL, the form the OpenAI wires take them in. */
export function dataUrl(p: ImagePart | DocumentPart): string {
  return `data:${p.mediaType};base64,${p.data}`;
}

/** A plain object (not an array, not null), or undefined: for reading vendor JSON of unknown shape. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Prompt caching

/**
 * A key that stays the same for every agent request of one conversation: its first user message's
 * id (that message is never dropped). Undefined for a request without tools (a summary: never
 * repeated) or without a user message.
 */
export function conversationKey(req: ModelRequest): string | undefined {
  const first = req.messages.find((m) => m.role === "user");
  return req.tools.length > 0 && first ? `hey-${first.id}` : undefined;
}

/**
 * What Gemini 3 takes in place of a thought signature for a function call it did not make (another
 * model's, before /model or -c): "for histories that were not generated by Gemini",
 * ai.google.dev/gemini-api/docs/thought-signatures. The native and the OpenAI-compatible adapters send it.
 */
export const FOREIGN_CALL_SIGNATURE = "skip_thought_signature_validator";
