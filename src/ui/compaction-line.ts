// The line a `compaction` event shows (on a terminal, and on stderr in a `-p` run): what was done to
// the context, with its real size before and after. A step that did not make the context smaller
// says so, instead of calling a total that went up "left out" or "cut to fit". Pure.
import type { AgentEvent } from "../kernel/output.ts";
import { visible } from "./visible.ts";

type Compaction = Extract<AgentEvent, { type: "compaction" }>;

const count = (n: number) => n.toLocaleString("en-US");

/** The line of `e`: `context: older messages left out to fit the budget (~4,213 → ~1,690 tokens)`. */
export function compactionLine(e: Compaction): string {
  const sizes = `~${count(e.tokens_before)} → ~${count(e.tokens_after)} tokens`;
  const smaller = e.tokens_after < e.tokens_before;
  if (e.kind === "summary")
    return smaller ? `context: summarized older work (${sizes})` : `context: summarized older work, which did not make the context smaller (${sizes})`;
  const n = e.texts_cut ?? 0;
  const texts = n === 0 ? "" : `${n === 1 ? "a long message" : `${n} long messages`} of the last turns cut to ${n === 1 ? "its" : "their"} start and end`;
  if (e.kind === "window") {
    // an endpoint's limit on one request (Groq's free tier: tokens per minute) is no window of the model's, and a higher tier raises it
    if (e.limit) {
      // with max_tokens counted in the limit (Groq does), requests are kept under what it leaves
      const counted = e.max_tokens
        ? ` and counts max_tokens (${count(e.max_tokens)}) in it, so hey keeps requests under the rest (~${count(e.window ?? 0)})`
        : "";
      const limit = (e.window ?? 0) + (e.max_tokens ?? 0);
      const head = `context: the endpoint takes at most ${count(limit)} tokens a request (its ${e.limit} limit)${counted || ", so hey keeps requests under it"}`;
      const cut = smaller ? `the request was cut to fit (${sizes}${texts ? `; ${texts}` : ""})` : `cutting the request did not make it smaller (${sizes})`;
      return `${head}; ${cut} and sent again — a higher tier at the provider raises the limit`;
    }
    const head = `context: the model's window is about ${count(e.window ?? 0)} tokens`;
    if (!smaller) return `${head}; cutting the request did not make it smaller (${sizes}); sent again`;
    return `${head}; the request was cut to fit (${sizes}${texts ? `; ${texts}` : ""}) and sent again`;
  }
  const failed = e.error ? `; ${visible(e.error)}` : "";
  const what = [e.left_out || !texts ? "older messages left out" : "", texts].filter(Boolean).join(" and ");
  if (e.fixed_tokens !== undefined && e.budget_tokens !== undefined) {
    // the fixed part fills the budget: no trim of the conversation can bring the request under it
    const tools = e.tool_tokens === undefined ? "" : ` (tool schemas ~${count(e.tool_tokens)})`;
    const head = `context: the system prompt and tools take ~${count(e.fixed_tokens)} tokens${tools} of the ${count(e.budget_tokens)}-token budget, so requests go past it to keep the conversation half of it`;
    return `${head}; ${what} (${sizes}); /mcp (hey mcp list) shows what each MCP server's tools take${failed}`;
  }
  if (!smaller) return `context: over the budget; ${what}, which did not make the context smaller (${sizes})${failed}`;
  return `context: ${what} to fit the budget (${sizes})${failed}`;
}
