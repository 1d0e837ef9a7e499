// The names and descriptions MCP tools are offered under (SPEC §14, seed §6.2, issue 26). Pure.
// Models take tool names made of [a-zA-Z0-9_-], at most 64 characters (the OpenAI wire answers
// 400 to a dot), so each name is sanitized; two servers offering one name both get their server's
// name as a prefix, so no tool is silently lost; and a server's tool named like one of hey's own
// is offered as `<server>_<name>`: a built-in is never shadowed (a filesystem server's write_file
// once locked an agent out of repairing its own config). Descriptions are cut so one verbose
// server cannot bloat every request.
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import { MAX_TOOL_NAME_CHARS } from "../kernel/tool-names.ts";

/** What a model accepts as a tool name (kernel/tool-names.ts, which refuses an embedder's tool named otherwise). */
export const MAX_NAME_CHARS = MAX_TOOL_NAME_CHARS;
/** Every request carries every description: a server's essay is cut here (seed §6.2: ~300). */
export const MAX_DESCRIPTION_CHARS = 300;

/** One tool as a server lists it (the part hey uses). */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** the server runs it only as an MCP task (`execution.taskSupport: "required"`), which hey does not run */
  tasksOnly?: true;
  /** the server says it changes nothing (`annotations.readOnlyHint: true`; absent means it may: the MCP default) */
  readOnly?: true;
}

/** A server's tool with the name the model sees. */
export interface ExposedTool {
  server: string;
  /** the server's own name for it, used to call it */
  tool: McpTool;
  /** the name the model sees */
  name: string;
}

/** `a.b c` → `a_b_c`, cut to 64 characters; never empty. */
export function sanitizeName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, MAX_NAME_CHARS);
  return clean === "" ? "_" : clean;
}

/** The description as sent: whitespace runs folded, cut at MAX_DESCRIPTION_CHARS with "…". */
export function shortDescription(description: string | undefined): string {
  const text = (description ?? "").replace(/\s+/g, " ").trim();
  return text.length <= MAX_DESCRIPTION_CHARS ? text : text.slice(0, MAX_DESCRIPTION_CHARS - 1).trimEnd() + "…";
}

/** A line saying that tools are offered under other names than their servers', and the servers it is about. */
export interface Renaming {
  servers: string[];
  line: string;
}

/** What exposeTools decided: the names, the clashes between servers, and the tools renamed for a built-in. */
export interface Exposed {
  tools: ExposedTool[];
  /** two servers offering one name */
  clashes: Renaming[];
  /** a server's tool named like a built-in, offered under its prefixed name */
  renamed: Renaming[];
}

/** A tool's key among the names a run has given (`held`): its server and its own name. */
export const heldKey = (server: string, tool: McpTool) => `${server}\u0000${tool.name}`;

/**
 * The names of every server's tools, in server order. A name two servers share becomes
 * `<server>_<name>` for both (with a warning), and so does a name of one of `builtins` (hey's own
 * tools keep theirs); a name still taken after that (two tools of one server that sanitize alike,
 * or a prefixed name that meets a plain one) gets `_2`, `_3`…. `held`: the names this run has
 * offered, by heldKey: a tool keeps its name while it is offered (the model has called it so, and
 * the cached prompt prefix holds it), so a server that connects later with a name already offered
 * gets its prefix, and the first keeps the plain name.
 */
export function exposeTools(
  lists: readonly { server: string; tools: readonly McpTool[] }[],
  builtins: readonly string[] = [],
  held: ReadonlyMap<string, string> = new Map(),
): Exposed {
  const owners = new Map<string, Set<string>>();
  for (const { server, tools } of lists)
    for (const t of tools) {
      const name = sanitizeName(t.name);
      (owners.get(name) ?? owners.set(name, new Set()).get(name)!).add(server);
    }
  const renamed: Renaming[] = [];
  const own = new Set(builtins);
  const taken = new Set<string>(builtins);
  // names the run has given keep their tools (the first of two holders keeps it, should two claim one)
  const kept = new Map<string, string>();
  for (const { server, tools } of lists)
    for (const tool of tools) {
      const name = held.get(heldKey(server, tool));
      if (name !== undefined && !taken.has(name)) taken.add(name), kept.set(heldKey(server, tool), name);
    }
  const tools: ExposedTool[] = [];
  for (const { server, tools: list } of lists)
    for (const tool of list) {
      const plain = sanitizeName(tool.name);
      let name = kept.get(heldKey(server, tool));
      if (name === undefined) {
        const base = owners.get(plain)!.size > 1 || own.has(plain) ? prefixed(server, plain) : plain;
        name = base;
        for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME_CHARS - String(n).length - 1)}_${n}`;
        taken.add(name);
      }
      if (own.has(plain)) renamed.push({ servers: [server], line: renamedLine(server, plain, name) });
      tools.push({ server, tool, name });
    }
  return { tools, clashes: clashLines(tools, builtins), renamed };
}

/** How many shared names a clash line shows before it says how many there are in all. */
export const CLASH_NAMES_SHOWN = 3;

/**
 * One line per set of servers that offer tools of the same names among `tools` (hey's `builtins`
 * aside: renamedLine says those): two filesystem servers share 14 names, and 14 lines would bury
 * the rest of what hey says. A single name says what the model sees of it; more say how many, show
 * a few, and each server's prefix (or that a server keeps its names: names.ts held).
 */
export function clashLines(tools: readonly ExposedTool[], builtins: readonly string[] = []): Renaming[] {
  const own = new Set(builtins);
  const byName = new Map<string, ExposedTool[]>();
  for (const e of tools) {
    const plain = sanitizeName(e.tool.name);
    if (!own.has(plain)) (byName.get(plain) ?? byName.set(plain, []).get(plain)!).push(e);
  }
  const groups = new Map<string, { servers: string[]; names: string[]; seen: ExposedTool[] }>();
  for (const [plain, holders] of byName) {
    const servers = [...new Set(holders.map((e) => e.server))];
    if (servers.length < 2) continue;
    const key = servers.join("\u0000");
    const g = groups.get(key) ?? groups.set(key, { servers, names: [], seen: [] }).get(key)!;
    g.names.push(plain), g.seen.push(...holders);
  }
  return [...groups.values()].map(({ servers, names, seen }) => {
    const who = listed(servers);
    if (names.length === 1)
      return {
        servers,
        line: `MCP servers ${who} ${servers.length > 2 ? "all" : "both"} offer a tool named ${names[0]}; the model sees ${listed(seen.map((e) => e.name))}`,
      };
    const shown = names.length > CLASH_NAMES_SHOWN ? `${names.slice(0, CLASH_NAMES_SHOWN).join(", ")}, …; ${names.length} in all` : listed(names);
    const as = servers.map((server) => {
      const mine = seen.filter((e) => e.server === server);
      return mine.every((e) => e.name === sanitizeName(e.tool.name)) ? `${server}'s own names` : `${prefixed(server, "")}…`;
    });
    return { servers, line: `MCP servers ${who} offer tools of the same names (${shown}): the model sees them as ${listed(as)}` };
  });
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: readonly string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** Records that a request offered `tools` under their names (exposeTools' `held`): a name now another tool's is that tool's. */
export function holdNames(held: Map<string, string>, tools: readonly ExposedTool[]): void {
  const given = new Set(tools.map((e) => e.name));
  for (const [key, name] of held) if (given.has(name)) held.delete(key);
  for (const e of tools) held.set(heldKey(e.server, e.tool), e.name);
}

/** What the permission rules know of an offered MCP tool (kernel/tool-calls.ts ToolOrigin). */
export const originOf = (e: ExposedTool): ToolOrigin => {
  const name = sanitizeName(e.tool.name);
  return { server: e.server, name, qualified: prefixed(e.server, name) };
};

const prefixed = (server: string, name: string) => sanitizeName(`${server}_${name}`);

/** What hey says of a server's tool `plain` offered as `name` because one of hey's own tools has that name. */
export const renamedLine = (server: string, plain: string, name: string) =>
  `MCP server ${server}'s tool ${plain} is offered as ${name}: hey's own ${plain} keeps its name`;

/** `MCP server gh's tools changed: + a, − b (12 tools now)`, or undefined when the names are the same. */
export function toolsChanged(server: string, before: string[], after: string[]): string | undefined {
  const added = after.filter((n) => !before.includes(n));
  const removed = before.filter((n) => !after.includes(n));
  if (added.length + removed.length === 0) return undefined;
  const parts = [...added.map((n) => `+ ${n}`), ...removed.map((n) => `− ${n}`)];
  return `MCP server ${server}'s tools changed: ${parts.join(", ")} (${after.length} tool${after.length === 1 ? "" : "s"} now)`;
}
