// find_tools (deferred.ts): what it tells the model of the deferred MCP tools, how it matches a
// query against them, and what it answers — each match's name, description and input schema in
// brief, which is what the model needs to call it the same turn it loads. Pure: loading is the
// caller's.
import { nearestTool } from "../kernel/call-names.ts";
import type { Tool, ToolResult } from "../kernel/tool.ts";
import { FIND_TOOLS, LOADED_PREFIX } from "./deferred.ts";
import { shortDescription, type ExposedTool } from "./names.ts";
import type { Offer, Reason } from "./offer.ts";
import { meantTool } from "./tool-aliases.ts";

/** A query loads at most this many of its best matches (exact names are loaded whatever their number). */
export const FOUND_MAX = 5;
/** Past this many deferred tools the description names each server with a count, not every tool (a name is ~5 tokens). */
export const NAMES_LISTED_MAX = 200;
/** A property's description in the brief schema is cut here: the model reads the rest once the tool is loaded. */
const PROPERTY_CHARS = 120;

/**
 * The tools of `tools` that `names` name, in the order given: as the model sees them, by their
 * server's names, or in another agent's spelling (`mcp__everything__get-sum`, `get_sum`: tool-aliases.ts).
 */
export function namedTools(tools: readonly ExposedTool[], names: readonly string[]): ExposedTool[] {
  return names.flatMap((n) => named(n, tools) ?? []);
}

const named = (n: string, tools: readonly ExposedTool[]) =>
  meantTool(
    n,
    tools.map((e) => ({ server: e.server, own: e.tool.name, name: e.name, e })),
  )?.e;

/** Why a tool the server lists is not to be loaded, as find_tools says it. */
const LEFT_OUT: Record<Reason, (server: string) => string> = {
  permission: () => "refused by the permission rules",
  tools: (server) => `left out by [mcp.${server}] tools`,
  exclude_tools: (server) => `left out by [mcp.${server}] exclude_tools`,
  schema: () => "left out: its input schema is one a model's API refuses",
  tasks: () => "left out: it runs only as an MCP task, which hey does not run",
};

/**
 * The tools find_tools does not load: the servers' that every request carries whole (`[mcp.NAME] defer = false`),
 * those left out (offer.ts), and `own`: the names of hey's tools (bash, read_file…), offered in every request.
 */
export interface Others {
  whole?: readonly ExposedTool[];
  leftOut?: Offer["leftOut"];
  own?: readonly string[];
}

/**
 * A line for each of `names` that names none of `tools` (the model would otherwise read only what
 * did load, and call a tool it believes loaded): one sent whole (hey's own included) is said to be, one a server lists
 * that is not offered is said why, else `not found`, with the nearest name of `tools` when one is close.
 */
export function missedNames(tools: readonly ExposedTool[], names: readonly string[], others: Others = {}): string[] {
  const left = (others.leftOut ?? []).map((l) => ({ server: l.server, own: l.origin?.name ?? l.name, name: l.name, why: l.why }));
  const offered = tools.map((e) => e.name);
  const whole = others.whole ?? [];
  return names.flatMap((n) => {
    if (named(n, tools)) return [];
    const sent = named(n, whole);
    if (sent) return [`offered already, call it: ${sent.name}`];
    if (others.own?.includes(n)) return [`offered already, call it: ${n}`]; // a model that takes find_tools for the way to any tool
    const l = meantTool(n, left);
    if (l) return [`${LEFT_OUT[l.why](l.server)}: ${l.name === n ? n : `${n} (${l.name})`}`];
    const near = nearestTool(n, offered) ?? nearestTool(n.replace(/^mcp__.*__/i, ""), offered);
    return [`not found: ${n}${near ? ` (did you mean ${near}?)` : ""}`];
  });
}

/**
 * The tools that match `query` best, at most `max`: each word (but `the`, `a`, `to`…) counts 3 when
 * it is a word of the tool's name, 2 when the name contains it, 1 when its server's name or its
 * description does (a plural's `s` dropped). Ties keep the offer's order; a tool that scores less
 * than half the best is not returned, so `echo back the input` loads echo, not every tool that
 * mentions its input.
 */
export function searchTools(tools: readonly ExposedTool[], query: string, max = FOUND_MAX): ExposedTool[] {
  const words = wordsOf(query).filter((w) => !COMMON.has(w));
  if (words.length === 0) return [];
  const scored = tools.map((e, i) => {
    const nameWords = wordsOf(e.name);
    const name = e.name.toLowerCase();
    const about = `${e.server} ${e.tool.description ?? ""}`.toLowerCase();
    let score = 0;
    for (const w of words) {
      const forms = w.length > 3 && w.endsWith("s") ? [w, w.slice(0, -1)] : [w];
      if (forms.some((f) => nameWords.includes(f))) score += 3;
      else if (forms.some((f) => name.includes(f))) score += 2;
      else if (forms.some((f) => about.includes(f))) score += 1;
    }
    return { e, i, score };
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score > 0 && s.score >= best / 2)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max)
    .map((s) => s.e);
}

/** Words a query may hold that say nothing of which tool it wants. */
const COMMON = new Set("the an and or of to for in on at by with from into is are be it its this that what which how can me my tool tools".split(" "));

/** `read_text_file`, `getUser`, `a.b` → their words, lowercase. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

/** find_tools' description: what it is for, each deferred server and its tools' names (counts past NAMES_LISTED_MAX), and how to load. */
export function findToolsDescription(deferred: readonly ExposedTool[]): string {
  const by = new Map<string, string[]>();
  for (const e of deferred) by.set(e.server, [...(by.get(e.server) ?? []), e.name]);
  const many = deferred.length > NAMES_LISTED_MAX;
  const servers = [...by].map(([server, names]) => (many ? `${server} (${names.length} tools)` : `${server}: ${names.join(", ")}`));
  if (deferred.length === 0) return "Loads tools of MCP servers that are not offered yet: every one is loaded now.";
  return (
    `Loads tools of MCP servers that are not offered yet, to save tokens. ${many ? "Servers" : "Not loaded"}: ${servers.join("; ")}. ` +
    `Give query (words matched against their names and descriptions; the best ${FOUND_MAX} load) or names (exact); ` +
    "each loaded tool's description and input schema come back, and it is offered from then on. A listed tool may also be called directly by its name."
  );
}

/** The input schema find_tools takes. */
export const FIND_TOOLS_PARAMETERS = {
  type: "object",
  properties: {
    query: { type: "string", description: "words to match against the tools' names and descriptions" },
    names: { type: "array", items: { type: "string" }, description: "exact names of tools to load" },
  },
};

/** A tool's input schema in brief: one line per argument, `name: type` (`?` when optional) and its description's start. */
export function briefSchema(schema: Record<string, unknown>): string {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const lines = Object.entries(props).map(([name, p]) => {
    const prop = isObject(p) ? p : {};
    const about = typeof prop.description === "string" ? ` — ${cut(prop.description.replace(/\s+/g, " ").trim())}` : "";
    return `  ${name}${required.includes(name) ? "" : "?"}: ${typeOf(prop)}${about}`;
  });
  return lines.length ? lines.join("\n") : "  (no arguments)";
}

function typeOf(p: Record<string, unknown>): string {
  if (Array.isArray(p.enum)) return p.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (p.type === "array") return `${isObject(p.items) ? typeOf(p.items) : "any"}[]`;
  if (typeof p.type === "string") return p.type;
  if (Array.isArray(p.type)) return p.type.join(" | ");
  return "any";
}

const cut = (s: string) => (s.length <= PROPERTY_CHARS ? s : `${s.slice(0, PROPERTY_CHARS - 1).trimEnd()}…`);

/** One tool as find_tools (and a wrong call to a deferred tool) shows it. */
export const toolCard = (e: ExposedTool) =>
  `${e.name} (MCP server ${e.server}): ${shortDescription(e.tool.description) || "no description"}\n${briefSchema(e.tool.inputSchema)}`;

/**
 * find_tools over `deferred` (the tools not loaded yet, named in its description) and `all()`
 * (those loaded too: asked for again, one is shown, not loaded twice); `load(names)` offers them
 * whole from the next request on.
 */
export function createFindTools(
  deferred: readonly ExposedTool[],
  all: () => readonly ExposedTool[],
  load: (names: string[]) => void,
  others: Others = {},
): Tool {
  return {
    name: FIND_TOOLS,
    description: findToolsDescription(deferred),
    parameters: FIND_TOOLS_PARAMETERS,
    readOnly: () => true,
    async run(args): Promise<ToolResult> {
      const tools = all();
      const names = Array.isArray(args.names) ? args.names.filter((n): n is string => typeof n === "string") : [];
      const query = typeof args.query === "string" ? args.query : "";
      const matches = searchTools(tools, query);
      const found = [...new Set([...namedTools(tools, names), ...matches])];
      // every name and query that loaded nothing is said: the model would take a silence for a load
      const missed = [...(query && matches.length === 0 ? [`no MCP tool matches query ${JSON.stringify(query)}`] : []), ...missedNames(tools, names, others)];
      const where = `the tools to load are listed in ${FIND_TOOLS}' description`;
      if (found.length === 0) {
        if (missed.length === 0) return { output: `give query (words) or names (exact tool names); ${where}`, isError: true };
        return { output: `${missed.join("\n")}${missed.length > 1 ? "\n" : "; "}${where}`, isError: true };
      }
      load(found.map((e) => e.name));
      // the first line stays the loaded names alone: a resumed session reads it back (deferred.ts loadedIn)
      const loaded = [`${LOADED_PREFIX}${found.map((e) => e.name).join(", ")}`, ...missed].join("\n");
      return { output: `${loaded}\n\n${found.map(toolCard).join("\n\n")}` };
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
