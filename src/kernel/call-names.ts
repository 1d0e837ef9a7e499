// The tool a call names, when the model wrote its name from another agent's habits: `Bash`,
// `functions.bash`, `readFile`, Claude Code's `Read`, Cursor's `run_terminal_cmd`. Such a call runs
// under hey's name, and the history keeps that name (strict APIs refuse a call to a tool they were
// not offered); permission rules judge it under that name too. A name that is near no tool's gets
// a "did you mean". Pure.
import type { Message } from "./ir.ts";
import { editDistance } from "./spelling.ts";
import { BUILTIN_TOOLS, TOOL } from "./tool-names.ts";

/** What a call's name may start with that names no tool: the namespaces of chat templates (`functions.bash`, Gemini's `default_api.bash`). */
const NAMESPACE = /^(?:functions|function|default_api|tools|tool)[.:/]/i;

/**
 * Other agents' names for hey's built-ins, by key (lowercase, without `_`, `-`, `.`), where their
 * arguments are hey's or ones tool-args.ts takes (`file_path`, `filePath`): Claude Code's and
 * opencode's Read/Write/Edit/Bash/Grep, Cursor's run_terminal_cmd, Cline's execute_command and
 * write_to_file, Gemini CLI's run_shell_command, replace and search_file_content, OpenHands'
 * execute_bash, Codex's shell.
 */
const OTHER_NAMES: Record<string, string> = {
  read: TOOL.readFile,
  write: TOOL.writeFile,
  writetofile: TOOL.writeFile,
  createfile: TOOL.writeFile,
  replace: TOOL.edit,
  shell: TOOL.bash,
  runterminalcmd: TOOL.bash,
  runshellcommand: TOOL.bash,
  executecommand: TOOL.bash,
  executebash: TOOL.bash,
  searchfilecontent: TOOL.grep,
};

/**
 * Names whose tool does what one of hey's does with other arguments: only suggested, never run
 * as it (OpenHands' str_replace_editor takes a `command` and `old_str`; Codex's apply_patch a patch).
 */
const SUGGESTED: Record<string, string> = { strreplaceeditor: TOOL.edit, applypatch: TOOL.edit, editfile: TOOL.edit };

const keyOf = (name: string) =>
  name
    .replace(NAMESPACE, "")
    .toLowerCase()
    .replace(/[-_.\s]/g, "");

/**
 * The tool `name` means among `offered` (the request's tools), or undefined: the name itself when
 * offered; else without a namespace, or matched without regard to case, `_` and `-`, when exactly
 * one offered tool matches; else hey's built-in another agent calls so (OTHER_NAMES), offered or
 * not (a built-in the rules refuse outright is answered with their refusal, not "unknown tool").
 */
export function toolNameOf(name: string, offered: readonly string[]): string | undefined {
  if (offered.includes(name)) return name;
  const key = keyOf(name);
  const same = offered.filter((t) => keyOf(t) === key);
  if (same.length === 1) return same[0];
  if (same.length > 1) return undefined;
  return BUILTIN_TOOLS.find((t) => keyOf(t) === key) ?? OTHER_NAMES[key];
}

/**
 * The assistant message with each call named as toolNameOf reads it, else as `alias` does (the
 * layer that owns tools not offered, LoopDeps.alias); `message` itself when none changes.
 */
export function withToolNames(message: Message, offered: readonly string[], alias?: (name: string) => string | undefined): Message {
  const calls = message.toolCalls;
  if (!calls?.some((c) => !offered.includes(c.name))) return message;
  const named = calls.map((c) => {
    const name = toolNameOf(c.name, offered) ?? alias?.(c.name);
    return name === undefined || name === c.name ? c : { ...c, name };
  });
  return named.every((c, i) => c === calls[i]) ? message : { ...message, toolCalls: named };
}

/** The offered tool an unknown `name` was most likely meant as, for "did you mean …?"; undefined when none is close. */
export function nearestTool(name: string, offered: readonly string[]): string | undefined {
  const key = keyOf(name);
  const suggested = SUGGESTED[key];
  if (suggested && offered.includes(suggested)) return suggested;
  let best: { name: string; distance: number } | undefined;
  for (const t of offered) {
    const other = keyOf(t);
    // `run_bash`, `grep_search`, `read_files`: hey's name inside theirs, or theirs inside hey's
    const inside = other.length >= 4 && key.length >= 4 && (key.includes(other) || other.includes(key));
    const distance = inside ? 0 : editDistance(key, other, true);
    if (distance <= Math.max(1, Math.floor(other.length / 4)) && (!best || distance < best.distance)) best = { name: t, distance };
  }
  return best?.name;
}
