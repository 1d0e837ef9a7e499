// A whole Responses `response` object where a stream was asked for (a server or gateway that
// ignores `"stream": true`). Pure; the wire's words stay in the Responses adapter's files.
import { asObject } from "./common.ts";

/** The states of a response that is over; a `queued` or `in_progress` one (background mode) is no answer yet. */
const ENDS: Record<string, string> = { completed: "response.completed", incomplete: "response.incomplete", failed: "response.failed" };

/**
 * `body` as the events that say the same: each output item added, its text, refusal and reasoning
 * summary as deltas, done; then the response's end with the response itself (its usage and status).
 * undefined when `body` is no finished response. Pure.
 */
export function responseAsEvents(body: unknown): string | undefined {
  const response = asObject(body);
  const end = ENDS[String(response?.status)];
  if (response?.object !== "response" || !Array.isArray(response.output) || !end) return undefined;
  const events: string[] = [];
  const event = (type: string, data: Record<string, unknown>) => {
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: events.length })}\n\n`);
  };
  response.output.forEach((item: unknown, output_index: number) => {
    const it = asObject(item) ?? {};
    const item_id = typeof it.id === "string" ? it.id : `#${output_index}`;
    event("response.output_item.added", { output_index, item });
    const parts = (key: string) => (Array.isArray(it[key]) ? it[key].map((p) => asObject(p) ?? {}) : []);
    if (it.type === "message")
      parts("content").forEach((c, content_index) => {
        if (c.type === "output_text" || c.type === "refusal")
          event(c.type === "refusal" ? "response.refusal.delta" : "response.output_text.delta", {
            item_id,
            output_index,
            content_index,
            delta: String(c.type === "refusal" ? c.refusal : c.text),
          });
      });
    if (it.type === "reasoning")
      for (const [summary_index, part] of parts("summary").entries())
        event("response.reasoning_summary_text.delta", { item_id, output_index, summary_index, delta: String(part.text ?? "") });
    event("response.output_item.done", { output_index, item });
  });
  event(end, { response });
  return events.join("");
}
