// Anthropic Messages (SPEC §5.3, protocol "anthropic"): api.anthropic.com and Anthropic-compatible
// gateways. The only file that loads `@anthropic-ai/sdk`, and only lazily, inside the factory.
// Fixture names below are under test/fixtures/wire/anthropic/.
import type { ClientOptions } from "@anthropic-ai/sdk";
import type { ContentBlockParam, MessageCreateParamsStreaming, MessageParam, RawMessageStreamEvent, Tool } from "@anthropic-ai/sdk/resources/messages";
import { toolContent, userBlock } from "./anthropic-content.ts";
import { newId, parseArguments, type ContentBlock, type Message, type ThinkingPart, type ToolCall } from "../kernel/ir.ts";
import { callIdOf } from "./tool-call-ids.ts";
import type { ModelRequest, Provider, ProviderError, StreamEvent } from "../kernel/provider.ts";
import { toProviderError } from "./anthropic-errors.ts";
import { continuingPaused, recording, type Paused, type Recorded } from "./anthropic-pause.ts";
import { adaptingStream } from "./adapting-stream.ts";
import { errorContextOf, joinText, requestBasics, sentSchema, unfinishedError, type AdapterOptions, type RequestBasics } from "./common.ts";
import { bindingBeta, dropMismatched } from "./anthropic-binding.ts";
import { answeredTurns, earlierThinkingOff } from "./anthropic-turns.ts";
import { toStop, stopDetail } from "./anthropic-stop.ts";
import { failedStop } from "./failed-stop.ts";
import { mergeUsage, toUsage, type WireUsage } from "./anthropic-usage.ts";
import { anthropicEffort } from "./effort.ts";
import { adaptToAnthropicRefusal, type SentThinking } from "./anthropic-adapt.ts";
import { claudeStart } from "./claude-models.ts";
import { envHeaderNulls, sdkWarnings, withSdkNotices } from "./sdk-own.ts";
import { guardedStream } from "./stream-guard.ts";
import { anthropicBaseUrl } from "./api-root.ts";
/** A whole answer where a stream was asked for, as the events that say the same (create.ts reads it with this). */
export { messageAsEvents as wholeAnswerAsEvents } from "./anthropic-whole-answer.ts";

export interface RequestOptions extends RequestBasics {
  /** `[provider.X] max_tokens`; default and legacy-thinking floor come from effort.ts. */
  maxTokens?: number;
  /** The most output tokens the endpoint takes, as a refusal of more stated it (output-limit.ts): max_tokens and a thinking budget fit under it. */
  outputLimit?: number;
  /** `thinking: {type: "enabled", budget_tokens}` instead of adaptive thinking. */
  legacyThinking?: boolean;
  /** The model refused `thinking: {type: "disabled"}`: thinking off is sent as no `thinking` field. */
  noDisabledThinking?: boolean;
  /** The model refused both thinking modes (Claude 3.5 Haiku, given an effort chosen for another model): none is sent. */
  noThinking?: boolean;
  /** effort levels the model refused → the nearest it takes (effort.ts learnEffort) */
  effortFor?: Record<string, string>;
  /** The API refused thinking whose prefix changed: it drops such blocks from now on (anthropic-binding.ts). */
  dropMismatched?: boolean;
  /** The thinking mode was switched once (anthropic-adapt.ts): a refusal of the other one means the model takes none. */
  modeSwitched?: boolean;
  /** The API refused a turn's thinking as its last block (anthropic-adapt.ts): earlier turns go without theirs, as with thinking off. */
  noEarlierThinking?: boolean;
}

/** What rides in `Opaque.data` of an Anthropic thinking part: a signature, or a redacted block's data. */
type ThinkingData = { signature: string } | { redacted: string };

// ---------------------------------------------------------------------------------------------
// IR → request body

type Turn = { role: "user" | "assistant"; content: ContentBlockParam[] };

/**
 * The streaming request body for `req`. Pure. Consecutive same-role messages are merged (tool
 * results become `tool_result` blocks of one user turn, in the order given); assistant content
 * is replayed in its block order, then its `tool_use` blocks. Thinking goes back only with its
 * signature and only to the model that signed it, and never as a turn's last block
 * (anthropic-turns.ts: a turn of thinking alone is left out). `system` messages inside the history join
 * the top-level system prompt (the wire has no other place every gateway accepts).
 */
export function toRequest(req: ModelRequest, opts: RequestOptions): MessageCreateParamsStreaming {
  const turns: Turn[] = [];
  const push = (role: Turn["role"], blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  const system = [req.system];
  let unchanged: ContentBlockParam | undefined; // the last block of req.unchangedThrough that may carry a mark

  for (const m of req.messages) {
    switch (m.role) {
      case "system":
        system.push(joinText(m.content));
        break;
      case "user":
        push("user", m.content.flatMap(userBlock));
        break;
      case "tool": {
        const result: ContentBlockParam = { type: "tool_result", tool_use_id: m.toolCallId ?? "", content: toolContent(m.content) };
        if (m.isError) result.is_error = true;
        push("user", [result]);
        break;
      }
      case "assistant":
        push("assistant", [
          ...m.content.flatMap((p): ContentBlockParam[] => (p.type === "thinking" ? thinkingBlock(p, opts.model) : userBlock(p))),
          ...(m.toolCalls ?? []).map((c): ContentBlockParam => ({ type: "tool_use", id: c.id, name: c.name, input: parseArguments(c.arguments) ?? {} })),
        ]);
        break;
    }
    if (m.id === req.unchangedThrough) unchanged = turns.flatMap((t) => t.content).findLast((b) => b.type !== "thinking" && b.type !== "redacted_thinking");
  }

  const { thinking, output_config, max_tokens } = anthropicEffort(opts.noThinking ? undefined : (req.effort ?? opts.effort), {
    legacyThinking: opts.legacyThinking ?? false,
    ...(opts.outputLimit !== undefined ? { limit: opts.outputLimit } : {}),
    ...((req.maxTokens ?? opts.maxTokens) !== undefined ? { maxTokens: req.maxTokens ?? opts.maxTokens } : {}),
  });
  const body: MessageCreateParamsStreaming = { model: opts.model, max_tokens, messages: turns as MessageParam[], stream: true };
  const prompt = system.filter((s) => s.trim() !== "").join("\n\n");
  if (req.tools.length > 0)
    body.tools = req.tools.map(
      (t): Tool => ({ name: t.name, description: t.description, input_schema: sentSchema(t.parameters, "anthropic") as Tool.InputSchema }),
    );
  // an agent request (one with tools) marks what the next request will repeat; a summary's is never repeated
  const cached = req.tools.length > 0;
  if (prompt) body.system = cached ? [{ type: "text", text: prompt, cache_control: EPHEMERAL }] : prompt;
  else if (cached) body.tools!.at(-1)!.cache_control = EPHEMERAL;
  // No tool_choice for the hand-off (req.toolChoice "none"): a change of it invalidates the cached
  // message blocks, so the whole conversation would be written again at 1.25× (docs.anthropic.com
  // prompt caching, "What invalidates the cache": tool choice) and a `hey -c` after it could not
  // read that write either; the prompt says no tool may be called, and a call made anyway is dropped.
  if (thinking && !(thinking.type === "disabled" && opts.noDisabledThinking)) body.thinking = thinking;
  const effort = output_config && (opts.effortFor?.[output_config.effort] ?? output_config.effort);
  if (effort) body.output_config = { effort } as MessageCreateParamsStreaming["output_config"];
  earlierThinkingOff(body, opts.noEarlierThinking);
  if (opts.dropMismatched) dropMismatched(body);
  answeredTurns(body);
  const sent = body.messages as Turn[];
  if (cached) markTail(sent, !req.onceTail); // a tail the next request cuts: no write nothing reads
  // where the prefix this model's previous request wrote ends: before a rewritten message, or back past
  // another model's turns (a fallback, `/model` and back), the marks on the tail may not reach it (finding
  // it looks back about 20 blocks), and without this one everything after the system prompt is written
  // again at 1.25×. Most often it is the block markTail marks already
  if (cached && unchanged) (unchanged as { cache_control?: unknown }).cache_control = EPHEMERAL;
  if (req.note) {
    const last = sent.at(-1);
    if (last?.role === "user") last.content.push({ type: "text", text: req.note });
    else sent.push({ role: "user", content: [{ type: "text", text: req.note }] });
  }
  return body;
}

const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * Prompt-cache breakpoints on the conversation (the system prompt holds a third, and where this
 * model's previous request ended the fourth when it is elsewhere: toRequest's `unchanged`; the API allows four): the
 * last block of the last user turn, so the next request reads everything up to it, and the last
 * block of the user turn before the last assistant turn — where the previous request ended — so
 * this request reads that entry even when more than the API's 20-block look-back was added since
 * (many parallel tool results). `tail` false (ModelRequest.onceTail): that one only.
 */
function markTail(turns: Turn[], tail: boolean): void {
  const users = turns.flatMap((t, i) => (t.role === "user" ? [i] : []));
  const last = users.at(-1);
  if (last === undefined) return;
  const previous = users.findLast((i) => i < last && turns.slice(i + 1, last).some((t) => t.role === "assistant"));
  for (const i of [...(previous === undefined ? [] : [previous]), ...(tail ? [last] : [])]) {
    const block = turns[i]!.content.at(-1) as { cache_control?: unknown } | undefined;
    if (block) block.cache_control = EPHEMERAL;
  }
}

/**
 * A thinking block exactly as it was received, or nothing: the API rejects a thinking block
 * without its signature, and a signature is valid only for the model that made it (SPEC §5.6).
 */
function thinkingBlock(p: ThinkingPart, model: string): ContentBlockParam[] {
  if (p.opaque?.protocol !== "anthropic" || p.opaque.model !== model) return [];
  const data = p.opaque.data as Partial<Record<"signature" | "redacted", unknown>> | undefined;
  if (typeof data?.redacted === "string") return [{ type: "redacted_thinking", data: data.redacted }];
  if (typeof data?.signature === "string" && data.signature) return [{ type: "thinking", thinking: p.text, signature: data.signature }];
  return [];
}

// ---------------------------------------------------------------------------------------------
// Raw stream events → IR events

type Block =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string; signature: string }
  | { type: "redacted"; data: string }
  | { type: "tool"; id: string; name: string; json: string; startInput: unknown; stopped?: boolean };

/**
 * Maps the SDK's raw stream events to IR events. Pure apart from iterating `events`; errors from
 * `events` (an `event: error`, a cut connection) propagate unchanged for the factory to classify.
 * Text and thinking deltas are yielded as they arrive; tool calls whole once the response is
 * complete, then `done`, whose message keeps one part per content block in block order.
 * Complete means a stop reason arrived: `message_stop` adds nothing but ends the reading, and the
 * SDK drops a final event that lacks its blank line (max-tokens-truncated-tool-input.sse,
 * parallel-tool-use.sse). Throws ProviderError("network") when the stream ends without one, and
 * as a broken stream when it reports a failure (failed-stop.ts). `ctx.maxTokens`: the request's
 * max_tokens, which `done` carries.
 */
/** message_start with no content, which Anthropic sends before the pings of a model (or a stuck upstream) that has said nothing yet: not an event of the answer. Pure. */
export const opensAnswer = (ev: RawMessageStreamEvent) => ev.type === "message_start" && (ev.message?.content?.length ?? 0) === 0;

export async function* mapEvents(events: AsyncIterable<RawMessageStreamEvent>, ctx: { model: string; maxTokens?: number }): AsyncGenerator<StreamEvent> {
  const blocks = new Map<number, Block>();
  let usage: WireUsage = {};
  let stop: string | undefined;
  let detail: string | undefined;

  for await (const ev of events) {
    switch (ev.type) {
      case "message_start":
        usage = { ...ev.message.usage };
        yield { type: "usage", usage: toUsage(usage) }; // the input and cache counts, kept should the stream break
        break;
      case "content_block_start": {
        const b = ev.content_block;
        if (b.type === "text") blocks.set(ev.index, { type: "text", text: "" });
        else if (b.type === "thinking") blocks.set(ev.index, { type: "thinking", text: "", signature: b.signature ?? "" });
        // Whole in the start event, with no deltas (redacted-thinking.sse).
        else if (b.type === "redacted_thinking") blocks.set(ev.index, { type: "redacted", data: b.data });
        else if (b.type === "tool_use") blocks.set(ev.index, { type: "tool", id: b.id, name: b.name, json: "", startInput: b.input });
        // Server-tool blocks (web search …) are never offered, so never answered; skip them.
        const first = b.type === "text" ? b.text : b.type === "thinking" ? b.thinking : "";
        if (first) yield* appendText(blocks.get(ev.index), first);
        break;
      }
      case "content_block_delta": {
        const block = blocks.get(ev.index);
        const d = ev.delta;
        if (d.type === "text_delta" || d.type === "thinking_delta") yield* appendText(block, d.type === "text_delta" ? d.text : d.thinking);
        // One signature_delta just before the block's stop (thinking-signature.sse).
        else if (d.type === "signature_delta" && block?.type === "thinking") block.signature += d.signature;
        else if (d.type === "input_json_delta" && block?.type === "tool") block.json += d.partial_json;
        break;
      }
      case "content_block_stop": {
        const block = blocks.get(ev.index);
        if (block?.type === "tool") block.stopped = true;
        break;
      }
      case "message_delta":
        stop = ev.delta.stop_reason ?? stop;
        detail = stopDetail(stop, ev.delta.stop_details) ?? detail;
        usage = mergeUsage(usage, ev.usage);
        break;
    }
    if (ev.type === "message_stop") break; // the end: a server may keep the connection open after it
  }

  if (stop === undefined) throw unfinishedError();
  const failed = failedStop(stop, "stop_reason"); // not Anthropic's, but a gateway's that fronts another API
  if (failed) throw failed;

  const content: ContentBlock[] = [];
  const toolCalls: ToolCall[] = [];
  for (const [, b] of [...blocks.entries()].sort(([a], [c]) => a - c)) {
    if (b.type === "text" && b.text) content.push({ type: "text", text: b.text });
    else if (b.type === "thinking") content.push(thinkingPart(b.text, ctx.model, b.signature ? { signature: b.signature } : undefined));
    else if (b.type === "redacted") content.push(thinkingPart("", ctx.model, { redacted: b.data }));
    // A block cut off by max_tokens (no content_block_stop: max-tokens-truncated-tool-input.sse) keeps
    // its partial JSON, for the loop to tell the model its call was cut; one cut before any JSON is
    // nothing to run (its empty input would read as `{}`, a call without arguments) and is left out.
    else if (b.type === "tool" && (b.stopped || b.json || toStop(stop) !== "length"))
      toolCalls.push({ id: callIdOf(b.id), name: b.name, arguments: b.json || inputText(b.startInput) });
  }
  for (const call of toolCalls) yield { type: "tool_call", call };

  const message: Message = { id: newId(), role: "assistant", content };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  const limit = ctx.maxTokens ? { maxTokens: ctx.maxTokens } : {};
  yield { type: "done", message, usage: toUsage(usage), stop: toStop(stop), ...(detail ? { detail } : {}), ...limit };
}

function* appendText(block: Block | undefined, delta: string): Generator<StreamEvent> {
  // The last thinking_delta before the signature is usually empty (thinking-signature.sse).
  if (!delta || (block?.type !== "text" && block?.type !== "thinking")) return;
  block.text += delta;
  yield { type: block.type, delta };
}

function thinkingPart(text: string, model: string, data: ThinkingData | undefined): ThinkingPart {
  return { type: "thinking", text, opaque: { protocol: "anthropic", model, ...(data ? { data } : {}) } };
}

/** A tool_use whose input came whole in its start event (no deltas); `{}` otherwise. */
function inputText(input: unknown): string {
  return typeof input === "object" && input !== null && Object.keys(input).length > 0 ? JSON.stringify(input) : "{}";
}

// ---------------------------------------------------------------------------------------------
// Factory: the only code that touches the SDK client

/**
 * A Provider over one Anthropic Messages endpoint. The SDK is configured from these options only
 * — never from ANTHROPIC_* variables or on-disk profiles — and never retries (`maxRetries: 0`).
 *
 * Authentication: SDK 1.x sends the key as `Authorization: Bearer`; hey also sends it as
 * `x-api-key`, the header Anthropic documented for years and the only one some gateways read
 * (QwenLM/qwen-code#4323, pydantic/pydantic-ai-gateway#75), while others read only Bearer
 * (NousResearch/hermes-agent#4028). Both carry the same key, so neither can conflict.
 */
export async function createAnthropicProvider(opts: AdapterOptions): Promise<Provider> {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  // With no credential the SDK resolves one itself on the first request (ANTHROPIC_PROFILE,
  // workload-identity variables, <config_dir>/configs/<profile>.json), which can add headers, swap
  // in a token or fail the request. This override is its documented opt-out for clients that
  // bring their own authentication.
  class Client extends Anthropic {
    protected override _shouldResolveDefaultCredentials(): boolean {
      return false;
    }
  }
  const apiKey = opts.apiKey || undefined; // "" (an unset ${VAR}) means no key too
  const options: ClientOptions = {
    baseURL: anthropicBaseUrl(opts.baseUrl),
    // Explicit nulls: `undefined` would make the SDK read ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN.
    apiKey: apiKey ?? null,
    authToken: null,
    webhookKey: null,
    maxRetries: 0,
    logLevel: "off",
    openTelemetry: false,
    defaultHeaders: {
      ...envHeaderNulls(process.env),
      // Without a key, a null removes the header, or the SDK refuses to send the request.
      ...(apiKey === undefined ? { Authorization: null } : { "x-api-key": apiKey }),
      ...opts.headers,
    },
    // Bun's own 5-minute socket idle timeout would fire under ours; the watchdog owns idleness.
    fetchOptions: { timeout: false },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  };
  const client = new Client(options);
  // a known Claude starts in the mode and within the output limit it takes (claude-models.ts); the user's own settings win
  const { legacyThinking, outputLimit } = claudeStart(opts.model);
  const requestOptions: RequestOptions = {
    ...requestBasics(opts),
    ...(opts.legacyThinking || legacyThinking ? { legacyThinking: true } : opts.legacyThinking !== undefined ? { legacyThinking: opts.legacyThinking } : {}),
    ...(outputLimit !== undefined && opts.maxTokens === undefined ? { outputLimit } : {}),
    effortFor: {},
  };
  const errorContext = errorContextOf(opts);
  const warnings = sdkWarnings(); // the SDK's console.warn: a notice, once

  return {
    protocol: "anthropic",
    model: opts.model,
    stream(request: ModelRequest, signal: AbortSignal) {
      const sent: SentThinking = { type: undefined, maxTokens: 0, budget: undefined };
      const attempt = (paused: Paused, into: Recorded) =>
        guardedStream(
          signal,
          opts.idleTimeoutMs,
          (s) => {
            const body = toRequest(request, requestOptions);
            sent.type = body.thinking?.type;
            sent.budget = body.thinking?.type === "enabled" ? body.thinking.budget_tokens : undefined;
            sent.maxTokens = body.max_tokens;
            if (paused.content.length > 0) body.messages.push({ role: "assistant", content: paused.content as unknown as ContentBlockParam[] });
            if (paused.container) body.container = paused.container;
            return warnings.around(() =>
              client.messages.create(body, { signal: s, ...(requestOptions.dropMismatched ? { headers: bindingBeta(opts.headers) } : {}) }),
            );
          },
          (events) => mapEvents(recording(events, into), { model: opts.model, maxTokens: sent.maxTokens }),
          (e) => toProviderError(e, errorContext),
          opensAnswer,
          { protocol: "anthropic", baseUrl: opts.baseUrl, setting: opts.protocolSetting },
        );
      // a turn the server paused goes on where it stopped (anthropic-pause.ts)
      // a 400 that one change of the request avoids, made for good (anthropic-adapt.ts)
      const adapt = (e: ProviderError) =>
        adaptToAnthropicRefusal(requestOptions, sent, e.message, { userMax: opts.maxTokens, next: () => toRequest(request, requestOptions).thinking });
      const events = continuingPaused((paused, into) =>
        adaptingStream(
          () => attempt(paused, into),
          adapt,
          () => requestOptions,
        ),
      );
      return withSdkNotices(events, warnings, (message): StreamEvent => ({ type: "notice", message }));
    },
  };
}
