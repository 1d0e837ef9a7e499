// Claude Code's permission rules (`permissions.deny/ask/allow` in a `.claude/settings.json`) in
// hey's words. hey never applies another agent's file — a cloned repository's would then decide
// what hey may run — it says what is there and the `[permission]` entries that do the same. Only
// deny and ask matter: Claude's allow means "do not ask", which is what hey does without a list
// (hey's allow list is fail-closed, so copying Claude's into it would block every tool it leaves
// out). Pure: the caller reads the file.
import { heyToolName, readEntry } from "./entries.ts";

/** The rules of one settings file, as written there. */
export interface PeerRules {
  deny: string[];
  ask: string[];
  allow: string[];
}

/** `permissions` of a parsed settings file; lists that are not arrays of strings count as empty. */
export function claudeRules(data: unknown): PeerRules {
  const p = (data as { permissions?: unknown } | null)?.permissions;
  const list = (key: string): string[] => {
    const v = typeof p === "object" && p !== null ? (p as Record<string, unknown>)[key] : undefined;
    return Array.isArray(v) ? v.filter((e): e is string => typeof e === "string" && e.trim() !== "") : [];
  };
  return { deny: list("deny"), ask: list("ask"), allow: list("allow") };
}

/**
 * One of Claude's rules as hey's deny entries, or why hey has none (a phrase: `Read(./.env)` "names
 * a file; …"). Claude's `Edit` covers every tool that edits files: hey's edit and write_file.
 */
export function heyDenyEntry(rule: string): { entries: string[] } | { none: string } {
  const r = rule.trim();
  const call = /^([A-Za-z_][\w-]*)\s*(?:\((.*)\))?$/s.exec(r);
  if (/^mcp__/i.test(r)) return { entries: [r.toLowerCase()] };
  if (!call) return { none: "is no rule hey can read" };
  const tool = heyToolName(call[1]!);
  const arg = call[2]?.trim();
  if (!tool) return { none: "names a tool hey does not have" };
  if (arg === undefined || arg === "" || arg === "*") return { entries: call[1]!.toLowerCase() === "edit" ? ["edit", "write_file"] : [tool] };
  if (tool !== "bash") return { none: "names files; hey's rules name whole tools" };
  const entry = `bash: ${arg.replace(/:\*$/, " *")}`;
  const read = readEntry(entry, "deny");
  return "error" in read ? { none: `as "${entry}" ${read.error}` } : { entries: [entry] };
}

/** The deny entries hey would need for `rules`' deny and ask lists (hey never asks: a rule to ask becomes one to refuse), and the rules it has none for. */
export function heyDenyList(rules: PeerRules): { deny: string[]; none: string[] } {
  const deny: string[] = [];
  const none: string[] = [];
  for (const rule of [...rules.deny, ...rules.ask]) {
    const h = heyDenyEntry(rule);
    if ("entries" in h) {
      for (const entry of h.entries) if (!deny.includes(entry)) deny.push(entry);
    } else none.push(`${rule} (${h.none})`);
  }
  return { deny, none };
}

/**
 * What hey says of settings files with rules (`files` as the user would name them, whose rules are
 * `rules` together: one [permission] table to paste; `where`: the config file to write them in),
 * or undefined when they have no deny or ask rule: an allow list only says what Claude need not ask
 * about, which hey does not ask about anyway.
 */
export function peerRulesNotice(files: readonly string[], rules: PeerRules, where: string): string | undefined {
  if (rules.deny.length === 0 && rules.ask.length === 0) return undefined;
  const file = files.length > 1 ? `${files.slice(0, -1).join(", ")} and ${files.at(-1)} have` : `${files[0]} has`;
  const { deny, none } = heyDenyList(rules);
  const counts = [rules.deny.length && `${rules.deny.length} deny`, rules.ask.length && `${rules.ask.length} ask`].filter(Boolean).join(", ");
  const lines = [
    `warning: ${file} Claude Code permission rules (${counts}) that hey does not apply: with no [permission] list of its own hey runs every tool call without asking.`,
  ];
  if (deny.length) lines.push(`  To refuse the same, write in ${where}:`, "  [permission]", `  deny = [${deny.map((e) => JSON.stringify(e)).join(", ")}]`);
  if (none.length) lines.push(`  No hey entry for: ${none.join("; ")}`);
  return lines.join("\n");
}
