// OpenAI Responses (SPEC §5.2, protocol "responses"), stateless: `store: false` and never a
// `previous_response_id`, so every request replays the turn's output items itself (reasoning with
// its encrypted_content, messages, function calls). The SDK client comes from openai.ts, the only
// file that loads the `openai` SDK, and the error classification from openai-errors.ts. Fixture
// names below are under test/fixtures/wire/openai-responses/.
import { type ContentBlock, type Message, newId, parseArguments, type ThinkingPart, type ToolCall } from "../kernel/ir.ts";
import { callIdOf } from "./tool-call-ids.ts";
import type { ModelRequest, Provider, StreamEvent } from "../kernel/provider.ts";
import { adaptingStream } from "./adapting-stream.ts";
import { withFailedCalls } from "./failed-call.ts";
import { type AdapterOptions, conversationKey, errorContextOf, joinText, type RequestBasics, requestBasics, sentSchema, unfinishedError } from "./common.ts";
import { openaiEffort } from "./effort.ts";
import { adaptToResponsesRefusal } from "./responses-adapt.ts";
import { toProviderError } from "./openai-errors.ts";
import { guardedStream } from "./stream-guard.ts";
import { type OpenAI, openaiClient } from "./openai.ts";
import { toolOutput, userContent } from "./responses-content.ts";
import { stopDetail, toStop } from "./responses-stop.ts";
import { kindOf, messageText, reasoningText, type Slot, streamFailure, toUsage } from "./responses-items.ts";
/** A whole answer where a stream was asked for, as the events that say the same (create.ts reads it with this). */
export { responseAsEvents as wholeAnswerAsEvents } from "./responses-whole-answer.ts";

type CreateParams = OpenAI.Responses.ResponseCreateParamsStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;
type ReasoningItem = OpenAI.Responses.ResponseReasoningItem;
type WireEvent = OpenAI.Responses.ResponseStreamEvent;
type WireResponse = OpenAI.Responses.Response;
type WireEffort = NonNullable<NonNullable<CreateParams["reasoning"]>["effort"]>;

/** `maxTokens` is sent as `max_output_tokens`; `parallelToolCalls: false` as `parallel_tool_calls: false`. */
export interface RequestOptions extends RequestBasics {
  parallelToolCalls?: boolean;
  /** send `prompt_cache_key` (conversationKey) with agent requests */
  cacheKey?: boolean;
  /** reasoning efforts the model refused → the nearest it takes (effort.ts learnEffort) */
  effortFor?: Record<string, string>;
  /** the model refused `reasoning` ("Unsupported parameter: 'reasoning.effort' …"): no effort is sent */
  noReasoning?: boolean;
  /** the organization may not have reasoning summaries (responses-adapt.ts): none is asked for */
  noSummary?: boolean;
  /** ids of reasoning items the endpoint could not verify (unverifiedItems): never sent again */
  unverified?: Set<string>;
  /** `reasoning_replay = false`: no reasoning item is sent back, not even the current turn's */
  noReplay?: boolean;
}

/** A ToolCall's opaque data: its output item id (`fc_…`), which is not its call_id (`call_…`). */
interface CallData {
  id: string;
}

// ---------------------------------------------------------------------------------------------
// IR → request body

/**
 * The streaming request body for `req`. Pure. The system prompt is `instructions`; reasoning
 * summaries are asked for whenever an effort is set (except off), and the encrypted reasoning is
 * always included so that it can be sent back (sdk-facts §1.3).
 */
export function toRequest(req: ModelRequest, opts: RequestOptions): CreateParams {
  const input: InputItem[] = [];
  const effort = req.effort ?? opts.effort;
  // Reasoning goes back from this message on: every turn's, each in its place (kernel/adapt-history.ts
  // keeps this model's), except with thinking off, where earlier prompts' is left out as Claude's is
  // (anthropic-turns.ts earlierThinkingOff: a model told not to think has no use for it; the turn in
  // progress keeps its own), and with `reasoning_replay = false`, where none is sent.
  const reasonFrom = opts.noReplay ? Number.POSITIVE_INFINITY : effort === "off" ? req.messages.findLastIndex((m) => m.role === "user") : 0;
  for (const [i, m] of req.messages.entries()) {
    switch (m.role) {
      case "system":
        input.push({ role: "system", content: [{ type: "input_text", text: joinText(m.content) }] });
        break;
      case "user":
        input.push({ role: "user", content: userContent(m.content) });
        break;
      case "tool":
        // No error flag on this protocol: an error result is plain text too.
        input.push({ type: "function_call_output", call_id: m.toolCallId ?? "", output: toolOutput(m.content) });
        break;
      case "assistant":
        input.push(...assistantItems(m, opts.model, i < reasonFrom ? () => false : (id) => !opts.unverified?.has(id)));
        break;
    }
  }

  // after the last item, where the next request (without it) diverges anyway
  if (req.note) input.push({ role: "user", content: [{ type: "input_text", text: req.note }] });

  const body: CreateParams = {
    model: opts.model,
    input,
    stream: true,
    store: false,
    include: ["reasoning.encrypted_content"],
  };
  if (req.system) body.instructions = req.system;
  if (req.tools.length > 0)
    body.tools = req.tools.map((t) => ({
      type: "function",
      name: t.name,
      description: t.description,
      parameters: sentSchema(t.parameters, "responses"),
      strict: false,
    }));
  if (req.tools.length > 0 && req.toolChoice === "none") body.tool_choice = "none";
  if (req.tools.length > 0 && opts.parallelToolCalls === false) body.parallel_tool_calls = false;
  const key = opts.cacheKey ? conversationKey(req) : undefined;
  if (key) body.prompt_cache_key = key;
  if (effort !== undefined && !opts.noReasoning) {
    // "none" is the official no-reasoning value; there is no summary of no reasoning.
    const wire = (opts.effortFor?.[openaiEffort(effort)] ?? openaiEffort(effort)) as WireEffort;
    body.reasoning = effort === "off" || opts.noSummary ? { effort: wire } : { effort: wire, summary: "auto" };
  }
  const maxTokens = req.maxTokens ?? opts.maxTokens;
  if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
  return body;
}

/**
 * An assistant turn as the output items it came from, in their order: reasoning, messages, then
 * function calls — the same bytes in every later request, so each extends the cached prefix of the
 * one before. Thinking is sent only as this model's own reasoning items that carry their
 * encrypted_content: with store:false the server keeps nothing, so an item without it would be
 * answered 404 "Item with id 'rs_…' not found" (vercel/ai#7543).
 */
function assistantItems(m: Message, model: string, sent: (reasoningId: string) => boolean): InputItem[] {
  const items: InputItem[] = [];
  for (const p of m.content) {
    if (p.type === "text" && p.text) items.push(assistantText(p.text));
    else if (p.type === "thinking") {
      const item = replayable(p, model);
      if (item && sent(item.id)) items.push(item);
    }
  }
  const calls = m.toolCalls ?? [];
  // A reasoning item with nothing of its turn after it is a 400: "Item 'rs_…' of type 'reasoning' was
  // provided without its required following item" (continuedev/continue#8933): a turn that ended in
  // thinking (cut off by the output limit, a text left blank) goes without that last reasoning.
  if (calls.length === 0) while (items.at(-1)?.type === "reasoning") items.pop();
  const reasoning = items.some((item) => item.type === "reasoning");
  for (const c of calls) {
    // A call's `fc_` id ties it to the reasoning item before it: sent without that item it is a 400
    // "Item 'fc_…' of type 'function_call' was provided without its required 'reasoning' item"
    // (mastra-ai/mastra#8738). call_id alone pairs the output, so the id goes only beside its reasoning.
    const id = reasoning ? callItemId(c, model) : undefined;
    // arguments cut off mid-way (a `length` stop) go back as an object: they are a JSON string on the wire
    const args = parseArguments(c.arguments) ? c.arguments : "{}";
    items.push({ type: "function_call", call_id: c.id, name: c.name, arguments: args, ...(id !== undefined ? { id } : {}) });
  }
  return items;
}

/** Assistant text as codex replays it: an output_text message without the item id. */
function assistantText(text: string): InputItem {
  return { type: "message", role: "assistant", content: [{ type: "output_text", text }] } as unknown as InputItem;
}

/** The reasoning item to send back for `p`, or undefined when it may not or cannot be. */
function replayable(p: ThinkingPart, model: string): ReasoningItem | undefined {
  if (p.opaque?.protocol !== "responses" || p.opaque.model !== model) return undefined;
  const data = p.opaque.data as Partial<ReasoningItem> | undefined;
  if (typeof data?.id !== "string" || !data.encrypted_content) return undefined;
  return { type: "reasoning", id: data.id, summary: data.summary ?? [], encrypted_content: data.encrypted_content };
}

function callItemId(c: ToolCall, model: string): string | undefined {
  if (c.opaque?.protocol !== "responses" || c.opaque.model !== model) return undefined;
  const id = (c.opaque.data as Partial<CallData> | undefined)?.id;
  return typeof id === "string" ? id : undefined;
}

/**
 * The ids of the encrypted reasoning items `req` sends, added to `unverified`, when the endpoint
 * answered that it could not verify one ("The encrypted content for item rs_… could not be
 * verified": issued to another account — a provider renamed, its key changed, or a session written
 * before hey recorded which provider made them): the request goes again at once without them, and
 * so do later ones. false when there was none left to leave out (the refusal stands).
 */
export function unverifiedItems(req: ModelRequest, said: string, opts: RequestOptions): boolean {
  if (!/encrypted content .*could not be verified/i.test(said)) return false;
  const unverified = (opts.unverified ??= new Set());
  const before = unverified.size;
  for (const m of req.messages)
    for (const p of m.content)
      if (p.type === "thinking") {
        const id = replayable(p, opts.model)?.id;
        if (id !== undefined) unverified.add(id);
      }
  return unverified.size > before;
}

// ---------------------------------------------------------------------------------------------
// Stream events → IR events

/** response.created, queued or in_progress with no output yet: sent before the keep-alives of a model (or a stuck upstream) that has said nothing, so not an event of the answer. Pure. */
export const opensAnswer = (e: WireEvent) =>
  (e.type === "response.created" || e.type === "response.queued" || e.type === "response.in_progress") && (e.response?.output?.length ?? 0) === 0;

/**
 * Maps a Responses event stream to IR events. Pure apart from iterating `events`; errors from
 * `events` propagate unchanged (the factory classifies them). Text and thinking deltas are yielded
 * as they arrive, with a blank line between reasoning summary parts; a message's text that did not
 * stream is yielded whole, once, from the first event that carries it (`output_text.done`,
 * `output_item.done`, else the completed response's `output`: gateways that translate to Responses
 * send only some of the events, as Codex reads them too); function calls are yielded
 * whole after the response has completed, then `done`, whose message keeps the output items'
 * order. A failed response (`response.failed`, or an `error` event the SDK let through) throws
 * its error body in the SDK's APIError shape; reading ends at completed/incomplete, and a stream
 * that ends without either throws ProviderError("network").
 */
export async function* mapEvents(events: AsyncIterable<WireEvent>, ctx: { model: string }): AsyncGenerator<StreamEvent> {
  // In output order (`output_item.added` comes first for each item). Found by item id, never by
  // call_id (argument deltas name only `item_id`), else by output_index: a gateway may name one item
  // otherwise in its done events than in its deltas, or give the finished item no id at all. Only an
  // item not yet ended, and not announced under another id, is found by its place, so two items a
  // gateway misplaces stay two (two calls at one output_index: teabranch/open-responses-server#63).
  const slots: Slot[] = [];
  const byId = new Map<string, Slot>();
  const byIndex = new Map<number, Slot>();
  const slot = (id: string | undefined, index: number | undefined, kind: Slot["kind"]): Slot => {
    const placed = index === undefined ? undefined : byIndex.get(index);
    const own = placed?.added?.id;
    const samePlace = placed?.kind === kind && !placed.item && (id === undefined || own === undefined || own === id);
    let s = (id === undefined ? undefined : byId.get(id)) ?? (samePlace ? placed : undefined);
    if (!s) slots.push((s = { kind, text: "", at: index }));
    if (id !== undefined && !byId.has(id)) byId.set(id, s);
    if (index !== undefined && (!placed || placed.kind !== kind || placed.item)) byIndex.set(index, s);
    return s;
  };
  let part = ""; // the reasoning part being streamed
  let thought = false;
  let refused = false;
  let end: WireResponse | undefined;
  // Text shown for a message whose item has not ended, or the same text shown at the same place: a
  // gateway may name the same item otherwise (and place it otherwise) in its done events, even after
  // the item ended, and then their text is that text again.
  const shownElsewhere = (s: Slot, text: string) =>
    slots.some((o) => o !== s && o.kind === "message" && o.shown && (!o.item || (o.at === s.at && o.text === text)));
  /** A message's whole `text`, into its slot and yielded, when none of it was shown. */
  function* shownWhole(s: Slot, text: string): Generator<StreamEvent> {
    if (s.shown || !text || shownElsewhere(s, text)) return;
    s.text += text;
    s.shown = true;
    yield { type: "text", delta: text };
  }

  for await (const e of events) {
    switch (e.type) {
      case "response.output_text.delta":
      case "response.refusal.delta": {
        // a refusal is shown as the answer
        if (e.type === "response.refusal.delta") refused = true;
        const s = slot(e.item_id, e.output_index, "message");
        s.text += e.delta;
        s.shown = true;
        yield { type: "text", delta: e.delta };
        break;
      }
      case "response.output_text.done":
      case "response.refusal.done":
        if (e.type === "response.refusal.done") refused = true;
        yield* shownWhole(slot(e.item_id, e.output_index, "message"), e.type === "response.output_text.done" ? e.text : e.refusal);
        break;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const s = slot(e.item_id, e.output_index, "reasoning");
        const key = `${e.item_id} ${e.type} ${"summary_index" in e ? e.summary_index : e.content_index}`;
        const fresh = key !== part;
        part = key;
        if (fresh && s.text) s.text += "\n\n";
        s.text += e.delta;
        yield { type: "thinking", delta: fresh && thought ? `\n\n${e.delta}` : e.delta };
        thought = true;
        break;
      }
      case "response.function_call_arguments.delta":
        slot(e.item_id, e.output_index, "function_call").text += e.delta;
        break;
      case "response.output_item.added":
      case "response.output_item.done": {
        const s = slot(e.item.id, e.output_index, kindOf(e.item));
        if (e.type === "response.output_item.added") s.added = e.item;
        else {
          if (e.item.type === "message" && !s.text) yield* shownWhole(s, messageText(e.item));
          s.item = e.item;
        }
        break;
      }
      case "response.completed":
      case "response.incomplete":
        end = e.response;
        break;
      case "response.failed":
        // A failure the server does not explain is taken as the server's own (retryable).
        throw streamFailure(e.response.error ?? { code: "server_error", message: "the response failed without an error message" });
      case "error":
        throw streamFailure(e);
    }
    if (end) break; // the last event: a server may keep the connection open after it
  }
  if (!end) throw unfinishedError();
  // Items no event brought (a gateway that sends only response.completed), each where no item of its
  // kind came with content under another id: a bare `output_item.added` brought nothing of it. Only
  // events count for that, not the items this loop takes (a second call or message stays).
  const streamed = new Set(slots.filter((o) => o.text || o.item).map((o) => o.kind));
  for (const [i, item] of (end.output ?? []).entries()) {
    const kind = kindOf(item);
    const known = (item.id !== undefined && byId.get(item.id)) || (byIndex.get(i)?.kind === kind && !byIndex.get(i)?.item);
    const s = known || !streamed.has(kind) ? slot(item.id, i, kind) : undefined;
    if (!s || s.item) continue;
    if (item.type === "message" && !s.text) yield* shownWhole(s, messageText(item));
    s.item = item;
  }

  const content: ContentBlock[] = [];
  const toolCalls: ToolCall[] = [];
  for (const s of slots) {
    const item = s.item;
    if (s.kind === "reasoning" && (item || s.text)) {
      // Kept whole, even with an empty summary: its encrypted_content must still go back.
      const text = s.text || (item?.type === "reasoning" ? reasoningText(item) : "");
      content.push({ type: "thinking", text, opaque: { protocol: "responses", model: ctx.model, ...(item ? { data: item } : {}) } });
    } else if (s.kind === "message") {
      if (item?.type === "message" && item.content.some((c) => c.type === "refusal")) refused = true;
      if (s.text) content.push({ type: "text", text: s.text });
    } else if (item?.type === "function_call" || (s.added?.type === "function_call" && s.text && end.status === "incomplete")) {
      // A call the output limit cut off mid-arguments (response.incomplete, no output_item.done) keeps
      // what came of them: the loop runs none of it and tells the model its call was cut.
      const call = (item ?? s.added) as OpenAI.Responses.ResponseFunctionToolCall;
      const data: CallData | undefined = call.id ? { id: call.id } : undefined;
      toolCalls.push({
        id: callIdOf(call.call_id),
        name: call.name,
        arguments: item ? call.arguments || s.text || "{}" : s.text,
        opaque: { protocol: "responses", model: ctx.model, ...(data ? { data } : {}) },
      });
    }
  }
  for (const call of toolCalls) yield { type: "tool_call", call };

  const message: Message = { id: newId(), role: "assistant", content };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  const stop = toStop(end, refused, toolCalls.length);
  const detail = stopDetail(end, stop);
  yield { type: "done", message, usage: toUsage(end.usage), stop, ...(detail ? { detail } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Factory: the only code here that touches the SDK client

/**
 * A Provider over one Responses endpoint (base URL as configured, e.g. https://api.openai.com/v1;
 * the SDK posts to `<base>/responses`). Same options, client and error classification as the chat
 * adapter; never retries.
 */
export async function createResponsesProvider(opts: AdapterOptions): Promise<Provider> {
  const client = await openaiClient(opts);
  const { parallelToolCalls, promptCacheKey, reasoningReplay } = opts.compat ?? {};
  const requestOptions: RequestOptions = {
    ...requestBasics(opts),
    ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
    ...(reasoningReplay === false ? { noReplay: true } : {}),
    cacheKey: promptCacheKey ?? true,
    effortFor: {},
  };
  const errorContext = errorContextOf(opts);
  const attempt = (request: ModelRequest, signal: AbortSignal) =>
    guardedStream(
      signal,
      opts.idleTimeoutMs,
      (s) => client.responses.create(toRequest(request, requestOptions), { signal: s }),
      (events) => mapEvents(events, { model: opts.model }),
      (e) => toProviderError(e, errorContext),
      opensAnswer,
      { protocol: "responses", baseUrl: opts.baseUrl, setting: opts.protocolSetting },
    );

  return {
    protocol: "responses",
    model: opts.model,
    stream: (request: ModelRequest, signal: AbortSignal) =>
      withFailedCalls(
        adaptingStream(
          () => attempt(request, signal),
          (e) => unverifiedItems(request, e.message, requestOptions) || adaptToResponsesRefusal(requestOptions, e.message),
          () => requestOptions,
        ),
      ),
  };
}
