// Proxy choice (SPEC §16): which proxy, if any, a request to a URL goes through. hey decides this
// itself instead of leaving it to the runtime, whose own env handling ignores `*.domain` entries,
// compares case-sensitively, has no loopback exemption and silently ignores socks5:// values.

/** Where proxy settings come from. Values are raw strings as the user wrote them; "" means unset. */
export interface ProxySources {
  /** `--proxy` */
  cli?: string;
  /** `[proxy] url` in the config file, or HEY_PROXY */
  config?: string;
  /** Where `config` came from, for messages: "HEY_PROXY" or "[proxy] url in PATH:LINE" (PATH where the line is unknown). Default "[proxy] url". */
  configSource?: string;
  /** The process environment (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY, any case as curl reads them). */
  env: Record<string, string | undefined>;
  /**
   * A `[proxy] url` written in a config file but not approved yet, where it stands (`[proxy] url =
   * "http://***@host:port" in FILE:LINE`), when no `config` stands in its place: what it would
   * route may not go out another way (unapprovedRoute).
   */
  held?: string;
}

/** Which proxy a route goes through, for messages: never holds credentials. */
export interface ProxyOrigin {
  /** the proxy URL as written, credentials replaced by `***` */
  shown: string;
  /** where the setting came from: "--proxy", "HEY_PROXY", "[proxy] url in PATH", "HTTPS_PROXY", "all_proxy"… */
  source: string;
}

/** How one request travels. Credentials never stay inside `url`. */
export type ProxyRoute =
  | { kind: "direct" }
  | (ProxyOrigin & {
      kind: "http";
      /** `http(s)://host:port`, with no credentials */
      url: string;
      /** `Basic base64(user:pass)`, when the proxy URL carried credentials */
      authorization?: string;
    })
  | (ProxyOrigin & {
      kind: "socks5";
      host: string;
      port: number;
      /** socks5h: the proxy resolves the target's name; socks5: hey resolves it locally */
      remoteDns: boolean;
      username?: string;
      password?: string;
    });

/**
 * The key of the request option by which hey's fetch (fetch.ts) tells the fetch under it — the
 * `--verbose` log — which proxy a request goes through, as the user set it: a SOCKS5 request's own
 * `proxy` option names hey's loopback bridge instead.
 */
export const PROXY_ORIGIN = Symbol("proxy origin");
/** A request's options as hey's fetch passes them down: the runtime's, plus the proxy in the user's words. */
export type RoutedInit = BunFetchRequestInit & { [PROXY_ORIGIN]?: ProxyOrigin };

export type ProxiedRoute = Exclude<ProxyRoute, { kind: "direct" }>;
export type HttpRoute = Extract<ProxyRoute, { kind: "http" }>;
export type SocksRoute = Extract<ProxyRoute, { kind: "socks5" }>;

/**
 * A network setting hey cannot use (a proxy, a CA file): a configuration error, exit 2. The message
 * starts with where the setting came from; a proxy's value is named with its credentials redacted.
 */
export class NetConfigError extends Error {
  override name = "NetConfigError";
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443, "socks5:": 1080, "socks5h:": 1080 };
const SUPPORTED_SCHEMES = "http://, https://, socks5:// or socks5h://";
/** RFC 1929 carries each of username and password in a single length byte. */
const SOCKS_MAX_CREDENTIAL_BYTES = 255;
/** The env variable (lowercase spelling) for each target scheme; ALL_PROXY is the fallback for all. */
const SCHEME_PROXY_VARS: Record<string, string> = { "http:": "http_proxy", "ws:": "http_proxy", "https:": "https_proxy", "wss:": "https_proxy" };
const LOOPBACK_NAMES = ["localhost"];
const LOOPBACK_RANGES = ["127.0.0.0/8", "::1/128", "::ffff:127.0.0.0/104"];

/**
 * The route for a request to `target`: `--proxy` > `[proxy] url` > env (scheme-specific, then ALL_PROXY).
 * Loopback targets and NO_PROXY matches are direct, whatever the source. Throws NetConfigError when
 * the chosen proxy value is malformed or names an unsupported scheme (only when it would be used).
 */
export function resolveProxy(target: URL, sources: ProxySources): ProxyRoute {
  if (isLoopback(target.hostname)) return { kind: "direct" };
  const chosen = proxySetting(target.protocol, sources);
  if (chosen === undefined) return { kind: "direct" };
  const noProxy = envValue(sources.env, "no_proxy")?.value ?? "";
  if (matchesNoProxy(target.hostname, targetPort(target), noProxy)) return { kind: "direct" };
  return parseProxyUrl(chosen.value, chosen.source);
}

/**
 * Why a request to `target` goes the way resolveProxy sends it, in words (`hey doctor`): which proxy
 * and where it was set, or what makes it direct. Throws NetConfigError as resolveProxy does.
 */
export function describeRoute(target: URL, sources: ProxySources): string {
  if (isLoopback(target.hostname)) return "direct: loopback addresses never use a proxy";
  const chosen = proxySetting(target.protocol, sources);
  if (chosen === undefined) return "direct: no proxy is set (--proxy, HEY_PROXY, [proxy] url, HTTPS_PROXY/HTTP_PROXY, ALL_PROXY)";
  const noProxy = envValue(sources.env, "no_proxy");
  if (noProxy && matchesNoProxy(target.hostname, targetPort(target), noProxy.value))
    return `direct: ${noProxy.source} matches ${target.hostname} (the proxy of ${chosen.source} is not used)`;
  const route = parseProxyUrl(chosen.value, chosen.source);
  return `through ${route.kind === "socks5" ? "the SOCKS5 proxy" : "the proxy"} ${route.shown} (from ${route.source})`;
}

/**
 * Why a request to `target` may not go out, in words: the `[proxy] url` that would route it is not
 * approved yet (ProxySources.held), and neither `--proxy` nor an approved `[proxy] url`/HEY_PROXY
 * outranks it. Going direct or through HTTPS_PROXY instead would leave out a proxy the network may
 * require (and its inspection), silently. Undefined when the request may go: to loopback or a NO_PROXY
 * host (direct whatever the proxy), or with no held proxy.
 */
export function unapprovedRoute(target: URL, sources: ProxySources): string | undefined {
  if (!sources.held || isLoopback(target.hostname) || present(sources.cli) !== undefined || present(sources.config) !== undefined) return undefined;
  if (matchesNoProxy(target.hostname, targetPort(target), envValue(sources.env, "no_proxy")?.value ?? "")) return undefined;
  return `${sources.held} is not approved yet, so no request to ${target.host} goes out, neither directly nor through another proxy (the agent can write that file): say yes to it at the interactive prompt, which asks at start-up and at /reload`;
}

/** The proxy setting that applies to a request of `protocol` ("https:"), before NO_PROXY, and where it came from. */
function proxySetting(protocol: string, sources: ProxySources): { value: string; source: string } | undefined {
  const cli = present(sources.cli);
  if (cli !== undefined) return { value: cli, source: "--proxy" };
  const config = present(sources.config);
  if (config !== undefined) return { value: config, source: sources.configSource ?? "[proxy] url" };
  return envProxyFor(protocol, sources.env);
}

/**
 * Whether NO_PROXY (comma- or whitespace-separated) sends host:port direct. Entries: `*`; a name,
 * which also covers its subdomains, with an optional leading `.` or `*.`; an IPv4 or IPv6 address
 * (IPv6 with or without brackets) or CIDR range, compared as addresses with no DNS; any of them with
 * an optional `:port`. Case and a trailing dot are ignored. Malformed entries match nothing.
 */
export function matchesNoProxy(host: string, port: number, noProxy: string): boolean {
  const name = normalizeHost(host);
  const ip = parseIp(name);
  return noProxy
    .split(/[\s,]+/)
    .filter((entry) => entry !== "")
    .some((entry) => matchesEntry(name, ip, port, entry));
}

/** `url` with everything between the scheme and the last `@` replaced by `***`; safe to print. */
export function redactProxyUrl(url: string): string {
  const schemeEnd = url.indexOf("://");
  const authorityStart = schemeEnd === -1 ? 0 : schemeEnd + 3;
  const at = url.lastIndexOf("@");
  if (at < authorityStart) return url;
  return `${url.slice(0, authorityStart)}***@${url.slice(at + 1)}`;
}

/**
 * Parses one proxy URL (`host:port` means `http://host:port`). `source` says where it was set
 * ("--proxy", "https_proxy" as spelled, "FILE:LINE: [proxy] url"): each NetConfigError's message
 * starts with it, and the route keeps it for later messages.
 */
export function parseProxyUrl(raw: string, source: string): ProxiedRoute {
  const value = raw.trim();
  const origin: ProxyOrigin = { shown: redactProxyUrl(value), source };
  const shown = JSON.stringify(origin.shown);
  const bad = (problem: string) => new NetConfigError(`${source}: ${problem}`);
  const url = tryParseUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  if (!url) throw bad(`invalid proxy URL ${shown}`);
  const scheme = url.protocol;
  const defaultPort = DEFAULT_PORTS[scheme];
  if (defaultPort === undefined) throw bad(`unsupported proxy scheme "${scheme.slice(0, -1)}" in ${shown}; use ${SUPPORTED_SCHEMES}`);
  const port = url.port === "" ? defaultPort : Number(url.port);
  const hostname = url.hostname.toLowerCase();
  if (hostname === "") throw bad(`proxy URL ${shown} has no host`);
  const username = decodeCredential(url.username, shown, bad);
  const password = decodeCredential(url.password, shown, bad);
  const hasCredentials = url.username !== "" || url.password !== "";

  if (scheme === "http:" || scheme === "https:") {
    const route: HttpRoute = { kind: "http", ...origin, url: `${scheme}//${hostname}:${port}` };
    return hasCredentials ? { ...route, authorization: basicAuthorization(username, password) } : route;
  }
  const route: SocksRoute = { kind: "socks5", ...origin, host: unbracket(hostname), port, remoteDns: scheme === "socks5h:" };
  if (!hasCredentials) return route;
  if (utf8Length(username) > SOCKS_MAX_CREDENTIAL_BYTES || utf8Length(password) > SOCKS_MAX_CREDENTIAL_BYTES) {
    throw bad(`SOCKS5 username and password in ${shown} must each be at most 255 bytes`);
  }
  return { ...route, username, password };
}

/** The host and port of the proxy itself, which hey (or its SOCKS bridge) connects to. */
export function proxyAddress(route: ProxiedRoute): { host: string; port: number } {
  if (route.kind === "socks5") return { host: route.host, port: route.port };
  const url = new URL(route.url); // the URL leaves out a default port: http://proxy:80 has port ""
  return { host: unbracket(url.hostname), port: url.port === "" ? DEFAULT_PORTS[url.protocol]! : Number(url.port) };
}

/** Whether the host (a URL hostname, brackets allowed) is this machine: localhost names, 127/8, ::1. */
export function isLoopback(host: string): boolean {
  const name = normalizeHost(host);
  if (LOOPBACK_NAMES.some((loopback) => name === loopback || name.endsWith(`.${loopback}`))) return true;
  const ip = parseIp(name);
  return ip !== null && LOOPBACK_RANGES.some((range) => inRange(ip, parseCidr(range)));
}

/** Private, link-local and unique-local ranges: a server on one's own network. */
const NEARBY_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10", "fc00::/7", "fe80::/10"];

/** Whether the host is this machine or one on its own network: loopback, a private address, a name with no dot (a container's) or of a local zone (`.local`, `.internal`, `.lan`, `.home.arpa`). */
export function isNearby(host: string): boolean {
  const name = normalizeHost(host);
  if (isLoopback(name) || !name.includes(".") || /\.(local|internal|lan|home\.arpa)$/.test(name)) return true;
  const ip = parseIp(name);
  return ip !== null && NEARBY_RANGES.some((range) => inRange(ip, parseCidr(range)));
}

// ---- env ----

function envProxyFor(protocol: string, env: ProxySources["env"]): { value: string; source: string } | undefined {
  const name = SCHEME_PROXY_VARS[protocol];
  return (name === undefined ? undefined : envValue(env, name)) ?? envValue(env, "all_proxy");
}

/** The lowercase variable wins over the uppercase one when both are set, as in curl; `source` is the one used. */
function envValue(env: ProxySources["env"], lowercaseName: string): { value: string; source: string } | undefined {
  for (const source of [lowercaseName, lowercaseName.toUpperCase()]) {
    const value = present(env[source]);
    if (value !== undefined) return { value, source };
  }
  return undefined;
}

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function targetPort(target: URL): number {
  return target.port === "" ? (DEFAULT_PORTS[target.protocol] ?? 0) : Number(target.port);
}

// ---- NO_PROXY entries ----

function matchesEntry(host: string, hostIp: Uint8Array | null, port: number, rawEntry: string): boolean {
  if (rawEntry === "*") return true;
  const entry = splitEntryPort(rawEntry.toLowerCase());
  if (entry === null || (entry.port !== undefined && entry.port !== port)) return false;
  const range = entry.host.includes("/") ? parseCidr(entry.host) : null;
  if (range) return hostIp !== null && inRange(hostIp, range);
  const entryIp = parseIp(entry.host);
  if (entryIp) return hostIp !== null && sameBytes(hostIp, entryIp);
  if (hostIp !== null) return false; // a name entry never matches an address
  const domain = stripTrailingDot(entry.host.replace(/^\*?\./, ""));
  return domain !== "" && (host === domain || host.endsWith(`.${domain}`));
}

/** Splits `host:port`, `[v6]:port`, `[v6]` and bare `v6` (many colons, no port). Null when malformed. */
function splitEntryPort(entry: string): { host: string; port?: number } | null {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?(\/\d+)?$/.exec(entry);
  if (bracketed) return withPort(`${bracketed[1]}${bracketed[3] ?? ""}`, bracketed[2]);
  const colons = entry.split(":").length - 1;
  if (colons !== 1) return { host: entry };
  const [host = "", port = ""] = entry.split(":");
  return /^\d+$/.test(port) ? withPort(host, port) : null;
}

function withPort(host: string, port: string | undefined): { host: string; port?: number } {
  return port === undefined ? { host } : { host, port: Number(port) };
}

function normalizeHost(host: string): string {
  return stripTrailingDot(unbracket(host.toLowerCase()));
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

function stripTrailingDot(host: string): string {
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

// ---- IP addresses ----

/** An IPv4 (4 bytes) or IPv6 (16 bytes) literal, or null. IPv4 must be a dotted quad; IPv6 has no zone. */
export function parseIp(text: string): Uint8Array | null {
  return parseIPv4(text) ?? parseIPv6(text);
}

function parseIPv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return Uint8Array.from(parts.map(Number));
}

function parseIPv6(text: string): Uint8Array | null {
  const halves = text.split("::");
  if (halves.length > 2 || (halves.length === 2 && halves[0]!.includes("."))) return null;
  const head = hextets(halves[0] ?? "");
  const tail = halves.length === 2 ? hextets(halves[1] ?? "") : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const words = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return Uint8Array.from(words.flatMap((w) => [w >> 8, w & 0xff]));
}

/** Colon-separated 16-bit groups; a trailing dotted quad counts as two groups. */
function hextets(text: string): number[] | null {
  if (text === "") return [];
  const groups = text.split(":");
  const last = groups.at(-1) ?? "";
  const v4 = last.includes(".") ? parseIPv4(last) : null;
  if (last.includes(".") && !v4) return null;
  const hex = v4 ? groups.slice(0, -1) : groups;
  if (!hex.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const words = hex.map((g) => parseInt(g, 16));
  return v4 ? [...words, (v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!] : words;
}

interface IpRange {
  base: Uint8Array;
  prefixBits: number;
}

/** `addr/bits` (a bare address is a single-address range). Null when malformed. */
export function parseCidr(text: string): IpRange | null {
  const [addr = "", bits, extra] = text.split("/");
  const base = parseIp(addr);
  if (!base || extra !== undefined) return null;
  if (bits === undefined) return { base, prefixBits: base.length * 8 };
  const prefixBits = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
  return prefixBits >= 0 && prefixBits <= base.length * 8 ? { base, prefixBits } : null;
}

function inRange(ip: Uint8Array, range: IpRange | null): boolean {
  if (!range || ip.length !== range.base.length) return false;
  for (let bit = 0; bit < range.prefixBits; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, range.prefixBits - bit))) & 0xff;
    if (((ip[bit / 8]! ^ range.base[bit / 8]!) & mask) !== 0) return false;
  }
  return true;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

// ---- URL pieces ----

function tryParseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function decodeCredential(encoded: string, shown: string, bad: (problem: string) => NetConfigError): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw bad(`proxy URL ${shown} has a malformed percent-escape in its credentials`);
  }
}

function basicAuthorization(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
