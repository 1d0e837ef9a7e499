// Tool calls on the chat-completions wire: a call as a stream delivers it, in fragments, and as an
// assistant message takes it back — the id as the endpoint wants it (tool-call-ids.ts), and what
// the call came with that its model needs again. Pure.
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

/** A tool call being streamed, joined from its fragments (addFragment). */
export interface StreamedCall {
  /** the wire `index` (or one given in order when the fragments have none) */
  index: number;
  id: string;
  name: string;
  args: string;
  /** Gemini 3's `extra_content` (its thought signature), which must come back with the call */
  extra?: unknown;
}

/** One `delta.tool_calls[]` fragment, as loosely as servers send it. */
export interface CallFragment {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: unknown };
}

/**
 * Adds fragment `tc` to `calls` (arrival order; each call's fragments joined by `index`). Only a
 * call's first fragment carries id and name, and the Anthropic compat endpoint starts at index 1
 * (openai-compat/anthropic-compat-tool-index-1.sse), so a fragment continues the latest call of its
 * index — unless it brings a name and an id other than that call's, once the call has a name or
 * arguments: then it is a new call (Poolside's API and mlx-openai-server have sent a new id on every
 * fragment of one call, the name on the first only). Ollama, LiteLLM's ollama_chat and some gateways send each of several
 * calls whole at index 0 (ollama/ollama#15457). Ollama and Gemini's compat endpoint have also sent
 * no `index` (ollama/ollama#7881): then a fragment with an id starts the next call and one without
 * continues the last. With no ids at all (proxies that translate another API's parallel calls, all
 * at index 0 or with none), a fragment that brings a name once the call has a name and arguments
 * that are a whole JSON object starts a new call too (startsCall): joined, the two would be one
 * call of two objects that runs neither.
 */
export function addFragment(calls: StreamedCall[], tc: CallFragment): void {
  const id = tc.id ?? "";
  let slot: StreamedCall | undefined;
  if (typeof tc.index === "number") {
    const index = tc.index;
    slot = calls.findLast((c) => c.index === index);
    if (slot && id && slot.id && id !== slot.id && tc.function?.name && (slot.name || slot.args)) slot = undefined;
    if (slot && startsCall(slot, tc)) slot = undefined;
    if (!slot) calls.push((slot = { index, id: "", name: "", args: "" }));
  } else {
    slot = id ? undefined : calls.at(-1);
    if (slot && startsCall(slot, tc)) slot = undefined;
    if (!slot) calls.push((slot = { index: Math.max(-1, ...calls.map((c) => c.index)) + 1, id: "", name: "", args: "" }));
  }
  slot.id ||= id;
  slot.name ||= tc.function?.name ?? "";
  const extra = (tc as { extra_content?: unknown }).extra_content;
  if (extra !== undefined && extra !== null) slot.extra = extra;
  const args = tc.function?.arguments;
  // llama-server (ggml-org/llama.cpp#20198) and TGI (huggingface/text-generation-inference#2136) have sent the object itself
  if (args) slot.args += typeof args === "string" ? args : JSON.stringify(args);
}

/**
 * Whether id-less fragment `tc` starts a call after `slot`: it names a function while `slot` has a
 * name and whole arguments, and it is no repeat of `slot`'s name alone (servers that repeat the
 * name on every fragment send it with the rest of the same arguments, or with none).
 */
function startsCall(slot: StreamedCall, tc: CallFragment): boolean {
  const name = tc.function?.name;
  if (!name || !slot.name || (tc.id && slot.id)) return false;
  if (name === slot.name && !tc.function?.arguments) return false;
  return wholeObject(slot.args);
}

/** `args` is one whole JSON object (a call's complete arguments, not the start of them). */
function wholeObject(args: string): boolean {
  if (!/^\s*\{[\s\S]*\}\s*$/.test(args)) return false;
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}
