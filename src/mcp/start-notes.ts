// What the model hears of the servers a /reload started (issue 26): a server starts in the
// background, so by the first request after `/reload` it may have failed — which the user saw
// and the model, which wrote its table, would not — or still be starting, its tools not yet in the
// list; and, with no /reload to tell of, of the servers still starting with no list yet (hey
// stopped waiting for them at startup_wait_ms), so it does not tell the user it has no such tools.
// Pure.
import type { ServerStatus } from "./server.ts";
import { stderrLines } from "./stderr-lines.ts";

/**
 * The line for a request while servers still start with no tool list yet, or undefined: said so,
 * the model neither takes their tools for missing nor is left guessing; a call by name waits
 * for the server (late-tool.ts), and says its tools' names if it guessed wrong. `changes`: those
 * of a /reload whose note goes with it — the servers it names are said there (startNotes), not twice.
 */
export function stillStarting(statuses: readonly ServerStatus[], changes: readonly string[] = []): string | undefined {
  const told = reloaded(changes);
  const names = statuses.filter((s) => s.state === "connecting" && s.tools === undefined && !told.has(s.name)).map((s) => s.name);
  if (names.length === 0) return undefined;
  const which = names.length === 1 ? `MCP server ${names[0]} is` : `MCP servers ${names.join(", ")} are`;
  return `[hey: ${which} still starting: ${names.length === 1 ? "its" : "their"} tools join the list when ready (a call to one by name waits for it)]`;
}

/** Lines for the reload note: one per server `changes` added or changed (`+ mcp server NAME`) that is not connected now. */
export function startNotes(changes: readonly string[], statuses: readonly ServerStatus[]): string[] {
  const named = reloaded(changes);
  return statuses.flatMap((s) => {
    if (!named.has(s.name)) return [];
    if (s.state === "connecting") return [`MCP server ${s.name} is still starting; its tools join the list when it is ready`];
    if (s.state === "auth_required") return [`MCP server ${s.name} needs a sign-in (${s.error ?? "HTTP 401"}); the user runs /mcp login ${s.name}`];
    if (s.state !== "failed" && s.state !== "stopped") return [];
    const tail = stderrLines(s.stderr ?? "", 3);
    const said = tail.length ? ` (its stderr: ${tail.join(" | ")})` : "";
    return [`MCP server ${s.name} did not start: ${s.error ?? s.state}${said}; its tools are left out until its table is fixed and the user runs /reload`];
  });
}

/** The servers a /reload's `changes` added or changed (`+ mcp server NAME`, `~ mcp server NAME (…)`). */
function reloaded(changes: readonly string[]): Set<string> {
  return new Set(changes.flatMap((c) => /^[+~] mcp server (\S+)/.exec(c)?.[1] ?? []));
}
