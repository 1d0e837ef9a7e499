// Which MCP tools a request offers, and what each costs (issue 27). Per server, the tool
// selection (`tools` / `exclude_tools`) goes first, then a tool the permission rules refuse
// whatever its arguments and whatever it is called (its own name, `<server>_<name>`); the names the
// model sees are given to what is left (so neither causes a prefix clash); then a tool the rules
// refuse under the name it got is left out too: its schema would be paid on every request for a call
// that can only fail; before all, a tool whose input schema a model's API would refuse
// (schema-check.ts). Pure.
import { DEFAULT_TOKENS_PER_CHAR } from "../context/passes.ts";
import type { ToolSpec } from "../kernel/ir.ts";
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import { clashLines, exposeTools, originOf, renamedLine, sanitizeName, shortDescription, type ExposedTool, type McpTool, type Renaming } from "./names.ts";
import { schemaProblem } from "./schema-check.ts";
import { leftOutBy, selectionWarnings, selectTools, type Selection } from "./select.ts";
import { serverWord } from "../permission/tool-match.ts";

/** Why a server's tool is not in the request. */
export type Reason = "tools" | "exclude_tools" | "permission" | "schema" | "tasks";

/**
 * What the permission rules say of every call of a tool: false (some may run), true (all refused),
 * or the deny entry that refuses them in words (`deny entry \`mcp__d\` in ~/.config/hey/config.toml:7`),
 * which no allow entry can lift: deny wins.
 */
export type Refused = boolean | string;

export interface ServerTools {
  server: string;
  tools: readonly McpTool[];
  selection: Selection;
}

export interface Offer {
  /** the tools in the request, with the names the model sees */
  tools: ExposedTool[];
  /**
   * the tools left out, under their server's own names; one the permission rules refuse under the
   * name they judged, the model's (`fs_read_file`), so the user sees what an allow entry must name,
   * and with what the rules know of it (`origin`), so a call by that name reads their refusal
   */
  leftOut: { server: string; name: string; why: Reason; origin?: ToolOrigin; denied?: string }[];
  /** invalid input schemas, and selection names that match no tool */
  warnings: string[];
  /** what the model that wrote a table is told too (guidance.ts): the selection's warnings (`[mcp.NAME] tools` names …), and a server whose tools the rules all refuse */
  selection?: string[];
  /**
   * tools offered under their server's prefix: two servers offer the name, or hey has a tool of that
   * name (said as soon as they are offered, once per change of the lists: said-renames.ts; one the
   * rules refuse is not offered, so not said)
   */
  renamed: Renaming[];
  /**
   * the names of `tools` the next request leaves to find_tools (deferred.ts): loaded on demand, not
   * in every request; set, empty when all are loaded, whenever that request carries find_tools
   */
  deferred?: string[];
}

/**
 * The tools to offer from `lists` (in server order). `refused(name, origin)`: whether the permission
 * rules refuse every call of the tool the model would see as `name` (from `origin`: the rules name it
 * by its server's names too), and the deny entry that does (Refused); `builtins`: hey's own tools' names, which a server's tool never takes;
 * `held`: the names the run has offered, which their tools keep (names.ts).
 */
export function offerTools(
  lists: readonly ServerTools[],
  refused: (name: string, origin: ToolOrigin) => Refused,
  builtins: readonly string[] = [],
  held?: ReadonlyMap<string, string>,
): Offer {
  const leftOut: Offer["leftOut"] = [];
  const warnings: string[] = [];
  const misnamed: string[] = [];
  const selected = lists.map(({ server, tools: listed, selection }) => {
    // a schema a model's API refuses would fail every request: its tool is left out, and said
    const tools = listed.filter((t) => {
      const bad = schemaProblem(t.inputSchema);
      if (bad) leftOut.push({ server, name: t.name, why: "schema" });
      if (bad) warnings.push(`MCP server ${server}'s tool ${t.name} is not offered: its input schema is invalid (${bad})`);
      // a tool the server runs only as an MCP task would fail every call: hey does not run tasks yet
      if (!bad && t.tasksOnly) leftOut.push({ server, name: t.name, why: "tasks" });
      return !bad && !t.tasksOnly;
    });
    for (const t of tools) {
      const why = leftOutBy(t, selection, tools);
      if (why) leftOut.push({ server, name: t.name, why });
    }
    const unmatched = selectionWarnings(server, tools, selection);
    warnings.push(...unmatched);
    misnamed.push(...unmatched);
    return { server, tools: selectTools(tools, selection) };
  });
  // a tool the rules refuse whatever name it is given takes no part in the naming: refused, it is
  // never offered, and a clash with it would rename another server's tool out of its allow entry
  // (said under the name it would have: prefixed where another server lists that name too)
  const own = new Set(builtins);
  const listers = new Map<string, number>();
  for (const { tools: list } of selected) for (const t of list) listers.set(sanitizeName(t.name), (listers.get(sanitizeName(t.name)) ?? 0) + 1);
  const open = selected.map(({ server, tools: list }) => ({
    server,
    tools: list.filter((tool) => {
      const origin = originOf({ server, tool, name: "" });
      const alone = own.has(origin.name) ? origin.qualified : origin.name;
      const [byName, byQualified] = [refused(alone, origin), refused(origin.qualified, origin)];
      if (!byName || !byQualified) return true;
      leftOut.push({ server, name: listers.get(origin.name)! > 1 ? origin.qualified : alone, why: "permission", origin, ...deniedBy(byName) });
      return false;
    }),
  }));
  const exposed = exposeTools(open, builtins, held);
  const tools = exposed.tools.filter((e) => {
    const origin = originOf(e);
    const by = refused(e.name, origin);
    if (!by) return true;
    leftOut.push({ server: e.server, name: e.name, why: "permission", origin, ...deniedBy(by) });
    return false;
  });
  const renamed = tools
    .filter((e) => own.has(sanitizeName(e.tool.name)))
    .map((e) => ({ servers: [e.server], line: renamedLine(e.server, sanitizeName(e.tool.name), e.name) }));
  // a server none of whose tools is offered because the rules refuse them: said to the user with the
  // entry that allows them, and to the model that added it, which would otherwise take it for live
  for (const { server } of lists) {
    const refusedHere = leftOut.filter((l) => l.server === server && l.why === "permission");
    if (refusedHere.length === 0 || tools.some((e) => e.server === server)) continue;
    const denied = refusedHere.flatMap((l) => l.denied ?? []);
    warnings.push(refusedServerLine(server, refusedHere.length, denied));
    misnamed.push(refusedServerNote(server, refusedHere.length, denied));
  }
  return { tools, leftOut, warnings, selection: misnamed, renamed: [...clashLines(tools, builtins), ...renamed] }; // a name the rules refuse is not said
}

/** The entry of `[permission] allow` that lets every tool of `server` run (Claude Code's spelling: permission/tool-match.ts). */
export const serverEntry = (server: string) => `mcp__${serverWord(server)}`;

/** `{ denied }` of a tool a deny entry refuses (Refused as words), else nothing. */
const deniedBy = (by: Refused) => (typeof by === "string" ? { denied: by } : {});

/**
 * The user's line for a server whose `count` tools `[permission]` all refuses: the allow entry that
 * lets them run; or, as deny wins over allow, the deny entries that refuse them (`denied`, in words
 * with where they are written) — all of them, or those of the `denied.length` they refuse.
 */
export function refusedServerLine(server: string, count: number, denied: readonly string[] = []): string {
  const all = count === 1 ? "its one tool" : `all ${count} of its tools`;
  const head = `MCP server ${server}: [permission] refuses ${all}, so the agent is offered none`;
  const allow = `to let it use them, add ${JSON.stringify(serverEntry(server))} to [permission] allow (or "${serverEntry(server)}__NAME" for one tool)`;
  if (denied.length === 0) return `${head}; ${allow}`;
  const them = count === 1 ? "it" : "them";
  if (denied.length === count)
    return `MCP server ${server}: ${deniedWords(denied)} ${all}, so the agent is offered none; to let it use ${them}, remove that from the deny list (deny wins over allow: an allow entry would not)`;
  return `${head}; ${deniedWords(denied)} ${denied.length} of them whatever allow says; for the others, ${allow.replace("to let it use them, ", "")}`;
}

/** The model's: the tools are missing because of the user's lists, which it may not change. */
export function refusedServerNote(server: string, count: number, denied: readonly string[] = []): string {
  const all = count === 1 ? "its one tool" : `all ${count} of its tools`;
  if (denied.length === count)
    return `MCP server ${server} is running, but the user's ${deniedWords(denied)} ${all}, so you are offered none; only the user can change that (deny wins: no allow entry lifts it)`;
  return `MCP server ${server} is running, but the user's [permission] lists refuse ${all}, so you are offered none; only the user can allow them: ask them to add ${JSON.stringify(serverEntry(server))} to [permission] allow`;
}

/** `deny entry \`mcp__d\` in FILE:LINE refuses`, or `deny entries \`a\` in FILE:LINE and \`b\` … refuse`: each once. */
function deniedWords(denied: readonly string[]): string {
  const each = [...new Set(denied)].map((w) => w.replace(/^deny entry /, ""));
  return each.length === 1 ? `deny entry ${each[0]} refuses` : `deny entries ${each.slice(0, -1).join(", ")} and ${each.at(-1)} refuse`;
}

/**
 * What the permission rules know of the MCP tool the model calls `name`: one of `given` (the last
 * request's tools), else one `now()` offers, or leaves out as the rules refuse it (so they refuse
 * its call); undefined when no server's tool has that name.
 */
export function originFor(name: string, given: readonly ExposedTool[], now: () => Offer): ToolOrigin | undefined {
  const e = given.find((t) => t.name === name);
  if (e) return originOf(e);
  const offer = now();
  const found = offer.tools.find((t) => t.name === name);
  return found ? originOf(found) : offer.leftOut.find((l) => l.origin && (l.name === name || l.origin.qualified === name))?.origin;
}

/** The spec a request carries for an MCP tool (the description cut, a placeholder when it has none). */
export function mcpSpec(e: ExposedTool): ToolSpec {
  return { name: e.name, description: shortDescription(e.tool.description) || `${e.tool.name} (MCP server ${e.server})`, parameters: e.tool.inputSchema };
}

/** About how many tokens a tool's schema adds to every request (hey's estimate: characters / 4). */
export function specTokens(spec: ToolSpec): number {
  return Math.ceil(JSON.stringify({ name: spec.name, description: spec.description, parameters: spec.parameters }).length * DEFAULT_TOKENS_PER_CHAR);
}
