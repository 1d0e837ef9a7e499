// What the user reads about MCP servers: `/mcp` (every server, its state, its tools with what each
// costs in every request, its prompts) and the one line shown when a server connects, fails,
// needs a sign-in or stops. Pure.
import type { McpServerSettings } from "../config/settings.ts";
import type { McpEvent } from "./manager.ts";
import { mcpSpec, specTokens, type Offer, type Reason } from "./offer.ts";
import { sentTools } from "./heavy-tools.ts";
import { FIND_TOOLS } from "./deferred.ts";
import { promptUsage } from "./prompts.ts";
import type { ServerStatus } from "./server.ts";
import { agoText } from "./start-notes.ts";
import { stderrLines } from "./stderr-lines.ts";
import type { Withheld } from "./withheld.ts";

/** How to sign in to `server`, from the shell and from hey's prompt. */
export const signInHint = (server: string) => `hey mcp login ${server} (or /mcp login ${server} in hey)`;

/**
 * The line for a background event: `connected: fs (14 tools)`, `connected: gh (2 of its 40 tools offered; …)`, or a warning with why.
 * `oneShot`: a -p run, whose listing of the servers is `hey mcp` (/mcp is the interactive prompt's).
 */
export function eventLine(e: McpEvent, oneShot = false): string {
  if (e.state === "connected")
    return `connected: ${e.server} (${e.offered === undefined ? plural(e.tools ?? 0, "tool") : `${e.offered} of its ${plural(e.tools ?? 0, "tool")} offered; ${oneShot ? "hey mcp" : "/mcp"} lists them`})`;
  if (e.state === "failed") return `hey: MCP server ${e.server} failed, its tools are left out: ${e.error ?? "unknown error"}`;
  if (e.state === "auth_required")
    return `hey: MCP server ${e.server} needs a sign-in, its tools are left out (${e.error ?? "it answers HTTP 401"}); sign in with ${signInHint(e.server)}`;
  if (e.state === "not_ready") return `hey: MCP server ${e.server} ${e.error ?? "was not ready in time"}`;
  return `hey: MCP server ${e.server} stopped: ${e.error ?? "unknown reason"}`;
}

const STATE: Record<ServerStatus["state"], string> = {
  connecting: "connecting",
  connected: "connected",
  failed: "failed",
  auth_required: "auth required",
  stopped: "stopped",
  closed: "closed",
};
const WHY: Record<Reason, string> = {
  tools: "not in tools",
  exclude_tools: "exclude_tools",
  permission: "refused by [permission]",
  schema: "invalid input schema",
  tasks: "runs only as an MCP task, which hey does not run",
};

/** `a, b (exclude_tools); c (refused by [permission])`: the names under each reason once, reasons in order of first use. */
const byReason = (left: readonly { name: string; why: Reason }[]) =>
  [...new Set(left.map((l) => l.why))]
    .map(
      (why) =>
        `${left
          .filter((l) => l.why === why)
          .map((l) => l.name)
          .join(", ")} (${WHY[why]})`,
    )
    .join("; ");

/**
 * A server written in another agent's format (Codex's `[mcp_servers.NAME]`, a `.mcp.json` entry) as
 * the `[mcp.NAME]` table hey read it as; env and header values are not shown (they may be secrets).
 */
export function conversionLine(s: McpServerSettings): string {
  const q = (v: string) => JSON.stringify(v);
  const names = (t: Record<string, string>) =>
    `{ ${Object.keys(t)
      .map((k) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : q(k)} = …`)
      .join(", ")} }`;
  const keys: string[] = [];
  if (s.command !== undefined) keys.push(`command = ${q(s.command)}`);
  if (s.args.length) keys.push(`args = [${s.args.map(q).join(", ")}]`);
  if (Object.keys(s.env).length) keys.push(`env = ${names(s.env)}`);
  if (s.cwd) keys.push(`cwd = ${q(s.cwd)}`);
  if (s.url !== undefined) keys.push(`url = ${q(s.url)}`);
  if (Object.keys(s.headers).length) keys.push(`headers = ${names(s.headers)}`);
  if (!s.enabled) keys.push("enabled = false");
  if (s.timeoutMs !== 60_000) keys.push(`timeout_ms = ${s.timeoutMs}`);
  if (s.tools) keys.push(`tools = [${s.tools.map(q).join(", ")}]`);
  if (s.excludeTools) keys.push(`exclude_tools = [${s.excludeTools.map(q).join(", ")}]`);
  return `from ${s.origin}, read as [mcp.${s.name}] ${keys.join(", ")}`;
}

/**
 * `/mcp`: one block per server — name, state (with why when it failed, stopped or needs a sign-in),
 * what it was read as when written in another agent's format, the tools the next request offers as
 * the model sees them with about how many tokens each adds to every request, the tools left out
 * and why, its prompts; then the servers the configuration names that were not started and why
 * (`withheld`); then the total. `builtinTokens`: what hey's own tools add, for scale;
 * `settings`: the servers' settings, for the conversions; `where.unread`: the line naming server
 * files below the project root that hey never reads (trust/policy.ts strayNotice): with no server
 * in use, said in place of the advice to add one, as they are why there is none; else said last,
 * in the REPL only (a one-shot run said it at start); `where.oneShot`: `hey mcp` or `hey -p /mcp`,
 * where there is no /reload to advise; `where.userFile`: the user config, `~/`-shortened, named where a table is to go.
 */
export function formatStatus(
  servers: readonly ServerStatus[],
  offer: Offer,
  off: boolean,
  builtinTokens?: number,
  settings: readonly McpServerSettings[] = [],
  withheld: readonly Withheld[] = [],
  where: { oneShot: boolean; unread?: string; userFile?: string } = { oneShot: false },
): string {
  if (off) return "MCP is off in this run (--no-mcp)";
  if (servers.length === 0 && withheld.length === 0) {
    if (where.unread) return `no MCP servers in use; ${where.unread}`;
    const reload = where.oneShot ? "" : " and /reload";
    return `no MCP servers in use; add an [mcp.NAME] table to ${where.userFile ?? "the config"} (README "MCP servers")${reload}: one hey has not approved yet starts once you say yes at the interactive prompt`;
  }
  let total = 0;
  let count = 0;
  const deferred = offer.tools.filter((e) => offer.deferred?.includes(e.name)); // left to find_tools: in no request until loaded
  const blocks = servers.map((s) => {
    const later = deferred.filter((e) => e.server === s.name).map((e) => e.name);
    const mine = sentTools(offer)
      .filter((e) => e.server === s.name)
      .map((e) => ({ name: e.name, tokens: specTokens(mcpSpec(e)) }));
    const left = offer.leftOut.filter((l) => l.server === s.name);
    const sum = mine.reduce((a, t) => a + t.tokens, 0);
    total += sum;
    count += mine.length;
    const shown = s.tools !== undefined && s.state !== "failed" && s.state !== "auth_required";
    const cached = s.cached && s.state !== "connected" ? " (cached)" : "";
    const all = mine.length + later.length;
    const tools = !shown ? "" : all === s.tools!.length ? plural(all, "tool") : `${all} of ${plural(s.tools!.length, "tool")} offered`;
    const cost = shown && mine.length ? `, ~${n(sum)} tokens per request` : "";
    const head = `${s.name}: ${STATE[s.state]}${shown ? ` · ${tools}${cached}${cost}` : ""}${s.state === "auth_required" ? ` · sign in with ${signInHint(s.name)}` : ""}`;
    const lines = [head];
    const from = settings.find((x) => x.name === s.name && x.origin);
    if (from) lines.push(`  ${conversionLine(from)}`);
    if (s.error && (s.state === "failed" || s.state === "stopped" || s.state === "auth_required")) {
      lines.push(`  ${s.error}`);
      if (s.stderr) lines.push(`  stderr: ${stderrLines(s.stderr, 3).join("\n          ")}`);
    }
    // still starting, but its last start failed: that is what the user needs, not "connecting" alone
    if (s.state === "connecting" && s.failedBefore !== undefined) lines.push(`  ${failedBeforeLine(s.failedBefore, s.failedAt)}`);
    if (shown && mine.length) lines.push(`  ${mine.map((t) => `${t.name} ~${n(t.tokens)}`).join(", ")}`);
    if (shown && later.length) lines.push(`  ${deferredLine(later.length)}: ${later.join(", ")}`);
    if (shown && left.length) lines.push(`  not offered: ${byReason(left)}`);
    if (s.unsupported) lines.push(`  asked hey for ${s.unsupported.join(" and ")}, which hey does not support: its tools that need it fail`);
    if (s.state === "connected" && s.prompts?.length) lines.push(`  prompts: ${s.prompts.map((p) => promptUsage(s.name, p)).join(", ")}`);
    return lines.join("\n");
  });
  const own = builtinTokens === undefined ? "" : ` (hey's own tools: ~${n(builtinTokens)})`;
  const unstarted = withheld.map((w) => `${w.name}: not started · ${w.why}\n  in ${w.source}`);
  const also = deferred.length ? `; ${deferredLine(deferred.length)} through ${FIND_TOOLS}` : "";
  const totalLine = `MCP tools in every request: ${count}, ~${n(total)} tokens${own}${also}`;
  const unread = where.unread && !where.oneShot ? [where.unread] : []; // a one-shot run said it on stderr at start
  return [...blocks, ...unstarted, totalLine, ...unread].join("\n");
}

const n = (x: number) => x.toLocaleString("en-US");

/** `its last start failed 4 min ago: why; tried again now (this run did not wait for it)`; `now` for tests. */
export function failedBeforeLine(why: string, at: number | undefined, now = Date.now()): string {
  return `its last start failed${agoText(at, now)}${why ? `: ${why}` : ""}; tried again now (this run did not wait for it)`;
}
/** `13 tools deferred (loaded on demand)` */
const deferredLine = (k: number) => `${plural(k, "tool")} deferred (loaded on demand)`;

const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? "" : "s"}`;

/**
 * `/mcp login` or `hey mcp login` (`command`; or logout) without a name: which server, asked with
 * the remote ones (those with a url: only they sign in), those that need a sign-in first and said so.
 */
export function whichServer(command: string, settings: readonly Pick<McpServerSettings, "name" | "url">[], states: readonly ServerStatus[]): string {
  const remote = settings.filter((s) => s.url).map((s) => s.name);
  if (remote.length === 0) return `${command} takes a server name, and no remote MCP server is configured: only an [mcp.NAME] table with a url signs in`;
  const wants = new Set(states.filter((s) => s.state === "auth_required").map((s) => s.name));
  const named = [...remote.filter((n) => wants.has(n)).map((n) => `${n} (needs a sign-in)`), ...remote.filter((n) => !wants.has(n))];
  return `which server? ${command} NAME, one of: ${named.join(", ")}`;
}

/**
 * `/usage`'s line for the servers whose tools its context size leaves out, or undefined: those
 * with no tool list yet, neither cached nor listed (not started by a one-shot command, or still
 * starting), whose schemas the next request may still carry.
 */
export function uncountedLine(states: readonly ServerStatus[]): string | undefined {
  const names = states.filter((s) => s.state === "connecting" && s.tools === undefined).map((s) => s.name);
  if (names.length === 0) return undefined;
  const which = names.length === 1 ? `MCP server ${names[0]}` : `MCP servers ${names.join(", ")}`;
  return `not counted: the tools of ${which}, not listed yet (no cached list: not connected with this configuration yet)`;
}
