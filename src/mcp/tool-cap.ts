// The most tools one request may carry, where a vendor's API has a cap: over it, the API refuses
// every request of the run (15 servers of 20 tools ended every OpenAI session at its first
// message). A request over it carries hey's own tools, then the MCP tools the conversation called,
// then the others in configuration order up to the cap; the first such request says which servers'
// tools were left out and how to choose (`[mcp.NAME]` `tools` / `exclude_tools`, `enabled = false`), and a call to a left-out tool
// reads why it is not offered. A request the API refuses over one MCP tool's schema is sent again
// without that tool (schema-refusal.ts finds it). The heavy-tools warning (heavy-tools.ts) weighs tokens, not counts:
// a server of many small tools passes it. Pure.
import type { Message, Protocol } from "../kernel/ir.ts";
import { identityOf, ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../kernel/provider.ts";
import type { Tool } from "../kernel/tool.ts";
import { refusalWords, refusedTools, statedToolCap } from "./schema-refusal.ts";

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
 * The tools of `tools` a request over `cap` carries — hey's own, then the MCP tools `called` names
 * (the conversation ran them: dropping one the model just used breaks its next step), then the
 * others in their order (the configuration's) up to the cap — and the line that says what was left
 * out and how to choose; undefined when they are within it (or there is no cap).
 */
export function overCap(
  cap: ToolCap | undefined,
  tools: readonly Offered[],
  called: ReadonlySet<string> = new Set(),
): { kept: Set<string>; why: string } | undefined {
  if (!cap || tools.length <= cap.max) return undefined;
  const own = tools.filter((t) => t.server === undefined);
  const mcp = tools.filter((t) => t.server !== undefined);
  const first = [...own, ...mcp.filter((t) => called.has(t.name)), ...mcp.filter((t) => !called.has(t.name))];
  const kept = new Set(first.slice(0, cap.max).map((t) => t.name));
  const by = new Map<string, { all: number; out: number }>();
  for (const t of mcp) {
    const n = by.get(t.server!) ?? { all: 0, out: 0 };
    n.all++;
    if (!kept.has(t.name)) n.out++;
    by.set(t.server!, n);
  }
  const out = [...by].filter(([, n]) => n.out > 0).map(([s, n]) => leftOf(s, n.out, n.all));
  const list = out.length > 1 ? `${out.slice(0, -1).join(", ")} and ${out.at(-1)}` : out[0];
  const head = `hey's own ${own.length} tools and ${mcp.length} from MCP servers make ${tools.length}, over the ${cap.max} ${cap.api} takes in one request (it refuses any request over it)`;
  const rule = `kept: hey's own, the tools this conversation called, then the others in config order`;
  const choose = "choose with tools = [...] (the ones to keep) or exclude_tools = [...] in [mcp.NAME], or enabled = false for a server not needed here";
  return { kept, why: `${head}: left out ${list} (${rule}); ${choose}` };
}

/** The tools `messages` ran without an error: overCap keeps them first. */
export const calledTools = (messages: readonly Message[]) =>
  new Set(messages.flatMap((m) => (m.role === "tool" && !m.isError && m.toolName ? [m.toolName] : [])));

/** `20 of beta's 80 tools`, `all 20 of srv8's`, `both of slow's`, `solo's only tool`. */
function leftOf(server: string, out: number, all: number): string {
  if (out < all) return `${out} of ${server}'s ${all} tools`;
  return all === 1 ? `${server}'s only tool` : all === 2 ? `both of ${server}'s` : `all ${all} of ${server}'s`;
}

/** A request refused over tools (their schemas, or their count) is sent again at most this many times, each time without others. */
const RESENDS = 3;

/**
 * What a run's requests may not carry. `wrap` gives a provider whose requests over its API's cap
 * (capFor `baseUrl`) carry only the tools overCap keeps, saying so once (a `notice`: stderr, and
 * the JSON stream) each time what is left out changes; and whose request the API refuses (400)
 * over an MCP tool's schema, naming it (schema-refusal.ts), is sent again at once without that
 * tool, which is left out for the rest of the session, said with the `[mcp.SERVER]
 * exclude_tools` line that leaves it out for good — a 400 ran nothing and billed nothing, and
 * every request would fail alike. A refusal naming hey's own tool is thrown with its name added. An
 * endpoint with no cap known that refuses the count (`array too long … maximum length 128`: a
 * gateway in front of OpenAI's API) gets the request again within the cap it stated, and every
 * later one.
 * `guard` gives a tool that, when left out so, answers a call with why instead of running.
 * `originOf(name)`: the MCP server and its own name of a tool, undefined for hey's own.
 */
export function createToolCap(ports: { originOf(name: string): { server: string; name: string } | undefined }): {
  wrap(provider: Provider, baseUrl: string): Provider;
  guard(tool: Tool): Tool;
} {
  let left = new Map<string, string>(); // the last request's tools left out over the cap, each with why
  const refused = new Map<string, string>(); // tools whose schema the API refused: left out for the session
  let said: string | undefined;
  const serverOf = (name: string) => ports.originOf(name)?.server;
  return {
    wrap(provider, baseUrl) {
      // the API's documented cap, or one an endpoint stated in a 400 (a gateway in front of OpenAI's API): kept for the provider
      let cap = capFor(provider.protocol, baseUrl);
      /** `tools` as a request under `cap` carries them, and the notice to give first (once per change of what is left out) */
      const fit = (tools: ModelRequest["tools"], messages: ModelRequest["messages"]): { sent: ModelRequest["tools"]; notice?: StreamEvent } => {
        const over = overCap(
          cap,
          tools.map((t) => ({ name: t.name, server: serverOf(t.name) })),
          calledTools(messages),
        );
        left = new Map();
        if (!over) return { sent: tools };
        for (const t of tools) if (!over.kept.has(t.name)) left.set(t.name, `${t.name} is not offered: ${over.why}`);
        const sent = tools.filter((t) => over.kept.has(t.name));
        return over.why === said ? { sent } : { sent, notice: { type: "notice", message: (said = over.why) } };
      };
      return {
        ...identityOf(provider), // its name too: the opaque data of its answers goes back to it alone
        async *stream(request, signal) {
          let { sent, notice } = fit(
            request.tools.filter((t) => !refused.has(t.name)),
            request.messages,
          );
          for (let tries = 0; ; tries++) {
            if (notice) yield notice;
            let started = false;
            try {
              for await (const e of provider.stream({ ...request, tools: sent }, signal)) yield ((started = true), e);
              return;
            } catch (e) {
              if (started || !(e instanceof ProviderError) || e.kind !== "bad_request" || tries >= RESENDS) throw e;
              const stated = statedToolCap(e.message); // `array too long … maximum length 128`: that endpoint's cap, learned
              if (stated !== undefined && stated < sent.length) {
                cap = { max: stated, api: "the endpoint" };
                ({ sent, notice } = fit(
                  request.tools.filter((t) => !refused.has(t.name)),
                  request.messages,
                ));
                continue;
              }
              const named = refusedTools(e.message, sent);
              const mcp = named.filter((n) => ports.originOf(n) !== undefined);
              if (mcp.length === 0) throw named.length ? withNames(e, named, ports.originOf) : e;
              const words = refusalWords(e.message);
              for (const n of mcp) refused.set(n, `${n} is not offered: the model's API refused its input schema (${words})`);
              notice = { type: "notice", message: leftOutLine(mcp, words, ports.originOf) };
              sent = sent.filter((t) => !refused.has(t.name));
            }
          }
        },
        ...(provider.serverWindow ? { serverWindow: () => provider.serverWindow!() } : {}),
      };
    },
    guard(tool) {
      const why = refused.get(tool.name) ?? left.get(tool.name);
      return why === undefined ? tool : { ...tool, run: async () => ({ output: why, isError: true }) };
    },
  };
}

type OriginOf = (name: string) => { server: string; name: string } | undefined;

/** `MCP server weird's tool nullable_array`, or `hey's own edit`. */
const toolWords = (name: string, originOf: OriginOf) => {
  const o = originOf(name);
  return o ? `MCP server ${o.server}'s tool ${o.name}${o.name === name ? "" : ` (offered as ${name})`}` : `hey's own ${name}`;
};

/** What the notice says of MCP tools left out over their schemas, with the lines that leave them out for good. */
function leftOutLine(names: readonly string[], words: string, originOf: OriginOf): string {
  const by = new Map<string, string[]>();
  for (const n of names) {
    const o = originOf(n)!;
    by.set(o.server, [...(by.get(o.server) ?? []), o.name]);
  }
  const keys = [...by].map(([server, own]) => `exclude_tools = [${own.map((x) => JSON.stringify(x)).join(", ")}] in [mcp.${server}]`).join(", ");
  return `the model's API refused the request over the input schema of ${names.map((n) => toolWords(n, originOf)).join(", ")} (${words}); sent again without it, and it is left out for this session. To leave it out for good: ${keys}`;
}

/** The refusal with the tools it names added after the API's words. */
function withNames(e: ProviderError, names: readonly string[], originOf: OriginOf): ProviderError {
  const which = names.map((n) => toolWords(n, originOf)).join(", ");
  return new ProviderError("bad_request", `${e.message} (hey: that is ${which})`, { ...(e.status !== undefined ? { status: e.status } : {}), cause: e });
}
