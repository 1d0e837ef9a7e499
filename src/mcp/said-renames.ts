// The rename notices (a server's tool offered under its server's prefix: two servers offer the
// name, or hey has a tool of that name; names.ts) are said once per change, not at every start: a
// user reads one when the lists that caused it are new or changed since the run that said it, and
// /mcp always shows the names the model sees. Each notice is remembered with the tool list of each
// server it is about (store.ts keeps it in that list's cache), so a server whose list changes, or
// whose configuration does, has its notices said again; a notice of a pair of servers is said when
// either's list is new. Pure: the store and the output are given.
import type { Renaming } from "./names.ts";
import type { McpServer } from "./server.ts";
import type { ToolStore } from "./store.ts";

export interface RenameDeps {
  store: Pick<ToolStore, "said" | "remember">;
  /** the servers running now: each one's configuration, and the list it offers (cached or listed) */
  servers(): readonly Pick<McpServer, "settings" | "status">[];
  warn(line: string): void;
  /** a write of what was said, for close() to wait for */
  track(write: Promise<void>): void;
}

/** Says each of `renamed` not said yet of its servers' lists now (nor earlier in this run), and remembers it. */
export function renameNotices(deps: RenameDeps): (renamed: readonly Renaming[]) => void {
  const told = new Set<string>();
  const listOf = (name: string) => {
    const s = deps.servers().find((x) => x.settings.name === name);
    const tools = s?.status().tools;
    return s && tools ? { settings: s.settings, tools } : undefined;
  };
  return (renamed) => {
    for (const { servers, line } of renamed) {
      if (told.has(line)) continue;
      const lists = servers.map(listOf);
      if (lists.every((l) => l !== undefined && deps.store.said(l.settings, l.tools).has(line))) continue;
      told.add(line);
      deps.warn(line);
      for (const l of lists) if (l) deps.track(deps.store.remember(l.settings, l.tools, line));
    }
  };
}
