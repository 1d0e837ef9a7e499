// Which tools a `[permission]` entry that names tools matches (SPEC §8), MCP tools by whichever
// name: a server's tool is offered under its own name, or as `<server>_<name>` once another server
// (or hey) has that name, and which one the model sees can change within a run (a server that
// connects later) or between runs (a project's `.mcp.json` adds a server). So:
// - a deny entry matches the name the model sees, the server's own name and `<server>_<name>`:
//   `deny = ["move_file"]` refuses every server's move_file, `"fs_move_file"` only fs's;
// - an allow entry matches the name the model sees and `<server>_<name>`, never the plain name of a
//   tool offered under its prefix: `allow = ["move_file"]` does not let a server added later run
//   its own move_file (an allow list stays closed);
// - Claude Code's spelling names a server: `mcp__fs` (every tool of fs), `mcp__fs__move_file`,
//   `mcp__fs__read_*` (a glob on fs's own names), `mcp__*` (every MCP tool). Pure.
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import { globMatch } from "./match.ts";

/** `mcp__SERVER` or `mcp__SERVER__TOOL` (each part may hold `*`). */
const SCOPED = /^mcp__([a-z0-9_*-]+?)(?:__([a-z0-9_*-]+))?$/;

/**
 * Whether the tool-name entry `glob` (lowercase) of `list` matches the tool the model calls as
 * `name` (lowercased), from `origin` when it is an MCP tool.
 */
export function toolMatch(glob: string, name: string, origin: ToolOrigin | undefined, list: "allow" | "deny"): boolean {
  const scoped = SCOPED.exec(glob);
  if (scoped) return origin !== undefined && globMatch(scoped[1]!, serverWord(origin.server)) && globMatch(scoped[2] ?? "*", origin.name.toLowerCase());
  if (globMatch(glob, name)) return true;
  if (!origin) return false;
  return globMatch(glob, origin.qualified.toLowerCase()) || (list === "deny" && globMatch(glob, origin.name.toLowerCase()));
}

/** Why `entry` in Claude Code's `mcp__` spelling names no server, or undefined (it is fine, or not that spelling). */
export function scopedProblem(entry: string): string | undefined {
  if (!entry.startsWith("mcp__") || (SCOPED.test(entry) && !entry.endsWith("_"))) return undefined;
  return 'names no MCP server: write "mcp__SERVER" for every tool of a server, "mcp__SERVER__TOOL" for one (a glob: "mcp__SERVER__read_*")';
}

/**
 * One warning per `mcp__SERVER…` entry of `lists` whose server part matches none of `configured`
 * (the servers' tables, approved or not: one waiting for approval is named all the same): it would match nothing, as silently as a typo in a tool's name.
 */
export function unmatchedServers(lists: { allow: readonly string[]; deny: readonly string[] }, configured: readonly { name: string }[]): string[] {
  const servers = [...new Set(configured.map((s) => s.name))];
  return (["allow", "deny"] as const).flatMap((list) =>
    lists[list].flatMap((entry) => {
      const server = SCOPED.exec(entry.trim().toLowerCase())?.[1];
      if (server === undefined || servers.some((s) => globMatch(server, serverWord(s)))) return [];
      const known = servers.length ? `its servers: ${servers.join(", ")}` : "it has none";
      return [`[permission] ${list}: ${JSON.stringify(entry)} names no MCP server of this configuration (${known}), so it matches nothing`];
    }),
  );
}

/** A server's name as an entry spells it: lowercase, other characters than [a-z0-9_-] as `_` (as its tools' prefix is). */
export const serverWord = (server: string) => server.toLowerCase().replace(/[^a-z0-9_-]/g, "_");
