// What the model hears of the servers a /reload started (issue 26): a server starts in the
// background, so by the first request after `/reload` it may have failed — which the user saw
// and the model, which wrote its table, would not — or still be starting, its tools not yet in the
// list; and, with no /reload to tell of, of the servers still starting with no list yet (hey
// stopped waiting for them at startup_wait_ms), so it does not tell the user it has no such tools.
// Pure.
import type { ServerStatus } from "./server.ts";
import { stderrLines } from "./stderr-lines.ts";
import { heyNote } from "../kernel/user-notes.ts";

/**
 * The line for a request while servers still start with no tool list yet, or undefined: said so,
 * the model neither takes their tools for missing nor is left guessing; a call by name waits
 * for the server (late-tool.ts), and says its tools' names if it guessed wrong. A server whose
 * start failed in a recent run (`failedBefore`: this run did not wait for it) is said to be tried
 * again, with why it failed, not promised. `changes`: those of a /reload whose note goes with it —
 * the servers it names are said there (startNotes), not twice.
 */
export function stillStarting(statuses: readonly ServerStatus[], changes: readonly string[] = []): string | undefined {
  const told = reloaded(changes);
  const starting = statuses.filter((s) => s.state === "connecting" && s.tools === undefined && !told.has(s.name));
  const names = starting.filter((s) => s.failedBefore === undefined).map((s) => s.name);
  const lines = starting.flatMap((s) =>
    s.failedBefore === undefined
      ? []
      : [
          heyNote(
            `MCP server ${s.name} failed to start in a recent run${s.failedBefore ? `: ${s.failedBefore}` : ""}; it is being tried again: do not count on its tools`,
          ),
        ],
  );
  if (names.length === 0) return lines.join("\n") || undefined;
  const which = names.length === 1 ? `MCP server ${names[0]} is` : `MCP servers ${names.join(", ")} are`;
  return [
    heyNote(`${which} still starting: ${names.length === 1 ? "its" : "their"} tools join the list when ready (a call to one by name waits for it)`),
    ...lines,
  ].join("\n");
}

/**
 * stillStarting for each request of a run, remembering the servers it named: one that failed since
 * — or that this run did not wait for (`failedBefore`) and has failed by the time of the note — is
 * said once to have failed, with why, so the model does not count on tools that are not coming.
 * The run's first note also names each server that failed before it (one that exits at once, within
 * the start-up wait), with its stderr: the model that wrote its table can fix it in this run.
 */
export function startingNotes(): (statuses: readonly ServerStatus[], changes?: readonly string[]) => string | undefined {
  const named = new Set<string>();
  const done = new Set<string>();
  let first = true;
  return (statuses, changes = []) => {
    const told = reloaded(changes);
    const down = statuses.filter(
      (s) =>
        !done.has(s.name) &&
        (s.state === "failed" || s.state === "stopped") &&
        (first ? s.state === "failed" || s.tools === undefined : s.tools === undefined && (named.has(s.name) || s.failedBefore !== undefined)),
    );
    first = false;
    for (const s of down) done.add(s.name);
    const failed = down.filter((s) => !told.has(s.name)); // a /reload's note says those it started (startNotes)
    const starting = stillStarting(statuses, changes);
    for (const s of statuses) if (s.state === "connecting" && s.tools === undefined) named.add(s.name);
    const lines = failed.map((s) => heyNote(`MCP server ${s.name} failed to start: ${failure(s)}; its tools are not coming this run`));
    return [...lines, ...(starting ? [starting] : [])].join("\n") || undefined;
  };
}

/** ` 4 min ago`: how long ago `at` was (nothing when unknown); `now` for tests. */
export function agoText(at: number | undefined, now: number): string {
  const s = at === undefined ? undefined : Math.max(0, Math.round((now - at) / 1000));
  return s === undefined ? "" : s < 90 ? ` ${s} s ago` : s < 5400 ? ` ${Math.round(s / 60)} min ago` : ` ${Math.round(s / 3600)} h ago`;
}

/**
 * What the user reads at the start of a run that does not wait for a server whose start failed in a
 * recent run — the model is told so with every request (stillStarting): said once, so a script
 * re-run sees it too, not only the run that saw it fail.
 */
export const failedBeforeNotice = (name: string, why: string, at: number | undefined, now: number) =>
  `MCP server ${name} failed to start${agoText(at, now)}${why ? `: ${why}` : ""}; tried again now, this run does not wait for it`;

/** Why a server failed, for the model: its error and the lines of its stderr that say why (a missing module, a refused connection). */
export function failure(s: Pick<ServerStatus, "error" | "stderr" | "state">): string {
  const tail = stderrLines(s.stderr ?? "", 3);
  return `${s.error ?? s.state}${tail.length ? ` (its stderr: ${tail.join(" | ")})` : ""}`;
}

/** Lines for the reload note: one per server `changes` added or changed (`+ mcp server NAME`) that is not connected now. */
export function startNotes(changes: readonly string[], statuses: readonly ServerStatus[]): string[] {
  const named = reloaded(changes);
  return statuses.flatMap((s) => {
    if (!named.has(s.name)) return [];
    if (s.state === "connecting") return [`MCP server ${s.name} is still starting; its tools join the list when it is ready`];
    if (s.state === "auth_required") return [`MCP server ${s.name} needs a sign-in (${s.error ?? "HTTP 401"}); the user runs /mcp login ${s.name}`];
    if (s.state !== "failed" && s.state !== "stopped") return [];
    return [`MCP server ${s.name} did not start: ${failure(s)}; its tools are left out until its table is fixed and the user runs /reload`];
  });
}

/** The servers a /reload's `changes` added or changed (`+ mcp server NAME`, `~ mcp server NAME (…)`). */
function reloaded(changes: readonly string[]): Set<string> {
  return new Set(changes.flatMap((c) => /^[+~] mcp server (\S+)/.exec(c)?.[1] ?? []));
}

/** `0.3 s`, `45 s`: a wait said to the user (tenths only where they tell something). */
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;

/**
 * Why a server's tools missed the first request: it was not ready `ms` after it started — the start-up
 * wait, or longer when the first request came after that wait (the user typed a while).
 */
export const notReady = (ms: number) =>
  `was not ready after ${seconds(ms)}, so the first request went without its tools; raise [mcp] startup_wait_ms to wait longer for it ` +
  "(once it connects, its tool list is cached and later runs offer its tools at once)";

/** Why a remote server is recorded as failing: it still answered 503 when the first request went, `ms` after it started. */
export const stillBusy = (ms: number) => `it still answered HTTP 503 ${seconds(ms)} after it started, when the first request went`;
