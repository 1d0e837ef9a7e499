// What the user reads when a connected server changes its tool list (tools/list_changed): one line
// per change, `MCP server gh's tools changed: + a, − b (12 tools now)` — but at most one per server
// every CHANGE_QUIET_MS. A server that sends a change every 200 ms (alternating two names) printed
// two lines a second forever, through the prompt being typed: changes that come sooner are folded
// into one line said when the quiet time is over, saying how many it folds; a fold of
// KEEPS_CHANGING changes or more is said once as a server that keeps changing its tools, and its
// changes are not said again this run (/mcp shows its tools as they are). Pure: the clock and the
// timer are given.
import { toolsChanged } from "./names.ts";

/** At most one line about a server's tool list changing in this time. */
export const CHANGE_QUIET_MS = 5_000;
/** A fold of this many changes is a server that keeps changing its tools: said once, then no more. */
export const KEEPS_CHANGING = 10;

export interface ChangeDeps {
  now(): number;
  /** runs `fn` after `ms` (a timer that does not keep the process alive) */
  later(fn: () => void, ms: number): void;
  warn(line: string): void;
}

/** A function to call with each change of a server's tool names (before and after): it says them, folded. */
export function changeNotices(deps: ChangeDeps): (server: string, before: string[], after: string[]) => void {
  const servers = new Map<string, { said: number; fold?: { before: string[]; after: string[]; count: number }; muted?: true }>();
  const flush = (server: string) => {
    const s = servers.get(server)!;
    const fold = s.fold;
    if (!fold) return;
    s.fold = undefined;
    s.said = deps.now();
    if (fold.count >= KEEPS_CHANGING) {
      s.muted = true;
      deps.warn(
        `MCP server ${server} keeps changing its tools (${fold.count} changes in ${CHANGE_QUIET_MS / 1000} s): hey says no more of its changes this run; /mcp shows its tools (${fold.after.length} now)`,
      );
      return;
    }
    const line = toolsChanged(server, fold.before, fold.after);
    const times = `${fold.count} changes since the last notice`;
    deps.warn(
      line
        ? line.replace(/ \((\d+ tools? now)\)$/, ` (${times}; $1)`)
        : `MCP server ${server}'s tools changed ${fold.count} times since the last notice, and are back to those (${fold.after.length} tool${fold.after.length === 1 ? "" : "s"})`,
    );
  };
  return (server, before, after) => {
    const line = toolsChanged(server, before, after);
    if (!line) return;
    const s = servers.get(server);
    if (s?.muted) return;
    if (s?.fold) {
      s.fold.after = after;
      s.fold.count++;
      return;
    }
    const t = deps.now();
    if (!s || t - s.said >= CHANGE_QUIET_MS) {
      servers.set(server, { said: t });
      deps.warn(line);
      return;
    }
    s.fold = { before, after, count: 1 };
    deps.later(() => flush(server), s.said + CHANGE_QUIET_MS - t);
  };
}
