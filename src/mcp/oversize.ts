// A request whose tools and system prompt alone take more than the model's window: no cutting of
// the history brings it under, so a context-length error is answered not by a request cut by a
// token and sent again, but by an error naming what fills it — the MCP servers whose tools take
// the most, with the keys that leave them out — so the user can act. The same holds for a latest
// user message that, with them, is alone more than the window (uncuttable). Pure.
import type { Message, ToolSpec } from "../kernel/ir.ts";
import type { ModelRequest } from "../kernel/provider.ts";
import { fixedText, latestOverWindow } from "../context/window.ts";
import { costOf, count, HEAVY_SHARE, serverCosts } from "./heavy-tools.ts";

/**
 * The error for a request of `system` and `tools` whose estimate (at `tokensPerChar`) exceeds
 * `window`, or undefined when it does not. `serverOf(name)`: the MCP server that supplies a tool,
 * undefined for hey's own. Servers whose tools take more than HEAVY_SHARE of the window are named.
 */
export function fixedOverWindow(
  system: string,
  tools: readonly ToolSpec[],
  serverOf: (name: string) => string | undefined,
  tokensPerChar: number,
  window: number,
): string | undefined {
  const tokens = (s: string) => Math.ceil(s.length * tokensPerChar);
  const specs = tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  const fixed = tokens(`${system}\u0000${JSON.stringify(specs)}`);
  if (fixed <= window) return undefined;
  const head = `the tools and system prompt alone take ~${count(fixed)} tokens, more than the model's window of ~${count(window)}`;
  const costs = specs.flatMap((s) => {
    const server = serverOf(s.name);
    return server === undefined ? [] : [{ server, name: s.name, own: s.name, tokens: tokens(JSON.stringify(s)) }];
  });
  const heavy = serverCosts(costs).filter((s) => s.tokens > HEAVY_SHARE * window);
  if (heavy.length === 0) {
    const own = tokens(JSON.stringify(specs.filter((s) => serverOf(s.name) === undefined)));
    return `${head}: the system prompt takes ~${count(tokens(system))} (AGENTS.md files and skills are part of it), hey's own tools ~${count(own)}`;
  }
  return `${head}: ${heavy
    .map((s) => {
      const { cost, largest, hint } = costOf(s);
      return `${cost} (${largest}); ${hint}`;
    })
    .join("; ")}`;
}

/**
 * Why no cut of the conversation can make `request` fit `window`, or undefined: its tools and
 * system prompt alone (fixedOverWindow), or those with the latest user message of `history`
 * (context/window.ts latestOverWindow), take more.
 */
export function uncuttable(
  request: Pick<ModelRequest, "system" | "tools">,
  history: readonly Message[],
  serverOf: (name: string) => string | undefined,
  tokensPerChar: number,
  window: number,
): string | undefined {
  return (
    fixedOverWindow(request.system, request.tools, serverOf, tokensPerChar, window) ?? latestOverWindow(history, fixedText(request), tokensPerChar, window)
  );
}
