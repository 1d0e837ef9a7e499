// A session's deferred MCP tools (deferred.ts): the manager asks it which of the offered tools the
// next request carries, and for the tool a call to a deferred one by name runs. It keeps what
// was loaded across `/reload` (a loaded tool that still exists stays) and starts over with each
// session (`resume`). Pure: the tools are the manager's.
import type { Tool, ToolResult } from "../kernel/tool.ts";
import { checkArguments } from "../kernel/tool-args.ts";
import type { DeferMode } from "../config/keys.ts";
import { FIND_TOOLS, planTools, withLoaded, type Deferral, type Plan } from "./deferred.ts";
import type { ExposedTool } from "./names.ts";
import type { Offer } from "./offer.ts";
import { createFindTools, toolCard } from "./tool-search.ts";
import { nearestTool } from "../kernel/call-names.ts";

export interface Deferring {
  /** the next request's MCP tools in order — whole, find_tools, loaded — made runnable by `toTool`; `sent`: those whose schemas it carries */
  request(
    tools: readonly ExposedTool[],
    toTool: (e: ExposedTool) => Tool,
    others?: { leftOut?: Offer["leftOut"]; own?: readonly string[] },
  ): { tools: Tool[]; sent: ExposedTool[] };
  /**
   * `offer` with the names its next request would leave to find_tools (`/mcp`, the weight warnings),
   * set (empty when every one is loaded) whenever that request carries find_tools; changes nothing
   */
  marked(offer: Offer): Offer;
  /**
   * a call by `name` to a tool deferred now: it runs (arguments checked against its own schema; a
   * failed call's error ends with its schema) and, when it ran well, loads; a near miss of one's
   * name reads how to load it; undefined for any other name
   */
  tool(name: string, tools: readonly ExposedTool[], toTool: (e: ExposedTool) => Tool): Tool | undefined;
  /** a new session: nothing loaded but `loaded` (what a resumed one had loaded, deferred.ts loadedIn) */
  resume(loaded: string[]): void;
}

/**
 * `mode()` and `budget()` are read at each request (`/reload` may change them); `keep(server)`: `[mcp.NAME] defer = false`;
 * `notice(message)`: a tool list that grew (find_tools or a call loaded tools), said once per load — `--output json` has no other sign of it.
 */
export function createDeferring(opts: { mode(): DeferMode; budget(): number; keep(server: string): boolean; notice?(message: string): void }): Deferring {
  let state: Deferral = { on: false, loaded: [] };
  const plan = (tools: readonly ExposedTool[]): Plan => planTools(tools, state, { mode: opts.mode(), budget: opts.budget(), keep: opts.keep });
  const load = (how: string) => (names: string[]) => {
    const added = names.filter((n) => !state.loaded.includes(n)); // one asked for again is loaded already: nothing grew
    state = { ...state, loaded: withLoaded(state.loaded, names) };
    if (added.length) opts.notice?.(loadedNotice(added, how));
  };
  // a tool sent whole that ran well counts as loaded (as loadedIn reads a resumed session), so
  // deferring that starts later keeps it in the list and leaves the rest to find_tools
  const ran = (tool: Tool): Tool => ({
    ...tool,
    async run(args, ctx) {
      const r = await tool.run(args, ctx);
      if (!r.isError) state = { ...state, loaded: withLoaded(state.loaded, [tool.name]) };
      return r;
    },
  });
  return {
    request(tools, toTool, { leftOut = [], own = [] } = {}) {
      const p = plan(tools);
      state = p.state;
      const others = { whole: p.whole, leftOut, own };
      const find = p.deferred.length || p.loaded.length ? [createFindTools(p.deferred, () => [...p.deferred, ...p.loaded], load(FIND_TOOLS), others)] : [];
      const whole = p.whole.map((e) => (p.state.on ? toTool(e) : ran(toTool(e))));
      return { tools: [...whole, ...find, ...p.loaded.map(toTool)], sent: [...p.whole, ...p.loaded] };
    },
    marked(offer) {
      const p = plan(offer.tools);
      return p.deferred.length || p.loaded.length ? { ...offer, deferred: p.deferred.map((e) => e.name) } : offer; // as request() offers find_tools
    },
    tool(name, tools, toTool) {
      const deferred = plan(tools).deferred;
      const e = deferred.find((x) => x.name === name);
      if (!e) return notLoaded(name, deferred);
      const tool = toTool(e);
      return {
        ...tool,
        parameters: { type: "object" }, // checked against its own schema in run: a wrong guess reads that schema
        // it loads when it has run well: what a session loaded is read back from its results that are no errors
        // (deferred.ts loadedIn), so `hey -c` offers the same tools; a failed call says its input instead
        async run(args, ctx): Promise<ToolResult> {
          const checked = checkArguments(name, args, tool.parameters);
          if ("error" in checked) return { output: `${checked.error}\n\nIts input:\n${toolCard(e)}`, isError: true };
          const r = await tool.run(checked.args, ctx);
          if (r.isError) return { ...r, output: `${r.output}\n\nIts input:\n${toolCard(e)}` };
          load("a call by its name")([name]);
          return r;
        },
      };
    },
    resume(loaded) {
      state = { on: false, loaded };
    },
  };
}

/** What a script reading `--output json` sees when the model's tool list grows (docs/json-events.md `notice`). */
export const loadedNotice = (names: readonly string[], how: string) => `MCP tools loaded by ${how}, offered from the next request on: ${names.join(", ")}`;

/**
 * A call whose name is near a deferred tool's (`get_summ`): no tool runs on a guess, and the model
 * is told that the tool it likely meant waits behind find_tools, and how to have it; undefined when
 * no deferred name is close (the kernel's unknown tool).
 */
function notLoaded(name: string, deferred: readonly ExposedTool[]): Tool | undefined {
  const near = nearestTool(
    name,
    deferred.map((e) => e.name),
  );
  if (near === undefined) return undefined;
  const output = `unknown tool "${name}": did you mean ${near}? It is not loaded: call ${FIND_TOOLS} with names ${JSON.stringify([near])}, or call it as ${near}`;
  return { name, description: "", parameters: { type: "object" }, run: async () => ({ output, isError: true }) };
}
