// The compatibility flags of a `[provider.NAME]` table (max_tokens_field, system_role…), as the
// adapters take them. Pure.
import type { Compat } from "../providers/common.ts";
import type { FileProvider } from "./schema.ts";

/** The compatibility flags of a provider table, checked; `{}` when it sets none. */
export function compatOf(p: FileProvider): { compat?: Compat } {
  // the values were checked with the other keys (schema.ts: their kinds)
  const compat: Compat = {};
  const maxTokensField = p.max_tokens_field;
  const systemRole = p.system_role;
  if (maxTokensField) compat.maxTokensField = maxTokensField;
  if (systemRole) compat.systemRole = systemRole;
  if (p.reasoning_replay !== undefined) compat.reasoningReplay = p.reasoning_replay;
  if (p.parallel_tool_calls !== undefined) compat.parallelToolCalls = p.parallel_tool_calls;
  if (p.prompt_cache_key !== undefined) compat.promptCacheKey = p.prompt_cache_key;
  if (p.pdfs !== undefined) compat.pdfs = p.pdfs;
  if (p.cache_control !== undefined) compat.cacheControl = p.cache_control;
  return Object.keys(compat).length > 0 ? { compat } : {};
}
