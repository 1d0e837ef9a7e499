// The one fetch every provider SDK and HTTP MCP transport is given: hey's own proxy choice
// (net/proxy.ts) applied per request and per redirect hop, SOCKS5 through a loopback bridge, no
// idle timer.
import {
  classifyFetchError,
  classifyProxyResponse,
  expectedProtocol,
  isCertificateCode,
  proxyTlsError,
  tunnelSilent,
  wrongScheme,
  NetError,
} from "./errors.ts";
import { ProviderError } from "../kernel/provider.ts";
import { withUnreadCas } from "./ca.ts";
import {
  PROXY_ORIGIN,
  proxyAddress,
  redactProxyUrl,
  resolveProxy,
  unapprovedRoute,
  type HttpRoute,
  type ProxiedRoute,
  type ProxyRoute,
  type ProxySources,
  type RoutedInit,
  type SocksRoute,
} from "./proxy.ts";
import { isRedirect, nextHop, redirectError, type Hop } from "./redirects.ts";
import type { speaksAs } from "./proxy-probe.ts";
import type { SocksBridge, SocksBridgeOptions } from "./socks-bridge.ts";

type FetchInput = string | URL | Request;
type FetchInit = BunFetchRequestInit;

export interface NetOptions extends SocksBridgeOptions {
  /** the fetch that does the work; default the global one */
  base?: typeof fetch;
  /** trusted CAs for every request (net/ca.ts trustedCas); undefined keeps fetch's default store */
  ca?: string[];
  /** a `[network] ca_file` set but not approved yet (`[network] ca_file = "…" in FILE`): a certificate error says so */
  pendingCa?: string;
}

/**
 * A fetch that routes each request as resolveProxy decides — each hop of a redirect too: it follows
 * redirects itself, by fetch's rules (redirects.ts, which throws fetch's TypeErrors for a loop and
 * the like), honouring `init.redirect`. Throws NetConfigError (before any I/O)
 * for an unusable proxy setting; a NetError (errors.ts) — before any I/O too — for a request only a
 * `[proxy] url` not approved yet would route (unapprovedRoute); for a certificate that fails verification
 * and for a proxy that refuses, wants credentials or cannot be reached — also when the proxy's
 * refusal came as a response in the server's place — and for a proxy whose port speaks another
 * protocol than its URL's scheme says (proxy-probe.ts: asked before the first request through an
 * https:// or socks5:// proxy, whose mistake would hang, and after a reset through an http:// one);
 * other errors are the base fetch's, with any credentials in their message replaced by `***`. SOCKS
 * bridges start on first use, one per route, and never keep the process alive. `init.timeout`
 * defaults to false: Bun's 5-minute socket idle timer would cut a slow model's stream, and hey runs
 * its own watchdog. `opts.ca` is the `tls.ca` of every request; a caller's own `init.tls` keys win.
 */
export function proxiedFetch(sources: ProxySources, opts: NetOptions = {}): typeof fetch {
  const { base = fetch, ca, pendingCa, ...bridgeOptions } = opts;
  const bridges = new Map<string, Promise<SocksBridge>>();
  const checked = new Map<string, Promise<void>>();
  /**
   * Resolves once the route's proxy is known to speak its scheme, or could not be told (refused,
   * closed, silent: each probe can wait PROBE_WAIT_MS, so that is not asked again either — the
   * requests then fail or succeed on their own); rejects when it speaks another protocol.
   */
  const checkedProxy = (route: ProxiedRoute): Promise<void> => {
    const key = JSON.stringify(route);
    let check = checked.get(key);
    if (!check) {
      const { host, port } = proxyAddress(route);
      check = askProxy(host, port, expectedProtocol(route)).then((speaks) => {
        const wrong = wrongScheme(route, speaks);
        if (wrong) throw wrong;
      });
      checked.set(key, check);
    }
    return check;
  };
  const bridgeFor = (route: SocksRoute): Promise<SocksBridge> => {
    const key = JSON.stringify(route);
    let bridge = bridges.get(key);
    if (!bridge) {
      // loaded (with node:net) only for a SOCKS route: at start-up it added ~0.6 MB to every run
      bridge = import("./socks-bridge.ts").then(({ startSocksBridge }) => startSocksBridge(route, bridgeOptions));
      bridge.catch(() => bridges.delete(key));
      bridges.set(key, bridge);
    }
    return bridge;
  };

  /** One request, routed by its own URL; its failures in hey's words (the contract of proxiedFetch). */
  async function sendOnce(input: FetchInput, init: FetchInit): Promise<Response> {
    const target = new URL(requestUrl(input));
    const held = unapprovedRoute(target, sources);
    if (held) throw new NetError("proxy_unapproved", held);
    const route = resolveProxy(target, sources);
    if (route.kind === "socks5" || (route.kind === "http" && route.url.startsWith("https:"))) await untilAborted(checkedProxy(route), init.signal);
    const proxy = route.kind === "socks5" ? (await bridgeFor(route)).url : proxyOption(route);
    const origin = route.kind === "direct" ? {} : { [PROXY_ORIGIN]: { shown: route.shown, source: route.source } };
    let res: Response;
    const started = Date.now();
    try {
      const tls = ca ? { tls: { ca, ...init.tls } } : {};
      res = await base(input, { ...init, ...tls, timeout: init.timeout ?? false, proxy, ...origin } as RoutedInit);
    } catch (e) {
      if (route.kind === "http") {
        const ours = await proxysFault(e, route, target, ca, init.signal, (Date.now() - started) / 1000);
        if (ours) throw ours.kind === "tls" ? withUnreadCas(ours, sources.env) : ours;
      }
      const failure = classifyFetchError(e, target, route);
      if (failure?.kind === "tls") throw withUnreadCas(pendingCa ? unapprovedCa(failure, pendingCa) : failure, sources.env);
      throw failure ?? (await untilAborted(misdialed(e, route), init.signal)) ?? redactError(e);
    }
    const refused = classifyProxyResponse(res, target, route);
    if (!refused) return res;
    await res.body?.cancel();
    throw refused;
  }

  /**
   * Follows redirects itself (`redirect: "manual"` below it), so that each hop is routed by its own
   * URL: the runtime would send every hop the way the first went (redirects.ts).
   */
  async function routedFetch(input: FetchInput, init: FetchInit = {}): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const mode = init.redirect ?? request?.redirect ?? "follow";
    const spare = mode === "follow" && request?.body ? request.clone() : undefined; // its body, should a 307 ask for it again
    let res = await sendOnce(input, { ...init, redirect: "manual" });
    if (mode === "manual" || !isRedirect(res.status) || !res.headers.has("location")) return res;
    if (mode === "error") {
      await res.body?.cancel();
      throw redirectError("UnexpectedRedirect", `${requestUrl(input)} answered ${res.status}, a redirect, to a request that allows none`);
    }
    const first = new URL(requestUrl(input));
    const signal = init.signal ?? request?.signal;
    let hop: Hop = {
      url: first,
      method: (init.method ?? request?.method ?? "GET").toUpperCase(),
      headers: new Headers(init.headers ?? request?.headers),
      body: init.body ?? (spare ? await spare.arrayBuffer() : undefined),
    };
    for (let count = 1; isRedirect(res.status); count++) {
      const next = nextHop(hop, res.status, res.headers.get("location"), count);
      if (!next) break;
      await res.body?.cancel();
      signal?.throwIfAborted();
      hop = next;
      // `insecure = true` is for the configured endpoint's host: another host's certificate is checked
      const { rejectUnauthorized: _unchecked, ...checked } = init.tls ?? {};
      const tls = hop.url.hostname === first.hostname ? init.tls : checked;
      res = await sendOnce(hop.url.href, { ...init, method: hop.method, headers: hop.headers, body: hop.body, signal, tls, redirect: "manual" });
    }
    return hop.url === first ? res : redirected(res, hop.url); // a Location that is no URL: the redirect is the answer
  }
  const routed = Object.assign(routedFetch, { preconnect: base.preconnect });
  proxyNames.set(routed, (url) => {
    const route = resolveProxy(new URL(url), sources);
    return route.kind === "direct" ? undefined : `the ${route.kind === "socks5" ? "SOCKS5 proxy" : "proxy"} ${route.shown} (from ${route.source})`;
  });
  return routed;
}

/** `res`, as fetch gives the last answer of a redirect chain: `redirected`, and the URL it came from. */
function redirected(res: Response, url: URL): Response {
  Object.defineProperty(res, "url", { value: url.href });
  Object.defineProperty(res, "redirected", { value: true });
  return res;
}

const proxyNames = new WeakMap<typeof fetch, (url: string) => string | undefined>();

/**
 * The proxy a fetch made by proxiedFetch sends requests to `url` through, in words for messages
 * ("the proxy http://***@proxy:8080 (from HTTPS_PROXY)"); undefined when they go direct, or for any
 * other fetch. Never throws.
 */
export function proxyNameOf(f: typeof fetch, url: string): string | undefined {
  try {
    return proxyNames.get(f)?.(url);
  } catch {
    return undefined; // a proxy setting that cannot be used: its own error is said where it is used
  }
}

/**
 * Bun's `proxy` option for a direct or HTTP route. `false` and `respectNoProxy: false` keep Bun's
 * own env handling (HTTP_PROXY, NO_PROXY) out of it: hey has already decided.
 */
function proxyOption(route: Exclude<ProxyRoute, SocksRoute>): FetchInit["proxy"] {
  if (route.kind === "direct") return false;
  const headers = route.authorization ? { "Proxy-Authorization": route.authorization } : undefined;
  return { url: route.url, headers, respectNoProxy: false };
}

/**
 * For a request an HTTP(S) proxy route failed: the NetError when the fault is the proxy's own, which
 * Bun's fetch does not tell — a certificate failure whose certificate is the https:// proxy's (not the
 * server's behind it), or a CONNECT the proxy never answered (a watchdog or timeout gave up, after
 * `waited` s, on a tunnel that never opened: asked again with a fresh CONNECT given PROBE_WAIT_MS).
 * Else undefined.
 */
async function proxysFault(e: unknown, route: HttpRoute, target: URL, ca: string[] | undefined, signal: AbortSignal | null | undefined, waited: number) {
  const { host, port } = proxyAddress(route);
  const overTls = route.url.startsWith("https:");
  const code = (e as { code?: unknown } | null)?.code;
  if (overTls && typeof code === "string" && isCertificateCode(code)) {
    const proxyCode = await (await import("./proxy-probe.ts")).certificateCheck(host, port, ca);
    return proxyCode ? proxyTlsError(proxyCode, route) : undefined;
  }
  if (target.protocol !== "https:" || !stalled(signal)) return undefined;
  const authority = `${target.hostname}:${target.port || 443}`;
  const answered = await (await import("./proxy-probe.ts")).answersConnect({ host, port, tls: overTls }, authority);
  return answered ? undefined : tunnelSilent(route, target, Math.round(waited));
}

/** A certificate failure while a ca_file waits for approval: the file may hold the CA, but is not used yet. */
function unapprovedCa(failure: NetError, pendingCa: string): NetError {
  return new NetError(
    "tls",
    `${failure.message} — ${pendingCa} is set but not approved yet, so it is not used: start \`hey\` at a terminal and answer yes to use it`,
  );
}

/** Whether `signal` ended a wait (the stream watchdog's idle error, a timeout), not a person (Ctrl-C, whom no probe may delay). */
const stalled = (signal: AbortSignal | null | undefined): boolean =>
  signal?.aborted === true && (signal.reason instanceof ProviderError || (signal.reason instanceof Error && signal.reason.name === "TimeoutError"));

/** A connection closed with no answer, as a SOCKS5 or TLS port closes on an HTTP proxy request. */
const CLOSED = new Set(["ECONNRESET", "ConnectionClosed", "ECONNABORTED", "EPIPE"]);

/**
 * For a request an http:// proxy route ended with a closed connection: the NetError when the
 * proxy's port speaks another protocol. (https:// and SOCKS5 proxies were asked before the request.)
 */
async function misdialed(e: unknown, route: ProxyRoute): Promise<NetError | undefined> {
  const code = (e as { code?: unknown } | null)?.code;
  if (route.kind !== "http" || !route.url.startsWith("http:") || typeof code !== "string" || !CLOSED.has(code)) return undefined;
  const { host, port } = proxyAddress(route);
  return wrongScheme(route, await askProxy(host, port, expectedProtocol(route)));
}

/** proxy-probe.ts, loaded only when a proxy is asked (node:tls is not on the way of a normal start). */
const askProxy: typeof speaksAs = async (...args) => (await import("./proxy-probe.ts")).speaksAs(...args);

/** `work`, or the signal's reason once it aborts first: the caller's Ctrl-C does not wait for a probe. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  let stop = () => {};
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", stop));
}

function requestUrl(input: FetchInput): string {
  return typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
}

/** The same error with `scheme://user:pass@` in its message and stack shown as `scheme://***@`. */
function redactError(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  const redact = (text: string) => text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, redactProxyUrl);
  const message = redact(e.message);
  if (message !== e.message) {
    e.message = message;
    if (e.stack) e.stack = redact(e.stack);
  }
  return e;
}
