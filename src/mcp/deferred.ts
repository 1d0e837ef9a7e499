// MCP tools deferred behind a search (`[mcp] defer_tools`): every offered tool's schema travels in
// every request, and a few servers make that thousands of tokens a turn. Past DEFER_SHARE of the
// context budget (Claude Code defers past 10 % of the window too) a request carries hey's own tools,
// the MCP tools already loaded and one tool, find_tools, that names the rest and loads those the
// model asks for (tool-search.ts). A tool also loads when the model calls it by the name it saw
// listed. The tool list only grows within a session, each load appended after the tools before, so a
// provider's cached prefix breaks at most once per load; the loaded tools are read back from the
// conversation (loadedIn), so `hey -c` offers the same list. Pure.
import type { DeferMode } from "../config/keys.ts";
import type { Message } from "../kernel/ir.ts";
import type { ExposedTool } from "./names.ts";
import { mcpSpec, specTokens, type Offer } from "./offer.ts";

/** `auto` defers once the MCP tools to send take more than this share of the context budget. */
export const DEFER_SHARE = 0.1;

/**
 * The tool that loads deferred ones. hey counts it among its own tools' names, so a server's tool
 * of that name is offered as `<server>_find_tools` (names.ts): the two never clash.
 */
export const FIND_TOOLS = "find_tools";

/** The first line of find_tools' result names what it loaded; loadedIn reads it back from a resumed session. */
export const LOADED_PREFIX = "loaded: ";

/** What a session's requests have decided: whether they defer, and the tools loaded, in load order. */
export interface Deferral {
  on: boolean;
  /** names the model sees, in the order they loaded; one no server offers now is kept (it may come back) */
  loaded: string[];
}

/** A request's MCP tools: sent whole, loaded (after find_tools), or only named in find_tools' description. */
export interface Plan {
  whole: ExposedTool[];
  loaded: ExposedTool[];
  deferred: ExposedTool[];
  state: Deferral;
}

/**
 * How the next request sends `tools` (the offer, in configuration order). `keep(server)`: a server
 * whose tools are always sent whole (`[mcp.NAME] defer = false`). Off, everything goes whole, as
 * before deferring existed; once on, it stays on for the session. It turns on only when it leaves
 * some tool to find_tools: with every tool loaded, find_tools would cost tokens and save none.
 * `state.loaded` holds the tools that ran (Deferring records a whole tool's run), not every one
 * sent whole: turning on mid-session (`/reload` of `defer_tools`, a late server past the share)
 * puts find_tools before the loaded tools, which breaks a provider's cached prefix once whatever
 * is loaded, so the tools the model never called wait behind find_tools from then on — callable
 * by name still — rather than cost their schemas on every request of the session.
 */
export function planTools(tools: readonly ExposedTool[], state: Deferral, opts: { mode: DeferMode; budget: number; keep(server: string): boolean }): Plan {
  const kept = tools.filter((e) => opts.keep(e.server));
  const deferrable = tools.filter((e) => !opts.keep(e.server));
  const left = deferrable.filter((e) => !state.loaded.includes(e.name));
  // weighed only while it may turn deferring on: once on, a request costs no estimate of every schema
  const heavy = () => deferrable.reduce((n, e) => n + specTokens(mcpSpec(e)), 0) > DEFER_SHARE * opts.budget;
  const on = opts.mode !== "never" && deferrable.length > 0 && (state.on || (left.length > 0 && (opts.mode === "always" || heavy())));
  if (!on) return { whole: [...tools], loaded: [], deferred: [], state: { on: state.on, loaded: state.loaded } };
  const byName = new Map(deferrable.map((e) => [e.name, e]));
  const loaded = state.loaded.flatMap((n) => (byName.has(n) ? [byName.get(n)!] : []));
  return { whole: kept, loaded, deferred: left, state: { on: true, loaded: state.loaded } };
}

/**
 * The names the next request carries of `offer` (as Deferring.marked marks it): its tools but those
 * left to find_tools, and find_tools itself once deferring is on — what the model sees, so `/reload`
 * says only what changed in it (runtime.ts).
 */
export function carriedNames(offer: Pick<Offer, "tools" | "deferred">): string[] {
  const deferred = offer.deferred;
  if (!deferred) return offer.tools.map((e) => e.name);
  return [FIND_TOOLS, ...offer.tools.filter((e) => !deferred.includes(e.name)).map((e) => e.name)];
}

/** `loaded` with `names` appended, each once, after those before. */
export function withLoaded(loaded: readonly string[], names: readonly string[]): string[] {
  const out = [...loaded];
  for (const n of names) if (!out.includes(n)) out.push(n);
  return out;
}

/**
 * The tools a conversation loaded, in order: those find_tools said it loaded, and every tool of
 * another name that ran (one sent whole is loaded already: a no-op). `own`: hey's own tools' names.
 */
export function loadedIn(messages: readonly Message[], own: readonly string[]): string[] {
  let loaded: string[] = [];
  for (const m of messages) {
    if (m.role !== "tool" || m.isError || !m.toolName) continue;
    if (m.toolName === FIND_TOOLS) {
      const text = m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      const first = text.split("\n", 1)[0]!;
      if (first.startsWith(LOADED_PREFIX)) loaded = withLoaded(loaded, first.slice(LOADED_PREFIX.length).split(", "));
    } else if (!own.includes(m.toolName)) loaded = withLoaded(loaded, [m.toolName]);
  }
  return loaded;
}
