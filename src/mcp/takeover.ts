// How `/reload` tells a server it keeps from one it replaces (mcp/manager.ts switchTo), and what it
// says when a changed server did not start and the old one keeps serving. Pure.
import type { McpServerSettings } from "../config/settings.ts";
import type { McpServer, ServerStatus } from "./server.ts";
import { withTail } from "./stderr-lines.ts";

/** A server `/reload` keeps as it is when its table did not change: one that is up, or on its way up (or waiting to start). */
export const running = (s: McpServer) => s.status().state === "connected" || s.status().state === "connecting";

/** Whether a table is the same server as the one running (where it is written may have moved). */
export function sameServer(a: McpServerSettings, b: McpServerSettings): boolean {
  const plain = ({ at: _at, origin: _origin, ...rest }: McpServerSettings) => JSON.stringify(Object.entries(rest).sort(([x], [y]) => (x < y ? -1 : 1)));
  return plain(a) === plain(b);
}

/** What is said when a changed server did not start and the old one was kept. */
export function keptOld(s: ServerStatus): string {
  return `MCP server ${s.name}: its changed table did not start (${withTail(s) || s.state}); the old one keeps serving, its tools unchanged`;
}
