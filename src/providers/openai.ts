// OpenAI-compatible Chat Completions (SPEC §5.1, protocol "openai"): api.openai.com, DeepSeek,
// OpenRouter, Ollama, vLLM, LM Studio and gateways. The only file that loads the `openai` SDK,
// and only lazily, inside the factory. Fixture names below are under test/fixtures/wire/.
import type OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import { newId, type ContentBlock, type DocumentPart, type ImagePart, type Message, type ToolCall } from "../kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../kernel/provider.ts";
import { openaiEffort } from "./effort.ts";
import { adaptingStream } from "./adapting-stream.ts";
import { withFailedCalls } from "./failed-call.ts";
import { conversationKey, errorContextOf, joinText, requestBasics, sentSchema, toolText, noContentError, unfinishedError } from "./common.ts";
import type { AdapterOptions, RequestBasics } from "./common.ts";
import { deltaContent } from "./delta-content.ts";
import { adaptToRefusal, joinedUserTurns } from "./openai-adapt.ts";
import { pdfsWithheld, toolImageLine, toolImagesMessage, userContent } from "./chat-images.ts";
import { documentsAsLines, takesPdfs } from "./documents.ts";
import { reasoningFields, replaysEveryTurn, type ChatReasoningData, type ReasoningReplay } from "./reasoning-replay.ts";
import { addDetails, type ReasoningDetail } from "./openrouter-details.ts";
import { toProviderError } from "./openai-errors.ts";
import { wholeErrorBodies } from "./whole-error-body.ts";
import { serverNamed } from "./served-context.ts";
import { thinkTags, type ThinkSplit } from "./think-tags.ts";
import { guardedStream, quietAfter } from "./stream-guard.ts";
import { addFragment, type StreamedCall, wireCall } from "./openai-tool-calls.ts";
import { callIdOf, nineCharId, wantsNineCharIds } from "./tool-call-ids.ts";
import { doneMarkers, endDetail, toStop, toUsage } from "./openai-end.ts";
import { failedStop } from "./failed-stop.ts";
import { textCallsOf } from "./text-call-stream.ts";
import { markCacheBreakpoints, takesCacheMarks } from "./chat-cache-marks.ts";
/** A whole answer where a stream was asked for, as the events that say the same (create.ts reads it with this). */
export { chatAnswerAsEvents as wholeAnswerAsEvents } from "./openai-whole-answer.ts";

export interface RequestOptions extends RequestBasics {
  /** api.openai.com wants `max_completion_tokens`; most compatible servers only know `max_tokens`. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** the role of the system prompt (default "system"); some servers reject the other one */
  systemRole?: "system" | "developer";
  /**
   * which turns' reasoning goes back as reasoning_content (or the field it came in): "sent" (default)
   * — what went out once, in every later request: the current user turn's and every tool-call
   * turn's; "all" — that, and an empty reasoning_content on a tool-call turn without any of this
   * model's (DeepSeek, Kimi refuse one without); "none" — never (a strict server rejects the unknown field)
   */
  reasoningReplay?: ReasoningReplay;
  /** false: `parallel_tool_calls: false` (a server that loses all but one of parallel calls) */
  parallelToolCalls?: boolean;
  /** send `prompt_cache_key` (conversationKey) with agent requests */
  cacheKey?: boolean;
  /**
   * false: no `stream_options` (servers that refuse the field: older Azure api-versions, strict
   * gateways); the stream then reports no usage, and hey estimates
   */
  streamUsage?: boolean;
  /** reasoning efforts the model refused → the nearest it takes (effort.ts learnEffort) */
  effortFor?: Record<string, string>;
  /** tool-call ids as 9 characters [a-zA-Z0-9] (tool-call-ids.ts): Mistral refuses any other */
  nineCharIds?: boolean;
  /** false: no `reasoning_effort`, whatever the effort (a model that takes no such dial) */
  sendEffort?: boolean;
  /** a turn's first call without a signature of this model gets Google's stand-in (SKIP_SIGNATURE) */
  signatureFallback?: boolean;
  /** each image goes as a line saying it was left out (a text-only model refused one: image-words.ts IMAGES_REFUSED) */
  noImages?: boolean;
  /** a tool result's images go as lines, not in a user message after the tool messages (Mistral refuses a user turn there) */
  toolImagesAsText?: boolean;
  /** PDFs go as `file` parts (documents.ts takesPdfs); otherwise each as a line saying how to read it */
  pdfs?: boolean;
  /** Anthropic's `cache_control` breakpoints on the system prompt and the last turns (chat-cache-marks.ts) */
  cacheMarks?: boolean;
  /** user messages in a row go as one (openai-adapt.ts joinedUserTurns): a strict chat template refused them */
  joinUserTurns?: boolean;
}

// ---------------------------------------------------------------------------------------------
// IR → request body

/**
 * The streaming request body for `req`. Pure. Thinking goes back as DeepSeek's
 * `reasoning_content` (or the field it came in) only to the model that produced it (see `reasoningFields`); images become
 * data URLs; an empty tool list omits `tools` (some servers reject `tools: []`).
 */
export function toRequest(req: ModelRequest, opts: RequestOptions): ChatCompletionCreateParamsStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  const systemRole = opts.systemRole ?? "system";
  if (req.system) messages.push({ role: systemRole, content: req.system });
  const lastUser = req.messages.findLastIndex((m) => m.role === "user");
  const wireId = opts.nineCharIds ? nineCharId : (id: string) => id;
  const toolImages = !opts.noImages && !opts.toolImagesAsText;
  let shown: (ImagePart | DocumentPart)[] = [];
  let unchanged: number | undefined; // the chat message req.unchangedThrough ends in

  req.messages.forEach((m, i) => {
    switch (m.role) {
      case "system":
        messages.push({ role: systemRole, content: joinText(m.content) });
        break;
      case "user":
        messages.push({ role: "user", content: userContent(m.content, opts.noImages === true, pdfsWithheld(opts)) });
        break;
      case "tool": {
        // Text only, and an error result is plain text too: tool messages have no images and no error flag.
        // Their images and PDFs follow in a user message after the turn's last tool message (openai-adapt.ts TOOL_IMAGES_NOTICE).
        const pdfsWhy = pdfsWithheld(opts) ?? (toolImages ? undefined : "this endpoint takes no PDFs after tool results");
        const content = pdfsWhy ? documentsAsLines(m.content, pdfsWhy) : m.content;
        messages.push({ role: "tool", tool_call_id: wireId(m.toolCallId ?? ""), content: toolText(content, toolImageLine(toolImages, opts.noImages)) });
        if (toolImages) shown = [...shown, ...content.filter((p) => p.type === "image" || p.type === "document")];
        if (req.messages[i + 1]?.role === "tool") break;
        if (shown.length > 0) messages.push(toolImagesMessage(shown));
        shown = [];
        break;
      }
      case "assistant": {
        const calls = m.toolCalls ?? [];
        const text = joinText(m.content);
        const out: ChatCompletionMessageParam = {
          role: "assistant",
          // null (not "") beside tool calls, as the API itself returns; a bare empty turn needs a string.
          content: text || (calls.length > 0 ? null : ""),
        };
        if (calls.length > 0) out.tool_calls = calls.map((c, k) => wireCall(c, wireId(c.id), opts.model, k === 0 && opts.signatureFallback === true));
        const replay = opts.reasoningReplay ?? "sent";
        // a tool-call turn's reasoning went out with its results: left out at the next prompt, the
        // cached prefix broke there and the whole turn was billed again uncached
        const sent = i > lastUser || calls.length > 0;
        messages.push(replay === "none" ? out : { ...out, ...reasoningFields(m, opts.model, sent, replay === "all" && calls.length > 0) });
        break;
      }
    }
    if (m.id === req.unchangedThrough) unchanged = messages.length - 1;
  });

  // an agent request marks what the next request will repeat; a summary's is never repeated
  if (opts.cacheMarks && req.tools.length > 0) markCacheBreakpoints(messages, !req.onceTail, unchanged);
  if (req.note) appendNote(messages, req.note);

  const body: ChatCompletionCreateParamsStreaming = { model: opts.model, messages: opts.joinUserTurns ? joinedUserTurns(messages) : messages, stream: true };
  if (opts.streamUsage !== false) body.stream_options = { include_usage: true };
  if (req.tools.length > 0)
    body.tools = req.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: sentSchema(t.parameters, "openai") },
    }));
  // not with Anthropic's cache marks (Claude behind a gateway): a changed tool choice there rewrites the cached conversation at 1.25× (anthropic.ts)
  if (req.tools.length > 0 && req.toolChoice === "none" && !opts.cacheMarks) body.tool_choice = "none";
  if (req.tools.length > 0 && opts.parallelToolCalls === false) body.parallel_tool_calls = false;
  const key = opts.cacheKey ? conversationKey(req) : undefined;
  if (key) body.prompt_cache_key = key;
  const effort = req.effort ?? opts.effort;
  // "none" is the official no-reasoning value; "off" would be a 400. Other levels pass verbatim.
  const wire = effort === undefined || opts.sendEffort === false ? undefined : openaiEffort(effort);
  if (wire !== undefined) body.reasoning_effort = (opts.effortFor?.[wire] ?? wire) as typeof body.reasoning_effort;
  const maxTokens = req.maxTokens ?? opts.maxTokens;
  if (maxTokens !== undefined) body[opts.maxTokensField ?? "max_tokens"] = maxTokens;
  return body;
}

/**
 * The request's note at the end of the last user or tool message, after a blank line: caching is
 * by token prefix here, so the next request, without it, still reuses everything before it; a
 * message of its own would be a user turn after tool results, which strict servers reject
 * (Mistral: "Unexpected role 'user' after role 'tool'").
 */
function appendNote(messages: ChatCompletionMessageParam[], note: string): void {
  const last = messages.at(-1);
  if (last?.role === "tool" && typeof last.content === "string") last.content = `${last.content}\n\n${note}`;
  else if (last?.role === "user" && typeof last.content === "string") last.content = `${last.content}\n\n${note}`;
  else if ((last?.role === "user" || last?.role === "tool") && Array.isArray(last.content)) last.content = [...last.content, { type: "text", text: note }];
  else messages.push({ role: "user", content: note });
}

// ---------------------------------------------------------------------------------------------
// Stream chunks → IR events

/** What non-OpenAI hosts add to the SDK's delta and usage types. */
/** The index a legacy `function_call` is joined at: past any `tool_calls` index, so one stream holding both keeps them apart. */
const LEGACY_CALL_INDEX = Number.MAX_SAFE_INTEGER;

type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null; reasoning_details?: unknown };
type WireUsage = CompletionUsage & { prompt_cache_hit_tokens?: number; prompt_tokens_details?: { cache_write_tokens?: number } | null };

/**
 * Maps a chat-completions chunk stream to IR events. Pure apart from iterating `chunks`; errors
 * from `chunks` propagate unchanged (the factory classifies them). Text and thinking deltas are
 * yielded as they arrive (content opening with `<think>` is thinking up to `</think>`:
 * think-tags.ts); tool calls are yielded whole once the stream has ended, then `done`.
 * An answer without any finish_reason is finished when `ctx.ended()` says the server ended its
 * stream itself (`data: [DONE]`): "tool_calls" with calls, else "stop". Without that it throws
 * ProviderError("network") after some of an answer (a cut connection must not look like a finished
 * answer), "empty_answer" when nothing came; one whose finish_reason reports a failure (failed-stop.ts)
 * throws as such, and an unknown one is stop "other", named in `detail`. Reading stops once the answer is complete: a
 * finish_reason, and usage with it or after it unless `ctx.usageAsked` is false (no stream_options was sent).
 */
export async function* mapEvents(
  chunks: AsyncIterable<ChatCompletionChunk>,
  ctx: { model: string; usageAsked?: boolean; ended?: () => boolean },
): AsyncGenerator<StreamEvent> {
  let text = "";
  let thinking = "";
  let field: ChatReasoningData["field"]; // the one the reasoning came in, when not DeepSeek's reasoning_content
  const details: ReasoningDetail[] = []; // OpenRouter's, sent back as they came (openrouter-details.ts)
  let refused = false;
  let finish: string | undefined;
  let usage: WireUsage | undefined;
  let ours: number | undefined;
  let fingerprint: string | null | undefined;
  const calls: StreamedCall[] = []; // in arrival order (addFragment)
  const tags = thinkTags();
  /** Keeps and yields what a chunk adds to the thinking and to the answer. */
  function* said(part: ThinkSplit): Generator<StreamEvent> {
    thinking += part.thinking;
    if (part.thinking) yield { type: "thinking", delta: part.thinking };
    text += part.text;
    if (part.text) yield { type: "text", delta: part.text };
  }

  try {
    for await (const chunk of chunks) {
      // Usage arrives in a `choices: []` chunk (OpenAI), on the finish chunk (deepseek/reasoning.sse)
      // or after it (openai-compat/openrouter-comment-lines.sse); every other chunk may say null.
      if (chunk.usage) usage = chunk.usage;
      if (finish !== undefined && chunk.usage) break; // complete: see below
      fingerprint ??= chunk.system_fingerprint;
      // Our choice is the first one named: 0, whose chunks interleave with others' when n > 1
      // (openai-chat/multiple-choices-n3.sse); some gateways number a lone choice 1 (BerriAI/litellm#3678).
      if (ours === undefined && chunk.choices?.length) ours = chunk.choices[0]?.index;
      const choice = chunk.choices?.find((c) => c.index === ours);
      if (!choice) continue;
      const delta = (choice.delta ?? {}) as Delta;

      // DeepSeek/vLLM say reasoning_content, OpenRouter says reasoning; either may be "" or null.
      // Mistral's reasoning comes as typed chunks of `content` (delta-content.ts).
      if (!thinking && !delta.reasoning_content && delta.reasoning) field = "reasoning";
      const content = deltaContent(delta.content);
      const tagged = tags.push(content.text); // `<think>…</think>` opening the content is thinking too (think-tags.ts)
      const detailed = addDetails(details, delta.reasoning_details);
      yield* said({ thinking: (delta.reasoning_content || delta.reasoning || detailed) + content.thinking + tagged.thinking, text: tagged.text });
      if (delta.refusal) {
        refused = true;
        text += delta.refusal;
        yield { type: "text", delta: delta.refusal };
      }
      for (const tc of delta.tool_calls ?? []) addFragment(calls, tc);
      // the deprecated `function_call` (older LocalAI and text-generation-webui builds answer `tools` so): one call, without id
      if (delta.function_call) addFragment(calls, { index: LEGACY_CALL_INDEX, function: delta.function_call });
      // OpenRouter repeats finish_reason: null on its usage chunk after the real one.
      if (choice.finish_reason) finish = choice.finish_reason;
      // The answer is complete once the finish and the usage asked for (on that chunk or a later one)
      // have come: stop reading, for a server may keep the connection open with no [DONE] after them.
      if (finish !== undefined && (chunk.usage || ctx.usageAsked === false)) break;
    }
  } catch (e) {
    // the answer had finished (its finish_reason came) and the connection failed while hey waited for the
    // usage (a server that ignores stream_options, then resets): the answer stands, its usage estimated
    if (finish === undefined) throw e;
  }
  yield* said(tags.end());
  const failed = failedStop(finish, "finish_reason"); // text that came is kept as a broken stream's, and no call runs
  if (failed) throw failed;

  const some = text || thinking || calls.length > 0;
  // no finish_reason, but the server's own end ([DONE]) came: a finished answer (llama.cpp, gateways that drop the field)
  if (finish === undefined && some && ctx.ended?.()) finish = calls.length > 0 ? "tool_calls" : "stop";
  // ended as the server ended it ([DONE], or closed) with nothing at all: an empty answer, not a cut connection
  if (finish === undefined) throw some ? unfinishedError() : noContentError();

  const toolCalls: ToolCall[] = calls
    .toSorted((a, b) => a.index - b.index) // stable: calls sharing an index keep their order
    .filter((c, k, all) => c.args || toStop(finish) !== "length" || k < all.length - 1) // cut before any argument: nothing to run, as in anthropic.ts
    .map((c): ToolCall => {
      const call: ToolCall = { id: callIdOf(c.id), name: c.name, arguments: c.args || "{}" };
      if (c.extra !== undefined) call.opaque = { protocol: "openai", model: ctx.model, data: { extra_content: c.extra } };
      return call;
    });
  for (const call of toolCalls) yield { type: "tool_call", call };

  const content: ContentBlock[] = [];
  const data: ChatReasoningData = { ...(field ? { field } : {}), ...(details.length > 0 ? { details } : {}) };
  if (thinking || details.length > 0)
    content.push({ type: "thinking", text: thinking, opaque: { protocol: "openai", model: ctx.model, ...(field || details.length > 0 ? { data } : {}) } });
  if (text) content.push({ type: "text", text });
  const message: Message = { id: newId(), role: "assistant", content };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  // Gemini's compat endpoint streams tool calls with finish_reason "stop" (googleapis/python-genai#2868).
  const stop = refused ? "refusal" : toolCalls.length > 0 && toStop(finish) === "stop" ? "tool_calls" : toStop(finish);
  // the server its chunks name (Ollama, llama-server: served-context.ts), which server-window.ts asks its real context
  yield { type: "done", message, usage: toUsage(usage), stop, ...endDetail(finish, stop), ...serverNamed(fingerprint) };
}

// ---------------------------------------------------------------------------------------------
// Factory: the only code that touches the SDK client

/** The SDK's client type, whose namespace the Responses adapter takes its wire types from. */
export type { OpenAI };

/** What the SDK client is built from; shared by both OpenAI protocols. */
export type ClientOptions = Pick<AdapterOptions, "baseUrl" | "apiKey" | "headers" | "fetch">;

/**
 * The SDK client, configured from `opts` only, never from OPENAI_* environment variables, and
 * never retrying (`maxRetries: 0`). Exported for the Responses adapter (providers/responses.ts):
 * this file is the only one that loads the `openai` SDK.
 */
export async function openaiClient(opts: ClientOptions): Promise<OpenAI> {
  const { default: OpenAIClient } = await import("openai");
  const apiKey = opts.apiKey || undefined; // "" (an unset ${VAR}) means no key too
  return new OpenAIClient({
    baseURL: opts.baseUrl,
    // The constructor throws without a key; the placeholder is never sent: a null header below
    // removes the Authorization header the SDK would build from it.
    apiKey: apiKey ?? "no-key",
    // Explicit nulls, or the SDK reads OPENAI_ADMIN_KEY / OPENAI_ORG_ID / OPENAI_PROJECT_ID.
    adminAPIKey: null,
    organization: null,
    project: null,
    maxRetries: 0,
    logLevel: "off",
    // Configured headers come last, so a gateway's own Authorization scheme survives.
    defaultHeaders: { ...(apiKey === undefined ? { Authorization: null } : {}), ...opts.headers },
    // Bun's own 5-minute socket idle timeout would fire under ours; the watchdog owns idleness.
    fetchOptions: { timeout: false },
    fetch: wholeErrorBodies(opts.fetch ?? fetch), // an error body whose `error` is only the status's name keeps its words
  });
}

/**
 * What the endpoint of `opts` is sent, before anything it refuses (createOpenAIProvider adapts):
 * the `[provider.X]` compat keys, else what its host and model are known to need. Pure.
 */
export function requestOptionsFor(opts: AdapterOptions): RequestOptions {
  const host = URL.canParse(opts.baseUrl) ? new URL(opts.baseUrl).hostname : "";
  // api.mistral.ai refuses any field it does not know (a 422): it has no reasoning_content and no
  // stream_options, and sends usage without being asked (dnakov/anon-kode#53)
  const mistral = host === "api.mistral.ai";
  const { maxTokensField, systemRole, reasoningReplay, parallelToolCalls, promptCacheKey, cacheControl } = opts.compat ?? {};
  const replay: ReasoningReplay =
    reasoningReplay === false || (reasoningReplay === undefined && mistral) ? "none" : reasoningReplay || replaysEveryTurn(host, opts.model) ? "all" : "sent";
  return {
    ...requestBasics(opts),
    maxTokensField: maxTokensField ?? (host === "api.openai.com" ? "max_completion_tokens" : "max_tokens"),
    ...(systemRole ? { systemRole } : {}),
    reasoningReplay: replay,
    ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
    // other hosts cache by prefix alone, and strict ones refuse fields they do not know
    cacheKey: promptCacheKey ?? host === "api.openai.com",
    effortFor: {},
    nineCharIds: wantsNineCharIds(host, opts.model),
    pdfs: opts.compat?.pdfs ?? takesPdfs(host),
    cacheMarks: cacheControl ?? takesCacheMarks(host, opts.model),
    ...(mistral ? { streamUsage: false } : {}),
  };
}

/** A Provider over one OpenAI-compatible chat-completions endpoint (client: `openaiClient`). */
/** How long the usage chunk is waited for once the finish chunk came (it follows at once where it comes at all). */
const USAGE_GRACE_MS = 2_000;

export async function createOpenAIProvider(opts: AdapterOptions): Promise<Provider> {
  const markers = doneMarkers();
  const client = await openaiClient({ ...opts, fetch: markers.watch(opts.fetch ?? fetch) });
  const requestOptions = requestOptionsFor(opts);
  const errorContext = errorContextOf(opts);
  const attempt = (request: ModelRequest, signal: AbortSignal) => {
    let response: Response | undefined;
    return guardedStream(
      signal,
      opts.idleTimeoutMs,
      async (s) => {
        const opened = await client.chat.completions.create(toRequest(request, requestOptions), { signal: s }).withResponse();
        response = opened.response;
        return opened.data;
      },
      // a server that ignores stream_options may hold the connection open after the finish: its usage is not waited for long
      (chunks) =>
        mapEvents(
          quietAfter(chunks, (c) => !!c.choices?.some((x) => x.finish_reason), USAGE_GRACE_MS),
          { model: opts.model, usageAsked: requestOptions.streamUsage !== false, ended: () => response !== undefined && markers.ended(response) },
        ),
      (e) => toProviderError(e, errorContext),
      undefined,
      { protocol: "openai", baseUrl: opts.baseUrl, setting: opts.protocolSetting },
    );
  };

  const seen = { native: false, told: false };
  // a call the server could not parse (Groq's tool_use_failed) ends the answer as a malformed call (failed-call.ts)
  const answer = (request: ModelRequest, signal: AbortSignal) =>
    withFailedCalls(
      adaptingStream(
        () => attempt(request, signal),
        (e) => adaptToRefusal(requestOptions, e.message, opts.name),
        () => requestOptions,
      ),
    );
  return {
    protocol: "openai",
    model: opts.model,
    stream: (request: ModelRequest, signal: AbortSignal) => (opts.textCalls ? textCallsOf(answer(request, signal), request, seen) : answer(request, signal)),
  };
}
