// The MCP tool a call or find_tools means when it is not written as the model was shown it: models
// trained on Claude Code call MCP tools `mcp__SERVER__TOOL`, others write `SERVER.TOOL`,
// `SERVER:TOOL`, `SERVER/TOOL` or `SERVER_TOOL`, and any model may write `get_sum` for `get-sum`.
// The permission entries take Claude Code's spelling already (permission/tool-match.ts); a call and
// find_tools' names take it too, and run under the name the model was shown, so the permission
// rules judge that name whatever the spelling. Pure.
import { sanitizeName } from "./names.ts";
import type { Offer } from "./offer.ts";

/** A tool a name may mean: its server, the server's own name for it, and the name the model sees. */
export interface Meant {
  server: string;
  own: string;
  name: string;
}

const SCOPE = /^mcp__/i;
/** What may stand between a server's name and its tool's when a model qualifies one itself. */
const SEPARATORS = [".", ":", "/", "_"];

/**
 * The one tool of `tools` that `name` means, or undefined (none, or more than one: the caller says
 * which there are): the name the model sees; else, after a server's name and a separator (`__` after
 * `mcp__`), that server's tool by its name either way; else, when no server is named, the tool whose
 * name either way matches without regard to case, `_` and `-`.
 */
export function meantTool<T extends Meant>(name: string, tools: readonly T[]): T | undefined {
  const exact = tools.find((t) => t.name === name);
  if (exact) return exact;
  const scoped = SCOPE.test(name);
  const rest = scoped ? name.slice("mcp__".length) : name;
  // the longest server name first: `fs` must not take `fs_extra.read`
  const servers = [...new Set(tools.map((t) => t.server))].sort((a, b) => b.length - a.length);
  for (const server of servers)
    for (const sep of scoped ? ["__"] : SEPARATORS) {
      const prefix = `${sanitizeName(server)}${sep}`.toLowerCase();
      if (!rest.toLowerCase().startsWith(prefix) || rest.length === prefix.length) continue;
      const hit = oneNamed(
        rest.slice(prefix.length),
        tools.filter((t) => t.server === server),
      );
      if (hit) return hit;
    }
  return scoped ? undefined : oneNamed(name, tools);
}

/** The one tool `part` names, by the name the model sees or its server's own, exactly, else without regard to case, `_` and `-`. */
function oneNamed<T extends Meant>(part: string, tools: readonly T[]): T | undefined {
  const exact = tools.filter((t) => t.name === part || t.own === part || sanitizeName(t.own) === part);
  if (exact.length) return exact.length === 1 ? exact[0] : undefined;
  const key = keyOf(part);
  const loose = tools.filter((t) => keyOf(t.name) === key || keyOf(t.own) === key);
  return loose.length === 1 ? loose[0] : undefined;
}

const keyOf = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");

/**
 * Every tool of `offer` a name may mean: those offered (find_tools' deferred ones too), and those
 * the permission rules refuse, under the name they judged, so a call by another spelling reads
 * their refusal.
 */
export function meantAmong(offer: Pick<Offer, "tools" | "leftOut">): Meant[] {
  return [
    ...offer.tools.map((e) => ({ server: e.server, own: e.tool.name, name: e.name })),
    ...offer.leftOut.filter((l) => l.why === "permission").map((l) => ({ server: l.server, own: l.origin?.name ?? l.name, name: l.name })),
  ];
}

/**
 * The name a call's `name` means among the servers' tools, when it is another spelling of one
 * (kernel LoopDeps.alias: the call runs and is kept under it); undefined: none, or not one.
 */
export function mcpCallName(name: string, offer: Pick<Offer, "tools" | "leftOut">): string | undefined {
  const meant = meantTool(name, meantAmong(offer))?.name;
  return meant === name ? undefined : meant;
}
