// An MCP server table that names its transport replaces an earlier file's table of the same name
// whole (config/resolve.ts mergeInto): a project's `[mcp.fs]` over the user's. That was silent —
// the user approved a table that never ran, and `/reload` said "nothing changed" (x96). Each such
// table is said, and its change is not asked about: a table that never runs gives the agent nothing
// (should the later one go, it is weighed then, as any change). Pure.
import type { McpServerSettings } from "./settings.ts";

/** One file's server tables as written (checked), by name; `place(name)`: `FILE:LINE` of its table. */
export interface ServerTables {
  source: string;
  servers: Record<string, Partial<Pick<McpServerSettings, "command" | "url">>>;
  place(name: string): string;
}

/**
 * For `files` in order (later wins): each file's server names a later file replaces (by source),
 * and one line per replaced table. A table that sets no transport only adds keys, replacing nothing.
 */
export function replacedServers(files: readonly ServerTables[]): { replaced: Map<string, Set<string>>; warnings: string[] } {
  const replaced = new Map<string, Set<string>>();
  const warnings: string[] = [];
  const last = new Map<string, ServerTables>(); // the file whose table of that name is in force so far
  for (const file of files) {
    for (const [name, table] of Object.entries(file.servers)) {
      if (table.command === undefined && table.url === undefined) continue;
      const earlier = last.get(name);
      if (earlier && earlier.source !== file.source) {
        replaced.set(earlier.source, (replaced.get(earlier.source) ?? new Set()).add(name));
        warnings.push(replacedLine(name, earlier.place(name), file.place(name)));
      }
      last.set(name, file);
    }
  }
  return { replaced, warnings };
}

/** The line for server `name` defined at `earlier` and replaced by the table at `later`. */
export function replacedLine(name: string, earlier: string, later: string): string {
  return `MCP server ${name} of ${earlier} is not used: the one of the same name in ${later} replaces it whole; give one of them another name to have both`;
}

/** Whether a guard's line (`+ [mcp.fs] node …`, `~ [mcp.fs] … (changed …)`) is about one of the servers `names`. */
export function aboutServers(line: string, names: ReadonlySet<string> | undefined): boolean {
  const name = /^[+~-] \[mcp\.([^\]]+)\]/.exec(line)?.[1];
  return name !== undefined && names?.has(name) === true;
}
