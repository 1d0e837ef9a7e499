// The MCP client (SPEC §14): the only file that touches @modelcontextprotocol/sdk, and only
// through import(), so neither `hey --version` nor a run without servers loads it. A server with
// `command` runs over our stdio transport (stdio.ts); one with `url` over Streamable HTTP through
// hey's proxied fetch (so [proxy], NO_PROXY and the CA settings apply), with 503s retried, and over
// the legacy SSE transport when the server rejects Streamable HTTP. SDK errors become
// ConnectError / CallError here, with the server's stderr tail where there is one.
import type { McpServerSettings } from "../config/settings.ts";
import { boundedBodies, retrying503 } from "./http-retry.ts";
import type { McpTool } from "./names.ts";
import type { CallResult } from "./results.ts";
import { CallError, ConnectError, type Connection, type ConnectHooks } from "./server.ts";
import { childEnv, MAX_MESSAGE_BYTES, NoiseError, StdioTransport } from "./stdio.ts";

export interface ClientContext {
  /** hey's version, sent in `initialize` */
  version: string;
  /** hey's environment: the allow-listed part reaches stdio servers */
  env: Record<string, string | undefined>;
  /** the proxied fetch remote servers are reached through */
  fetch: typeof fetch;
}

/** Status codes with which a server says it does not speak Streamable HTTP (the SDK's fallback advice). */
const NOT_STREAMABLE = new Set([400, 404, 405]);
/** Pages of tools/list read at most (a server that pages forever is not waited on forever). */
const MAX_PAGES = 20;

let loading: Promise<Sdk> | undefined;
type Sdk = Awaited<ReturnType<typeof loadSdk>>;
async function loadSdk() {
  const [client, types, http, sse] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
  ]);
  return { Client: client.Client, McpError: types.McpError, ErrorCode: types.ErrorCode, StreamableHTTP: http.StreamableHTTPClientTransport, StreamableHTTPError: http.StreamableHTTPError, SSE: sse.SSEClientTransport };
}
const sdk = () => (loading ??= loadSdk());

type SdkClient = InstanceType<Sdk["Client"]>;

/** Connects to one server and lists its tools. Rejects with a ConnectError. */
export async function connectServer(settings: McpServerSettings, hooks: ConnectHooks, ctx: ClientContext, signal: AbortSignal): Promise<Connection> {
  const lib = await sdk();
  if (signal.aborted) throw new ConnectError("closed before it started");
  let live = false;
  let closing = false;
  let stderr = () => "";
  let exitReason = () => "the connection closed";
  const newClient = () =>
    new lib.Client(
      { name: "hey", version: ctx.version },
      { listChanged: { tools: { onChanged: (error, tools) => (error || !tools ? undefined : hooks.onTools(tools.map(toolOf))) } } },
    );
  let client = newClient();
  const opts = { timeout: settings.timeoutMs, signal };
  let stop = () => {};
  const onAbort = () => stop();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    if (settings.command !== undefined) {
      const transport = new StdioTransport({ command: settings.command, args: settings.args, env: settings.env, cwd: settings.cwd }, childEnv(ctx.env, settings.env));
      stop = () => void transport.close();
      stderr = () => transport.stderrTail();
      exitReason = () => transport.exitReason ?? "the connection closed";
      let noise: (e: Error) => void = () => {};
      const noisy = new Promise<never>((_, reject) => (noise = reject));
      noisy.catch(() => {});
      transport.onerror = (e) => {
        if (e instanceof NoiseError && !live) noise(e); // a server that breaks the protocol before it answers is not waited on
      };
      await Promise.race([client.connect(transport, opts), noisy]);
    } else {
      const url = new URL(settings.url!);
      const fetchImpl = boundedBodies(retrying503(ctx.fetch as Parameters<typeof retrying503>[0], sleep), MAX_MESSAGE_BYTES) as typeof fetch;
      const requestInit = { headers: settings.headers };
      try {
        await client.connect(new lib.StreamableHTTP(url, { requestInit, fetch: fetchImpl }), opts);
      } catch (e) {
        if (!(e instanceof lib.StreamableHTTPError) || !NOT_STREAMABLE.has(e.code ?? 0)) throw e;
        await client.close().catch(() => {});
        client = newClient();
        await client.connect(new lib.SSE(url, { requestInit, fetch: fetchImpl }), opts);
      }
    }
    live = true;
    const tools = await listTools(client, settings.timeoutMs, signal);
    client.onclose = () => {
      if (!closing) hooks.onClose(exitReason(), stderr());
    };
    return connection(client, tools, lib, () => (closing = true));
  } catch (e) {
    closing = true;
    await client.close().catch(() => {});
    throw new ConnectError(signal.aborted ? "closed while starting" : connectMessage(e, lib, exitReason()), stderr());
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Every page of tools/list. */
async function listTools(client: SdkClient, timeoutMs: number, signal: AbortSignal): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs, signal });
    tools.push(...r.tools.map(toolOf));
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

function toolOf(t: { name: string; description?: string; inputSchema: object }): McpTool {
  return { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), inputSchema: t.inputSchema as Record<string, unknown> };
}

function connection(client: SdkClient, tools: McpTool[], lib: Sdk, onClosing: () => void): Connection {
  return {
    tools,
    async call(name, args, { timeoutMs, signal }) {
      try {
        return (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs, signal })) as CallResult;
      } catch (e) {
        if (e instanceof lib.McpError && e.code === lib.ErrorCode.RequestTimeout) throw new CallError("timeout", e.message);
        if (e instanceof lib.McpError && e.code === lib.ErrorCode.ConnectionClosed) throw new CallError("closed", e.message);
        if (e instanceof Error && /not connected/i.test(e.message)) throw new CallError("closed", e.message);
        throw new CallError("failed", e instanceof Error ? e.message : String(e));
      }
    },
    async close() {
      onClosing();
      await client.close().catch(() => {});
    },
  };
}

/** What went wrong while connecting, in the user's terms. */
function connectMessage(e: unknown, lib: Sdk, exited: string): string {
  if (e instanceof lib.McpError && e.code === lib.ErrorCode.RequestTimeout) return "it did not answer initialize in time (timeout_ms)";
  if (e instanceof lib.McpError && e.code === lib.ErrorCode.ConnectionClosed) return `it ${exited.replace(/^the connection /, "")} before it was ready`;
  if (e instanceof lib.StreamableHTTPError) return `HTTP ${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
