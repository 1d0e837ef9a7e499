// The MCP servers the configuration names that this run did not start, and why (`/mcp`, `hey mcp`):
// a table the user has not approved yet (config/guard.ts leaves it out) — a changed one too: the
// approvals record holds only the approved table's fingerprint, so at start-up neither table runs
// (a /reload keeps the old one running, and then it is among those running) — or one in a project's file
// that is not loaded (not trusted, or trusted after it was read). Pure: the caller reads the files.
import { RELOAD_NOTE_MAX_CHARS } from "../config/reload.ts";
import type { LayerGuard } from "../config/resolve.ts";
import { isTable, type Table } from "../config/table.ts";
import type { Tool, ToolResult } from "../kernel/tool.ts";
import { heyNote } from "../kernel/user-notes.ts";

/**
 * A server not started: its name, the file that names it, and why, with what starts it (for the
 * user); `waits`: what it waits on — the user's approval, the project's trust, or a /reload.
 */
export interface Withheld {
  name: string;
  source: string;
  why: string;
  waits: "approval" | "trust" | "reload";
  /** waiting for approval, but its command is not found (`FILE:LINE: [mcp.x] command "y" not found on PATH`): nothing to approve until fixed */
  broken?: string;
}

/**
 * `guards`: the loaded files' guards (LoadedConfig.guards); `running`: the servers the settings
 * hold (started, or failed, or disabled: /mcp says those itself); `project`: the project's files,
 * checked, when the configuration in use does not hold them, and whether the project is trusted;
 * `oneShot`: `hey mcp` or `hey -p /mcp` (nothing is asked there: the way to a yes is another command).
 * `broken`: the unapproved servers whose command is not found, by name, with where and why (trust/approve.ts unstartable).
 */
export function withheldServers(
  guards: readonly Pick<LayerGuard, "source" | "current" | "used" | "kept">[],
  running: readonly string[],
  project: { trusted: boolean; files: readonly { source: string; data: Table }[] } | undefined,
  oneShot: boolean,
  broken: ReadonlyMap<string, string> = new Map(),
): Withheld[] {
  const out: Withheld[] = [];
  const seen = new Set(running);
  const add = (name: string, source: string, why: string, waits: Withheld["waits"]) => {
    if (seen.has(name)) return; // a later file's table, or the one that runs
    seen.add(name);
    const cannot = waits === "approval" ? broken.get(name) : undefined; // hey never asks about it: it could not start
    out.push(
      cannot ? { name, source, why: `it cannot start: ${cannot}; hey asks about it once that is fixed`, waits, broken: cannot } : { name, source, why, waits },
    );
  };
  const unapproved = oneShot ? "not approved yet: start hey to approve it" : "not approved: hey asks again at the next start or /reload";
  const changed = oneShot
    ? "changed, not approved yet: start hey to approve it (hey keeps only a fingerprint of the approved table)"
    : "changed, not approved: hey asks again at the next start or /reload (hey keeps only a fingerprint of the approved table)";
  for (const g of guards)
    for (const name of Object.keys(g.current.mcp)) {
      if (g.kept.includes(name)) add(name, g.source, changed, "approval");
      else if (!(name in g.used.mcp)) add(name, g.source, unapproved, "approval");
    }
  if (!project) return out;
  const untrusted = project.trusted
    ? "in the project's config, trusted after it was read: /reload loads it"
    : oneShot
      ? "in an untrusted project's config: hey trust (--approve for one run)"
      : "in an untrusted project's config: /trust, then /reload";
  for (const { source, data } of [...project.files].reverse()) {
    // .hey/config.toml wins a server .mcp.json defines too
    const servers = isTable(data.mcp) && isTable(data.mcp.servers) ? data.mcp.servers : {};
    for (const [name, s] of Object.entries(servers)) if (isTable(s) && s.enabled !== false) add(name, source, untrusted, project.trusted ? "reload" : "trust");
  }
  return out;
}

/** What the user does to start a withheld server, as the model is told it. */
function startsIt(w: Withheld, oneShot: boolean): string {
  if (w.broken) return `it cannot start: ${w.broken}; fix its table (the user is asked about it once it can start)`;
  if (w.waits === "reload") return "the project was trusted after its config was read; the user's /reload starts it";
  if (w.waits === "trust")
    return oneShot
      ? "the project is not trusted; the user trusts it with `hey trust` (or `--approve` for one run)"
      : "the project is not trusted; the user trusts it with /trust, then /reload";
  return oneShot
    ? "the user has not approved it yet; they approve it by starting hey at a terminal"
    : "the user has not approved it; hey asks them again at /reload or the next start";
}

/**
 * The note the run's first request carries when servers are withheld (undefined: none): a model
 * that added a server in an earlier run would otherwise find its tools missing and "fix" a config
 * that is right. `shown`: a file's path as the model should read it (~/… under home).
 */
export function withheldNote(withheld: readonly Withheld[], oneShot: boolean, shown: (path: string) => string): string | undefined {
  if (withheld.length === 0) return undefined;
  const each = withheld.map((w) => `MCP server ${w.name} (${shown(w.source)}) is not started: ${startsIt(w, oneShot)}.`);
  const waiting = withheld.filter((w) => !w.broken).length; // one that cannot start is the model's to fix
  const whose = waiting < withheld.length ? "the config of one that waits on the user" : waiting > 1 ? "their configs" : "its config";
  const dont = waiting ? ` Do not change ${whose} for this.` : "";
  const text = heyNote(`${each.join(" ")}${dont}`);
  return text.length > RELOAD_NOTE_MAX_CHARS ? `${text.slice(0, RELOAD_NOTE_MAX_CHARS - 2)}…]` : text; // a project with dozens of servers
}

/**
 * The tool a call to `name` runs when no tool has that name and servers are withheld (undefined
 * when none are): the kernel's unknown-tool answer, plus a sentence naming them — their tools are
 * unknown as they never started. `offered`: the tools the request offers.
 */
export function withheldTool(name: string, withheld: readonly Withheld[], offered: (signal: AbortSignal) => Promise<readonly Tool[]>): Tool | undefined {
  if (withheld.length === 0) return undefined;
  const servers = withheld.map((w) => `${w.name} (${w.why})`).join(", ");
  const sentence = `MCP server${withheld.length > 1 ? "s" : ""} ${servers} ${withheld.length > 1 ? "are" : "is"} not started, so ${withheld.length > 1 ? "their" : "its"} tools are unknown.`;
  return {
    name,
    description: "a tool no started server offers",
    parameters: { type: "object" },
    async run(_args, ctx): Promise<ToolResult> {
      const available = (await offered(ctx.signal)).map((t) => t.name).join(", ");
      return { output: `unknown tool "${name}"; available: ${available}. ${sentence}`, isError: true };
    },
  };
}

/**
 * Under --no-mcp, the servers the files name now (`after`, LoadedConfig.guards) that they did not
 * name before: one line each for /reload, to the user and the model — else a server the agent just
 * added meets a bare "nothing changed".
 */
export function offServerLines(before: readonly Pick<LayerGuard, "current">[], after: readonly Pick<LayerGuard, "current">[]): string[] {
  const names = (guards: readonly Pick<LayerGuard, "current">[]) => guards.flatMap((g) => Object.keys(g.current.mcp));
  const known = new Set(names(before));
  return [...new Set(names(after))]
    .filter((name) => !known.has(name))
    .map((name) => `MCP server ${name} is not started: MCP servers are off in this run (--no-mcp); it starts in a run without --no-mcp`);
}
