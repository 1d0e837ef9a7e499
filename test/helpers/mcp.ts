// MCP servers for tests: the real ones from npm (devDependencies, run from node_modules with
// `node`, never from the network), our own small fake servers (test/fixtures/mcp/), and a manager
// wired as wire.ts wires it, recording what it reports.
import { join } from "node:path";
import type { McpServerSettings } from "../../src/config/settings.ts";
import { connectServer } from "../../src/mcp/client.ts";
import { createMcpManager, type McpEvent, type McpManager } from "../../src/mcp/manager.ts";
import { createToolStore } from "../../src/mcp/store.ts";
import { childEnv, missingCommand } from "../../src/mcp/stdio.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { ROOT } from "./e2e.ts";

export const FS_SERVER = join(ROOT, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");
export const EVERYTHING_SERVER = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
/** Our fake servers: `bun FAKE_SERVER MODE` (see the file for the modes). */
export const FAKE_SERVER = join(ROOT, "test", "fixtures", "mcp", "fake-server.ts");
export const BUN = join(ROOT, "node_modules", ".bin", "bun");

/** A server's settings as config resolution makes them. */
export function serverSettings(name: string, s: Partial<McpServerSettings>): McpServerSettings {
  return { name, at: `/test/config.toml: [mcp.${name}]`, args: [], env: {}, headers: {}, enabled: true, timeoutMs: 20_000, ...s };
}

export interface TestManager {
  manager: McpManager;
  events: McpEvent[];
  warnings: string[];
  /** the tools of the next request (no built-ins unless given) */
  tools(builtins?: Tool[]): Promise<Tool[]>;
  /** runs the tool `name` of the next request's list */
  call(name: string, args?: Record<string, unknown>, signal?: AbortSignal): Promise<{ output: string; isError?: boolean; images?: unknown[] }>;
}

/** A manager over real connections, caching under `cacheDir`. */
export function testManager(
  servers: McpServerSettings[],
  opts: {
    cacheDir: string;
    startupWaitMs?: number;
    fetch?: typeof fetch;
    env?: Record<string, string | undefined>;
    builtins?: string[];
    refused?: (name: string) => boolean;
    /** the context budget the manager weighs servers' tools against (default hey's 40,000) */
    budget?: number;
    /** the directories named to servers as hey's roots (roots/list); none by default */
    roots?: string[];
    /** `[mcp] defer_tools`; unset: the manager never defers, as an embedded one */
    deferTools?: "auto" | "always" | "never";
    /** the manager's clock (default Date.now): a test moves it on to be past the start-up wait without waiting it out */
    now?: () => number;
  },
): TestManager {
  const events: McpEvent[] = [];
  const warnings: string[] = [];
  const env = opts.env ?? { PATH: process.env.PATH, HOME: process.env.HOME };
  const manager = createMcpManager(
    { servers, startupWaitMs: opts.startupWaitMs ?? 20_000, off: false, ...(opts.builtins ? { builtins: opts.builtins } : {}) },
    {
      connect: (s, hooks, signal) => connectServer(s, hooks, { version: "test", env, fetch: opts.fetch ?? fetch, roots: opts.roots ?? [] }, signal),
      store: createToolStore(opts.cacheDir),
      missingCommand: (command, s) => missingCommand(command, childEnv(env, s.env), s.cwd),
      report: (e) => void events.push(e),
      warn: (m) => void warnings.push(m),
      refused: opts.refused ?? (() => false),
      budget: () => opts.budget ?? 40_000,
      ...(opts.deferTools ? { deferTools: () => opts.deferTools! } : {}),
      now: opts.now ?? Date.now,
    },
  );
  const tools = (builtins: Tool[] = []) => manager.tools(builtins, new AbortController().signal);
  return {
    manager,
    events,
    warnings,
    tools,
    async call(name, args = {}, signal = new AbortController().signal) {
      const tool = (await tools()).find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool.run(args, { signal, cwd: process.cwd() });
    },
  };
}

export interface HttpServer {
  /** the MCP endpoint */
  url: string;
  stop(): Promise<void>;
}

/** A free loopback port (bound, then released). */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/**
 * server-everything's HTTP mode on a free port: `streamableHttp` (endpoint /mcp) or the legacy
 * `sse` (endpoint /sse). Resolves once it listens. `port`: the same one again (a server that restarted).
 */
export async function startEverythingHttp(mode: "streamableHttp" | "sse", port = freePort()): Promise<HttpServer> {
  const proc = Bun.spawn(["node", EVERYTHING_SERVER, mode], { env: { PATH: process.env.PATH ?? "", PORT: String(port) }, stdout: "ignore", stderr: "pipe" });
  const reader = proc.stderr.getReader();
  let seen = "";
  const deadline = Date.now() + 20_000;
  while (!/running on port|listening on port/i.test(seen)) {
    const { value, done } = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => ({ value: undefined, done: true }))]);
    if (done) {
      proc.kill("SIGKILL");
      throw new Error(`server-everything ${mode} did not start: ${seen}`);
    }
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  void proc.stderr.pipeTo(new WritableStream()).catch(() => {}); // keep draining
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    async stop() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

/** The MCP SDK's own example server, and the preload that keeps it on 127.0.0.1. */
export const OAUTH_EXAMPLE = join(ROOT, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", "examples", "server", "simpleStreamableHttp.js");
const LOOPBACK = join(ROOT, "test", "fixtures", "mcp", "loopback.cjs");
/** The tests' stand-in for a user at a browser: `BROWSER` for a sign-in. */
export const BROWSER = `node ${join(ROOT, "test", "fixtures", "mcp", "browser.mjs")}`;

/** The SDK's example server, which can be restarted on its ports. */
export interface OAuthExample extends HttpServer {
  /** a new process on the same ports: every token and registration it held is gone */
  restart(): Promise<void>;
}

/**
 * The SDK's example server with `--oauth`: the MCP endpoint on MCP_PORT and its in-memory
 * authorization server on MCP_AUTH_PORT (free loopback ports here). It names itself
 * http://localhost:PORT in its metadata, so hey must be given that URL. Resolves once both listen.
 */
export async function startOAuthExample(): Promise<OAuthExample> {
  const [port, authPort] = [freePort(), freePort()];
  let proc = await spawnOAuthExample(port, authPort);
  return {
    url: `http://localhost:${port}/mcp`,
    async stop() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
    async restart() {
      proc.kill("SIGKILL");
      await proc.exited;
      proc = await spawnOAuthExample(port, authPort);
    },
  };
}

async function spawnOAuthExample(port: number, authPort: number) {
  const proc = Bun.spawn(["node", "--require", LOOPBACK, OAUTH_EXAMPLE, "--oauth"], {
    env: { PATH: process.env.PATH ?? "", MCP_PORT: String(port), MCP_AUTH_PORT: String(authPort) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  let seen = "";
  const deadline = Date.now() + 20_000;
  while ((seen.match(/listening on port/gi) ?? []).length < 2) {
    const { value, done } = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => ({ value: undefined, done: true }))]);
    if (done) {
      proc.kill("SIGKILL");
      throw new Error(`the SDK's OAuth example did not start: ${seen}${await new Response(proc.stderr).text()}`);
    }
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  void proc.stdout.pipeTo(new WritableStream()).catch(() => {}); // it logs every request: keep draining
  void proc.stderr.pipeTo(new WritableStream()).catch(() => {});
  return proc;
}
