// The names and descriptions MCP tools are offered under (SPEC §14, seed §6.2). Pure.
// Models take tool names made of [a-zA-Z0-9_-], at most 64 characters (the OpenAI wire answers
// 400 to a dot), so each name is sanitized; two servers offering one name both get their server's
// name as a prefix, so no tool is silently lost; a server's tool with a built-in's name replaces
// the built-in (deliberately: a server can supply a better grep). Descriptions are cut so one
// verbose server cannot bloat every request.

/** What a model accepts as a tool name. */
export const MAX_NAME_CHARS = 64;
/** Every request carries every description: a server's essay is cut here (seed §6.2: ~300). */
export const MAX_DESCRIPTION_CHARS = 300;

/** One tool as a server lists it (the part hey uses). */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
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

/**
 * The names of every server's tools, in server order. A name two servers share becomes
 * `<server>_<name>` for both (with a warning); a name still taken after that (two tools of one
 * server that sanitize alike, or a prefixed name that meets a plain one) gets `_2`, `_3`….
 */
export function exposeTools(lists: readonly { server: string; tools: readonly McpTool[] }[]): { tools: ExposedTool[]; warnings: string[] } {
  const owners = new Map<string, Set<string>>();
  for (const { server, tools } of lists)
    for (const t of tools) {
      const name = sanitizeName(t.name);
      (owners.get(name) ?? owners.set(name, new Set()).get(name)!).add(server);
    }
  const warnings: string[] = [];
  for (const [name, servers] of owners)
    if (servers.size > 1) {
      const both = [...servers];
      warnings.push(`MCP servers ${both.join(" and ")} both offer a tool named ${name}; the model sees ${both.map((s) => prefixed(s, name)).join(" and ")}`);
    }
  const taken = new Set<string>();
  const tools: ExposedTool[] = [];
  for (const { server, tools: list } of lists)
    for (const tool of list) {
      const plain = sanitizeName(tool.name);
      const base = owners.get(plain)!.size > 1 ? prefixed(server, plain) : plain;
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME_CHARS - String(n).length - 1)}_${n}`;
      taken.add(name);
      tools.push({ server, tool, name });
    }
  return { tools, warnings };
}

const prefixed = (server: string, name: string) => sanitizeName(`${server}_${name}`);

/**
 * The built-ins with the MCP tools added; an MCP tool named like a built-in takes its place (SPEC
 * §14), with a warning naming both.
 */
export function mergeTools<T extends { name: string }>(builtins: readonly T[], mcp: readonly (T & { server: string })[]): { tools: T[]; warnings: string[] } {
  const byName = new Map(mcp.map((t) => [t.name, t]));
  const warnings = builtins
    .filter((b) => byName.has(b.name))
    .map((b) => `MCP server ${byName.get(b.name)!.server}'s tool ${b.name} replaces the built-in ${b.name}`);
  return { tools: [...builtins.filter((b) => !byName.has(b.name)), ...mcp], warnings };
}
