// The start-up line for tools an allow list leaves no way to run (SPEC §24): an allow list is
// fail-closed, so a built-in it does not name is blocked, and hey says which — naming only what the
// file does not allow, as an entry waiting for the user's approval is the approval notice's to say,
// and what compress is, which users do not know. Pure.
import { TOOL } from "../kernel/tool-names.ts";
import { globMatch } from "./match.ts";
import { ALLOWS_NOTHING, BASH_TOOL, compileRules, type CompiledRules, type PermissionRules } from "./rules.ts";

/** The tools among `names` that an allow list leaves no way to run. */
export function blockedTools(rules: CompiledRules, names: string[]): string[] {
  const allow = rules.allow;
  if (!allow) return [];
  const some = (name: string) => (name === BASH_TOOL && allow.patterns.length > 0) || allow.files.some((f) => f.tool === name); // allowed some calls
  return names.filter((name) => !allow.tools.some((glob) => globMatch(glob, name)) && !some(name));
}

/**
 * The start-up warning for tools an allow list blocks (SPEC §24): one line naming them and the
 * list that would allow them, e.g. `allow = ["bash: cargo *", "read_file", "grep"]`.
 */
export function blockedWarning(allow: string[], blocked: string[]): string {
  const kept = allow.length > 3 ? [...allow.slice(0, 3).map((e) => JSON.stringify(e)), "…"] : allow.map((e) => JSON.stringify(e));
  const list = [...kept, ...blocked.map((t) => JSON.stringify(t))].join(", ");
  // compress is hey's own, and users do not know it: what it does, so they can tell whether they want it
  const compress = blocked.includes(TOOL.compress)
    ? ` (${TOOL.compress}: hey's tool that drops old tool output from the context; it reads and runs nothing)`
    : "";
  return `[permission] allow leaves ${blocked.join(", ")} blocked${compress}; to let the agent use ${blocked.length === 1 ? "it" : "them"}, add ${blocked.length === 1 ? "its name" : "their names"}: allow = [${list}]`;
}

/**
 * The warning for `lists` (its allow list as the file writes it: the entries in use and those
 * waiting for approval, `pending`) on a shell named `shell`, when it blocks any of the tools
 * `names`; undefined when it blocks none.
 */
export function blockedNotice(lists: PermissionRules, shell: string, names: string[]): string | undefined {
  const written = [...lists.allow.filter((e) => e !== ALLOWS_NOTHING), ...(lists.pending ?? [])];
  if (written.length === 0) return undefined;
  const blocked = blockedTools(compileRules({ allow: written, deny: [] }, shell).rules, names);
  return blocked.length ? blockedWarning(written, blocked) : undefined;
}
