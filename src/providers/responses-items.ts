// What responses.ts mapEvents keeps of each output item (Slot), and reads off the wire objects: an item's kind,
// a message's text, a reasoning item's text, the usage, and a failure reported inside the stream.
// Pure; the SDK's types only, through openai.ts.
import { unreportedUsage, type Usage } from "../kernel/ir.ts";
import type { OpenAI } from "./openai.ts";

type OutputItem = OpenAI.Responses.ResponseOutputItem;

/** One output item of the response, as its events arrive. */
export interface Slot {
  kind: "reasoning" | "message" | "function_call" | "other";
  /** streamed text, thinking, or function-call arguments; a message's whole text when none streamed (shownWhole) */
  text: string;
  /** its text was shown: deltas came for it, or it was shown whole */
  shown?: boolean;
  /** from `output_item.done` (else the completed response's output): the `.added` item may be incomplete (the SDK's type comment) */
  item?: OutputItem;
  /** from `output_item.added`: all there is of an item the output token limit cut off */
  added?: OutputItem;
  /** its output_index, as first given */
  at?: number | undefined;
}

/** An output item's kind, as mapEvents keeps its slots: what is none of its three is "other". */
export function kindOf(item: OutputItem): Slot["kind"] {
  return item.type === "reasoning" || item.type === "message" || item.type === "function_call" ? item.type : "other";
}

/** A message's text: its output text and refusal parts, in order. */
export function messageText(item: OpenAI.Responses.ResponseOutputMessage): string {
  return item.content.map((c) => (c.type === "refusal" ? c.refusal : c.text)).join("");
}

/** Summary parts joined by a blank line, as they were streamed; raw reasoning text when there is no summary. */
export function reasoningText(item: OpenAI.Responses.ResponseReasoningItem): string {
  if (item.summary.length > 0) return item.summary.map((s) => s.text).join("\n\n");
  return (item.content ?? []).map((c) => c.text).join("\n\n");
}

/**
 * A failure reported inside the stream, shaped like the SDK's status-less APIError for an `error`
 * event (`error` = the body), so toProviderError classifies both the same way, from the code.
 */
export function streamFailure(body: { code?: unknown; message?: unknown }): Error {
  const message = typeof body.message === "string" ? body.message : "the response failed";
  return Object.assign(new Error(message), { error: body });
}

/** A response's usage in IR terms (input counts its cached tokens); unreported when it carries none. */
export function toUsage(u: OpenAI.Responses.Response["usage"]): Usage {
  if (!u) return unreportedUsage();
  return {
    input: u.input_tokens ?? 0, // cached tokens included
    output: u.output_tokens ?? 0,
    cacheRead: u.input_tokens_details?.cached_tokens ?? 0,
    cacheWrite: u.input_tokens_details?.cache_write_tokens ?? 0,
    reasoning: u.output_tokens_details?.reasoning_tokens ?? 0,
  };
}
