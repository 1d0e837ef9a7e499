// Thinking bound to its conversation (platform.claude.com/docs/en/build-with-claude/preserved-thinking):
// from Claude Fable 5.1 on, a thinking block sent back is checked against everything before it, and
// for accounts made since 2026-08-31 a block whose prefix changed is a 400 ("Invalid `signature` in
// `thinking` block. The block is bound to a different conversation. Remove the block, or set
// `thinking.block_binding.prefix_mismatch_behavior` to "drop_block"."). hey's context management
// changes what came before (a summary, a trim, a cut) within a turn whose thinking it sends back:
// on that 400 the request goes again, and every request after it, with the blocks dropped by the
// API (the documented remedy, behind its beta header). Pure.

import { dropThinking, type Body } from "./anthropic-turns.ts";

/** The beta header that lets a request set `block_binding`. */
export const BINDING_BETA = "thinking-binding-controls-2026-08-01";

/** A 400 refusing a thinking block whose prefix changed (its words, or the setting it names). */
export const boundElsewhere = (message: string): boolean => /bound to a different conversation|prefix_mismatch_behavior/i.test(message);

/**
 * `body` asking the API to drop, not refuse, thinking blocks whose prefix changed: `block_binding`
 * on its thinking (adaptive when it sets none: a model with preserved thinking thinks adaptively by
 * default). With thinking off, the blocks themselves go: the setting needs thinking on.
 */
export function dropMismatched(body: Body): void {
  if (body.thinking?.type === "disabled") {
    for (const m of body.messages) dropThinking(m);
    return;
  }
  const thinking = body.thinking ?? { type: "adaptive" };
  body.thinking = { ...thinking, block_binding: { prefix_mismatch_behavior: "drop_block" } } as Body["thinking"];
}

/** The `anthropic-beta` header with BINDING_BETA added to what the configuration sends. */
export function bindingBeta(headers: Record<string, string> | undefined): Record<string, string> {
  const configured = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === "anthropic-beta")?.[1];
  return { "anthropic-beta": configured ? `${configured},${BINDING_BETA}` : BINDING_BETA };
}
