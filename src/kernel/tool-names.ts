// The names of hey's built-in tools (SPEC §7). The tools take their name from here, and what
// refers to a built-in by name — permission entries, the passes that never prune an edit's
// result, the control-file guard, the terminal's tool lines — reads it from here too: one list,
// so a tool renamed is one edit. Pure.

export const TOOL = {
  bash: "bash",
  readFile: "read_file",
  writeFile: "write_file",
  edit: "edit",
  grep: "grep",
  compress: "compress",
} as const;

/** Every built-in's name, compress included (it exists when `[compaction] compress_tool` is on). */
export const BUILTIN_TOOLS: readonly string[] = Object.values(TOOL);

/** The longest tool name a model API takes. */
export const MAX_TOOL_NAME_CHARS = 64;

/**
 * Why no model API would take `name` as a tool name, or undefined when every one does: OpenAI and
 * Anthropic answer 400 to a request naming a tool outside [a-zA-Z0-9_-]{1,64} (Gemini's stricter
 * rule is met by renaming in its own adapter).
 */
export function toolNameProblem(name: unknown): string | undefined {
  if (typeof name === "string" && /^[a-zA-Z0-9_-]+$/.test(name) && name.length <= MAX_TOOL_NAME_CHARS) return undefined;
  return `a tool's name must be 1 to ${MAX_TOOL_NAME_CHARS} letters, digits, _ or - (what model APIs accept), got ${JSON.stringify(name)}`;
}
