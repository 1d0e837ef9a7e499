// How a Gemini stream ends, for the adapter (google.ts): its finishReason as the IR's stop reason,
// and its usage metadata as the IR's token counts. Pure; the SDK's types are the adapter's, so the
// usage is taken by the fields read.
import { emptyUsage, type StopReason, type Usage } from "../kernel/ir.ts";

/** The fields of the SDK's GenerateContentResponseUsageMetadata that are counted. */
export interface GeminiUsage {
  promptTokenCount?: number;
  toolUsePromptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

/** The stream's last usage (every chunk repeats it, growing) as the IR counts it: thoughts are output, and reasoning. */
export function toUsage(u: GeminiUsage | undefined): Usage {
  if (!u) return emptyUsage();
  const thoughts = u.thoughtsTokenCount ?? 0;
  return {
    input: (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0),
    output: (u.candidatesTokenCount ?? 0) + thoughts,
    cacheRead: u.cachedContentTokenCount ?? 0,
    cacheWrite: 0,
    reasoning: thoughts,
  };
}

/** finishReasons of a malformed call (MALFORMED_FUNCTION_CALL: one that "can't be parsed", in the SDK's FinishReason), retried like a broken stream. */
export const RETRIED_FINISH = new Set(["MALFORMED_FUNCTION_CALL"]);

export function toStop(finish: string, calledTools: boolean): StopReason {
  switch (finish) {
    case "STOP":
      return calledTools ? "tool_calls" : "stop";
    case "MAX_TOKENS":
      return "length";
    case "SAFETY":
    case "RECITATION":
    case "PROHIBITED_CONTENT":
    case "BLOCKLIST":
    case "SPII":
      return "refusal";
    default:
      return "other";
  }
}
