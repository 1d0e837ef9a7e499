// Google Gemini (SPEC §5.4, protocol "google"): generativelanguage.googleapis.com and gateways
// that speak its API. The only file that loads `@google/genai`, and only lazily, inside the
// factory. Fixture names below are under test/fixtures/wire/gemini/.
import type {
  Content,
  FunctionCall,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  GoogleGenAI,
  HttpOptions,
  Part,
  ThinkingConfig,
} from "@google/genai";
import { newId, parseArguments, type ContentBlock, type Message, type ToolCall } from "../kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../kernel/provider.ts";
import { asObject, errorContextOf, FOREIGN_CALL_SIGNATURE, joinText, requestBasics, sentSchema, toolText, noContentError, unfinishedError } from "./common.ts";
import type { AdapterOptions, RequestBasics } from "./common.ts";
import { geminiGeneration } from "./effort.ts";
import { fittingThinking, geminiThinking, thinkingConfigOf, type GeminiLearned } from "./gemini-thinking.ts";
import { errorChunkFailure, toProviderError } from "./google-errors.ts";
import { type GeminiNames, geminiNames } from "./gemini-names.ts";
import { toStop, toUsage, wireTap, type WireSeen } from "./google-finish.ts";
import { failedStop } from "./failed-stop.ts";
import { applyPartialArg } from "./partial-args.ts";
import { guardedStream } from "./stream-guard.ts";
import { splitBaseUrl } from "./api-root.ts";
import { type CallData, callArgs, type OpenCall, toToolCall } from "./google-calls.ts";
/** A whole answer where a stream was asked for, as the events that say the same (create.ts reads it with this). */
export { generateAnswerAsEvents as wholeAnswerAsEvents } from "./google-whole-answer.ts";

// ---------------------------------------------------------------------------------------------
// Opaque data: what a Gemini turn needs back on the next request

/** On the done message's thinking part: the model's parts as streamed, signatures in place. */
interface TurnData {
  parts: Part[];
}

// ---------------------------------------------------------------------------------------------
// IR → request

export interface RequestOptions extends RequestBasics {
  /** Passed to the SDK as `config.abortSignal`. */
  signal?: AbortSignal;
  /** What the model's refusals of a thinking level or budget taught (gemini-thinking.ts). */
  thinking?: GeminiLearned;
}

/**
 * The `generateContentStream` parameters for `req`. Pure. An assistant turn of this model whose
 * thinking the history kept (the current turn, and every tool-call turn in every later request, as
 * the SDK's own chat sends them) goes back as the parts it streamed, thought parts and signatures
 * included, so the cached prefix holds across prompts; any other turn is rebuilt from
 * text and tool calls without signatures. A turn's tool results become one user content of
 * `functionResponse` parts in call order.
 */
export function toRequest(req: ModelRequest, opts: RequestOptions): GenerateContentParameters {
  const contents: Content[] = [];
  const names = geminiNames(req.tools.map((t) => t.name));
  let calls: ToolCall[] = []; // of the latest assistant message, whose results follow it
  let results: Message[] = [];
  const flush = () => {
    if (results.length === 0) return;
    const order = (r: Message) => calls.findIndex((c) => c.id === r.toolCallId);
    results.sort((a, b) => order(a) - order(b));
    // a tool's images and PDFs: Gemini 3 takes them inside its function response; older models, as parts after the responses
    const inside = geminiGeneration(opts.model) >= 3;
    const after = inside ? [] : results.flatMap((r) => r.content.flatMap(mediaPart));
    contents.push({ role: "user", parts: [...results.map((r) => functionResponse(r, calls, opts.model, names, inside)), ...after] });
    results = [];
  };
  for (const m of req.messages) {
    if (m.role === "tool") {
      results.push(m);
      continue;
    }
    flush();
    if (m.role === "assistant") {
      calls = m.toolCalls ?? [];
      const parts = replayParts(m, opts.model) ?? rebuildParts(m, opts.model, names);
      if (parts.length > 0) contents.push({ role: "model", parts });
    } else {
      // Gemini has no system role inside `contents`: a mid-conversation system note is user text.
      contents.push({ role: "user", parts: userParts(m.content) });
    }
  }
  flush();
  // a content of its own after the last one: a text part beside functionResponse parts may be refused
  if (req.note) contents.push({ role: "user", parts: [{ text: req.note }] });

  const config: GenerateContentConfig = {
    // The SDK's string enum has the same values as the effort table's strings.
    ...(thinkingConfigOf(geminiThinking(opts.model, req.effort ?? opts.effort, opts.thinking)) as { thinkingConfig?: ThinkingConfig }),
    // On by default: a stream without a finishReason would be re-requested behind our back.
    automaticContinuation: false,
  };
  if (req.system) config.systemInstruction = { parts: [{ text: req.system }] };
  if (req.tools.length > 0)
    config.tools = [
      {
        functionDeclarations: req.tools.map((t) => ({
          name: names.toWire(t.name),
          description: t.description,
          parametersJsonSchema: sentSchema(t.parameters, "google"),
        })),
      },
    ];
  // no mode NONE for the hand-off (req.toolChoice): Gemini then acts "as when not passing any function declarations",
  // which precede the contents: the conversation's implicit cache would be lost (the prompt forbids calls; any are dropped)
  const maxTokens = req.maxTokens ?? opts.maxTokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (opts.signal) config.abortSignal = opts.signal;
  return { model: opts.model, contents, config };
}

/** An image or a PDF as inline data (Gemini reads a PDF whole: ai.google.dev "Document understanding"); nothing for other parts. */
const mediaPart = (p: ContentBlock): Part[] => (p.type === "image" || p.type === "document" ? [{ inlineData: { mimeType: p.mediaType, data: p.data } }] : []);

function userParts(content: ContentBlock[]): Part[] {
  const parts = content.flatMap((p): Part[] => (p.type === "text" ? [{ text: p.text }] : mediaPart(p)));
  return parts.length > 0 ? parts : [{ text: "" }];
}

/** The parts this model streamed for `m`, when its thinking part still carries them. */
function replayParts(m: Message, model: string): Part[] | undefined {
  for (const p of m.content) {
    if (p.type !== "thinking" || p.opaque?.protocol !== "google" || p.opaque.model !== model) continue;
    const parts = asObject(p.opaque.data)?.parts;
    if (Array.isArray(parts)) return parts as Part[];
  }
  return undefined;
}

/**
 * Text and calls without the turn's thought parts (another model's turn, or an earlier prompt's final
 * answer, whose thinking never went out: kernel/adapt-history.ts); a call of this model keeps its signature and id.
 * Gemini 3 answers 400 "Function call is missing a thought_signature" to a step whose first call has
 * none (ai.google.dev/gemini-api/docs/thought-signatures), as another model's calls do after /model.
 */
function rebuildParts(m: Message, model: string, names: GeminiNames): Part[] {
  const parts: Part[] = m.content.flatMap((p): Part[] => (p.type === "text" && p.text ? [{ text: p.text }] : []));
  for (const [i, c] of (m.toolCalls ?? []).entries()) {
    const data = callData(c, model);
    const call: FunctionCall = { name: names.toWire(c.name), args: parseArguments(c.arguments) ?? {} };
    if (data.id) call.id = data.id;
    const signature = data.thoughtSignature ?? (i === 0 && geminiGeneration(model) >= 3 ? FOREIGN_CALL_SIGNATURE : undefined);
    parts.push({ functionCall: call, ...(signature ? { thoughtSignature: signature } : {}) });
  }
  return parts;
}

function callData(c: ToolCall | undefined, model: string): CallData {
  if (c?.opaque?.protocol !== "google" || c.opaque.model !== model) return {};
  const data = asObject(c.opaque.data) ?? {};
  return {
    ...(typeof data.thoughtSignature === "string" ? { thoughtSignature: data.thoughtSignature } : {}),
    ...(typeof data.id === "string" ? { id: data.id } : {}),
  };
}

/**
 * A tool result as a function response. Its images go in `parts` with `inside` (Gemini 3's multimodal
 * function responses, ai.google.dev/gemini-api/docs/function-calling "Multimodal function responses"); else the text names
 * each, sent as a part after the turn's responses (toRequest).
 */
function functionResponse(r: Message, calls: ToolCall[], model: string, names: GeminiNames, inside: boolean): Part {
  const call = calls.find((c) => c.id === r.toolCallId);
  const text = inside ? joinText(r.content) : toolText(r.content, "follows the function responses");
  const images = inside ? r.content.flatMap(mediaPart) : [];
  const id = callData(call, model).id;
  return {
    functionResponse: {
      ...(id ? { id } : {}),
      name: names.toWire(r.toolName ?? call?.name ?? ""),
      response: r.isError ? { error: text } : { output: text },
      ...(images.length > 0 ? { parts: images } : {}),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Stream chunks → IR events

/** The fields of a streamed chunk we read (the SDK's class adds getters we must not use). */
export type Chunk = Pick<GenerateContentResponse, "candidates" | "usageMetadata" | "promptFeedback">;

/**
 * Maps Gemini chunks to IR events. Pure apart from iterating `chunks`; errors from `chunks`
 * propagate unchanged. Text and thought deltas are yielded as they arrive; tool calls whole once
 * the stream has ended, then `done`. Throws ProviderError("network") when the stream ends with no
 * finishReason and no promptFeedback after some of an answer (a cut connection must not look like a
 * finished answer), "empty_answer" when nothing came, and what `ctx.failed` says once the wire
 * held an error chunk the SDK passed on as an empty chunk.
 */
export async function* mapEvents(
  chunks: AsyncIterable<Chunk>,
  ctx: { model: string; tools?: readonly string[]; finishMessage?: () => string | undefined; failed?: () => Error | undefined },
): AsyncGenerator<StreamEvent> {
  const parts: Part[] = []; // what the next request sends back (see keepPart)
  const calls: OpenCall<Part>[] = [];
  let open: OpenCall<Part> | undefined;
  let thinking = "";
  let text = "";
  let finish: string | undefined;
  let finishMessage: string | undefined;
  let blocked: string | undefined;
  let usage: GenerateContentResponseUsageMetadata | undefined;

  for await (const chunk of chunks) {
    const failure = ctx.failed?.();
    if (failure) throw failure;
    // Every chunk repeats usage and the counts change (text.sse): the last one is the total; the first with the prompt's count is passed on, kept should the stream break
    if (chunk.usageMetadata?.promptTokenCount && !usage?.promptTokenCount) yield { type: "usage", usage: toUsage(chunk.usageMetadata) };
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    const feedback = chunk.promptFeedback;
    if (feedback?.blockReason)
      blocked = `the prompt was blocked: ${feedback.blockReason}${feedback.blockReasonMessage ? `: ${feedback.blockReasonMessage}` : ""}`;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) {
        open = addCallPart(part, part.functionCall, open, parts, calls);
        continue;
      }
      keepPart(parts, part);
      if (!part.text) continue;
      if (part.thought) thinking += part.text;
      else text += part.text;
      yield { type: part.thought ? "thinking" : "text", delta: part.text };
    }
    if (candidate?.finishReason) finish = candidate.finishReason;
    if (candidate?.finishMessage) finishMessage = candidate.finishMessage;
  }
  // a response that ended with nothing at all (`candidates: []`, usage alone) is an empty answer, not a cut connection
  if (finish === undefined && blocked === undefined) throw text || thinking || calls.length > 0 ? unfinishedError() : noContentError();
  finishMessage ??= ctx.finishMessage?.(); // the SDK drops it (finishMessageOf): read off the wire
  const failed = failedStop(finish, "finishReason"); // not Gemini's, but a gateway's that fronts another API
  if (failed) throw failed;

  const toolCalls = calls.map(toToolCall(ctx.model, finish === "MAX_TOKENS" ? (open ?? lastPartCall(parts, calls)) : undefined, geminiNames(ctx.tools ?? [])));
  for (const call of toolCalls) yield { type: "tool_call", call };

  const content: ContentBlock[] = [];
  // The parts ride along only when a rebuilt turn would lose something: thoughts or a signature.
  if (thinking || parts.some((p) => p.thoughtSignature)) {
    const data: TurnData = { parts };
    content.push({ type: "thinking", text: thinking, opaque: { protocol: "google", model: ctx.model, data } });
  }
  if (text) content.push({ type: "text", text });
  const message: Message = { id: newId(), role: "assistant", content };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  const stop = blocked ? "refusal" : toStop(finish ?? "", toolCalls.length > 0);
  // A blocked prompt or an unusual finishReason is not the model's answer: it goes to the user, not into the history.
  // A malformed call's finishMessage quotes the call Gemini could not parse: what the model is shown to correct it.
  const unusual = stop === "refusal" || stop === "other" || stop === "malformed_call";
  const reason = stop === "other" ? `"${finish}"` : finish; // the loop says it stopped for it
  const detail = blocked ?? (unusual && finish ? (finishMessage ? `${reason}: ${finishMessage}` : reason) : undefined);
  yield { type: "done", message, usage: toUsage(usage), stop, ...(detail ? { detail } : {}) };
}

/**
 * The call the output limit cut, of an answer that stopped at MAX_TOKENS with no call still open: the
 * last part, when it is a call. The Gemini API sends each call whole, its arguments an object however
 * far the model got (a file's content cut mid-line), so whether it was finished cannot be told; the
 * other protocols' adapters pass such a call on unclosed, and it never runs (kernel/tool-calls.ts).
 */
function lastPartCall(parts: Part[], calls: OpenCall<Part>[]): OpenCall<Part> | undefined {
  const last = calls.at(-1);
  return last && parts.at(-1) === last.part ? last : undefined;
}

/**
 * Keeps a non-call part for the next request. Signed parts are never merged (Gemini's
 * thought-signature rules) and an empty text that carries a signature is kept
 * (text-trailing-signature-chunk.sse); adjacent unsigned text of the same kind is joined (one
 * part per streamed chunk would bloat the session), and empty unsigned text is dropped (Vertex
 * rejects empty text parameters).
 */
function keepPart(parts: Part[], part: Part): void {
  const plain = (p: Part) => typeof p.text === "string" && Object.keys(p).every((k) => k === "text" || k === "thought");
  if (plain(part) && !part.text) return;
  const prev = parts.at(-1);
  if (prev && plain(prev) && plain(part) && Boolean(prev.thought) === Boolean(part.thought)) prev.text += part.text ?? "";
  else parts.push({ ...part });
}

/**
 * One `functionCall` part. The Gemini API sends each call whole; Vertex with streamed arguments
 * (vertex-parallel-calls-partial-args.sse) sends `{name, willContinue}`, then `partialArgs`
 * fragments, then an empty `functionCall: {}`. A call is done when a part does not say
 * `willContinue`. The assembled call takes the place of its first fragment among the parts.
 * Returns the call still open.
 */
function addCallPart(part: Part, fc: FunctionCall, open: OpenCall<Part> | undefined, parts: Part[], calls: OpenCall<Part>[]): OpenCall<Part> | undefined {
  if (fc.name) {
    const { functionCall: _, thoughtSignature: __, ...rest } = part;
    open = { part: { ...rest }, name: fc.name, ...callArgs(fc.args), ...(fc.id ? { id: fc.id } : {}) };
    parts.push(open.part);
    calls.push(open);
  }
  if (!open) return undefined;
  open.signature ??= part.thoughtSignature;
  for (const arg of fc.partialArgs ?? []) applyPartialArg(open.args, arg);
  // Written on every fragment, so a call cut short by MAX_TOKENS still has a well-formed part.
  open.part.functionCall = { name: open.name, args: open.args, ...(open.id ? { id: open.id } : {}) };
  if (open.signature) open.part.thoughtSignature = open.signature;
  return fc.willContinue ? open : undefined;
}

// ---------------------------------------------------------------------------------------------
// Factory: the only code that touches the SDK client

type Fetch = NonNullable<HttpOptions["fetch"]>;
const KEY_HEADER = "x-goog-api-key";
/** What our fetch saw of one request's response: its headers, and Gemini's finishMessage and error chunk (wireTap). */
type Seen = WireSeen & { headers?: Headers };

/**
 * A Provider over the Gemini API. The SDK is configured from these options only: never from
 * GOOGLE_API_KEY / GEMINI_API_KEY / GOOGLE_GEMINI_BASE_URL / GOOGLE_GENAI_* (sdk-facts §0), never
 * retries (no `retryOptions`), never continues a stream by itself, and has no `timeout` (it would
 * cut long streams, sdk-facts §3.1): the idle watchdog owns idleness.
 */
export async function createGoogleProvider(opts: AdapterOptions): Promise<Provider> {
  const { GoogleGenAI: Client } = await import("@google/genai");
  const apiKey = opts.apiKey || undefined;
  const target = splitBaseUrl(opts.baseUrl, opts.apiVersion);
  const send = opts.fetch ?? fetch;

  /** Our fetch, recording the response headers into `seen` (ApiError carries none), a streamed finishMessage and an error chunk (wireTap). */
  const wrap =
    (seen: Seen): Fetch =>
    async (input, init) => {
      const headers = new Headers(init?.headers);
      // Without a key the SDK sends an empty one (an undefined key would load google-auth-library).
      if (apiKey === undefined && headers.get(KEY_HEADER) === "") headers.delete(KEY_HEADER);
      const response = await send(input, { ...init, headers });
      seen.headers = response.headers;
      delete seen.errorChunk; // of an earlier try of this request (a refused thinking level goes again)
      if (!response.ok || !response.body) return response;
      const { status, statusText } = response;
      return new Response(response.body.pipeThrough(wireTap(seen)), { status, statusText, headers: response.headers });
    };

  // The constructor warns about a missing key (twice) and about GOOGLE_API_KEY + GEMINI_API_KEY
  // both being set, though neither is used: we pass the key explicitly.
  const warn = console.warn;
  console.warn = () => {};
  let client: GoogleGenAI;
  try {
    client = new Client({
      apiKey: apiKey ?? "",
      vertexai: false, // else GOOGLE_GENAI_USE_VERTEXAI / _ENTERPRISE decide
      httpOptions: { baseUrl: target.baseUrl, apiVersion: target.apiVersion, headers: { ...opts.headers }, fetch: wrap({}) },
    });
  } finally {
    console.warn = warn;
  }

  const requestOptions: RequestOptions = requestBasics(opts);
  const errorContext = errorContextOf(opts);

  return {
    protocol: "google",
    model: opts.model,
    stream(request: ModelRequest, signal: AbortSignal) {
      const seen: Seen = {}; // ApiError carries no headers: the fetch wrapper keeps them
      const attempt = () =>
        guardedStream(
          signal,
          opts.idleTimeoutMs,
          (s) => {
            const params = toRequest(request, { ...requestOptions, signal: s });
            params.config = { ...params.config, httpOptions: { fetch: wrap(seen) } };
            return client.models.generateContentStream(params);
          },
          (chunks) =>
            mapEvents(chunks, {
              model: opts.model,
              tools: request.tools.map((t) => t.name),
              finishMessage: () => seen.finishMessage,
              failed: () => (seen.errorChunk ? errorChunkFailure(seen.errorChunk, errorContext) : undefined),
            }),
          (e) => toProviderError(e, { ...errorContext, ...(seen.headers ? { headers: seen.headers } : {}) }),
          undefined,
          { protocol: "google", baseUrl: opts.baseUrl, setting: opts.protocolSetting },
        );
      // a thinking level or budget the model refuses goes again as the nearest it takes (gemini-thinking.ts)
      return fittingThinking(attempt, (requestOptions.thinking ??= {}), opts.model, request.effort ?? opts.effort);
    },
  };
}
