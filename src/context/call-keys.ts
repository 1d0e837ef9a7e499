// A tool call's arguments as a canonical key (dedup and error purge, passes.ts): two calls are the
// same when their arguments parse to the same JSON, whatever the spaces or key order. Pure.
import type { ToolCall } from "../kernel/ir.ts";
import { TOOL } from "../kernel/tool-names.ts";

/** Tools whose results the dedup and purge passes never touch: they record what the model changed. */
export const KEEP_RESULTS: ReadonlySet<string> = new Set<string>([TOOL.writeFile, TOOL.edit, TOOL.compress]);

/**
 * Worked out once per call, with the text it was worked out of: every request compares every call
 * of the history again (x119 #4), and an embedder may edit a call's arguments in place (x126 #2).
 */
const canonicalOf = new WeakMap<ToolCall, { of: string; key: string }>();

/** Argument text as a canonical key: parsed JSON with sorted keys, or the raw text when it is not JSON. */
export function canonicalArguments(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "{}";
  try {
    return canonical(JSON.parse(trimmed));
  } catch {
    return trimmed;
  }
}

/** canonicalArguments of a call's arguments, worked out once per call. */
export function callArguments(c: ToolCall): string {
  const known = canonicalOf.get(c);
  if (known?.of === c.arguments) return known.key;
  const key = canonicalArguments(c.arguments);
  canonicalOf.set(c, { of: c.arguments, key });
  return key;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(",")}}`;
}
