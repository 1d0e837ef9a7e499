// A call to a tool its request did not offer, by a name an MCP server may still supply (SPEC §14):
// hey stops waiting for servers at `[mcp] startup_wait_ms` and lists their tools when they come up,
// so a model told of a tool (by the user, a skill, an earlier session) may call it while its server
// is still starting, or starting again (/reload, /mcp login). Such a call waits for that server,
// then runs; when the server failed or does not list the name, the model reads one line naming the
// server and its state. A name no starting server can supply stays an unknown tool (kernel). Pure:
// the servers are the manager's.
import type { McpServerSettings } from "../config/settings.ts";
import { nearestTool } from "../kernel/call-names.ts";
import { editDistance } from "../kernel/spelling.ts";
import type { Tool, ToolResult } from "../kernel/tool.ts";
import { checkArguments } from "../kernel/tool-args.ts";
import type { McpManager } from "./manager.ts";
import { sanitizeName, type ExposedTool } from "./names.ts";
import type { Offer } from "./offer.ts";
import { failure } from "./start-notes.ts";
import { signInText, within, type ServerStatus } from "./server.ts";

/**
 * A call to an MCP tool that is not offered because the permission rules refuse it (offer.ts), by
 * the name it would have, its server's own, or `<server>_<name>`: a stand-in the rules refuse in the call's permission check (the manager
 * knows its origin), so the model reads their refusal, not "unknown tool"; one of a connected server
 * that its `[mcp.NAME] tools` or `exclude_tools` leaves out: a stand-in that says so, with what the
 * server has (the model may have written that table); undefined for any other name.
 */
export function refusedTool(name: string, mcp: Pick<McpManager, "offer" | "status">): Tool | undefined {
  const offer = mcp.offer();
  // by the name it is listed under, or `<server>_<name>`; by its server's own name when no offered tool has that name (renamedTo says where it went)
  const plain = !offer.tools.some((e) => sanitizeName(e.tool.name) === name);
  const left = offer.leftOut.find((l) => l.why === "permission" && (l.name === name || l.origin?.qualified === name || (plain && l.origin?.name === name)));
  if (!left) return selectedOut(name, offer, mcp.status());
  const output = `${name} (MCP server ${left.server}'s ${left.origin?.name ?? name}) is not offered: the permission rules refuse it`;
  return { name, description: "", parameters: { type: "object" }, server: left.server, run: async () => ({ output, isError: true }) };
}

/** The stand-in for a call to a tool of a connected server that its selection leaves out (refusedTool), or undefined. */
function selectedOut(name: string, offer: Offer, statuses: readonly ServerStatus[]): Tool | undefined {
  const selection = (l: Offer["leftOut"][number]) => l.why === "tools" || l.why === "exclude_tools";
  const left = offer.leftOut.find(
    (l) => selection(l) && (l.name === name || sanitizeName(l.name) === name || `${sanitizeName(l.server)}_${sanitizeName(l.name)}` === name),
  );
  const s = left && statuses.find((x) => x.name === left.server && x.state === "connected");
  if (!left || !s || offer.tools.some((e) => e.name === name)) return undefined;
  const offered = offer.tools.filter((e) => e.server === s.name).map((e) => e.name);
  const output = `unknown tool "${name}": ${stateLine(s, left.name, offered, 0, offer.leftOut)}`;
  return { name, description: "", parameters: { type: "object" }, run: async () => ({ output, isError: true }) };
}

/**
 * A call on a guess (no list names the tool: a server with no cached list yet) waits at most this
 * long, or `startup_wait_ms` when longer — not the server's `timeout_ms` (60 s): a server stuck
 * starting made every such call wait a minute. Long enough for a local server's start (1–2 s);
 * one slower is said to be still starting, and the model calls again once it is ready.
 */
export const GUESS_WAIT_MS = 5_000;

/** How many of a server's names the model is offered instead of one it does not have. */
export const CLOSEST_NAMES = 3;

export interface LateDeps {
  mcp: Pick<McpManager, "status" | "offer" | "settled">;
  /** the tools the next request offers (hey's own and the servers'), as the model would call them */
  tools(signal: AbortSignal): Promise<Tool[]>;
  /**
   * the configured servers — each one's `timeout_ms` bounds the wait for it — and `[mcp]
   * startup_wait_ms`: a wait on a guess (no list names the tool) takes no longer, or GUESS_WAIT_MS
   */
  settings(): { servers: readonly McpServerSettings[]; startupWaitMs: number };
  now(): number;
}

/**
 * Which servers a call to `name` (a name its request did not offer) is for: `wait` for those
 * (the one the name is prefixed with or that listed it before, else every server still starting
 * with no list yet — one whose list is known, cached or from before a restart, and lacks the name
 * is not waited for: a mistyped name would wait out every start for nothing), `said` when it names
 * a server that cannot answer, undefined when no server can supply it. `requested`: the names its
 * request offered (hey's own too); a near miss of one that no list names (`read_files` for
 * read_file) is a typo: undefined, the kernel's "did you mean", at once. `guess` is set when no
 * list names it: the wait is a guess, bounded by GUESS_WAIT_MS or the start-up wait (lateTool). A server whose last
 * start failed in a recent run (failedBefore; start-up did not wait for it either) is not waited
 * for on a guess.
 */
export function suppliers(
  name: string,
  statuses: readonly ServerStatus[],
  offered: readonly string[],
  requested: readonly string[] = offered,
): { wait: string[]; guess?: true } | { said: string } | undefined {
  if (offered.includes(name)) return { wait: [] }; // its server connected after the request went out
  const starting = statuses.filter((s) => s.state === "connecting");
  const named = statuses.filter((s) => name.startsWith(`${sanitizeName(s.name)}_`)).sort((a, b) => b.name.length - a.name.length)[0];
  if (named?.state === "connecting") return { wait: [named.name] };
  if (named && named.state !== "connected") return { said: `unknown tool "${name}": ${stateLine(named, name, [], 0)}` };
  const lists = (s: ServerStatus) => s.tools?.some((t) => sanitizeName(t.name) === name);
  // a tool of a server that failed or waits for a sign-in is not offered, but its cached list names it: why
  const down = named ? undefined : statuses.find((s) => (s.state === "failed" || s.state === "auth_required") && lists(s));
  if (down) return { said: `unknown tool "${name}": ${stateLine(down, name, [], 0)}` };
  const listed = starting.filter(lists);
  if (listed.length) return { wait: listed.map((s) => s.name) };
  if (nearestTool(name, requested) !== undefined) return undefined; // a typo of an offered name: said at once
  // no server lists it: those whose list is not known yet may (one whose list lacks it, or that failed last time, is not waited for)
  const wait = starting.filter((s) => s.tools === undefined && s.failedBefore === undefined).map((s) => s.name);
  if (wait.length) return { wait, guess: true };
  // a server that failed before it listed a tool may be the one meant: the kernel's answer, and why its tools are missing
  const broken = statuses.filter((s) => s.tools === undefined && (s.state === "failed" || (s.state === "connecting" && s.failedBefore !== undefined)));
  if (broken.length === 0) return undefined;
  const why = (s: ServerStatus) =>
    s.state === "failed"
      ? stateLine(s, name, [], 0)
      : `MCP server ${s.name} failed to start in a recent run${s.failedBefore ? `: ${s.failedBefore}` : ""}; it is being tried again`;
  return { said: `unknown tool "${name}"; available: ${requested.join(", ")}. ${broken.map(why).join("; ")}` };
}

/**
 * The line for a call by a server's own name to a tool offered under another (two servers offer
 * the name: each is `<server>_<name>`), or undefined: the notice that said so may be runs ago, and
 * the model (told of `search` by the user or a skill) learns which names to call.
 */
export function renamedTo(name: string, offered: readonly ExposedTool[]): string | undefined {
  const as = offered.filter((e) => e.name !== name && sanitizeName(e.tool.name) === name);
  if (as.length === 0) return undefined;
  return `unknown tool "${name}": it is offered as ${as.map((e) => `${e.name} (MCP server ${e.server}'s ${e.tool.name})`).join(", ")}; call ${as.length > 1 ? "one of those" : "that"}`;
}

/** The line a call to `name` gets when the servers it waited for do not list it: each one's state. */
export function notListed(
  name: string,
  servers: readonly { status: ServerStatus; offered: readonly string[] }[],
  waitedMs: number,
  leftOut: Offer["leftOut"] = [],
): string {
  return `unknown tool "${name}": ${servers.map((s) => stateLine(s.status, name, s.offered, waitedMs, leftOut)).join("; ")}`;
}

/**
 * What a server is and has for a call to `name`. `leftOut`: what the request leaves out (offer.ts): a
 * tool its `[mcp.NAME] tools` or `exclude_tools` leaves out is said so, with what the server has —
 * "it offers no tools" would send the model that wrote the table looking for a broken server.
 */
function stateLine(s: ServerStatus, name: string, offered: readonly string[], waitedMs: number, leftOut: Offer["leftOut"] = []): string {
  switch (s.state) {
    case "connected": {
      const cut = leftOut.filter((l) => l.server === s.name && (l.why === "tools" || l.why === "exclude_tools"));
      const has = `the server has ${listed(s.tools ?? [])}`;
      const own = cut.find((l) => l.name === name || sanitizeName(l.name) === name);
      if (own)
        return `MCP server ${s.name} started, but [mcp.${s.name}] ${own.why} leaves out ${JSON.stringify(own.name)} (${has}); fix that table, then the user runs /reload`;
      const near = [...offered].sort((a, b) => editDistance(name, a) - editDistance(name, b)).slice(0, CLOSEST_NAMES);
      if (near.length) return `MCP server ${s.name} started but has no tool ${name} (closest: ${near.join(", ")})`;
      if (cut.length)
        return `MCP server ${s.name} started but has no tool ${name}, and [mcp.${s.name}] ${[...new Set(cut.map((l) => l.why))].join(" and ")} leaves out all of its tools (${has})`;
      return `MCP server ${s.name} started but has no tool ${name} (it offers no tools)`;
    }
    case "connecting":
      return `MCP server ${s.name} is still starting after ${Math.round(waitedMs / 1000)} s; its tools join the list when it is ready: call it again then`;
    case "auth_required":
      return signInText(s.name, s.error);
    case "failed":
      return `MCP server ${s.name} failed: ${failure(s)}; its tools are left out until it is fixed and the user runs /reload`;
    case "stopped":
      return `MCP server ${s.name} stopped${s.error ? ` (${s.error})` : ""}, and has no tool ${name} that hey knows of; a call to one of its tools starts it again`;
    default:
      return `MCP server ${s.name} was closed (/reload replaced it)`;
  }
}

/** At most this many of a server's tool names are listed where a line says what it has. */
const NAMES_SHOWN = 12;

const listed = (tools: readonly { name: string }[]) =>
  tools.length
    ? [...tools.slice(0, NAMES_SHOWN).map((t) => t.name), ...(tools.length > NAMES_SHOWN ? [`… (${tools.length} in all)`] : [])].join(", ")
    : "no tools";

/** The tool a call to `name` runs when its request did not offer it (see suppliers), or undefined. */
export function lateTool(name: string, deps: LateDeps, requested?: readonly string[]): Tool | undefined {
  const offered = deps.mcp.offer().tools;
  const renamed = renamedTo(name, offered);
  const names = offered.map((e) => e.name);
  const found = renamed ? { said: renamed } : suppliers(name, deps.mcp.status(), names, requested ?? names);
  if (!found) return undefined;
  const server = "wait" in found && found.wait.length === 1 ? found.wait[0] : undefined;
  return {
    name,
    description: `a tool of an MCP server still starting`,
    parameters: { type: "object" }, // checked against the server's own schema once it lists the tool
    ...(server ? { server } : {}),
    readOnly: () => false, // whether the server calls it read-only is not known yet: it keeps its turn's order
    async run(args, ctx): Promise<ToolResult> {
      if ("said" in found) return { output: found.said, isError: true };
      const start = deps.now();
      if (found.wait.length) {
        ctx.progress?.(`waiting for MCP server ${found.wait.join(", ")} to start`);
        const { servers, startupWaitMs } = deps.settings();
        const longest = Math.max(...found.wait.map((s) => servers.find((x) => x.name === s)?.timeoutMs ?? 0));
        const cap = found.guess ? Math.min(longest, Math.max(startupWaitMs, GUESS_WAIT_MS)) : longest;
        // a start is bounded by each step's timeout_ms (a legacy SSE start, initialize, each list):
        // a call waits no longer than a call to it may take
        await within(Promise.all(found.wait.map((s) => deps.mcp.settled(s, ctx.signal))), cap);
      }
      const tools = (await deps.tools(ctx.signal)).filter((t) => t.server !== undefined);
      const tool = tools.find((t) => t.name === name);
      if (!tool) {
        const statuses = deps.mcp.status().filter((s) => found.wait.includes(s.name));
        const listed = statuses.map((status) => ({ status, offered: tools.filter((t) => t.server === status.name).map((t) => t.name) }));
        return { output: notListed(name, listed, deps.now() - start, deps.mcp.offer().leftOut), isError: true };
      }
      const checked = checkArguments(name, args, tool.parameters);
      if ("error" in checked) return { output: checked.error, isError: true };
      return tool.run(checked.args, ctx);
    },
  };
}
