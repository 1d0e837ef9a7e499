// What a server's tools cost in every request, weighed against the context budget: a server whose
// schemas fill a good part of it (one tool with 2,000 properties took ~74k tokens of a 40k budget)
// leaves little room for the conversation, and no compressing gets it back. The user is told once,
// with the server's largest tools and the `[mcp.NAME]` keys that leave them out; a request whose
// tools and system prompt alone exceed the model's window is refused with the same names
// (mcp/oversize.ts). Pure.
import { mcpSpec, specTokens, type Offer } from "./offer.ts";

/** A server whose tools take more than this share of the context budget is named. */
export const HEAVY_SHARE = 0.25;
/**
 * All servers' tools together taking more than this share of the budget are said, with the heaviest
 * servers: the conversation then has less room than the schemas, so the budget's trim starts
 * leaving out the work within a few tool calls (4 servers of ~9k tokens each: no single one passed
 * HEAVY_SHARE, and the run lost its history every turn, unsaid). Half, not the 10 % past which
 * `[mcp] defer_tools = "auto"` defers MCP tools (deferred.ts): this says when the tools requests
 * still carry (deferring is off, a server keeps `defer = false`) cost the conversation.
 */
export const TOTAL_SHARE = 0.5;
/** The total's warning names at most this many of the heaviest servers. */
const NAMED_SERVERS = 3;
/** A server is named with at most this many of its largest tools. */
const NAMED_TOOLS = 3;

/** One offered tool's cost: `name` as the model sees it, `own` as its server names it. */
export interface ToolCost {
  server: string;
  name: string;
  own: string;
  tokens: number;
}

/** What each server's tools add to every request, largest server first, each one's tools largest first. */
export function serverCosts(tools: readonly ToolCost[]): { server: string; tokens: number; tools: ToolCost[] }[] {
  const by = new Map<string, ToolCost[]>();
  for (const t of tools) by.set(t.server, [...(by.get(t.server) ?? []), t]);
  return [...by]
    .map(([server, list]) => ({ server, tokens: list.reduce((a, t) => a + t.tokens, 0), tools: list.sort((a, b) => b.tokens - a.tokens) }))
    .sort((a, b) => b.tokens - a.tokens);
}

/**
 * `server`'s cost with its largest tools (until they make up half of it), and the keys that leave
 * them out: `MCP server huge's tools take ~73,819` and `leave tools out with [mcp.huge] exclude_tools = ["wide"] …`.
 * When its largest NAMED_TOOLS make up less than half of it (many tools alike in size: 120 of ~400
 * tokens each), leaving them out would save little, so the hint is the list of those to keep.
 */
export function costOf(s: { server: string; tokens: number; tools: readonly ToolCost[] }): { cost: string; largest: string; hint: string } {
  const named: ToolCost[] = [];
  for (const t of s.tools) if (named.length < NAMED_TOOLS && named.reduce((a, x) => a + x.tokens, 0) < s.tokens / 2) named.push(t);
  const names = named.map((t) => JSON.stringify(t.own)).join(", ");
  const saved = named.reduce((a, t) => a + t.tokens, 0);
  return {
    cost: `MCP server ${s.server}'s tools take ~${count(s.tokens)}`,
    largest: named.map((t) => `${t.name} ~${count(t.tokens)}`).join(", "),
    hint:
      saved >= s.tokens / 2
        ? `leave tools out with [mcp.${s.server}] exclude_tools = [${names}] (or tools = [...], the ones to keep)`
        : `its ${s.tools.length} tools are alike in size, so leaving out the largest saves little (~${count(saved)}): list the ones to keep in [mcp.${s.server}] tools = [...], or set enabled = false`,
  };
}

/** What each tool every request carries costs: a deferred one is not in every request (deferred.ts). */
const costsOf = (offer: Pick<Offer, "tools" | "deferred">): ToolCost[] =>
  sentTools(offer).map((e) => ({ server: e.server, name: e.name, own: e.tool.name, tokens: specTokens(mcpSpec(e)) }));

/** The tools of `offer` every request carries: not those left to find_tools. */
export const sentTools = (offer: Pick<Offer, "tools" | "deferred">) =>
  offer.deferred ? offer.tools.filter((e) => !offer.deferred!.includes(e.name)) : offer.tools;

/**
 * One warning per server of `offer` whose tools take more than HEAVY_SHARE of `budget` (the tokens
 * a request is built to): its cost, its largest tools, and the keys that leave them out.
 */
export function heavyToolWarnings(offer: Pick<Offer, "tools" | "deferred">, budget: number): string[] {
  return serverCosts(costsOf(offer))
    .filter((s) => s.tokens > HEAVY_SHARE * budget)
    .map((s) => {
      const { cost, largest, hint } = costOf(s);
      return `${cost} tokens of every request, more than a quarter of the ${short(budget)} budget (${largest}); ${hint}`;
    });
}

/**
 * The warning when the tools of two servers or more (one alone is heavyToolWarnings') take more than
 * TOTAL_SHARE of `budget`: the total, the heaviest servers, and every way to make room; undefined otherwise.
 */
export function totalToolWarning(offer: Pick<Offer, "tools" | "deferred">, budget: number): string | undefined {
  const servers = serverCosts(costsOf(offer));
  const total = servers.reduce((a, s) => a + s.tokens, 0);
  if (servers.length < 2 || total <= TOTAL_SHARE * budget) return undefined;
  const heaviest = servers.slice(0, NAMED_SERVERS).map((s) => `${s.server} ~${count(s.tokens)} (${s.tools.length} tools)`);
  const more = servers.length > NAMED_SERVERS ? `, and ${servers.length - NAMED_SERVERS} more` : "";
  return (
    `MCP tools take ~${count(total)} tokens of every request (${sentTools(offer).length} tools of ${servers.length} servers), more than half the ${short(budget)} context budget, ` +
    `so older messages are left out within a few turns; the heaviest: ${heaviest.join(", ")}${more}. Make room: list the tools to keep in [mcp.NAME] tools = [...] ` +
    "(or leave some out with exclude_tools = [...]), set enabled = false for a server this project does not need, or raise [agent] budget_tokens"
  );
}

/**
 * What to say of the tools of each offer a run makes (`say(offer, whole)`, any number of times):
 * each server's weight once, when its tools first join (heavyToolWarnings), and the total once, the
 * first time it is over its share in an offer that is `whole` — no server still starting without a
 * list, or a request going out with it — not a total of the first three of four servers to connect.
 */
export function toolWeigher(budget: () => number): (offer: Pick<Offer, "tools" | "deferred">, whole: boolean) => string[] {
  const weighed = new Set<string>(); // estimating every schema on every request would cost more than it tells
  let totalSaid = false;
  let lastTotal = ""; // the tools last totalled: a request with the same ones is not weighed again
  return (offer, whole) => {
    const sent = sentTools(offer);
    const fresh = sent.filter((t) => !weighed.has(t.server));
    for (const t of fresh) weighed.add(t.server);
    const out = fresh.length ? heavyToolWarnings({ tools: fresh }, budget()) : [];
    const key = sent.map((t) => t.name).join("\u0000");
    if (totalSaid || !whole || key === lastTotal) return out;
    lastTotal = key;
    const total = totalToolWarning({ tools: sent }, budget());
    if (total) (totalSaid = true), out.push(total);
    return out;
  };
}

export const count = (x: number) => x.toLocaleString("en-US");
const short = (x: number) => (x < 1000 ? String(x) : `${Number((x / 1000).toFixed(1))}k`);
