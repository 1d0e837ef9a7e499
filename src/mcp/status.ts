// What the user reads about MCP servers: `/mcp` (every server, its state, its tools) and the one
// line shown when a server connects, fails or stops. Pure.
import type { McpEvent } from "./manager.ts";
import { exposeTools } from "./names.ts";
import type { ServerStatus } from "./server.ts";

/** The line for a background event: `connected: fs (14 tools)`, or a warning with why. */
export function eventLine(e: McpEvent): string {
  if (e.state === "connected") return `connected: ${e.server} (${plural(e.tools ?? 0, "tool")})`;
  if (e.state === "failed") return `hey: MCP server ${e.server} failed, its tools are left out: ${e.error ?? "unknown error"}`;
  return `hey: MCP server ${e.server} stopped: ${e.error ?? "unknown reason"}`;
}

/**
 * `/mcp`: one block per server — name, state (with why when it failed or stopped), how many tools
 * and their names as the model sees them.
 */
export function formatStatus(servers: readonly ServerStatus[], off: boolean): string {
  if (off) return "MCP is off in this run (--no-mcp)";
  if (servers.length === 0) return "no MCP servers configured; add an [mcp.NAME] table to the config (see the README) and /reload";
  const exposed = exposeTools(servers.flatMap((s) => (s.tools ? [{ server: s.name, tools: s.tools }] : []))).tools;
  return servers
    .map((s) => {
      const names = exposed.filter((e) => e.server === s.name).map((e) => e.name);
      const count = s.tools === undefined ? "" : ` · ${plural(s.tools.length, "tool")}${s.cached && s.state !== "connected" ? " (cached)" : ""}`;
      const head = `${s.name}: ${s.state}${count}`;
      const why = s.error && (s.state === "failed" || s.state === "stopped") ? `\n  ${s.error}${s.stderr ? `\n  stderr: ${s.stderr.split("\n").slice(-3).join("\n          ")}` : ""}` : "";
      const list = names.length && s.state !== "failed" ? `\n  ${names.join(", ")}` : "";
      return head + why + list;
    })
    .join("\n");
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
