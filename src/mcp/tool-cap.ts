// The most tools one request may carry, where a vendor's API has a cap: over it, the API refuses
// every request of the run (15 servers of 20 tools ended every OpenAI session at its first
// message). A request over it carries hey's own tools, then the MCP servers' in configuration
// order up to the cap; the first such request says which servers' tools were left out and how to
// choose (`[mcp.NAME]` `tools` / `exclude_tools`, `enabled = false`), and a call to a left-out tool
// reads why it is not offered. The heavy-tools warning (heavy-tools.ts) weighs tokens, not counts:
// a server of many small tools passes it. Pure.
import type { Protocol } from "../kernel/ir.ts";
import { identityOf, type Provider } from "../kernel/provider.ts";
import type { Tool } from "../kernel/tool.ts";

/** A vendor API's cap on the tools of one request. */
export interface ToolCap {
  max: number;
  api: string;
}

/**
 * The cap of the API at `baseUrl` speaking `protocol`, undefined when it has none known. OpenAI's
 * Chat Completions and Responses APIs answer 400 `Invalid 'tools': array too long. Expected an
 * array with maximum length 128` (so does Azure OpenAI); a local server on the same protocol
 * (Ollama, vLLM, llama.cpp) takes more, and is not capped. Gemini's API answers 400 `At most 512
 * function declarations can be specified` (google-gemini/gemini-cli issues 19083 and 25440; its
 * references said 64, then 128, which the live API does not enforce), wherever the protocol is
 * spoken — a proxy passes it on. Anthropic's Messages API documents none.
 */
export function capFor(protocol: Protocol, baseUrl: string): ToolCap | undefined {
  if (protocol === "google") return { max: 512, api: "Gemini's API" };
  if (protocol !== "openai" && protocol !== "responses") return undefined;
  const host = hostOf(baseUrl);
  return host === "api.openai.com" || host.endsWith(".openai.azure.com") ? { max: 128, api: "OpenAI's API" } : undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/** A tool of a request: its name, and the MCP server that supplies it (none for hey's own). */
type Offered = { name: string; server?: string | undefined };

/**
 * The tools of `tools` a request over `cap` carries — hey's own, then the MCP tools in their order
 * (the configuration's) up to the cap — and the line that says what was left out and how to
 * choose; undefined when they are within it (or there is no cap).
 */
export function overCap(cap: ToolCap | undefined, tools: readonly Offered[]): { kept: Set<string>; why: string } | undefined {
  if (!cap || tools.length <= cap.max) return undefined;
  const own = tools.filter((t) => t.server === undefined);
  const kept = new Set([...own, ...tools.filter((t) => t.server !== undefined)].slice(0, cap.max).map((t) => t.name));
  const by = new Map<string, { all: number; out: number }>();
  for (const t of tools) {
    if (t.server === undefined) continue;
    const n = by.get(t.server) ?? { all: 0, out: 0 };
    n.all++;
    if (!kept.has(t.name)) n.out++;
    by.set(t.server, n);
  }
  const out = [...by].filter(([, n]) => n.out > 0).map(([s, n]) => (n.out === n.all ? `${s} (all ${n.all})` : `${s} (${n.out} of its ${n.all})`));
  const head = `a request would offer ${tools.length} tools, more than the ${cap.max} ${cap.api} takes in one (it refuses every request over it)`;
  const sent = `requests carry hey's own ${own.length} and the MCP servers' tools in config order up to it`;
  const choose = "choose which with [mcp.NAME] tools = [...] (the ones to keep) or exclude_tools = [...], or enabled = false for a server not needed here";
  return { kept, why: `${head}: ${sent}, leaving out ${tools.length - kept.size} of ${out.join(", ")}; ${choose}` };
}

/**
 * The cap of a run's requests: `wrap` gives a provider whose requests over its API's cap (capFor
 * `baseUrl`) carry only the tools overCap keeps, saying so once (a `notice`: stderr, and the JSON
 * stream) each time what is left out changes; `guard` gives a tool that, when the last request
 * left it out, answers a call with why instead of running. `serverOf(name)`: the MCP server of a
 * tool, undefined for hey's own.
 */
export function createToolCap(ports: { serverOf(name: string): string | undefined }): {
  wrap(provider: Provider, baseUrl: string): Provider;
  guard(tool: Tool): Tool;
} {
  let left = new Map<string, string>(); // the last request's left-out tools, each with why
  let said: string | undefined;
  return {
    wrap(provider, baseUrl) {
      const cap = capFor(provider.protocol, baseUrl);
      return {
        ...identityOf(provider), // its name too: the opaque data of its answers goes back to it alone
        async *stream(request, signal) {
          const over = overCap(
            cap,
            request.tools.map((t) => ({ name: t.name, server: ports.serverOf(t.name) })),
          );
          left = new Map();
          if (!over) return yield* provider.stream(request, signal);
          for (const t of request.tools) if (!over.kept.has(t.name)) left.set(t.name, `${t.name} is not offered: ${over.why}`);
          if (over.why !== said) yield { type: "notice", message: (said = over.why) };
          yield* provider.stream({ ...request, tools: request.tools.filter((t) => over.kept.has(t.name)) }, signal);
        },
        ...(provider.serverWindow ? { serverWindow: () => provider.serverWindow!() } : {}),
      };
    },
    guard(tool) {
      const why = left.get(tool.name);
      return why === undefined ? tool : { ...tool, run: async () => ({ output: why, isError: true }) };
    },
  };
}
