// A tool call as chat completions takes it back in an assistant message: the id as the endpoint
// wants it (tool-call-ids.ts), and what the call came with that its model needs again. Pure.
import type { ToolCall } from "../kernel/ir.ts";
import { FOREIGN_CALL_SIGNATURE } from "./common.ts";

/** `tool_calls[]` of an assistant message, with Gemini's `extra_content`. */
export interface WireCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  extra_content?: unknown;
}

/** Gemini's stand-in signature, where its OpenAI-compatible endpoint reads one (as continuedev/continue#8865 sends it). */
const SKIP_SIGNATURE = { google: { thought_signature: FOREIGN_CALL_SIGNATURE } };

/**
 * The call as sent back, with the `extra_content` it came with when `model` made it (Gemini's
 * thought signature), else with SKIP_SIGNATURE when `standIn`.
 */
export function wireCall(c: ToolCall, id: string, model: string, standIn: boolean): WireCall {
  const wire: WireCall = { id, type: "function", function: { name: c.name, arguments: c.arguments } };
  const extra =
    c.opaque?.protocol === "openai" && c.opaque.model === model ? (c.opaque.data as { extra_content?: unknown } | undefined)?.extra_content : undefined;
  if (extra !== undefined) wire.extra_content = extra;
  else if (standIn) wire.extra_content = SKIP_SIGNATURE;
  return wire;
}
