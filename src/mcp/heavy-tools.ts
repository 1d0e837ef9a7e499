// What a server's tools cost in every request, weighed against the context budget: a server whose
// schemas fill a good part of it (one tool with 2,000 properties took ~74k tokens of a 40k budget)
// leaves little room for the conversation, and no compressing gets it back. The user is told once,
// with the server's largest tools and the `[mcp.NAME]` keys that leave them out. Pure.
import { mcpSpec, specTokens, type Offer } from "./offer.ts";

/** A server whose tools take more than this share of the context budget is named. */
export const HEAVY_SHARE = 0.25;
/** The warning names at most this many of the server's largest tools. */
const NAMED_TOOLS = 3;

/** What each server's offered tools add to every request, largest server first. */
export function serverCosts(offer: Pick<Offer, "tools">): { server: string; tokens: number; tools: { name: string; own: string; tokens: number }[] }[] {
  const by = new Map<string, { name: string; own: string; tokens: number }[]>();
  for (const e of offer.tools) {
    const list = by.get(e.server) ?? [];
    list.push({ name: e.name, own: e.tool.name, tokens: specTokens(mcpSpec(e)) });
    by.set(e.server, list);
  }
  return [...by]
    .map(([server, tools]) => ({ server, tokens: tools.reduce((a, t) => a + t.tokens, 0), tools: tools.sort((a, b) => b.tokens - a.tokens) }))
    .sort((a, b) => b.tokens - a.tokens);
}

/** How to leave `names` (the server's own names) out of what `server` offers. */
export const leaveOutHint = (server: string, names: readonly string[]) =>
  `leave tools out with [mcp.${server}] exclude_tools = [${names.map((n) => JSON.stringify(n)).join(", ")}] (or tools = [...], the ones to keep)`;

/**
 * One warning per server of `offer` whose tools take more than HEAVY_SHARE of `budget` (the tokens
 * a request is built to): its cost, its largest tools, and the keys that leave them out.
 */
export function heavyToolWarnings(offer: Pick<Offer, "tools">, budget: number): string[] {
  return serverCosts(offer)
    .filter((s) => s.tokens > HEAVY_SHARE * budget)
    .map(({ server, tokens, tools }) => {
      // the largest tools, until they make up most of the cost
      const named: typeof tools = [];
      for (const t of tools) if (named.length < NAMED_TOOLS && named.reduce((a, x) => a + x.tokens, 0) < tokens / 2) named.push(t);
      const list = named.map((t) => `${t.name} ~${n(t.tokens)}`).join(", ");
      return (
        `MCP server ${server}'s tools take ~${n(tokens)} tokens of every request, more than a quarter of the ${short(budget)} budget (${list}); ` +
        leaveOutHint(
          server,
          named.map((t) => t.own),
        )
      );
    });
}

const n = (x: number) => x.toLocaleString("en-US");
const short = (x: number) => (x < 1000 ? String(x) : `${Number((x / 1000).toFixed(1))}k`);
