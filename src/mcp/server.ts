// One MCP server's life (SPEC §14): connecting → connected, or failed (left out, with why), or
// auth_required (a remote server that wants a sign-in: left out until `hey mcp login`); a
// connected server that stops (a crash, an exit) is restarted lazily, once, on its next call; one
// that stops again is failed (its tools left out) until /reload — unless it had stayed up for
// RESTART_BACK_MS, which gives it its restart back. A remote server that is lost (out of
// reach) is connected again on its next call, every time it comes back: reaching it again is no
// crash loop. A call that times out is an error
// result and the server is kept. Pure: the connection is made by the `connect` it is given
// (client.ts, over stdio.ts or HTTP).
import type { McpServerSettings } from "../config/settings.ts";
import type { McpTool } from "./names.ts";
import type { McpPrompt, PromptResult, ResourceResult } from "./prompts.ts";
import type { CallResult } from "./results.ts";
import { type Progress, progressNote, totalCap } from "./progress.ts";
import { errorText } from "../kernel/errors.ts";
import { tokenRefused } from "./sent-token.ts";

/** How long a failed call waits for the server's exit to be seen, to tell a crash from a failure. */
const CLOSE_SETTLE_MS = 300;

/** A stopped server is restarted this many times (per /reload) before it is failed until /reload. */
export const MAX_RESTARTS = 1;
/** A local server that stays up this long before it stops has its restart back: a crash at 9:00 and one at 17:00 are no crash loop. */
export const RESTART_BACK_MS = 10 * 60_000;

/**
 * One request's limits: `timeoutMs` without a word from the server; a call's progress notices
 * (each passed to `onProgress`) extend it, up to `maxTotalMs` in all.
 */
export type RequestOpts = { timeoutMs: number; signal: AbortSignal; maxTotalMs?: number; onProgress?: (p: Progress) => void };

/** A live session with one server. */
export interface Connection {
  /** the tools listed when it connected */
  tools: McpTool[];
  /** its prompts (none when it offers no prompts) */
  prompts: McpPrompt[];
  /** what its `initialize` result told the model (`instructions`), when it said anything */
  instructions?: string;
  /** one `tools/call`; rejects with a CallError (never anything else) */
  call(name: string, args: Record<string, unknown>, opts: RequestOpts): Promise<CallResult>;
  /** `prompts/get` or `resources/read`; rejects with a CallError (never anything else) */
  get(what: Get, opts: RequestOpts): Promise<PromptResult | ResourceResult>;
  /** ends the session (and the process of a local server); never throws */
  close(): Promise<void>;
}

export interface ConnectHooks {
  /**
   * the session ended without close(): the process exited, or the remote server cannot be reached
   * or refuses hey's sign-in now (`auth`; `sent`: the access token it refused, undefined when none was sent); `stderr` is its tail
   */
  onClose(why: string, stderr: string, auth?: boolean, sent?: string): void;
  /** the server announced a new tool list, already fetched */
  onTools(tools: McpTool[]): void;
  /** a remote server answered 503 and is asked again after a wait: busy, or down */
  onBusy?(): void;
  /** the server asked hey for something hey does not support (`elicitation`, `sampling`); it was told so */
  onUnsupported?(capability: string): void;
}

/**
 * Starts a server and lists its tools. Rejects with a ConnectError. `signal` aborts the attempt
 * (the server is being closed): a process already started is stopped.
 */
export type Connect = (settings: McpServerSettings, hooks: ConnectHooks, signal: AbortSignal) => Promise<Connection>;

/** A prompt with its arguments, or a resource by its URI. */
export type Get = { prompt: string; args: Record<string, string> } | { resource: string };

/**
 * Why a server could not be connected; `stderr` is the tail of what it wrote there ("" for none);
 * `auth`: it answered 401 and asks for a sign-in (or its sign-in has run out).
 */
export class ConnectError extends Error {
  override name = "ConnectError";
  constructor(
    message: string,
    readonly stderr = "",
    readonly auth = false,
  ) {
    super(message);
  }
}

/** A failed call: it timed out (the server is kept), the session closed under it, the sign-in ran out, or anything else. */
export class CallError extends Error {
  override name = "CallError";
  constructor(
    readonly kind: "timeout" | "closed" | "auth" | "failed",
    message: string,
  ) {
    super(message);
  }
}

export type ServerState = "connecting" | "connected" | "failed" | "auth_required" | "stopped" | "closed";

export interface ServerStatus {
  name: string;
  state: ServerState;
  /** the live list once connected, else the cached one; undefined when there is neither */
  tools: McpTool[] | undefined;
  /** its prompts once connected */
  prompts?: McpPrompt[];
  /** its `instructions` for the model, when it gave any: live once connected, else cached with its list */
  instructions?: string;
  /** `tools` comes from the cache (the server has not answered yet in this run) */
  cached: boolean;
  /** why it failed, stopped or needs a sign-in */
  error?: string;
  /** the tail of its stderr when it failed or stopped */
  stderr?: string;
  /** still connecting, and its server has answered 503 (failing, not merely slow) */
  busy?: boolean;
  /** what it asked hey for in this run that hey does not support (`elicitation`, `sampling`) */
  unsupported?: string[];
  /** why its start failed in a recent run (mcp/store.ts failedLast; "" when not recorded): this run did not wait for it (set by the manager) */
  failedBefore?: string;
  /** when that start failed (milliseconds since the epoch), when recorded */
  failedAt?: number | undefined;
}

/** What a server reports to the manager; must not throw. */
export interface ServerEvents {
  /** `refused`, when it now waits for a sign-in: the access token the refused attempt sent (undefined: none, or not known) */
  changed(status: ServerStatus, refused?: string): void;
  /** a fresh list from the server (at connect or after a change notice): worth caching */
  listed(tools: McpTool[]): void;
  /** the server answered a call or a get: its sign-in works (a list at connect does not show that) */
  answered(): void;
}

export interface McpServer {
  readonly settings: McpServerSettings;
  status(): ServerStatus;
  /** starts connecting; a no-op unless it is failed, stopped, waiting for a sign-in or not started */
  start(): void;
  /** whether start() has been called (a server with a cached list may start later) */
  readonly started: boolean;
  /** settles when the current attempt has connected or failed; at once when none is running */
  settled(): Promise<void>;
  /** one tool call: the result, or the error text for the model; rejects only when `signal` aborts; `progress` hears the server's progress notices, in a few words */
  call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    progress?: (note: string) => void,
  ): Promise<{ result: CallResult } | { error: string }>;
  /** a prompt or a resource: the result, or the error text; rejects only when `signal` aborts */
  get(what: Get, signal: AbortSignal): Promise<{ result: PromptResult | ResourceResult } | { error: string }>;
  /** ends it for good; never throws */
  close(): Promise<void>;
}

/** `cached`: the tool list (and `instructions`) cached of this configuration, offered until the server has answered. */
export function createServer(
  settings: McpServerSettings,
  deps: {
    connect: Connect;
    cached: McpTool[] | undefined;
    instructions?: string | undefined;
    events: ServerEvents;
    /** while it waits for a sign-in: whether a new one was stored since (`hey mcp login` in a shell, another hey: sign-in-watch.ts) */
    signedInAgain?: () => boolean;
    now?: () => number;
  },
): McpServer {
  const now = deps.now ?? Date.now;
  const { name } = settings;
  const remote = settings.url !== undefined;
  let state: ServerState = "connecting";
  let started = false;
  let tools = deps.cached;
  let prompts: McpPrompt[] | undefined;
  let instructions = deps.cached ? deps.instructions : undefined;
  let cached = tools !== undefined;
  let connection: Connection | undefined;
  let attempt: Promise<void> = Promise.resolve();
  let error: string | undefined;
  let stderr: string | undefined;
  let restarts = 0;
  let upSince = 0; // when the current connection was made
  let spent = false; // failed because it stopped again after its restart
  let busy = false; // a 503 answered this start
  const closing = new AbortController();
  const waiters: (() => void)[] = []; // calls waiting for the next change of state
  const unsupported = new Set<string>();

  const status = (): ServerStatus => ({
    name,
    state,
    tools,
    cached,
    ...(prompts ? { prompts } : {}),
    ...(instructions ? { instructions } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(stderr ? { stderr } : {}),
    ...(busy && state === "connecting" ? { busy } : {}),
    ...(unsupported.size ? { unsupported: [...unsupported] } : {}),
  });
  const set = (next: ServerState, why?: { error: string; stderr: string }, refused?: string) => {
    state = next;
    error = why?.error;
    stderr = why?.stderr;
    for (const w of waiters.splice(0)) w();
    deps.events.changed(status(), refused);
  };
  /** Settles when `c` is no longer the connection (its close was reported), or after `ms`. */
  const gone = (c: Connection, ms: number) =>
    connection !== c
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });

  function start(): void {
    if (state === "closed" || (started && (state === "connecting" || state === "connected"))) return;
    if (state === "auth_required") restarts = 0; // a new sign-in: a fresh start
    started = true;
    state = "connecting";
    busy = false;
    let mine: Connection | undefined;
    let early: McpTool[] | undefined; // a list the server announced while it was still connecting: newer than the one connect brings
    const hooks: ConnectHooks = {
      onClose(why, tail, auth, sent) {
        if (!mine || connection !== mine || state === "closed") return; // a failure while connecting rejects connect instead
        connection = undefined;
        if (now() - upSince >= RESTART_BACK_MS) restarts = 0; // it ran well for a long while: this stop is no crash loop
        // a server hey will not restart is failed, as one that does not start: its tools leave the requests, and the model is told
        spent = !auth && restarts >= MAX_RESTARTS;
        if (spent) return set("failed", { error: `${why}; it stopped again after a restart, so it is not restarted again: /reload restarts it`, stderr: tail });
        set(auth ? "auth_required" : "stopped", { error: why, stderr: tail }, sent);
      },
      onBusy: () => void (busy = true),
      onUnsupported: (c) => void unsupported.add(c),
      onTools(list) {
        if (!mine && state === "connecting") early = list;
        if (!mine || connection !== mine || state === "closed") return;
        tools = list;
        deps.events.listed(list);
      },
    };
    attempt = deps.connect(settings, hooks, closing.signal).then(
      (c) => {
        if (state === "closed") return void c.close();
        mine = c;
        connection = c;
        upSince = now();
        spent = false;
        // a remote server reached again is well again: losing it later is no crash loop
        if (remote) restarts = 0;
        tools = early ?? c.tools;
        prompts = c.prompts;
        instructions = c.instructions?.trim() || undefined;
        cached = false;
        set("connected");
        deps.events.listed(tools);
      },
      (e: unknown) => {
        if (state === "closed") return;
        const auth = e instanceof ConnectError && e.auth;
        set(auth ? "auth_required" : "failed", { error: errorText(e), stderr: e instanceof ConnectError ? e.stderr : "" }, tokenRefused(e));
      },
    );
  }

  /** A connection to call through, or the error text for the model; `progress` is told while the server starts. */
  async function ready(signal: AbortSignal, progress?: (note: string) => void): Promise<Connection | string> {
    if (!started) start();
    if (state === "stopped") {
      restarts++;
      start();
    }
    if (state === "auth_required" && deps.signedInAgain?.()) start(); // signed in elsewhere since: the new sign-in is used now
    if (state === "connecting") {
      progress?.(`waiting for MCP server ${name} to start`); // a slow start is no hung call
      // for timeout_ms at most: a start takes up to timeout_ms for each of its steps (a legacy SSE
      // start, initialize, each list), and a call waits no longer than a call to it may take
      await abortable(within(attempt, settings.timeoutMs), signal);
      if (state === "connecting")
        return `MCP server ${name} is still starting after ${settings.timeoutMs / 1000} s ([mcp.${name}] timeout_ms); try again later`;
    }
    if (state === "connected" && connection) return connection;
    if (state === "closed") return `MCP server ${name} was closed (/reload replaced it)`;
    if (state === "auth_required") return signInText(name, error);
    const tail = stderr ? `\n${stderr}` : "";
    if (spent) return `MCP server ${name} stopped again (${error})${tail}`;
    if (restarts > 0 && remote) return `MCP server ${name} was lost and could not be reconnected: ${error}; /reload connects again${tail}`;
    if (restarts > 0) return `MCP server ${name} stopped and could not be restarted: ${error}; fix it, then /reload${tail}`;
    return `MCP server ${name} is not available: ${error}; fix its configuration, then /reload${tail}`;
  }

  /** One request through a ready connection; every failure becomes the text the model (or the user) reads. */
  async function request<T>(
    signal: AbortSignal,
    send: (c: Connection) => Promise<T>,
    what: string,
    progress?: (note: string) => void,
  ): Promise<{ ok: T } | { error: string }> {
    const c = await ready(signal, progress);
    if (typeof c === "string") return { error: c };
    try {
      const ok = await send(c);
      deps.events.answered();
      return { ok };
    } catch (e) {
      if (signal.aborted) throw e;
      const err = e instanceof CallError ? e : new CallError("failed", String(e));
      if (err.kind === "timeout") {
        // the SDK's words for the cap on a call that kept reporting progress (its only RequestTimeout that is not the plain one)
        const capped = /maximum total timeout/i.test(err.message);
        const limit = capped
          ? `${totalCap(settings) / 1000} s in all ([mcp.${name}] max_timeout_ms)`
          : `${settings.timeoutMs / 1000} s ([mcp.${name}] timeout_ms)`;
        return { error: `${what} timed out after ${limit}; the server is still running and may finish it in the background` };
      }
      if (err.kind === "auth") {
        // the sign-in ran out and could not be refreshed: the server waits for a new one
        if (connection === c) connection = undefined;
        void c.close();
        set("auth_required", { error: err.message, stderr: "" }, tokenRefused(err));
        return { error: signInText(name, err.message) };
      }
      // A call that hits a server as it dies may fail on the write (EPIPE) a moment before the
      // exit is seen: wait briefly for it, so the model reads the same message either way.
      if (err.kind === "closed") await gone(c, CLOSE_SETTLE_MS);
      if (err.kind === "closed" || connection !== c) {
        const why = connection !== c && error ? error : "the connection closed";
        if (remote) return { error: `MCP server ${name} was lost during the call (${why}); hey connects again on the next call` };
        if (spent) return { error: `MCP server ${name} stopped again during the call (${why})` }; // its error says it is not restarted
        const next = restarts < MAX_RESTARTS ? "it is restarted on the next call" : "/reload restarts it";
        return { error: `MCP server ${name} stopped during the call (${why}); ${next}` };
      }
      return { error: `${what} failed: ${err.message}` };
    }
  }

  return {
    settings,
    status,
    start,
    get started() {
      return started;
    },
    settled: () => attempt,
    async call(tool, args, signal, progress) {
      const onProgress = (p: Progress) => progress?.(progressNote(p));
      const opts = { timeoutMs: settings.timeoutMs, maxTotalMs: totalCap(settings), signal, onProgress };
      const r = await request(signal, (c) => c.call(tool, args, opts), tool, progress);
      return "error" in r ? r : { result: r.ok };
    },
    async get(what, signal) {
      const label = "prompt" in what ? `prompt ${what.prompt}` : `resource ${what.resource}`;
      const r = await request(signal, (c) => c.get(what, { timeoutMs: settings.timeoutMs, signal }), label);
      return "error" in r ? r : { result: r.ok };
    },
    async close() {
      if (state === "closed") return;
      const c = connection;
      connection = undefined;
      state = "closed";
      closing.abort();
      await Promise.all([c?.close(), attempt]);
    },
  };
}

/** `p`, or a rejection as soon as `signal` aborts. */
export function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Settles when `p` does (rejects when it rejects), or after `ms` (its timer cleared, so it holds no exit back). */
export async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

/**
 * What a call reads while a server waits for a sign-in. Only the user signs in: the sign-in opens
 * their browser, and run by the agent it would hang its command until it timed out (x115 #2).
 */
export function signInText(server: string, why: string | undefined): string {
  return `MCP server ${server} needs a sign-in${why ? ` (${why})` : ""}: the user signs in with /mcp login ${server}; do not run it (or hey mcp login) yourself: ask the user to, then call again`;
}
