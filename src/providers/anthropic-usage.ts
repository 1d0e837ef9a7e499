// An Anthropic Messages response's token counts in IR terms. Pure; no SDK, not even its types
// (only providers/anthropic.ts names the SDK): the fields read are written out here.
import { unreportedUsage, type Usage } from "../kernel/ir.ts";

/** The counts of the SDK's Usage (message_start) and MessageDeltaUsage (message_delta) that hey reads. */
export interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** `message_delta.usage` is cumulative; its input counts may be null or absent (test/fixtures/wire/anthropic/text-then-tool-use.sse). */
export function mergeUsage(start: WireUsage, delta: WireUsage | undefined): WireUsage {
  const out = { ...start };
  for (const [k, v] of Object.entries(delta ?? {})) if (v !== null && v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** IR usage: `input` counts the cached tokens too (they are parts of it). */
export function toUsage(u: WireUsage): Usage {
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const cacheWrite = u.cache_creation_input_tokens ?? 0;
  if (u.input_tokens === undefined && u.output_tokens === undefined) return unreportedUsage();
  return {
    input: (u.input_tokens ?? 0) + cacheRead + cacheWrite,
    output: u.output_tokens ?? 0,
    cacheRead,
    cacheWrite,
    reasoning: u.output_tokens_details?.thinking_tokens ?? 0,
  };
}
