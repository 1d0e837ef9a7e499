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
 * deny pattern judges each command); any other tool is judged by its names alone (an MCP tool's
 * `origin`: tool-match.ts).
 */
export function refusedOutright(tool: string, rules: CompiledRules, origin?: ToolOrigin): boolean {
  if (tool !== "bash") return !decide(tool, {}, rules, origin).allowed;
  return rules.deny.tools.some((glob) => globMatch(glob, tool)) || blockedTools(rules, [tool]).length > 0;
}
