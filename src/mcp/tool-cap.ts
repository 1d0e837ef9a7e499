// The most tools one request may carry, where a vendor's API has a cap: over it, every request of
// the run is refused, so three servers of 120 tools each make hey unusable on OpenAI until some are
// left out. The user is told when a request first goes over it — how many tools each server
// offers, and a way to come under it with `[mcp.NAME]` keys (`enabled = false`, `tools = [...]`) —
// and the API's 400 says the same. The heavy-tools warning (heavy-tools.ts) weighs tokens, not
// counts: a server of many small tools passes it. Pure.
import type { Protocol } from "../kernel/ir.ts";
import { identityOf, ProviderError, type Provider } from "../kernel/provider.ts";

/**
 * The caps, by wire protocol. OpenAI's Chat Completions and Responses APIs answer 400 `Invalid
 * 'tools': array too long. Expected an array with maximum length 128`; Google documents "Maximum
 * 64 function declarations" for Gemini (the Vertex AI and Firebase Tool references). Anthropic's
 * Messages API documents none.
 */
export const TOOL_CAPS: Partial<Record<Protocol, { max: number; api: string }>> = {
  openai: { max: 128, api: "OpenAI's API" },
  responses: { max: 128, api: "OpenAI's API" },
  google: { max: 64, api: "Gemini's API (as documented)" },
};

/** A tool of a request: its name, and the MCP server that supplies it (none for hey's own). */
type Offered = { name: string; server?: string | undefined };

/**
 * Why `tools` are more than `protocol` takes in one request, with each server's count and a way
 * under the cap; undefined when they are not (or the protocol has no cap).
 */
export function overCap(protocol: Protocol, tools: readonly Offered[]): string | undefined {
  const cap = TOOL_CAPS[protocol];
  if (!cap || tools.length <= cap.max) return undefined;
  const by = new Map<string, number>();
  for (const t of tools) if (t.server !== undefined) by.set(t.server, (by.get(t.server) ?? 0) + 1);
  const servers = [...by].sort((a, b) => b[1] - a[1]);
  const own = tools.length - servers.reduce((a, [, n]) => a + n, 0);
  const over = tools.length - cap.max;
  const head = `a request offers ${tools.length} tools, more than the ${cap.max} ${cap.api} takes (it refuses every request over it)`;
  const counts = `${servers.map(([s, n]) => `${s} ${n}`).join(", ")}; hey's own ${own}`;
  return `${head}: MCP servers ${counts}. Leave out at least ${over}: ${wayUnder(servers, over)}`;
}

/** The fewest servers to turn off (largest first), then how many tools of the next to keep; always a way that comes under. */
function wayUnder(servers: readonly [string, number][], over: number): string {
  const off: string[] = [];
  let left = over;
  for (const [server, n] of servers) {
    if (n > left) {
      const keep = `in [mcp.${server}] tools = [...] naming at most ${n - left} of its ${n} (or exclude_tools naming ${left})`;
      return off.length ? `enabled = false in ${tables(off)}, and ${keep}` : `${keep}, or enabled = false`;
    }
    off.push(server);
    left -= n;
    if (left === 0) break;
  }
  return left > 0 ? `even with every server off, hey's own tools are too many (enabled = false in ${tables(off)})` : `enabled = false in ${tables(off)}`;
}

const tables = (servers: readonly string[]) => servers.map((s) => `[mcp.${s}]`).join(" and ");

/**
 * `provider`, which says once (`ports.warn`) that a request offers more tools than its protocol
 * takes, and whose 400 to such a request says it too, after the API's words. `ports.serverOf(name)`:
 * the MCP server of a tool, undefined for hey's own.
 */
export function withToolCap(provider: Provider, ports: { serverOf(name: string): string | undefined; warn(line: string): void }): Provider {
  let said: string | undefined;
  return {
    ...identityOf(provider), // its name too: the opaque data of its answers goes back to it alone
    async *stream(request, signal) {
      const why = overCap(
        provider.protocol,
        request.tools.map((t) => ({ name: t.name, server: ports.serverOf(t.name) })),
      );
      if (why && why !== said) ports.warn((said = why));
      try {
        yield* provider.stream(request, signal);
      } catch (e) {
        if (!why || !(e instanceof ProviderError) || e.kind !== "bad_request") throw e;
        throw new ProviderError("bad_request", `${e.message} (hey: ${why})`, { ...(e.status !== undefined ? { status: e.status } : {}), cause: e });
      }
    },
    ...(provider.serverWindow ? { serverWindow: () => provider.serverWindow!() } : {}),
  };
}
