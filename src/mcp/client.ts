// The MCP client (SPEC §14): the only file that touches @modelcontextprotocol/sdk, and only
// through import(), so neither `hey --version` nor a run without servers loads it. A server with
// `command` runs over our stdio transport (stdio.ts); one with `url` over Streamable HTTP through
// hey's proxied fetch (so [proxy], NO_PROXY and the CA settings apply), with 503s retried, and over
// the legacy SSE transport when the server rejects Streamable HTTP. A remote server hey has a
// sign-in for gets the SDK's client auth with hey's OAuthClientProvider (oauth.ts); a 401 with
// `WWW-Authenticate` that no token answers makes the server "auth required" rather than failed.
// SDK errors become ConnectError / CallError here, with the server's stderr tail where there is one.
// The sign-in itself (login.ts) reaches the SDK's auth through `oauthSdk`.
import type { McpServerSettings } from "../config/settings.ts";
import { boundedBodies, retrying503 } from "./http-retry.ts";
import type { McpTool } from "./names.ts";
import type { HeyOAuthProvider } from "./oauth.ts";
import type { McpPrompt, PromptResult, ResourceResult } from "./prompts.ts";
import type { CallResult } from "./results.ts";
import { CallError, ConnectError, type Connection, type ConnectHooks } from "./server.ts";
import { childEnv, MAX_MESSAGE_BYTES, NoiseError, StdioTransport } from "./stdio.ts";
import { errorText } from "../kernel/errors.ts";

export interface ClientContext {
  /** hey's version, sent in `initialize` */
  version: string;
  /** hey's environment: the allow-listed part reaches stdio servers */
  env: Record<string, string | undefined>;
  /** the proxied fetch remote servers are reached through */
  fetch: typeof fetch;
  /** the OAuth provider of a remote server hey has a sign-in for (undefined: none, or the server's headers carry its own Authorization) */
  auth?(settings: McpServerSettings, refresh: (p: HeyOAuthProvider) => Promise<unknown>): HeyOAuthProvider | undefined;
}

/** Status codes with which a server says it does not speak Streamable HTTP (the SDK's fallback advice). */
const NOT_STREAMABLE = new Set([400, 404, 405]);
/** Pages of tools/list read at most (a server that pages forever is not waited on forever). */
const MAX_PAGES = 20;

let loading: Promise<Sdk> | undefined;
type Sdk = Awaited<ReturnType<typeof loadSdk>>;
async function loadSdk() {
  const [client, types, http, sse, auth] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/auth.js"),
  ]);
  return {
    Client: client.Client,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    StreamableHTTP: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    SSE: sse.SSEClientTransport,
    SseError: sse.SseError,
    UnauthorizedError: auth.UnauthorizedError,
    auth: auth.auth,
    wwwAuthenticate: auth.extractWWWAuthenticateParams,
  };
}
const sdk = () => (loading ??= loadSdk());

type AuthOptions = { serverUrl: string; authorizationCode?: string; scope?: string; resourceMetadataUrl?: URL; fetchFn: typeof fetch };

/**
 * The SDK's client auth for a sign-in (login.ts): `auth` runs discovery, registration, PKCE and the
 * token exchange with hey's provider; `wwwAuthenticate` reads a 401's challenge (resource metadata
 * URL, scope).
 */
export async function oauthSdk(): Promise<{
  auth(provider: HeyOAuthProvider, options: AuthOptions): Promise<"AUTHORIZED" | "REDIRECT">;
  wwwAuthenticate(res: Response): { resourceMetadataUrl?: URL; scope?: string; error?: string };
}> {
  const lib = await sdk();
  return { auth: (provider, options) => lib.auth(provider as unknown as Parameters<Sdk["auth"]>[0], options), wwwAuthenticate: lib.wwwAuthenticate };
}

/** A 401 whose WWW-Authenticate names the Bearer scheme: the server asks for a sign-in (MCP authorization spec). */
export const asksForSignIn = (res: Response) => res.status === 401 && /^\s*bearer\b/i.test(res.headers.get("www-authenticate") ?? "");

type SdkClient = InstanceType<Sdk["Client"]>;

/** Connects to one server and lists its tools. Rejects with a ConnectError. */
export async function connectServer(settings: McpServerSettings, hooks: ConnectHooks, ctx: ClientContext, signal: AbortSignal): Promise<Connection> {
  const lib = await sdk();
  if (signal.aborted) throw new ConnectError("closed before it started");
  let live = false;
  let closing = false;
  let stderr = () => "";
  let exitReason = () => "the connection closed";
  let challenged = false; // the server answered 401 with a Bearer challenge
  let provider: HeyOAuthProvider | undefined;
  const ownAuthorization = Object.keys(settings.headers).some((h) => h.toLowerCase() === "authorization");
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
      const transport = new StdioTransport(
        { command: settings.command, args: settings.args, env: settings.env, cwd: settings.cwd },
        childEnv(ctx.env, settings.env),
      );
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
      // the endpoint's last answer tells whether it asks for a sign-in — unless the table's own
      // Authorization header is what it refuses (no sign-in could help: that is a plain failure)
      const watched = (async (input: string | URL | Request, init?: RequestInit) => {
        const res = await fetchImpl(input, init);
        if (!ownAuthorization && new URL(input instanceof Request ? input.url : input).href === url.href) challenged = asksForSignIn(res);
        return res;
      }) as typeof fetch;
      const authProvider = ctx.auth?.(settings, (p) => lib.auth(p as unknown as Parameters<Sdk["auth"]>[0], { serverUrl: url.href, fetchFn: fetchImpl }));
      provider = authProvider;
      const auth = authProvider ? { authProvider: authProvider as unknown as Parameters<Sdk["auth"]>[0] } : {};
      const requestInit = { headers: settings.headers };
      try {
        await client.connect(new lib.StreamableHTTP(url, { requestInit, fetch: watched, ...auth }), opts);
      } catch (e) {
        if (!(e instanceof lib.StreamableHTTPError) || !NOT_STREAMABLE.has(e.code ?? 0)) throw e;
        await client.close().catch(() => {});
        client = newClient();
        await client.connect(new lib.SSE(url, { requestInit, fetch: watched, ...auth }), opts);
      }
    }
    live = true;
    const tools = await listTools(client, settings.timeoutMs, signal);
    const prompts = client.getServerCapabilities()?.prompts ? await listPrompts(client, settings.timeoutMs, signal) : [];
    client.onclose = () => {
      if (!closing) hooks.onClose(exitReason(), stderr());
    };
    return connection(client, { tools, prompts }, lib, () => (closing = true));
  } catch (e) {
    closing = true;
    await client.close().catch(() => {});
    if (!signal.aborted && !ownAuthorization && (challenged || e instanceof lib.UnauthorizedError)) throw new ConnectError(authMessage(provider), "", true);
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

/** Every page of prompts/list. */
async function listPrompts(client: SdkClient, timeoutMs: number, signal: AbortSignal): Promise<McpPrompt[]> {
  const prompts: McpPrompt[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await client.listPrompts(cursor ? { cursor } : undefined, { timeout: timeoutMs, signal });
    for (const p of r.prompts)
      prompts.push({
        name: p.name,
        ...(p.description !== undefined ? { description: p.description } : {}),
        arguments: (p.arguments ?? []).map((a) => ({
          name: a.name,
          ...(a.description !== undefined ? { description: a.description } : {}),
          required: a.required === true,
        })),
      });
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return prompts;
}

/** Why a server is waiting for a sign-in: none yet, or the one hey had no longer works. */
function authMessage(provider: HeyOAuthProvider | undefined): string {
  return provider ? "hey's sign-in to it has run out and could not be refreshed" : "it answers HTTP 401 without one";
}

function toolOf(t: { name: string; description?: string; inputSchema: object }): McpTool {
  return { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), inputSchema: t.inputSchema as Record<string, unknown> };
}

function connection(client: SdkClient, lists: Pick<Connection, "tools" | "prompts">, lib: Sdk, onClosing: () => void): Connection {
  /** Any SDK failure as a CallError. */
  const failed = (e: unknown): CallError => {
    if (e instanceof lib.McpError && e.code === lib.ErrorCode.RequestTimeout) return new CallError("timeout", e.message);
    if (e instanceof lib.McpError && e.code === lib.ErrorCode.ConnectionClosed) return new CallError("closed", e.message);
    if (e instanceof lib.UnauthorizedError || (e instanceof lib.StreamableHTTPError && e.code === 401) || (e instanceof lib.SseError && e.code === 401))
      return new CallError("auth", "the server no longer accepts hey's sign-in, and it could not be refreshed");
    if (e instanceof Error && /not connected/i.test(e.message)) return new CallError("closed", e.message);
    return new CallError("failed", errorText(e));
  };
  return {
    ...lists,
    async call(name, args, { timeoutMs, signal }) {
      try {
        return (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs, signal })) as CallResult;
      } catch (e) {
        throw failed(e);
      }
    },
    async get(what, { timeoutMs, signal }): Promise<PromptResult | ResourceResult> {
      try {
        if ("prompt" in what) return await client.getPrompt({ name: what.prompt, arguments: what.args }, { timeout: timeoutMs, signal });
        return await client.readResource({ uri: what.resource }, { timeout: timeoutMs, signal });
      } catch (e) {
        throw failed(e);
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
  return errorText(e);
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
