// `hey doctor`'s network probes: the host's addresses, a TCP connection to the first hop (the
// server or the proxy), and the server's TLS certificate — read through the same proxy tunnel
// model requests use (CONNECT; SOCKS5 through hey's bridge) — with its issuer and expiry.
import { lookup } from "node:dns/promises";
import { connect, type Socket } from "node:net";
import { checkServerIdentity, connect as tlsConnect, type PeerCertificate } from "node:tls";
import { classifyFetchError, expectedProtocol, proxyTlsError, tlsError, tunnelSilent, unreachableWords, wrongScheme } from "../net/errors.ts";
import { withUnreadCas } from "../net/ca.ts";
import { certificateCheck, speaksAs } from "../net/proxy-probe.ts";
import { parseIp, proxyAddress, type ProxiedRoute, type ProxyRoute } from "../net/proxy.ts";
import { startSocksBridge } from "../net/socks-bridge.ts";
import type { Probes } from "./checks.ts";
import { errorText } from "../kernel/errors.ts";

const CONNECT_TIMEOUT_MS = 5_000; // a first hop that has not answered in 5 s is the problem being looked for
/**
 * How long a TLS handshake, and a proxy's reply to CONNECT, may take. A run waits for its first byte
 * up to [retry] idle_timeout_ms, so a slow handshake (a distant or inspecting hop) is no failure: past
 * this the TLS line says "slow" and the model checks go on. A proxy silent on CONNECT this long is
 * reported, since a run would wait on it in the same silence.
 */
const HANDSHAKE_WAIT_MS = 15_000;
const DAY_MS = 86_400_000;

export interface NetworkOptions {
  /** trusted CAs (net/ca.ts); undefined: the default store */
  ca?: string[];
  /** the provider skips verification: the certificate is read, and its failures reported as such */
  insecure: boolean;
  /** the environment, whose CA variables a certificate failure checks (net/ca.ts withUnreadCas) */
  env: Record<string, string | undefined>;
}

/** DNS, TCP and TLS as `target` is reached on `route`. Never throws: each failure is its probe's outcome. */
export async function probeNetwork(target: URL, route: ProxyRoute, opts: NetworkOptions): Promise<Pick<Probes, "dns" | "tcp" | "tls">> {
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  const out: Pick<Probes, "dns" | "tcp" | "tls"> = { dns: await probeDns(host, route) };
  if (out.dns && !out.dns.ok) return out;
  const hop = firstHop(route, host, port);
  const started = performance.now();
  try {
    const socket = await dial(hop.host, hop.port);
    socket.destroy();
    out.tcp = { ok: true, to: hop.label, ms: Math.round(performance.now() - started) };
  } catch (e) {
    out.tcp = { ok: false, kind: "network", message: `cannot connect to ${hop.label}: ${errorWords(e)}` };
    return out;
  }
  if (route.kind !== "direct") {
    // a proxy URL with the wrong scheme (http:// for a SOCKS5 port…): a run fails or hangs on it as on nothing else
    const wrong = wrongScheme(route, await speaksAs(hop.host, hop.port, expectedProtocol(route)));
    if (wrong) return { ...out, tcp: { ok: false, kind: "network", message: wrong.message, proxy: true } };
  }
  if (route.kind === "http" && route.url.startsWith("https:")) {
    // the tunnel's own TLS (to the proxy) is checked here; the server's inside it would need TLS in TLS
    const failed = await proxyCertificate(route, opts);
    if (failed) out.tls = failed;
  } else if (target.protocol === "https:") out.tls = await probeTls(target, host, port, route, opts);
  return out;
}

async function probeDns(host: string, route: ProxyRoute): Promise<Probes["dns"]> {
  if (parseIp(host)) return { ok: true, skipped: `${host} is an address: nothing to look up` };
  if (route.kind === "http") return { ok: true, skipped: "the proxy looks the host up" };
  if (route.kind === "socks5" && route.remoteDns) return { ok: true, skipped: "the SOCKS5 proxy looks the host up (socks5h)" };
  try {
    const found = await lookup(host, { all: true });
    return { ok: true, addresses: found.map((a) => a.address) };
  } catch (e) {
    return { ok: false, kind: "network", message: `cannot resolve ${host} (${errorWords(e)})` };
  }
}

/** Where the first TCP connection goes. */
function firstHop(route: ProxyRoute, host: string, port: number): { host: string; port: number; label: string } {
  if (route.kind === "direct") return { host, port, label: `${host}:${port}` };
  return { ...proxyAddress(route), label: `${route.kind === "socks5" ? "the SOCKS5 proxy" : "the proxy"} ${route.shown}` };
}

/** The certificate the server presents, checked as model requests check it (the CAs, the host name). */
async function probeTls(target: URL, host: string, port: number, route: ProxyRoute, opts: NetworkOptions): Promise<Probes["tls"]> {
  let socket: Socket;
  let release = () => {};
  try {
    ({ socket, release } = await tunnel(route, host, port));
  } catch (e) {
    const failure = classifyFetchError(e, target, route);
    return {
      ok: false,
      kind: "network",
      message: failure?.message ?? `cannot open a tunnel to ${host}:${port}: ${errorWords(e)}`,
      ...(failure ? { proxy: true as const } : {}),
    };
  }
  const secure = tlsConnect({ socket, rejectUnauthorized: false, ...(parseIp(host) ? {} : { servername: host }), ...(opts.ca ? { ca: opts.ca } : {}) });
  try {
    await new Promise<void>((resolve, reject) => {
      secure.once("secureConnect", resolve);
      secure.once("error", reject);
      setTimeout(() => reject(Object.assign(new Error("slow"), { code: "ETIMEDOUT" })), HANDSHAKE_WAIT_MS).unref();
    });
    const cert = secure.getPeerCertificate();
    const code = secure.authorized ? identityError(host, cert) : String(secure.authorizationError ?? "CERT_UNTRUSTED");
    const details = { issuer: issuerOf(cert), validTo: dateOf(cert.valid_to), daysLeft: Math.floor((Date.parse(cert.valid_to) - Date.now()) / DAY_MS) };
    if (code && !opts.insecure) return { ok: false, kind: "network", message: withUnreadCas(tlsError(code, "", target, route), opts.env).message };
    return { ok: true, ...details, insecure: opts.insecure };
  } catch (e) {
    if ((e as { code?: unknown }).code === "ETIMEDOUT")
      return {
        ok: true,
        slow: `no TLS handshake with ${host}:${port} within ${HANDSHAKE_WAIT_MS / 1000} s: slow (a run waits up to [retry] idle_timeout_ms for a first byte) — the model checks below show whether requests get through`,
      };
    return { ok: false, kind: "network", message: `TLS handshake with ${host}:${port} failed: ${errorWords(e)}` };
  } finally {
    secure.destroy();
    release();
  }
}

/** The TLS failure of an https:// proxy's own certificate, checked with the run's CAs; undefined when it verifies (or is skipped by `insecure`, or no handshake came: the scheme check has said so). */
async function proxyCertificate(route: ProxiedRoute, opts: NetworkOptions): Promise<Probes["tls"] | undefined> {
  if (opts.insecure) return undefined;
  const { host, port } = proxyAddress(route);
  const code = await certificateCheck(host, port, opts.ca, HANDSHAKE_WAIT_MS);
  return code ? { ok: false, kind: "network", message: withUnreadCas(proxyTlsError(code, route), opts.env).message, proxy: true } : undefined;
}

/** "ERR_TLS_CERT_ALTNAME_INVALID" when the certificate is not for `host`, else "". */
function identityError(host: string, cert: PeerCertificate): string {
  return checkServerIdentity(host, cert) ? "ERR_TLS_CERT_ALTNAME_INVALID" : "";
}

/**
 * A socket to host:port: direct, or a tunnel through the HTTP proxy (CONNECT) or the SOCKS5 proxy
 * (through hey's bridge, as fetch goes); `release` stops the bridge once the socket is done with.
 * A refused CONNECT throws the error Bun's fetch would (ERR_PROXY_TUNNEL with status and headers),
 * for classifyFetchError; a failed dial of the proxy throws its code (ECONNREFUSED…).
 */
async function tunnel(route: ProxyRoute, host: string, port: number): Promise<{ socket: Socket; release(): void }> {
  if (route.kind === "direct") return { socket: await dial(host, port), release() {} };
  const bridge = route.kind === "socks5" ? await startSocksBridge(route) : undefined;
  const release = () => bridge?.close();
  try {
    const proxy = new URL(bridge?.url ?? (route as Extract<ProxyRoute, { kind: "http" }>).url);
    const socket = await dial(proxy.hostname, Number(proxy.port));
    const authority = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
    const auth = route.kind === "http" && route.authorization ? `Proxy-Authorization: ${route.authorization}\r\n` : "";
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
    // hey's SOCKS bridge answers by itself, its upstream's silence included (net/socks-bridge.ts SOCKS_TIMEOUT_MS)
    const head = await readHead(socket, route.kind === "http" ? HANDSHAKE_WAIT_MS : undefined).catch((e: unknown) => {
      socket.destroy();
      if ((e as { code?: unknown }).code === "ETIMEDOUT" && route.kind === "http")
        throw tunnelSilent(route, new URL(`https://${authority}`), HANDSHAKE_WAIT_MS / 1000);
      throw e;
    });
    const [statusLine = "", ...headerLines] = head.split("\r\n");
    const [, status = "0", ...words] = statusLine.split(" ");
    if (status.startsWith("2")) return { socket, release };
    socket.destroy();
    const headers = new Headers(
      headerLines.flatMap((l) => (l.includes(":") ? [[l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()] as [string, string]] : [])),
    );
    throw Object.assign(new Error(`Proxy refused to open a tunnel: ${statusLine}`), {
      code: "ERR_PROXY_TUNNEL",
      status: Number(status),
      statusText: words.join(" "),
      headers,
    });
  } catch (e) {
    release();
    throw e;
  }
}

function dial(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`), { code: "ETIMEDOUT" }));
    }, CONNECT_TIMEOUT_MS);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** The head of the reply on `socket`; rejects with ETIMEDOUT when none came within `waitMs` (when given). */
function readHead(socket: Socket, waitMs?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.off("data", onData);
      resolve(buffered.toString("latin1", 0, end));
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.once("close", () => reject(Object.assign(new Error("the proxy closed the connection"), { code: "ECONNRESET" })));
    if (waitMs !== undefined) setTimeout(() => reject(Object.assign(new Error("no reply to CONNECT"), { code: "ETIMEDOUT" })), waitMs).unref();
  });
}

function issuerOf(cert: PeerCertificate): string {
  const issuer = cert.issuer ?? {};
  return [issuer.O, issuer.CN].filter(Boolean).join(" / ") || "an unnamed issuer";
}

/** "Dec  5 04:42:14 2026 GMT" → "2026-12-05". */
function dateOf(validTo: string): string {
  const time = Date.parse(validTo);
  return Number.isNaN(time) ? validTo : new Date(time).toISOString().slice(0, 10);
}

function errorWords(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  const words = typeof code === "string" ? unreachableWords(code) : undefined;
  if (words) return `${words} (${code})`; // not Node's `connect ECONNREFUSED 127.0.0.1:11434`, whose address the line names already
  const message = errorText(e);
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}
