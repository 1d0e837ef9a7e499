// How an Anthropic Messages response ended, in IR terms: its stop_reason as a StopReason, and the
// words the user must hear about an unusual stop. Pure; no SDK, not even its types.
import type { StopReason } from "../kernel/ir.ts";

/** The stop reasons of the SDK's StopReason type; an unknown one is "other", never an error. */
export function toStop(reason: string): StopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "refusal";
    default:
      return "other"; // pause_turn, and whatever comes next
  }
}

/** Said of a `model_context_window_exceeded` stop: raising max_tokens cannot help there. */
const WINDOW_FULL = "the conversation filled the model's context window (model_context_window_exceeded): /compact it (hey -c /compact) or start a new one";

/**
 * What the user is told beside the stop, if anything: a refusal's category and explanation from
 * its stop_details, which come on message_delta
 * (platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals;
 * older streams and gateways send none), or that the context window is full.
 */
export function stopDetail(stop: string | undefined, d: { category?: string | null; explanation?: string | null } | null | undefined): string | undefined {
  if (stop === "model_context_window_exceeded") return WINDOW_FULL;
  if (stop !== undefined && toStop(stop) === "other") return `"${stop}"`; // pause_turn, or a new one: the loop says it stopped for it
  const words = [d?.category, d?.explanation].filter((w): w is string => typeof w === "string" && w.trim() !== "");
  return words.length > 0 ? words.join(": ") : undefined;
}
