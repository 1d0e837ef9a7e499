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
