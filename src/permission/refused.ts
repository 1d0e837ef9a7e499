// The schema diet (issue 27): a tool that the permission rules refuse whatever its arguments is
// not offered to the model at all — its schema would be paid on every request for a call that can
// only fail. This asks the rules engine (decide, blockedTools) and changes nothing in it. Pure.
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import { globMatch } from "./match.ts";
import { blockedTools } from "./blocked-tools.ts";
import { denyWords } from "./refusal-words.ts";
import { decide, type CompiledRules } from "./rules.ts";
import { toolMatch } from "./tool-match.ts";

/**
 * Whether every call of `tool` is refused: it matches a deny entry by name, or an allow list
 * leaves it no way to run. bash is refused outright only so (a `bash: PATTERN` allow entry or a
 * deny pattern judges each command), and a file tool an allow entry gives paths (`read_file: src/**`)
 * only by a deny entry naming it; any other tool is judged by its names alone (an MCP tool's
 * `origin`: tool-match.ts).
 */
export function refusedOutright(tool: string, rules: CompiledRules, origin?: ToolOrigin): boolean {
  if (tool !== "bash") {
    // judged by names, path entries aside (no disk looked at); one allowing some paths leaves the tool offered unless a deny entry names it whole
    const names: CompiledRules = { ...rules, deny: { ...rules.deny, files: [] }, ...(rules.allow ? { allow: { ...rules.allow, files: [] } } : {}) };
    if (decide(tool, {}, names, origin).allowed) return false;
    return !(!origin && rules.allow?.files.some((f) => f.tool === tool) && !rules.deny.tools.some((glob) => globMatch(glob, tool)));
  }
  return rules.deny.tools.some((glob) => globMatch(glob, tool)) || blockedTools(rules, [tool]).length > 0;
}

/**
 * The deny entry that refuses every call of `tool` by its name (`deny = ["mcp__d"]` for each tool of
 * server d), in words with where it is written, or undefined: an allow entry cannot lift that
 * refusal, as deny wins, so what says the tool is refused names this entry instead.
 */
export function denyingEntry(tool: string, rules: CompiledRules, origin?: ToolOrigin): string | undefined {
  const entry = rules.deny.tools.find((glob) => toolMatch(glob, tool.toLowerCase(), origin, "deny"));
  return entry === undefined ? undefined : denyWords(entry, rules.denyAt);
}

/**
 * refusedOutright over every list in force: false; or, when one refuses every call of `tool`, the
 * deny entry that does in words (denyingEntry), which no allow entry can lift; else true.
 */
export function refusedBy(tool: string, lists: readonly CompiledRules[], origin?: ToolOrigin): boolean | string {
  if (!lists.some((rules) => refusedOutright(tool, rules, origin))) return false;
  return lists.map((rules) => denyingEntry(tool, rules, origin)).find((words) => words !== undefined) ?? true;
}
