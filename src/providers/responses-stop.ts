// How a Responses answer ended, in IR terms: its status (and why it is incomplete) as a StopReason,
// and the words the loop says of an unusual end. Pure; no SDK, not even its types.
import type { StopReason } from "../kernel/ir.ts";

/** The fields of the SDK's Response that tell how it ended. */
export interface ResponseEnd {
  status?: string | null;
  incomplete_details?: { reason?: string | null } | null;
}

/** The end of `r` as a StopReason: `refused` (a refusal part came), `calls` (function calls came); an unknown status or reason is "other". */
export function toStop(r: ResponseEnd, refused: boolean, calls: number): StopReason {
  if (r.status === "incomplete") {
    const reason = r.incomplete_details?.reason;
    return reason === "max_output_tokens" ? "length" : reason === "content_filter" ? "refusal" : "other";
  }
  if (refused) return "refusal";
  if (calls > 0) return "tool_calls";
  return r.status === "completed" ? "stop" : "other";
}

/** What the user is told of `r`'s end beside the stop, if anything: the content filter, or what an unknown end stopped for (the loop says it). */
export function stopDetail(r: ResponseEnd, stop: StopReason): string | undefined {
  const reason = r.incomplete_details?.reason;
  if (r.status === "incomplete" && reason === "content_filter") return "stopped by the content filter";
  if (stop !== "other") return undefined;
  return r.status === "incomplete" ? `"incomplete"${reason ? ` (${reason})` : ""}` : `status "${r.status ?? "none"}"`;
}
