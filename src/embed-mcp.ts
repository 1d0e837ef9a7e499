// MCP servers for an embedded agent (README "Embed"): `createMcp` runs them as the CLI's manager
// does, from values the program passes instead of `[mcp.NAME]` tables; createAgent's `mcp` takes
// what it gives. No OAuth sign-in here: a remote server's own `headers` authorize it.
import { MCP_SERVER_KEYS, resolveTable, SECTIONS } from "./config/keys.ts";
import type { McpServerSettings } from "./config/settings.ts";
import { embeddedDirs } from "./embed-dirs.ts";
import type { Output } from "./kernel/output.ts";
import { BUILTIN_TOOLS } from "./kernel/tool-names.ts";
import type { PermissionCheck } from "./kernel/tool-calls.ts";
import { createMcpManager, type McpManager } from "./mcp/manager.ts";
import { redactingConnect } from "./mcp/redacted.ts";
import { redact, secretSpellings, serverSecrets } from "./config/secrets.ts";
import { fanOut } from "./kernel/output.ts";
import { embeddedTool, embeddedWords } from "./embed-words.ts";
import { childEnv, missingCommand } from "./mcp/stdio.ts";
import { createToolStore } from "./mcp/store.ts";
import { proxiedFetch } from "./net/fetch.ts";
import { refusesOf, type ListPermission } from "./embed-permission.ts";
import pkg from "../package.json" with { type: "json" };

/** A fetch of the standard shape: any function that takes what fetch takes (a logging wrapper, a test double). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * The fetch a program that gives none gets: hey's own routing (net/fetch.ts), as the CLI's —
 * HTTPS_PROXY/HTTP_PROXY/ALL_PROXY and NO_PROXY read as curl reads them, SOCKS5 too, and this
 * machine always direct. Bun's own fetch sends even a loopback request through HTTP_PROXY, so a
 * program with a proxy set could not reach a local Ollama or MCP server.
 */
export const defaultFetch = (): typeof fetch => proxiedFetch({ env: process.env });

/** `f` as Bun types fetch: the preconnect hint is the global fetch's. */
export const bunFetch = (f: FetchLike): typeof fetch =>
  Object.assign((input: string | URL | Request, init?: RequestInit) => f(input, init), { preconnect: fetch.preconnect });

/**
 * What createMcp gives a program: the servers' tools for each request, their state, their prompts
 * and resources, and close(). The CLI's own parts of the manager (`/reload`'s swap, a restart after
 * an OAuth sign-in) are not in it.
 */
export type McpServers = Pick<McpManager, "tools" | "status" | "offer" | "origin" | "instructions" | "note" | "settled" | "prompts" | "get" | "close">;

/** One MCP server for `createMcp`: a local command or a remote URL, as an `[mcp.NAME]` table holds it. */
export interface McpServer {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** per call and for start-up; default 60 s */
  timeoutMs?: number;
  /** offer only these of its tools, never those (`*` matches anything) */
  tools?: string[];
  excludeTools?: string[];
}

/** How `createMcp` runs its servers; every part may be left out. */
export interface McpOptions {
  /** where each server's tool list is cached, and results cut for the model are kept in full; default embeddedDirs().cache, apart from the CLI's */
  cacheDir?: string;
  fetch?: FetchLike;
  /** a server that failed to start, and warnings about its tools' names (one named like hey's own read_file is offered as fs_read_file) */
  warn?(message: string): void;
  /** the most a request waits for a server with no cached tool list; default 3 s */
  startupWaitMs?: number;
  /**
   * each server's `mcp` events as they happen: connected (with its tool count and how many are
   * offered), failed, stopped, with why — what `hey` prints as `connected: fs (14 tools)`
   */
  output?: Output;
  /**
   * the agent's `permissionCheck`: a tool it refuses outright is not offered, and `offered` counts without it — by the
   * name the model sees (for a tool named like one of hey's, bash, read_file, write_file, edit, grep, compress, that is
   * `<server>_<name>`) and by the server's names for it (permission/tool-match.ts)
   */
  permission?: PermissionCheck | ListPermission;
}

/**
 * MCP servers (SPEC §14), connecting in the background at once: give them to an agent
 * (`createAgent({ provider, mcp })`) and each request offers their tools as they come, a call to
 * one whose server is still starting waiting for it; `close()` stops them. Their tool lists are cached in `cacheDir` (default: embeddedDirs().cache).
 * No OAuth sign-in: a remote server's own `headers` authorize it. As the CLI's, the servers' credentials — values of
 * `headers` and `env` with credential names (`Authorization`, `…_TOKEN`), a `url`'s password or `?api_key=` — are
 * `[redacted]` in all a server sends or causes (a 500 that echoes the header): `output`, `warn`, the cache, what the
 * model reads; an agent given these servers hides them as its `secrets`. Throws an Error naming every server that has
 * no name or another's, or not exactly one of `command` and `url`.
 */
export function createMcp(servers: McpServer[], opts: McpOptions = {}): McpServers {
  const problems = serverProblems(servers);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const env = process.env;
  const defaults = resolveTable(MCP_SERVER_KEYS, undefined);
  const settings = servers.map((s): McpServerSettings => ({ ...defaults, ...s, at: `the server ${s.name}` }));
  const cacheDir = opts.cacheDir ?? embeddedDirs().cache;
  const startupWait = opts.startupWaitMs ?? resolveTable(SECTIONS.mcp, undefined).startupWaitMs;
  // as the CLI's: the servers' credentials (an Authorization header, a token in `env`) are hidden in all a server sends or
  // causes — an HTTP 500 that echoes the header, a stderr that prints the token — before the manager keeps, reports or caches it
  const secrets = secretSpellings(serverSecrets(settings));
  const given = opts.warn ?? (() => {});
  const warn = (message: string) => given(redact(message, secrets));
  const output = fanOut(opts.output ? [opts.output] : []); // an output that throws, or rejects, loses that event only
  // one for every connect of these servers: a SOCKS5 route's loopback bridge is started once, not at each reconnect
  const fetchImpl = opts.fetch ? bunFetch(opts.fetch) : defaultFetch();
  const manager = createMcpManager(
    // hey's own tools' names, as the CLI's: a server's read_file is offered as fs_read_file, so `offered` counts (and the
    // rules judge) that name, and the rename is said when the server connects; before, `offered` counted the server's names
    { servers: settings, startupWaitMs: startupWait, off: false, builtins: BUILTIN_TOOLS },
    {
      connect: redactingConnect(
        async (s, hooks, signal) => (await import("./mcp/client.ts")).connectServer(s, hooks, { version: pkg.version, env, fetch: fetchImpl }, signal),
        () => secrets,
      ),
      store: createToolStore(cacheDir),
      missingCommand: (command, s) => missingCommand(command, childEnv(env, s.env), s.cwd),
      report: (e) => {
        const said = e.error === undefined ? e : { ...e, error: embeddedWords(e.error) };
        output.emit(said);
        if (e.state === "failed") warn(`MCP server ${e.server} failed: ${said.error ?? "unknown error"}`);
      },
      warn: (message) => warn(embeddedWords(message)),
      refused: refusesOf(opts.permission),
      budget: () => resolveTable(SECTIONS.agent, undefined).budgetTokens, // hey's default: the program's agent may differ
      now: Date.now,
    },
  );
  // what the model and the program read of the servers, in the program's words: no /reload, `timeoutMs` (embed-words.ts)
  const worded: McpServers = {
    ...manager,
    tools: async (builtins, signal) => (await manager.tools(builtins, signal)).map((t) => (builtins.includes(t) ? t : embeddedTool(t))),
    note: (answered) => ((n) => n && embeddedWords(n))(manager.note(answered)),
    status: () => manager.status().map((s) => (s.error === undefined ? s : { ...s, error: embeddedWords(s.error) })),
  };
  mcpSettings.set(worded, { servers: settings, startupWaitMs: startupWait, secrets });
  return worded;
}

/**
 * The servers each createMcp was given, as settings (a late call waits for its server at most its `timeoutMs`), the
 * start-up wait (a late call on a guess waits no longer), and their credentials: an agent given these servers hides them too.
 */
export const mcpSettings = new WeakMap<McpServers, { servers: McpServerSettings[]; startupWaitMs: number; secrets: readonly string[] }>();

/** What is wrong with createMcp's `servers`, each naming the server (as a config file's `[mcp.NAME]` errors do); none: []. */
function serverProblems(servers: McpServer[]): string[] {
  return servers.flatMap((s, i) => {
    const at = `createMcp: servers[${i}]${s.name ? ` (${s.name})` : ""}`;
    const first = servers.findIndex((o) => o.name === s.name);
    return [
      ...(s.name ? [] : [`${at} has no name`]),
      ...(first < i ? [`${at} is named like servers[${first}]; each server needs a name of its own`] : []),
      ...(s.command === undefined && s.url === undefined ? [`${at} needs command (a local server) or url (a remote one)`] : []),
      ...(s.command !== undefined && s.url !== undefined ? [`${at} has both command and url; keep one`] : []),
    ];
  });
}
