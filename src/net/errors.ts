// Why a request never reached its server, told from what Bun's fetch threw (SPEC §16, §24): an
// untrusted, expired or misnamed TLS certificate, a proxy that refuses, wants credentials or cannot
// be reached. Each becomes a NetError whose message names the host or the proxy (credentials
// masked, and where the setting came from) and says what to do; `permanent` tells a retry it cannot
// help. Pure.
import type { ProxyProtocol } from "./proxy-probe.ts";
import type { ProxyRoute } from "./proxy.ts";

/**
 * - `tls`: the server's certificate failed verification (untrusted, expired, another name)
 * - `proxy_auth`: the proxy wants credentials, or rejected those in its URL
 * - `proxy_refused`: the proxy answered but will not open the tunnel (4xx, a SOCKS ruleset)
 * - `proxy_unreachable`: nothing answers at the proxy's address
 * - `proxy_protocol`: the proxy speaks another protocol than its URL's scheme says (a SOCKS5 port
 *   given as http://, a plain HTTP proxy as https://)
 * - `upstream`: the proxy could not reach the server (5xx, SOCKS host unreachable): retryable, like
 *   a refused direct connection
 * - `no_such_host`: through socks5://, which has this machine resolve the server's name before it
 *   asks the proxy, the name does not resolve here: final, like a direct "no such host"
 * - `proxy_unapproved`: the `[proxy] url` that would route the request waits for the user's approval
 *   (net/proxy.ts unapprovedRoute): nothing was sent
 */
export type NetErrorKind = "tls" | "proxy_auth" | "proxy_refused" | "proxy_unreachable" | "proxy_protocol" | "upstream" | "no_such_host" | "proxy_unapproved";

/** A classified network failure. `message` is complete and safe to print (no credentials). */
export class NetError extends Error {
  override name = "NetError";
  readonly kind: NetErrorKind;
  /** a retry cannot help */
  readonly permanent: boolean;

  constructor(kind: NetErrorKind, message: string) {
    super(message);
    this.kind = kind;
    this.permanent = kind !== "upstream";
  }
}

/** The header hey's SOCKS bridge (socks-bridge.ts) names its failure's kind in, and the one with its words. */
export const BRIDGE_KIND_HEADER = "x-hey-bridge-failure";
export const BRIDGE_DETAIL_HEADER = "x-hey-bridge-detail";

/** The CA variables and key a user can point at their network's CA, in every TLS message. */
export const CA_SETTINGS = "[network] ca_file, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS";

const UNTRUSTED = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "CERT_SIGNATURE_FAILURE",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "INVALID_CA",
  "CERT_CHAIN_TOO_LONG",
  "PATH_LENGTH_EXCEEDED",
  "INVALID_PURPOSE",
  "CERT_REVOKED",
]);
/** the server's own certificate signs itself: trusting it means giving that certificate as the CA */
const SELF_SIGNED = new Set(["DEPTH_ZERO_SELF_SIGNED_CERT"]);
const EXPIRED = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID"]);
const MISNAMED = new Set(["ERR_TLS_CERT_ALTNAME_INVALID", "HOSTNAME_MISMATCH"]);
/** Whether `code` is a certificate verification failure (tlsError's codes). */
export const isCertificateCode = (code: string): boolean => UNTRUSTED.has(code) || EXPIRED.has(code) || MISNAMED.has(code);
/** Connection errors that, through a proxy, can only be about the proxy: the client never dials the server itself. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ConnectionRefused: "connection refused",
  ENOTFOUND: "no such host",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** What a failed dial's code means in words (`connection refused` for ECONNREFUSED), for the codes UNREACHABLE knows. */
export const unreachableWords = (code: string): string | undefined => UNREACHABLE[code];

type Proxied = Exclude<ProxyRoute, { kind: "direct" }>;

/**
 * The NetError for what Bun's fetch threw for a request to `target` on `route`, or undefined when it is none of the
 * failures above (a reset, a timeout, a refused direct connection: the caller's own kind).
 */
export function classifyFetchError(e: unknown, target: URL, route: ProxyRoute): NetError | undefined {
  if (e instanceof NetError) return e;
  const err =
    typeof e === "object" && e !== null ? (e as { code?: unknown; status?: unknown; statusText?: unknown; headers?: unknown; message?: unknown }) : {};
  const code = typeof err.code === "string" ? err.code : "";
  const said = typeof err.message === "string" ? err.message : "";
  if (UNTRUSTED.has(code) || EXPIRED.has(code) || MISNAMED.has(code)) return tlsError(code, said, target, route);
  if (route.kind === "direct") return undefined;
  if (code === "ERR_PROXY_TUNNEL" && typeof err.status === "number") {
    const headers = err.headers instanceof Headers ? err.headers : new Headers();
    const statusText = typeof err.statusText === "string" ? err.statusText : "";
    return proxyAnswer(err.status, statusText, headers, target, route);
  }
  const unreachable = UNREACHABLE[code];
  if (unreachable)
    return new NetError("proxy_unreachable", `cannot reach the proxy ${nameOf(route)}: ${unreachable} — is it running, and is ${route.source} right?`);
  return undefined;
}

/**
 * The NetError for a response a proxy sent in the server's place (a plain-http target, forwarded
 * by the proxy): a 407, a 401 that is the proxy's (proxysUnauthorized), or hey's SOCKS bridge
 * reporting a failure. Undefined for a server's own answer.
 */
export function classifyProxyResponse(res: { status: number; statusText: string; headers: Headers }, target: URL, route: ProxyRoute): NetError | undefined {
  if (route.kind === "direct") return undefined;
  if (res.status !== 407 && !res.headers.has(BRIDGE_KIND_HEADER) && !proxysUnauthorized(res, route) && !proxysOwnError(res, route, target)) return undefined;
  return proxyAnswer(res.status, res.statusText, res.headers, target, route);
}

/** Server names of forward proxies, as their own error pages carry them (tinyproxy/1.11.1, squid/5.7, Privoxy…). */
const PROXY_SERVERS = /\b(tinyproxy|squid|privoxy|polipo|ziproxy|ccproxy|wingate|bluecoat|proxy)\b/i;

/**
 * Whether an error to a request an HTTP proxy forwarded is the proxy's own (a Filter's 403, a 500
 * "Unable to connect", a 502/504 for a host it could not reach), not the server's. The proxy says so
 * in its headers — a Server naming a proxy, Proxy-Agent, squid's X-Squid-Error — or answers a 403 or
 * 5xx with no Via header: a proxy adds Via to what it forwards, not to its own pages. Never a JSON
 * body: model endpoints answer their errors in JSON. Never for an https:// target: the proxy only
 * tunnels to it (a CONNECT it refuses is an error of the fetch, not a response), so every response
 * is the server's own — a CDN's HTML 403 or 502 page included.
 */
function proxysOwnError(res: { status: number; headers: Headers }, route: ProxyRoute, target: URL): boolean {
  if (route.kind !== "http" || target.protocol !== "http:" || res.status < 400 || res.status === 401) return false;
  const h = res.headers;
  if (/\bjson\b/i.test(h.get("content-type") ?? "")) return false; // a model server's, even one that calls itself a proxy (LiteLLM)
  if (h.has("proxy-agent") || h.has("x-squid-error") || PROXY_SERVERS.test(h.get("server") ?? "")) return true;
  return (res.status === 403 || res.status >= 500) && !h.has("via");
}

/**
 * Whether a 401 to a request an HTTP proxy forwarded is the proxy's refusal, not the server's.
 * tinyproxy 1.11 answers wrong credentials that way (407 only when none are sent): `Server:
 * tinyproxy/1.11.1`, `WWW-Authenticate: Basic realm="Tinyproxy"`, an HTML page. A model endpoint's
 * 401 is a JSON error body (the vendors and the OpenAI-compatible servers alike), and a web
 * server's Basic login in front of one names no proxy. So: a Proxy-Authenticate header, which only
 * proxies send; or a 401 that is not JSON, asks for Basic credentials, and whose realm or Server
 * header names a proxy.
 */
function proxysUnauthorized(res: { status: number; headers: Headers }, route: ProxyRoute): boolean {
  if (res.status !== 401 || route.kind !== "http") return false;
  if (res.headers.has("proxy-authenticate")) return true;
  if (/\bjson\b/i.test(res.headers.get("content-type") ?? "")) return false;
  const challenge = /(?:^|,)\s*basic\b(.*)/i.exec(res.headers.get("www-authenticate") ?? "");
  if (!challenge) return false;
  const realm = /realm\s*=\s*"?([^",]*)/i.exec(challenge[1] ?? "")?.[1] ?? "";
  return /proxy/i.test(realm) || /proxy/i.test(res.headers.get("server") ?? "");
}

/** A proxy's non-2xx answer (to CONNECT, or in place of the server's). */
function proxyAnswer(status: number, statusText: string, headers: Headers, target: URL, route: Proxied): NetError {
  const bridged = headers.get(BRIDGE_KIND_HEADER);
  const detail = headers.get(BRIDGE_DETAIL_HEADER) ?? `${status}${statusText ? ` ${statusText}` : ""}`;
  const kind: NetErrorKind = isKind(bridged) ? bridged : status === 407 || status === 401 ? "proxy_auth" : status >= 500 ? "upstream" : "proxy_refused";
  const proxy = nameOf(route);
  const hostPort = `${target.hostname}:${portOf(target)}`;
  switch (kind) {
    case "proxy_auth":
      return new NetError(
        kind,
        hasCredentials(route)
          ? `the proxy ${proxy} rejected the credentials in its URL (${detail}) — check the user and password in ${route.source}`
          : `the proxy ${proxy} wants credentials (${detail}) — put them in ${route.source} as ${scheme(route)}://USER:PASSWORD@HOST:PORT`,
      );
    case "proxy_unreachable":
      return new NetError(kind, `cannot reach the proxy ${proxy}: ${detail} — is it running, and is ${route.source} right?`);
    case "no_such_host": {
      const remote = route.shown.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "socks5h://");
      return new NetError(
        kind,
        `the host ${target.hostname} does not resolve on this machine (no such host), so hey does not retry: ${scheme(route)}:// has this machine resolve names before asking the proxy ${proxy} — if only the proxy's side knows ${target.hostname}, use ${remote} in ${route.source}; else check the host name`,
      );
    }
    case "upstream":
      return new NetError(
        kind,
        `the proxy ${proxy} could not connect to ${hostPort} (${detail})${bridged ? "" : ` — if ${target.hostname} is reachable from here without the proxy (a LAN or VPN address), list it in NO_PROXY`}`,
      );
    default:
      return new NetError(
        "proxy_refused",
        `the proxy ${proxy} refused to connect to ${hostPort} (${detail}) — its rules do not allow this host or port: ask its administrator, or list hosts that are reachable directly in NO_PROXY`,
      );
  }
}

/**
 * The NetError for an HTTP proxy that took the connection and the CONNECT request for `target` but
 * sent no reply in `seconds`: the tunnel never opened, so not a byte reached the server.
 */
export function tunnelSilent(route: Proxied, target: URL, seconds: number): NetError {
  return new NetError(
    "proxy_unreachable",
    `the proxy ${nameOf(route)} did not answer CONNECT ${target.hostname}:${portOf(target)} in ${seconds} s: the tunnel never opened, so nothing reached the server — check that proxy (is it working, is ${route.source} the right one?), or list hosts that are reachable directly in NO_PROXY`,
  );
}

/**
 * The NetError for the certificate of an https:// proxy itself (its TLS front, before any tunnel)
 * failing verification: the proxy's operator, or the CA settings, must change — not the server.
 */
export function proxyTlsError(code: string, route: Proxied): NetError {
  const words = EXPIRED.has(code)
    ? code === "CERT_HAS_EXPIRED"
      ? "is expired"
      : "is not valid yet"
    : MISNAMED.has(code)
      ? "is for another host name"
      : "is not signed by a CA hey trusts";
  const fix = EXPIRED.has(code)
    ? "its operator must renew it; if it is current, check this machine's clock"
    : MISNAMED.has(code)
      ? `check the proxy's host in ${route.source}`
      : `give the CA that signed it in ${CA_SETTINGS}`;
  return new NetError("tls", `the TLS certificate of the proxy ${nameOf(route)} ${words} (${code}); the model endpoint was not reached — ${fix}`);
}

/** The NetError for a failed certificate check (an OpenSSL verify code such as CERT_HAS_EXPIRED); a code that is no verify error is treated as "untrusted". */
export function tlsError(code: string, said: string, target: URL, route: ProxyRoute): NetError {
  const host = target.hostname;
  // Bun's message for a name mismatch is a long "fetching URL … pass verbose: true" sentence
  const words = said && !said.includes("fetching") ? `${said}, ${code}` : code;
  const via = route.kind === "direct" ? "" : ` through the proxy ${nameOf(route)}`;
  if (EXPIRED.has(code))
    return new NetError(
      "tls",
      `the TLS certificate of ${host} is ${code === "CERT_HAS_EXPIRED" ? "expired" : "not valid yet"} (${words})${via} — the server must renew it; if it is current, check this machine's clock`,
    );
  if (MISNAMED.has(code))
    return new NetError(
      "tls",
      `the TLS certificate presented for ${host} is for another host name (${words})${via} — check the host in the base URL${route.kind === "direct" ? "" : ", and whether the proxy intercepts TLS (then give its CA in " + CA_SETTINGS + ")"}`,
    );
  return new NetError(
    "tls",
    `the TLS certificate of ${host} is not signed by a CA hey trusts (${words})${via} — if your network uses its own CA (a TLS-inspecting proxy, a private endpoint), give its PEM file in ${CA_SETTINGS}${SELF_SIGNED.has(code) ? "; for a self-signed certificate, that file is the certificate itself (as a last resort, insecure = true in the provider's table skips the check)" : ""}`,
  );
}

/**
 * The NetError for a proxy whose port answered as `speaks` (proxy-probe.ts speaksAs) while its URL's
 * scheme says another protocol: names the proxy and the URL to write instead, credentials masked.
 * Undefined when it answered as its scheme says, or as nothing known.
 */
export function wrongScheme(route: Proxied, speaks: ProxyProtocol | undefined): NetError | undefined {
  const expected = expectedProtocol(route);
  if (speaks === undefined || speaks === expected) return undefined;
  const rest = route.shown.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  const instead = { http: `http://${rest}`, tls: `https://${rest}`, socks5: `socks5h://${rest} (or socks5://)` }[speaks];
  const asked = { http: "an HTTP proxy", tls: "an HTTPS proxy (TLS to the proxy itself)", socks5: "a SOCKS5 proxy" }[expected];
  const answered = { http: "as a plain HTTP proxy", tls: "with TLS, as an HTTPS proxy", socks5: "as a SOCKS5 proxy" }[speaks];
  // HTTPS_PROXY=https://… is a common reading of the variable's name: the scheme is the proxy's own
  const why = expected === "tls" && speaks === "http" ? " (the scheme says how to talk to the proxy, not to the endpoint)" : "";
  return new NetError(
    "proxy_protocol",
    `the proxy ${nameOf(route)} did not answer as ${asked}: it answers ${answered} — use ${instead} in ${route.source}${why}`,
  );
}

/** What the proxy of `route` should speak, by its URL's scheme. */
export function expectedProtocol(route: Proxied): ProxyProtocol {
  return route.kind === "socks5" ? "socks5" : route.url.startsWith("https:") ? "tls" : "http";
}

const KINDS: readonly string[] = [
  "tls",
  "proxy_auth",
  "proxy_refused",
  "proxy_unreachable",
  "proxy_protocol",
  "upstream",
  "no_such_host",
] satisfies NetErrorKind[];
const isKind = (v: string | null): v is NetErrorKind => v !== null && KINDS.includes(v);

/** `http://***@proxy:8080 (from HTTPS_PROXY)` */
function nameOf(route: Proxied): string {
  return `${route.shown} (from ${route.source})`;
}

function hasCredentials(route: Proxied): boolean {
  return route.kind === "http" ? route.authorization !== undefined : route.username !== undefined;
}

function scheme(route: Proxied): string {
  return route.kind === "http" ? route.url.slice(0, route.url.indexOf(":")) : route.remoteDns ? "socks5h" : "socks5";
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/** The codes of a host name that does not exist (not of a resolver that could not be asked: EAI_AGAIN is retried). */
const NO_SUCH_HOST = new Set(["ENOTFOUND", "EAI_NONAME", "DNS_ENOTFOUND"]);

/** Whether what fetch threw (or an error it caused, a few levels down) says the host name does not resolve. */
export function isUnknownHost(e: unknown): boolean {
  for (let depth = 0; depth < 4 && typeof e === "object" && e !== null; depth++, e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NO_SUCH_HOST.has(code)) return true;
  }
  return false;
}
