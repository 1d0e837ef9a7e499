// Signing in to a remote MCP server (issue 27: `hey mcp login NAME`, `/mcp login NAME`) through the
// SDK's client auth: a first request reads the server's 401 challenge; the SDK discovers the
// authorization server (RFC 9728, RFC 8414), registers hey (RFC 7591) unless the table gives a
// client_id, and builds the PKCE authorization URL; hey prints it, opens the browser on it, and
// waits for the redirect on a listener of its own on 127.0.0.1 (the port of the earlier
// registration when it is free, else a random one); the SDK exchanges the code for tokens, which
// the credential store keeps. A failure or a cancel names the step it happened in.
import type { McpServerSettings } from "../config/settings.ts";
import { browserCommands } from "./browser.ts";
import { oauthSdk } from "./client.ts";
import type { CredentialStore } from "./credentials.ts";
import { agentSignIn } from "../agent-mark.ts";
import { asksForSignIn, initializeBody, Unreachable } from "./http-faults.ts";
import { createOAuthProvider, registeredPort, stillSignedIn, type HeyOAuthProvider, type Step } from "./oauth.ts";

/** How long a sign-in waits for the browser to come back. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** A browser command that has not failed by then is taken to have opened the page. */
const BROWSER_GRACE_MS = 700;
const CALLBACK_PATH = "/callback";

export interface SignInDeps {
  store: CredentialStore;
  /** the run's proxied fetch */
  fetch: typeof fetch;
  env: Record<string, string | undefined>;
  /** one line (or block) for the user, as the sign-in goes */
  print(text: string): void;
  /** Ctrl-C: the sign-in stops where it is */
  signal: AbortSignal;
  timeoutMs?: number;
  /**
   * the server's state in this hey (`auth_required`: it refused the stored sign-in or has none),
   * read when a sign-in is cancelled; absent in `hey mcp login`, which runs no server
   */
  state?: () => string | undefined;
}

/** How a sign-in ended. `step`: where it failed or was cancelled. */
export type SignInOutcome = { ok: true; text: string } | { ok: false; step: Step | "start"; text: string };

/** The word for a step in messages. */
const AT: Record<Step | "start", string> = {
  start: "before it started",
  discovery: "at discovery (finding the server's authorization server)",
  "client registration": "at client registration (registering hey with the authorization server)",
  "authorization request": "at the authorization request (building the sign-in URL)",
  "browser sign-in": "at the browser sign-in (waiting for the browser to come back)",
  "token exchange": "at the token exchange (trading the sign-in code for tokens)",
};

export async function signIn(s: McpServerSettings, deps: SignInDeps): Promise<SignInOutcome> {
  const fail = (step: Step | "start", why: string): SignInOutcome => ({
    ok: false,
    step,
    text: `sign-in to ${s.name} ${deps.signal.aborted ? "cancelled" : "failed"} ${AT[step]}: ${why}`,
  });
  if (!s.url) return fail("start", `[mcp.${s.name}] is a local server (command); only remote servers (url) sign in`);
  if (Object.keys(s.headers).some((h) => h.toLowerCase() === "authorization"))
    return fail("start", `[mcp.${s.name}] headers set an Authorization of their own, which would replace the sign-in's token; remove it to sign in`);
  const url = s.url;
  const sdk = await oauthSdk();
  deps.print(`Signing in to MCP server ${s.name} at ${url}`);
  const listener = listen(registeredPort(deps.store.read(url)));
  const fetchFn = abortable(deps.fetch, deps.signal);
  let provider: HeyOAuthProvider | undefined;
  let step: Step = "discovery";
  /** One run of the flow; `reuse`: an earlier registration may be used (false once the authorization server has forgotten it). */
  const attempt = async (reuse: boolean): Promise<SignInOutcome> => {
    step = "discovery";
    // the registration this sign-in starts with, when it is one hey made earlier (not the table's client_id)
    const earlier = s.oauthClient || !reuse ? undefined : deps.store.read(url)?.client?.client_id;
    const current: HeyOAuthProvider = createOAuthProvider({
      url,
      store: deps.store,
      ...(s.oauthClient ? { client: s.oauthClient } : {}),
      now: Date.now,
      signIn: {
        redirectUrl: `http://127.0.0.1:${listener.port}${CALLBACK_PATH}`,
        state: listener.state,
        open: async (authorizationUrl) => {
          if (earlier !== undefined && authorizationUrl.searchParams.get("client_id") === earlier) await checkRegistration(authorizationUrl, fetchFn);
          await sendToBrowser(s, authorizationUrl, listener.port, deps);
        },
      },
    });
    provider = current;
    const challenge = await probe(url, s.headers, fetchFn);
    if ("open" in challenge) return { ok: true, text: `MCP server ${s.name} answered without asking for a sign-in (HTTP ${challenge.open}); nothing to do` };
    const where = {
      serverUrl: url,
      fetchFn,
      ...(challenge.scope ? { scope: challenge.scope } : {}),
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    };
    const first = await sdk.auth(current, where);
    step = current.step;
    if (first !== "REDIRECT") return done(s, deps);
    const code = await waitFor(listener.result, deps.signal, deps.timeoutMs ?? SIGN_IN_TIMEOUT_MS);
    step = "token exchange";
    await sdk.auth(current, { ...where, authorizationCode: code });
    return done(s, deps);
  };
  try {
    try {
      return await attempt(true);
    } catch (e) {
      if (!(e instanceof ForgottenRegistration)) throw e;
      // the registration is dead: a new one, as on the first sign-in
      await deps.store.locked(url, async () => {
        const c = deps.store.read(url);
        if (c) await deps.store.write({ url: c.url, ...(c.discovery ? { discovery: c.discovery } : {}), ...(c.tokens ? { tokens: c.tokens } : {}) });
      });
      deps.print(`  ${e.message}: registering hey again`);
      return await attempt(false);
    }
  } catch (e) {
    return fail(
      step === "discovery" ? (provider?.step ?? step) : step,
      deps.signal.aborted ? `Ctrl-C; ${cancelledNote(s.name, deps.state?.(), stillSignedIn(deps.store.read(url)?.tokens, Date.now()))}` : messageOf(e),
    );
  } finally {
    listener.stop();
  }
}

/**
 * What a cancelled sign-in leaves, judged by the server when hey runs it (`state`): one waiting for
 * a sign-in refused what is stored (revoked, the server restarted), however unexpired it looks;
 * a connected one keeps its session and its tools, whatever the file holds (a token run out with
 * no refresh_token). Without a server (`hey mcp login` in a shell) only the file is known:
 * `stored`, a token that has not run out or can be refreshed, is said as stored, not as one the
 * server takes. Pure.
 */
export function cancelledNote(name: string, state: string | undefined, stored: boolean): string {
  if (state === "connected")
    return stored
      ? "the earlier sign-in still holds"
      : `${name} stays connected, its tools offered; the stored sign-in has run out, so its next connection will ask for one`;
  if (state === "auth_required" || !stored) return `not signed in: ${name} stays signed out, its tools left out`;
  return "the earlier sign-in is still stored; whether the server takes it is not known";
}

/** The authorization server does not know the registration hey kept (it restarted, or dropped it). */
class ForgottenRegistration extends Error {
  override name = "ForgottenRegistration";
}

/**
 * Before the user is sent to sign in with a registration hey made earlier: asks for the
 * authorization page itself. An authorization server refuses an unknown client_id there with an
 * error page and never redirects back (RFC 6749 §4.1.2.1), so a browser sent there would show the
 * error and hey would wait for nothing; a 4xx is taken for that, and throws ForgottenRegistration.
 * A page, a redirect to a login, or no answer: the browser goes as usual.
 */
async function checkRegistration(authorizationUrl: URL, fetchFn: typeof fetch): Promise<void> {
  const res = await fetchFn(authorizationUrl, { redirect: "manual" }).catch(() => undefined);
  if (!res || res.status < 400 || res.status >= 500) return void (await res?.body?.cancel().catch(() => {}));
  const text = await res.text().catch(() => "");
  let code = "";
  try {
    const o = JSON.parse(text) as { error?: unknown };
    if (typeof o.error === "string") code = ` ${o.error}`;
  } catch {}
  throw new ForgottenRegistration(`the authorization server no longer knows hey's registration (HTTP ${res.status}${code})`);
}

/**
 * `/mcp login NAME` and `/mcp logout NAME` inside hey: the same as from the shell, then the running
 * server starts again, with the new sign-in (or, after a logout, without one).
 */
export async function authCommand(
  verb: "login" | "logout",
  name: string,
  deps: SignInDeps & { servers: readonly McpServerSettings[]; restart(name: string): Promise<boolean> },
): Promise<{ ok: boolean; text: string }> {
  const agent = agentSignIn(deps.env, verb, name);
  if (agent) return { ok: false, text: `hey: ${agent}` };
  const s = deps.servers.find((x) => x.name === name);
  if (!s)
    return {
      ok: false,
      text: `hey: no [mcp.${name}] table; remote servers configured: ${
        deps.servers
          .filter((x) => x.url)
          .map((x) => x.name)
          .join(", ") || "none"
      }`,
    };
  const r = verb === "login" ? await signIn(s, deps) : signOut(s, deps.store);
  if (!r.ok) return { ok: false, text: `hey: ${r.text}` };
  if (s.enabled) await deps.restart(name); // its connected (or auth required) line follows
  return { ok: true, text: r.text };
}

/** `hey mcp logout NAME`: forgets the sign-in of the server's URL. */
export function signOut(s: McpServerSettings, store: CredentialStore): { ok: boolean; text: string } {
  if (!s.url) return { ok: false, text: `[mcp.${s.name}] is a local server (command); only remote servers (url) sign in` };
  const path = store.pathOf(s.url);
  return store.remove(s.url)
    ? { ok: true, text: `signed out of ${s.name}: removed ${path} (the server may still list hey as a client; its own settings can revoke it)` }
    : { ok: true, text: `not signed in to ${s.name}; nothing to remove` };
}

function done(s: McpServerSettings, deps: SignInDeps): SignInOutcome {
  const tokens = deps.store.read(s.url!)?.tokens;
  if (!tokens) return { ok: false, step: "token exchange", text: `sign-in to ${s.name} failed at the token exchange: no tokens came back` };
  const left = tokens.expires_at === undefined ? "it does not say when it expires" : `it expires in ${duration(tokens.expires_at - Date.now())}`;
  const refresh = tokens.refresh_token
    ? "hey refreshes it before then"
    : tokens.expires_at === undefined
      ? ""
      : "the server gave no refresh token: sign in again then";
  const home = deps.env.HOME;
  const path = deps.store.pathOf(s.url!);
  const shown = home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
  return { ok: true, text: `Signed in to ${s.name}. The token is kept in ${shown} (0600); ${left}${refresh ? `, and ${refresh}` : ""}.` };
}

/** One request without a token: its 401 challenge (scope, resource metadata), or `open` when the server does not ask. */
async function probe(
  url: string,
  headers: Record<string, string>,
  fetchFn: typeof fetch,
): Promise<{ scope?: string; resourceMetadataUrl?: URL } | { open: number }> {
  const body = initializeBody("sign-in");
  let res: Response;
  try {
    res = await fetchFn(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    });
  } catch (e) {
    throw new Unreachable(new URL(url), e); // as a run says it
  }
  await res.body?.cancel().catch(() => {});
  if (res.ok) return { open: res.status };
  if (!asksForSignIn(res)) return {}; // no challenge to read: discovery goes by the well-known addresses
  const { wwwAuthenticate } = await oauthSdk();
  const { scope, resourceMetadataUrl } = wwwAuthenticate(res);
  return { ...(scope ? { scope } : {}), ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) };
}

/** Prints where the sign-in stands and the URL, then tries to open a browser on it. */
async function sendToBrowser(s: McpServerSettings, authorizationUrl: URL, port: number, deps: SignInDeps): Promise<void> {
  const c = deps.store.read(s.url!);
  const server = typeof c?.discovery?.authorizationServerUrl === "string" ? c.discovery.authorizationServerUrl : authorizationUrl.origin;
  const client = s.oauthClient ? `client_id ${s.oauthClient.id} from [mcp.${s.name}]` : `registered as "hey" (client id ${c?.client?.client_id ?? "?"})`;
  deps.print(
    `  authorization server: ${server}\n  client: ${client}\n  redirect: http://127.0.0.1:${port}${CALLBACK_PATH} (this hey listens there until the sign-in ends)\n`,
  );
  const opened = await openBrowser(authorizationUrl.href, deps.env);
  deps.print(
    `${opened ? `Opened your browser (${opened}) on this address; if nothing opened, open it yourself:` : "Open this address in a browser to sign in (hey could not open one here):"}\n\n  ${authorizationUrl.href}\n`,
  );
  deps.print(`Waiting for the browser to come back (Ctrl-C cancels; hey gives up after ${duration(deps.timeoutMs ?? SIGN_IN_TIMEOUT_MS)})…`);
}

/** Tries each browser command; the first that starts and does not fail at once wins. Its name, or undefined. */
async function openBrowser(url: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  for (const argv of browserCommands(url, env, process.platform)) {
    try {
      const proc = Bun.spawn(argv, {
        stdin: "ignore",
        stdout: "ignore",
        stderr: "ignore",
        env: { ...env } as Record<string, string>,
        detached: process.platform !== "win32",
      });
      const code = await Promise.race([proc.exited, Bun.sleep(BROWSER_GRACE_MS).then(() => 0)]);
      proc.unref();
      if (code === 0) return argv[0] === "sh" ? `$BROWSER: ${argv[2]!.replace(' "$1"', "")}` : argv.filter((a) => a !== url).join(" ");
    } catch {} // not installed: the next one
  }
  return undefined;
}

interface Listener {
  port: number;
  state: string;
  /** the authorization code, or a rejection saying why there is none */
  result: Promise<string>;
  stop(): void;
}

/** The loopback redirect listener: on `port` when it is free, else a random one. */
function listen(port: number | undefined): Listener {
  const state = crypto.randomUUID();
  let settle: { ok(code: string): void; no(e: Error): void } = { ok: () => {}, no: () => {} };
  const result = new Promise<string>((ok, no) => (settle = { ok, no }));
  result.catch(() => {});
  const page = (status: number, text: string) =>
    new Response(`<!doctype html><meta charset="utf-8"><title>hey</title><p style="font:16px system-ui;margin:3em">${text}</p>`, {
      status,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  const fetchHandler = (req: Request) => {
    const u = new URL(req.url);
    if (u.pathname !== CALLBACK_PATH) return new Response("not found", { status: 404 });
    const q = u.searchParams;
    if (q.get("state") !== state) {
      settle.no(new Error("the browser came back with a state that is not this sign-in's (a stale or forged redirect); run the sign-in again"));
      return page(400, "This sign-in answer does not belong to the running hey. Run the sign-in again.");
    }
    const error = q.get("error");
    if (error) {
      settle.no(new Error(`the authorization server answered ${error}${q.get("error_description") ? ` (${q.get("error_description")})` : ""}`));
      return page(400, `Sign-in failed: ${Bun.escapeHTML(error)}. You can close this tab; hey says more.`);
    }
    const code = q.get("code");
    if (!code) {
      settle.no(new Error("the browser came back without a code"));
      return page(400, "No sign-in code came back. You can close this tab.");
    }
    settle.ok(code);
    return page(200, "Signed in. You can close this tab and go back to hey.");
  };
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({ hostname: "127.0.0.1", port: port ?? 0, fetch: fetchHandler });
  } catch {
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: fetchHandler }); // the earlier port is taken: a new one (and a new registration)
  }
  return { port: server.port!, state, result, stop: () => void server.stop(true) };
}

/** `p`, or a rejection when `signal` aborts or `ms` pass. */
function waitFor<T>(p: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the browser did not come back within ${duration(ms)}`)), ms);
    const onAbort = () => reject(new Error("cancelled"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => (clearTimeout(timer), signal.removeEventListener("abort", onAbort)));
  });
}

/** `base` with `signal` on every request. */
function abortable(base: typeof fetch, signal: AbortSignal): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) =>
    base(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal })) as typeof fetch;
}

/** An OAuth error's code and words, or an error's message. */
function messageOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { errorCode?: unknown }).errorCode;
  return typeof code === "string" && !e.message.includes(code) ? `${code}: ${e.message}` : e.message;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (s < 90) return unit(s, "second");
  if (s < 3600) return unit(Math.round(s / 60), "minute");
  if (s < 2 * 86400) return unit(Math.round(s / 3600), "hour");
  return unit(Math.round(s / 86400), "day");
}
