// The permission lists of an embedded agent (README "Embed"): `permissionCheck` makes SPEC §8's
// check from `allow` and `deny` lists as a config file writes them, and also knows which tools it
// refuses whatever their arguments, so an agent and its MCP servers leave those out of requests.
import type { PermissionCheck, ToolOrigin } from "./kernel/tool-calls.ts";
import { refusedOutright } from "./permission/refused.ts";
import { compileRules, decide, validateRules } from "./permission/rules.ts";

/**
 * The permission check of SPEC §8 for `allow` and `deny` lists as a config file writes them
 * (`"read_file"`, `"github_*"`, `"bash: git *"`): deny wins; with an allow list a call runs only if
 * it matches; a refused call's result starts with `blocked by permission rules:`. `shell` is the
 * shell the bash tool runs (its syntax is what is checked). Throws an Error naming every entry that
 * is no rule.
 */
export function permissionCheck(lists: { allow?: string[]; deny?: string[] }, shell = "sh"): ListPermission {
  const both = { allow: lists.allow ?? [], deny: lists.deny ?? [] };
  const problems = validateRules(both);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const { rules } = compileRules(both, shell);
  const check = (tool: string, args: Record<string, unknown>, origin?: ToolOrigin) => {
    const decision = decide(tool, args, rules, origin);
    return decision.allowed ? undefined : decision.reason;
  };
  return Object.assign(check, { refuses: (tool: string, origin?: ToolOrigin) => refusedOutright(tool, rules, origin) });
}

/** A PermissionCheck made from lists (`permissionCheck`), which also knows the tools it refuses whatever their arguments. */
export interface ListPermission extends PermissionCheck {
  /** true when every call of `tool` (from `origin`, an MCP tool) is refused: a deny entry names it, or an allow list leaves it no way to run */
  refuses(tool: string, origin?: ToolOrigin): boolean;
}

/** Which tools `permission` refuses outright: a ListPermission knows; of any other check, none is assumed. */
export function refusesOf(permission: PermissionCheck | ListPermission | undefined): (tool: string, origin?: ToolOrigin) => boolean {
  return permission && "refuses" in permission ? permission.refuses : () => false;
}
