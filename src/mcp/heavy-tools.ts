// What a server's tools cost in every request, weighed against the context budget: a server whose
// schemas fill a good part of it (one tool with 2,000 properties took ~74k tokens of a 40k budget)
// leaves little room for the conversation, and no compressing gets it back. The user is told once,
// with the server's largest tools and the `[mcp.NAME]` keys that leave them out; a request whose
// tools and system prompt alone exceed the model's window is refused with the same names
// (mcp/oversize.ts). Pure.
import { mcpSpec, specTokens, type Offer } from "./offer.ts";

/** A server whose tools take more than this share of the context budget is named. */
export const HEAVY_SHARE = 0.25;
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

/**
 * One warning per server of `offer` whose tools take more than HEAVY_SHARE of `budget` (the tokens
 * a request is built to): its cost, its largest tools, and the keys that leave them out.
 */
export function heavyToolWarnings(offer: Pick<Offer, "tools">, budget: number): string[] {
  const costs = offer.tools.map((e) => ({ server: e.server, name: e.name, own: e.tool.name, tokens: specTokens(mcpSpec(e)) }));
  return serverCosts(costs)
    .filter((s) => s.tokens > HEAVY_SHARE * budget)
    .map((s) => {
      const { cost, largest, hint } = costOf(s);
      return `${cost} tokens of every request, more than a quarter of the ${short(budget)} budget (${largest}); ${hint}`;
    });
}

export const count = (x: number) => x.toLocaleString("en-US");
const short = (x: number) => (x < 1000 ? String(x) : `${Number((x / 1000).toFixed(1))}k`);
