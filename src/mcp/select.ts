// Tool selection per server (issue 27): `tools = [...]` offers only those of a server's tools,
// `exclude_tools = [...]` never offers these (Codex's `enabled_tools` / `disabled_tools` are read
// as the same keys). A name is the server's own name for the tool or, when it is none of the
// server's own names, the name the model sees (dots and spaces as `_`), and may hold `*` as a
// wildcard. Pure.
import type { McpServerSettings } from "../config/settings.ts";
import { sanitizeName, type McpTool } from "./names.ts";

export type Selection = Pick<McpServerSettings, "tools" | "excludeTools">;

/** Why a server's tool is not offered. */
export type LeftOut = "tools" | "exclude_tools";

const patternOf = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );

/**
 * Whether `pattern` names the tool, of the server's tools `all`: its own name, `*` matching
 * anything; or its sanitized name (the model's: `get.user` as `get_user`) when the pattern names
 * none of `all` by its own — `tools = ["get_user"]` on a server of `get_user` and `get.user` is
 * the one named so, not both; a wildcard matches by either (`get_*`: `get_item` and `get.user`).
 */
function names(pattern: string, tool: McpTool, all: readonly McpTool[]): boolean {
  const re = patternOf(pattern);
  if (re.test(tool.name)) return true;
  return re.test(sanitizeName(tool.name)) && (pattern.includes("*") || !all.some((t) => re.test(t.name)));
}

/** Why `tool` (of the server's tools `all`) is left out by the selection, or undefined when it is offered. */
export function leftOutBy(tool: McpTool, sel: Selection, all: readonly McpTool[]): LeftOut | undefined {
  if (sel.tools && !sel.tools.some((p) => names(p, tool, all))) return "tools";
  if (sel.excludeTools?.some((p) => names(p, tool, all))) return "exclude_tools";
  return undefined;
}

/** The tools the selection offers, in the server's order. */
export function selectTools(tools: readonly McpTool[], sel: Selection): McpTool[] {
  return tools.filter((t) => leftOutBy(t, sel, tools) === undefined);
}

/**
 * The selection's names that match none of the server's tools: a typo would otherwise offer
 * nothing (`tools`) or exclude nothing (`exclude_tools`) without a word. One warning per key.
 */
export function selectionWarnings(server: string, tools: readonly McpTool[], sel: Selection): string[] {
  const out: string[] = [];
  const check = (key: LeftOut, list: readonly string[] | undefined) => {
    const unknown = (list ?? []).filter((p) => !tools.some((t) => names(p, t, tools)));
    if (unknown.length === 0) return;
    const offered = tools.map((t) => t.name);
    const known = offered.length > 12 ? [...offered.slice(0, 12), "…"] : offered;
    out.push(
      `[mcp.${server}] ${key} names ${unknown.map((n) => JSON.stringify(n)).join(", ")}, which the server does not offer to hey (it offers: ${known.join(", ") || "no tools"})`,
    );
  };
  check("tools", sel.tools);
  check("exclude_tools", sel.excludeTools);
  return out;
}
