// The permission lists of an embedded agent (README "Embed"): `permissionCheck` makes SPEC §8's
// check from `allow` and `deny` lists as a config file writes them, and also knows which tools it
// refuses whatever their arguments, so an agent and its MCP servers leave those out of requests.
// Path entries (`read_file: src/**`) look at the disk: where a path's links lead, within the
// deadline the CLI's checks keep (fs/bounded-reads.ts), so a hung network mount makes a call
// "cannot verify" rather than freezing the program that embeds the agent.
import { homedir } from "node:os";
import { oneCheck } from "./fs/bounded-reads.ts";
import { realTargetBounded } from "./fs/real-target.ts";
import type { PermissionCheck, ToolOrigin } from "./kernel/tool-calls.ts";
import { refusedOutright } from "./permission/refused.ts";
import { searchedFileRefusal } from "./permission/searched-files.ts";
import { CASELESS_FILES, compileRules, decide, validateRules } from "./permission/rules.ts";

/**
 * The permission check of SPEC §8 for `allow` and `deny` lists as a config file writes them
 * (`"read_file"`, `"github_*"`, `"bash: git *"`, `"read_file: src/**"`): deny wins; with an allow
 * list a call runs only if it matches; a refused call's result starts with `blocked by permission
 * rules:`. `shell` is the shell the bash tool runs (its syntax is what is checked). A file tool's
 * relative path, and a relative path entry, are taken from the process's working directory; an
 * agent (createAgent) judges them from its own `cwd` (ListPermission.within). Throws an Error
 * naming every entry that is no rule.
 */
export function permissionCheck(lists: { allow?: string[]; deny?: string[] }, shell = "sh"): ListPermission {
  const both = { allow: lists.allow ?? [], deny: lists.deny ?? [] };
  const problems = validateRules(both);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const made = (cwd: string): ListPermission => {
    const { rules } = compileRules(both, shell, undefined, CASELESS_FILES, { cwd, home: homedir(), real: realTargetBounded, fold: CASELESS_FILES });
    // one check waits one deadline at most, however many paths it looks at
    const check = (tool: string, args: Record<string, unknown>, origin?: ToolOrigin) =>
      oneCheck(() => {
        const decision = decide(tool, args, rules, origin);
        return decision.allowed ? undefined : decision.reason;
      });
    return Object.assign(check, {
      refuses: (tool: string, origin?: ToolOrigin) => refusedOutright(tool, rules, origin),
      within: made,
      // a grep over a tree passes by the files a path entry keeps from it, as in the CLI
      files: (tool: string) => searchedFileRefusal(tool, rules),
    });
  };
  return made(process.cwd());
}

/** A PermissionCheck made from lists (`permissionCheck`), which also knows the tools it refuses whatever their arguments. */
export interface ListPermission extends PermissionCheck {
  /** true when every call of `tool` (from `origin`, an MCP tool) is refused: a deny entry names it, or an allow list leaves it no way to run */
  refuses(tool: string, origin?: ToolOrigin): boolean;
  /** the same lists, with relative paths (a call's and a path entry's) under `cwd`: createAgent judges its tools' calls so, from its own `cwd` */
  within(cwd: string): ListPermission;
}

/** Which tools `permission` refuses outright: a ListPermission knows; of any other check, none is assumed. */
export function refusesOf(permission: PermissionCheck | ListPermission | undefined): (tool: string, origin?: ToolOrigin) => boolean {
  return permission && "refuses" in permission ? permission.refuses : () => false;
}
