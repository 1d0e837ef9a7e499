// The one fetch every provider SDK and HTTP MCP transport is given: hey's own proxy choice
// (net/proxy.ts) applied per request, SOCKS5 through a loopback bridge, no idle timer.
import { classifyFetchError, classifyProxyResponse } from "./errors.ts";
import { redactProxyUrl, resolveProxy, type ProxyRoute, type ProxySources, type SocksRoute } from "./proxy.ts";
import type { SocksBridge, SocksBridgeOptions } from "./socks-bridge.ts";

type FetchInput = string | URL | Request;
type FetchInit = BunFetchRequestInit;

export interface NetOptions extends SocksBridgeOptions {
  /** the fetch that does the work; default the global one */
  base?: typeof fetch;
  /** trusted CAs for every request (net/ca.ts trustedCas); undefined keeps fetch's default store */
  ca?: string[];
}

/**
 * A fetch that routes each request as resolveProxy decides. Throws NetConfigError (before any I/O)
 * for an unusable proxy setting; a NetError (errors.ts) for a certificate that fails verification
 * and for a proxy that refuses, wants credentials or cannot be reached — also when the proxy's
 * refusal came as a response in the server's place; other errors are the base fetch's, with any
 * credentials in their message replaced by `***`. SOCKS bridges start on first use, one per route, and never keep the
 * process alive. `init.timeout` defaults to false: Bun's 5-minute socket idle timer would cut a slow
 * model's stream, and hey runs its own watchdog. `opts.ca` is the `tls.ca` of every request; a
 * caller's own `init.tls` keys win.
 */
export function proxiedFetch(sources: ProxySources, opts: NetOptions = {}): typeof fetch {
  const { base = fetch, ca, ...bridgeOptions } = opts;
  const bridges = new Map<string, Promise<SocksBridge>>();
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

  async function routedFetch(input: FetchInput, init?: FetchInit): Promise<Response> {
    const target = new URL(requestUrl(input));
    const route = resolveProxy(target, sources);
    const proxy = route.kind === "socks5" ? (await bridgeFor(route)).url : proxyOption(route);
    let res: Response;
    try {
      const tls = ca ? { tls: { ca, ...init?.tls } } : {};
      res = await base(input, { ...init, ...tls, timeout: init?.timeout ?? false, proxy });
    } catch (e) {
      throw classifyFetchError(e, target, route) ?? redactError(e);
    }
    const refused = classifyProxyResponse(res, target, route);
    if (!refused) return res;
    await res.body?.cancel();
    throw refused;
  }
  return Object.assign(routedFetch, { preconnect: base.preconnect });
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
