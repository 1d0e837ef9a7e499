// A Gemini function call as google.ts assembles it (OpenCall: whole on the Gemini API, from
// `partialArgs` fragments on Vertex), its arguments read, and the IR tool call it becomes, with the
// signature and id the next request sends back (CallData). Pure; no SDK, not even its types.
import { readArguments } from "../kernel/call-arguments.ts";
import type { ToolCall } from "../kernel/ir.ts";
import { asObject } from "./common.ts";
import type { GeminiNames } from "./gemini-names.ts";
import { callIdOf } from "./tool-call-ids.ts";

/** On a tool call. `id` only when the API gave one: ids we made up are never sent to it. */
export interface CallData {
  thoughtSignature?: string;
  id?: string;
}

/** A call being assembled: whole on the Gemini API, from `partialArgs` fragments on Vertex. */
export interface OpenCall<P> {
  part: P;
  name: string;
  id?: string;
  args: Record<string, unknown>;
  /** the arguments as sent, when they came as no object and could not be read as one (callArgs) */
  text?: string;
  signature?: string;
}

/**
 * A functionCall's `args` as the call's arguments. Gemini sends an object; a translating proxy may
 * send the JSON as a string, which is read as chat completions' arguments are (readArguments: JSON
 * in a string, and the slips with one meaning); what is still no object keeps its text, so the model
 * is shown why its arguments could not be read — never spread into one argument per character.
 */
export function callArgs(args: unknown): Pick<OpenCall<unknown>, "args" | "text"> {
  if (args === undefined || args === null) return { args: {} };
  if (asObject(args)) return { args: { ...(args as Record<string, unknown>) } };
  const text = typeof args === "string" ? args : JSON.stringify(args);
  const read = readArguments(text);
  return "args" in read ? { args: read.args } : { args: {}, text };
}

/** `cut`: the call the output limit cut (MAX_TOKENS: one still willContinue, or the answer's last part): its JSON is left unclosed, as cut. */
export function toToolCall(model: string, cut: OpenCall<unknown> | undefined, names: GeminiNames): (c: OpenCall<unknown>) => ToolCall {
  return (c) => {
    const data: CallData = { ...(c.signature ? { thoughtSignature: c.signature } : {}), ...(c.id ? { id: c.id } : {}) };
    const args = c.text ?? JSON.stringify(c.args); // no ids on the Gemini API (function-call-thought-signature.sse): matched by name and order
    const call: ToolCall = { id: callIdOf(c.id), name: names.fromWire(c.name), arguments: c === cut ? args.slice(0, -1) : args };
    if (data.thoughtSignature || data.id) call.opaque = { protocol: "google", model, data };
    return call;
  };
}
