// The schema diet (issue 27): a tool that the permission rules refuse whatever its arguments is
// not offered to the model at all — its schema would be paid on every request for a call that can
// only fail. This asks the rules engine (decide, blockedTools) and changes nothing in it. Pure.
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import { globMatch } from "./match.ts";
import { blockedTools } from "./blocked-tools.ts";
import { decide, type CompiledRules } from "./rules.ts";

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
