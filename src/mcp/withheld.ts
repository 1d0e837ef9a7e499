// The MCP servers the configuration names that this run did not start, and why (`/mcp`, `hey mcp`):
// a table the user has not approved yet (config/guard.ts leaves it out), or one in a project's file
// that is not loaded (not trusted, or trusted after it was read). Pure: the caller reads the files.
import type { LayerGuard } from "../config/resolve.ts";
import { isTable, type Table } from "../config/table.ts";

/** A server not started: its name, the file that names it, and why, with what starts it. */
export interface Withheld {
  name: string;
  source: string;
  why: string;
}

/**
 * `guards`: the loaded files' guards (LoadedConfig.guards); `running`: the servers the settings
 * hold (started, or failed, or disabled: /mcp says those itself); `project`: the project's files,
 * checked, when the configuration in use does not hold them, and whether the project is trusted;
 * `oneShot`: `hey mcp` or `hey -p /mcp` (nothing is asked there: the way to a yes is another command).
 */
export function withheldServers(
  guards: readonly Pick<LayerGuard, "source" | "current" | "used">[],
  running: readonly string[],
  project: { trusted: boolean; files: readonly { source: string; data: Table }[] } | undefined,
  oneShot: boolean,
): Withheld[] {
  const out: Withheld[] = [];
  const seen = new Set(running);
  const add = (name: string, source: string, why: string) => {
    if (seen.has(name)) return; // a later file's table, or the one that runs
    seen.add(name);
    out.push({ name, source, why });
  };
  const unapproved = oneShot ? "not approved yet: start hey to approve it" : "not approved: hey asks again at the next start or /reload";
  for (const g of guards) for (const name of Object.keys(g.current.mcp)) if (!(name in g.used.mcp)) add(name, g.source, unapproved);
  if (!project) return out;
  const untrusted = project.trusted
    ? "in the project's config, trusted after it was read: /reload loads it"
    : oneShot
      ? "in an untrusted project's config: hey trust (--approve for one run)"
      : "in an untrusted project's config: /trust, then /reload";
  for (const { source, data } of [...project.files].reverse()) {
    // .hey/config.toml wins a server .mcp.json defines too
    const servers = isTable(data.mcp) && isTable(data.mcp.servers) ? data.mcp.servers : {};
    for (const [name, s] of Object.entries(servers)) if (isTable(s) && s.enabled !== false) add(name, source, untrusted);
  }
  return out;
}
