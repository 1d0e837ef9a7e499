// Which files a grep over a tree passes by (README Permissions, "a file tool's path pattern"): the
// list's path entries for grep judged file by file (file-paths.ts refusedFiles), so a deny entry
// for `.env` leaves the project searchable and only the `.env` files unread. Pure.
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { refusedFiles } from "./file-paths.ts";
import type { CompiledRules } from "./rules.ts";
import { toolMatch } from "./tool-match.ts";

/**
 * For a grep call `rules` let run, whether they keep a file it finds (an absolute path) from it;
 * undefined when they judge no file of it (any other tool, an MCP tool, no path entry for grep).
 */
export function searchedFileRefusal(tool: string, rules: CompiledRules, origin?: ToolOrigin): ((abs: string) => boolean) | undefined {
  if (origin || tool.toLowerCase() !== TOOL.grep) return undefined;
  const byName = !rules.allow || rules.allow.tools.some((glob) => toolMatch(glob, TOOL.grep, undefined, "allow"));
  return refusedFiles(TOOL.grep, { allow: rules.allow?.files, deny: rules.deny.files }, rules.place, byName);
}

/** The file filters of several lists as one: a file any of them keeps out is kept out. */
export function anyRefuses(filters: readonly (((abs: string) => boolean) | undefined)[]): ((abs: string) => boolean) | undefined {
  const set = filters.filter((f): f is (abs: string) => boolean => f !== undefined);
  if (set.length === 0) return undefined;
  return set.length === 1 ? set[0] : (abs) => set.some((f) => f(abs));
}
