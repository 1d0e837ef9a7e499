// The MCP client (SPEC §14): the only file that touches @modelcontextprotocol/sdk, and only
// through import(), so neither `hey --version` nor a run without servers loads it. A server with
// `command` runs over our stdio transport (stdio.ts); one with `url` over Streamable HTTP through
// hey's proxied fetch (so [proxy], NO_PROXY and the CA settings apply), with 503s retried, and over
// the legacy SSE transport when the server rejects Streamable HTTP. A remote server hey has a
// sign-in for gets the SDK's client auth with hey's OAuthClientProvider (oauth.ts); a 401 with
// `WWW-Authenticate` that no token answers (or an auth layer's error for hey's token, when the
// server asks for one without it) makes the server "auth required" rather than failed. A remote
// session the server lost is opened again (connectRemote). SDK errors become ConnectError /
// CallError here, with the server's stderr tail where there is one. What a server sends unasked
// (tool list changes, roots/list, elicitation, sampling) is answered as answers.ts says.
import type { McpServerSettings } from "../config/settings.ts";
import { boundedBodies, retrying503 } from "./http-retry.ts";
import { sleep } from "../kernel/sleep.ts";
import { signInMessage, Unreachable } from "./http-faults.ts";
import { rootProbe } from "../fs/root-probe.ts";
import { capabilityOf, LIST_WAIT_MS, type ListWatch, rootsOf, serverRoots, unsupported, watchList, withListNote, withRootsNote } from "./answers.ts";
import { listBoth, listTools } from "./lists.ts";
import type { HeyOAuthProvider } from "./oauth.ts";
import { requestOptions } from "./progress.ts";
import { refusedToken } from "./refused-token.ts";
import { refusing, watchAnswers } from "./sent-token.ts";
import { callError, connectMessage, sessionLost } from "./sdk-failures.ts";
import { boundedStart } from "./sse-start.ts";
import { toolPage } from "./tool-list.ts";
import type { PromptResult, ResourceResult } from "./prompts.ts";
import type { CallResult } from "./results.ts";
import { abortable, CallError, ConnectError, type Connection, type ConnectHooks, within } from "./server.ts";
import { childEnv, CommandNotFound, MAX_MESSAGE_BYTES, NoiseError, StdioTransport } from "./stdio.ts";

export interface ClientContext {
  /** hey's version, sent in `initialize` */
  version: string;
  /** hey's environment: the allow-listed part reaches stdio servers */
  env: Record<string, string | undefined>;
  /** the proxied fetch remote servers are reached through */
  fetch: typeof fetch;
  /** the directories named to servers as hey's roots (roots/list): the project root */
  roots?: string[];
  /** the OAuth provider of a remote server hey has a sign-in for (undefined: none, or the server's headers carry its own Authorization) */
  auth?(settings: McpServerSettings, refresh: (p: HeyOAuthProvider) => Promise<unknown>): HeyOAuthProvider | undefined;
}

/** Status codes with which a server says it does not speak Streamable HTTP (the SDK's fallback advice). */
const NOT_STREAMABLE = new Set([400, 404, 405]);
/** How long a local server that wrote a line that is no JSON-RPC has to answer all the same (ms). */
const NOISE_GRACE_MS = 1_500;
/** How long a server that asked for hey's roots while starting has to take them in before its first call goes (ms). */
export const ROOTS_SETTLE_MS = 300;

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
    Result: types.ResultSchema, // any result, read by hey (tool-list.ts)
    ToolsChanged: types.ToolListChangedNotificationSchema,
    ListRoots: types.ListRootsRequestSchema,
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

type SdkClient = InstanceType<Sdk["Client"]>;

/** Connects to one server and lists its tools. Rejects with a ConnectError. */
export async function connectServer(settings: McpServerSettings, hooks: ConnectHooks, ctx: ClientContext, signal: AbortSignal): Promise<Connection> {
  const lib = await sdk();
  if (signal.aborted) throw new ConnectError("closed before it started");
  return settings.command !== undefined ? connectLocal(settings, hooks, ctx, signal, lib) : connectRemote(settings, hooks, ctx, signal, lib);
}

/** The tool list of each SDK client, as its server's notices keep it (answers.ts). */
const watches = new WeakMap<object, ListWatch>();
/** The SDK clients whose server has asked for hey's roots (roots/list). */
const rootsAsked = new WeakSet<object>();
/** Those that asked, and were named none (answers.ts projectRoots): hey runs where its own files are. */
const rootless = new WeakSet<object>();

/**
 * The SDK client of hey: it declares roots and answers with `ctx.roots`; a new tool list is given to
 * `hooks` while `inUse` says this client is still the one in use. tools/list is read tool by tool (tool-list.ts).
 */
function newClient(lib: Sdk, ctx: ClientContext, hooks: ConnectHooks, limits: { timeoutMs: number; signal: AbortSignal }, inUse: (c: SdkClient) => boolean) {
  const client: SdkClient = new lib.Client({ name: "hey", version: ctx.version }, { capabilities: { roots: {} } });
  const list = watchList(
    () => listTools(client, limits.timeoutMs, limits.signal),
    (tools) => inUse(client) && hooks.onTools(tools),
  );
  watches.set(client, list);
  client.setNotificationHandler(lib.ToolsChanged, () => void (inUse(client) && list.changed()));
  client.setRequestHandler(lib.ListRoots, () => {
    rootsAsked.add(client);
    if (!ctx.roots?.length) rootless.add(client); // its calls' errors say why (withRootsNote)
    return rootsOf(ctx.roots ?? []);
  });
  client.fallbackRequestHandler = async (r) => {
    hooks.onUnsupported?.(capabilityOf(r.method));
    throw Object.assign(new Error(unsupported(r.method)), { code: lib.ErrorCode.MethodNotFound }); // not McpError: its message would start "MCP error -32601: "
  };
  client.listTools = async (params, options) => toolPage(await client.request({ method: "tools/list", params }, lib.Result, options), client);
  return client;
}

/** A local server: its process over our stdio transport. */
async function connectLocal(settings: McpServerSettings, hooks: ConnectHooks, ctx: ClientContext, signal: AbortSignal, lib: Sdk): Promise<Connection> {
  let live = false;
  let closing = false;
  // an argument that is no path at all (ENAMETOOLONG, ENOTDIR, EACCES) is no directory: no root of the server's
  const roots = serverRoots(settings, ctx.roots ?? [], { cwd: process.cwd(), home: ctx.env.HOME, isDir: rootProbe.isDir });
  const client = newClient(lib, { ...ctx, roots }, hooks, { timeoutMs: settings.timeoutMs, signal }, () => true);
  const transport = new StdioTransport(
    { command: settings.command!, args: settings.args, env: settings.env, cwd: settings.cwd },
    childEnv(ctx.env, settings.env),
  );
  const onAbort = () => void transport.close();
  signal.addEventListener("abort", onAbort, { once: true });
  const exitReason = () => transport.exitReason ?? "the connection closed";
  try {
    let noise: (e: Error) => void = () => {};
    const noisy = new Promise<never>((_, reject) => (noise = reject));
    noisy.catch(() => {});
    // a line that is no JSON-RPC before it answers (a banner): used if it answers soon, as other clients do, else not waited on
    let grace: Timer | undefined;
    transport.onerror = (e) => {
      if (e instanceof NoiseError && !live && !grace) grace = setTimeout(() => noise(e), NOISE_GRACE_MS);
    };
    await Promise.race([client.connect(transport, { timeout: settings.timeoutMs, signal }), noisy]).finally(() => clearTimeout(grace));
    live = true;
    const lists = await listBoth(client, settings.timeoutMs, signal);
    client.onclose = () => {
      if (!closing) hooks.onClose(exitReason(), transport.stderrTail());
    };
    // a server that asked for hey's roots while starting takes them in when it has read the answer, in its
    // own time (server-filesystem checks each directory first): a call sent at once would find it rootless
    const rootsSettle = rootsAsked.has(client) ? Date.now() + ROOTS_SETTLE_MS : 0;
    const send = async <T>(req: (c: SdkClient) => Promise<T>): Promise<T> => {
      if (Date.now() < rootsSettle) await sleep(rootsSettle - Date.now(), signal).catch(() => {});
      try {
        return await req(client);
      } catch (e) {
        throw callError(e, lib);
      }
    };
    return connection(settings, lists, send, async () => {
      closing = true;
      await client.close().catch(() => {});
    });
  } catch (e) {
    closing = true;
    await client.close().catch(() => {});
    // a command that is not there is the table's fault: where it is written, as /reload says it
    const why = e instanceof CommandNotFound ? `${settings.at} ${e.message}` : connectMessage(e, lib, exitReason());
    throw new ConnectError(signal.aborted ? "closed while starting" : why, transport.stderrTail());
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** One session with a remote server: its client, the Streamable HTTP transport (none over legacy SSE), its lists. */
interface Session extends Pick<Connection, "tools" | "prompts" | "instructions"> {
  client: SdkClient;
  http: InstanceType<Sdk["StreamableHTTP"]> | undefined;
}

/** How long closing waits for a remote server to end hey's session (HTTP DELETE) before it goes anyway. */
export const END_SESSION_WAIT_MS = 1_000;

/**
 * A remote server, over Streamable HTTP through hey's proxied fetch (or the legacy SSE transport
 * when the server rejects it). Its session can end under hey: a server that restarted answers the
 * old session's requests 404 (the spec: the client starts a new session) — hey initializes again,
 * and the request is sent once more, the user none the wiser. A server that cannot be reached
 * any more, or whose event stream dropped and would not come back, is lost: `hooks.onClose` says
 * why, and the next call connects again (server.ts). Closing ends the session on the server.
 */
async function connectRemote(settings: McpServerSettings, hooks: ConnectHooks, ctx: ClientContext, signal: AbortSignal, lib: Sdk): Promise<Connection> {
  const url = new URL(settings.url!);
  const ownAuthorization = Object.keys(settings.headers).some((h) => h.toLowerCase() === "authorization");
  // a wait between 503s ends when hey closes the server: no request is out then, so no session to end
  const wait = (ms: number, s?: AbortSignal | null) => (hooks.onBusy?.(), sleep(ms, s ? AbortSignal.any([s, signal]) : signal));
  const fetchImpl = boundedBodies(retrying503(ctx.fetch as Parameters<typeof retrying503>[0], wait), MAX_MESSAGE_BYTES) as typeof fetch;
  const answers = watchAnswers(fetchImpl, url, signal, ownAuthorization); // whether the endpoint asks for a sign-in, and the token it refused
  const watched = answers.fetch;
  const provider = ctx.auth?.(settings, (p) => lib.auth(p as unknown as Parameters<Sdk["auth"]>[0], { serverUrl: url.href, fetchFn: fetchImpl }));
  const auth = provider ? { authProvider: provider as unknown as Parameters<Sdk["auth"]>[0] } : {};
  const requestInit = { headers: settings.headers };
  let legacy = false; // the server wants the legacy SSE transport
  let current: Session | undefined;
  let closing = false;
  let renewing: Promise<void> | undefined;

  /** A new session: initialize, then the tools and prompts. */
  const open = async (): Promise<Session> => {
    // not the signal: an initialize on its way when hey closes is let finish, so its session can be ended
    const opts = { timeout: settings.timeoutMs };
    let connecting: Promise<unknown> = Promise.resolve();
    const connect = (c: SdkClient, transport: Parameters<SdkClient["connect"]>[0]) => {
      const p = c.connect(transport, opts);
      connecting = p.catch(() => {});
      return abortable(p, signal);
    };
    [answers.challenged, answers.sent] = [false, undefined]; // what the last session was refused is not this one's
    const inUse = (c: SdkClient) => (current ?? { client: c }).client === c; // the first session's notices count while it opens
    const limits = { timeoutMs: settings.timeoutMs, signal };
    let client = newClient(lib, ctx, hooks, limits, inUse);
    let http: Session["http"];
    try {
      if (!legacy) {
        http = new lib.StreamableHTTP(url, { requestInit, fetch: watched, ...auth });
        try {
          await connect(client, http);
        } catch (e) {
          if (!(e instanceof lib.StreamableHTTPError) || !NOT_STREAMABLE.has(e.code ?? 0)) throw e;
          await client.close().catch(() => {});
          [client, http, legacy] = [newClient(lib, ctx, hooks, limits, inUse), undefined, true];
        }
      }
      if (legacy) await connect(client, boundedStart(new lib.SSE(url, { requestInit, fetch: watched, ...auth }), settings));
      const session: Session = { client, http, ...(await listBoth(client, settings.timeoutMs, signal)) };
      client.onclose = () => {
        if (inUse(client)) lost("the connection closed");
      };
      // the event stream the server's notices come on dropped and would not come back (over legacy
      // SSE: dropped at all — the session lives on that stream, and the SDK's reconnection would post
      // to a session the server never initialized): the server restarted or is gone
      client.onerror = (e) => {
        if (inUse(client) && (/^Maximum reconnection attempts/.test(e.message) || (legacy && e instanceof lib.SseError))) renew(client).catch(() => {});
      };
      return session;
    } catch (e) {
      // closed while initialize was on its way: the server may be making a session, which its answer names
      if (signal.aborted) await within(connecting, END_SESSION_WAIT_MS);
      await endSession({ client, http }); // one that failed (or was closed) after initialize has a session there already
      throw e;
    }
  };
  /** Why opening a session failed, as a ConnectError. */
  const refused = async (e: unknown): Promise<ConnectError> => {
    if (signal.aborted) return new ConnectError("closed while starting");
    if (!ownAuthorization && (answers.challenged || e instanceof lib.UnauthorizedError))
      return refusing(new ConnectError(signInMessage(provider !== undefined), "", true), answers.sent);
    const revoked = await refusedSignIn(e);
    if (revoked) return refusing(new ConnectError(revoked, "", true), answers.sent);
    return new ConnectError(connectMessage(e, lib, "the connection closed"));
  };
  /** Whether `e` is the server's auth layer refusing hey's token with something else than 401 (refused-token.ts): the reason, or undefined. */
  const refusedSignIn = async (e: unknown): Promise<string | undefined> => {
    if (!provider || ownAuthorization || !(e instanceof lib.StreamableHTTPError) || e.code === 401) return undefined;
    let probed: string | undefined;
    const token = async () => (probed = (await provider.tokens())?.access_token);
    const why = await refusedToken({ code: e.code ?? 0, message: e.message }, { url, headers: settings.headers, token, send: fetchImpl, signal });
    if (why) answers.sent = probed; // the token the probe saw refused the same way: what the refusal is of
    return why;
  };
  /** The connection is gone: the next call connects again. */
  const lost = (why: string, auth = false) => {
    if (closing) return;
    closing = true;
    void current?.client.close().catch(() => {});
    hooks.onClose(why, "", auth, auth ? answers.sent : undefined);
  };
  /** A new session in place of `stale` (shared by the requests that found it gone); rejects with a CallError. */
  const renew = (stale: SdkClient): Promise<void> => {
    if (closing) return Promise.reject(new CallError("closed", "the connection closed"));
    if (current?.client !== stale) return Promise.resolve();
    renewing ??= (async () => {
      try {
        const next = await open();
        if (closing) return void (await endSession(next)); // lost or closed meanwhile
        const old = current!;
        current = next; // first: the old client's close is then no loss
        void old.client.close().catch(() => {});
        hooks.onTools(next.tools); // a server that restarted may have another list
      } catch (e) {
        const why = await refused(e);
        lost(why.message, why.auth);
        throw refusing(new CallError(why.auth ? "auth" : "closed", why.message), why.auth ? answers.sent : undefined);
      } finally {
        renewing = undefined;
      }
    })();
    return renewing;
  };
  /** A request's failure as a CallError; one that says the server is out of reach loses the connection. */
  const failure = async (e: unknown): Promise<CallError> => {
    if (e instanceof Unreachable) {
      lost(e.message);
      return new CallError("closed", e.message);
    }
    const revoked = await refusedSignIn(e);
    const error = revoked ? new CallError("auth", revoked) : callError(e, lib);
    return error.kind === "auth" ? refusing(error, answers.sent) : error;
  };
  const notRenewed = () => new CallError("failed", "the server restarted and has not opened hey's new session within timeout_ms; try again");
  const send = async <T>(req: (c: SdkClient) => Promise<T>): Promise<T> => {
    // a session being replaced takes no requests; timeout_ms at most (a legacy event stream may never name
    // its endpoint, and the SDK's start has no limit), then the call fails unsent: the old session is gone
    if (renewing) await within(renewing, settings.timeoutMs).catch(() => {});
    if (renewing) throw notRenewed();
    const c = current!.client;
    try {
      return await req(c);
    } catch (e) {
      if (closing || !sessionLost(e, lib)) throw await failure(e);
    }
    await within(renew(c), settings.timeoutMs); // the same bound for a call its old session turned away
    if (renewing) throw notRenewed();
    try {
      return await req(current!.client);
    } catch (e) {
      throw await failure(e);
    }
  };

  try {
    current = await open();
  } catch (e) {
    closing = true;
    throw await refused(e);
  }
  return connection(settings, current, send, async () => {
    closing = true;
    await renewing?.catch(() => {});
    await endSession(current!);
  });
}

/** Ends a remote session: the server is told (DELETE), for at most END_SESSION_WAIT_MS, then the client closes. */
async function endSession(s: Pick<Session, "client" | "http">): Promise<void> {
  if (s.http?.sessionId)
    await within(
      s.http.terminateSession().catch(() => {}),
      END_SESSION_WAIT_MS,
    );
  await s.client.close().catch(() => {});
}

/**
 * The calls of a connection, each through `send` (every failure a CallError); a result is read by
 * results.ts, not the SDK's types. A call returns once a tool list its server changed meanwhile is read.
 */
function connection(
  settings: McpServerSettings,
  lists: Pick<Connection, "tools" | "prompts" | "instructions">,
  send: <T>(req: (c: SdkClient) => Promise<T>) => Promise<T>,
  close: () => Promise<void>,
): Connection {
  const wait = Math.min(LIST_WAIT_MS, settings.timeoutMs);
  return {
    tools: lists.tools,
    prompts: lists.prompts,
    ...(lists.instructions ? { instructions: lists.instructions } : {}),
    call: (name, args, opts) =>
      send(async (c) => {
        const called = (await c.callTool({ name, arguments: args }, (await sdk()).Result as never, requestOptions(opts))) as CallResult;
        const r = called.isError && rootless.has(c) ? withRootsNote(called, settings.name) : called;
        return (await watches.get(c)?.settled(wait)) === false ? withListNote(r, settings.name, wait) : r;
      }),
    get: (what, { timeoutMs, signal }): Promise<PromptResult | ResourceResult> =>
      send<PromptResult | ResourceResult>((c) =>
        "prompt" in what
          ? c.getPrompt({ name: what.prompt, arguments: what.args }, { timeout: timeoutMs, signal })
          : c.readResource({ uri: what.resource }, { timeout: timeoutMs, signal }),
      ),
    close,
  };
}
