// A loopback HTTP proxy that forwards through a SOCKS5 server, because Bun's fetch cannot speak
// SOCKS: an explicit socks5:// proxy throws UnsupportedProxyProtocol and ALL_PROXY=socks5:// is
// silently ignored (oven-sh/bun#16812). fetch is pointed at this bridge as a plain HTTP proxy. The
// SOCKS5 handshake itself (RFC 1928, username/password: RFC 1929) is the `socks` package's, loaded
// only when a SOCKS proxy is used; this file turns its failures into hey's words and kinds.
import type { Socket } from "bun";
import { connect as tcpConnect, type Socket as TcpSocket } from "node:net";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { BRIDGE_DETAIL_HEADER, BRIDGE_KIND_HEADER, isUnknownHost, type NetErrorKind } from "./errors.ts";
import { parseIp, type SocksRoute } from "./proxy.ts";

export interface SocksBridgeOptions {
  /**
   * Resolves a name to one IP address, for socks5:// (local DNS). Rejects when it cannot: with code
   * ENOTFOUND (or DNS_ENOTFOUND, EAI_NONAME) when the name does not exist. Default: Bun.dns.
   */
  lookup?: (host: string) => Promise<string>;
}

/** A running bridge. `url` is an http:// proxy URL on 127.0.0.1; close() drops every open tunnel. */
export interface SocksBridge {
  url: string;
  close(): void;
}

const MAX_HEAD_BYTES = 64 * 1024; // a message head this large is not from an HTTP peer we serve
const SOCKS_TIMEOUT_MS = 30_000; // a SOCKS server that accepts but never answers must not hang the request
const HEAD_END = Buffer.from("\r\n\r\n");
const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  407: "Proxy Authentication Required",
  431: "Request Header Fields Too Large",
  502: "Bad Gateway",
};
/** RFC 1928 §6 reply codes, by number */
const SOCKS_REPLIES = [
  "succeeded",
  "general failure",
  "connection not allowed by ruleset",
  "network unreachable",
  "host unreachable",
  "connection refused",
  "TTL expired",
  "command not supported",
  "address type not supported",
];
/** The `socks` package's names of the reply codes (its Socks5Response), in their order. */
const SOCKS_REPLY_NAMES = [
  "Granted",
  "Failure",
  "NotAllowed",
  "NetworkUnreachable",
  "HostUnreachable",
  "ConnectionRefused",
  "TTLExpired",
  "CommandNotSupported",
  "AddressNotSupported",
];
/**
 * The reply codes that say the server could not be reached (retryable, as a refused direct
 * connection); the others are the proxy's refusal (2: its ruleset; 7, 8: what it does not support).
 * 1 "general failure" is how microsocks and others answer a name they could not resolve or a host
 * they could not connect to — not a rule.
 */
const SOCKS_UPSTREAM_REPLIES = new Set([1, 3, 4, 5, 6]);
/** What a reply code means for the user, where its RFC name alone misleads. */
const SOCKS_REPLY_WORDS: Record<number, string> = { 1: "general failure: it could not resolve the host name or connect to it" };

type Lookup = (host: string) => Promise<string>;
type Destination = { host: string; port: number; path: string };

/** The tunnel's way to the client: what the client has not taken yet; the SOCKS side is paused meanwhile. */
interface Pipe {
  push(bytes: Buffer): void;
  drain(): void;
  /** Ends the client's side once everything queued has been written. */
  end(): void;
}

interface Tunnel {
  upstream: TcpSocket;
  toClient: Pipe;
}

interface Client {
  buffered: Buffer; // the request head, and any body bytes, until the tunnel is up
  opening: boolean;
  tunnel: Tunnel | null;
  closed: boolean;
}

/** A failure of the SOCKS side, with the kind fetch's caller is told (errors.ts) and its words. */
class BridgeError extends Error {
  constructor(
    readonly kind: NetErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the bridge for one SOCKS5 route. The listener does not keep the process alive. */
export async function startSocksBridge(route: SocksRoute, opts: SocksBridgeOptions = {}): Promise<SocksBridge> {
  const lookup = opts.lookup ?? lookupWithBun;
  const upstreams = new Set<TcpSocket>();
  const listener = Bun.listen<Client>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        client.data = { buffered: Buffer.alloc(0), opening: false, tunnel: null, closed: false };
      },
      data(client, bytes) {
        const state = client.data;
        if (state.tunnel) return toUpstream(client, state.tunnel.upstream, bytes);
        state.buffered = Buffer.concat([state.buffered, bytes]);
        if (state.opening) return;
        const headEnd = state.buffered.indexOf(HEAD_END);
        if (headEnd === -1 && state.buffered.length > MAX_HEAD_BYTES) return reject(client, 431, new BridgeError("proxy_refused", "request head too large"));
        if (headEnd === -1) return;
        state.opening = true;
        void serve(client, headEnd + HEAD_END.length, route, lookup, upstreams);
      },
      drain(client) {
        client.data.tunnel?.toClient.drain();
      },
      close(client) {
        client.data.closed = true;
        client.data.tunnel?.upstream.end();
      },
      error() {}, // the close handler follows and tears the tunnel down
    },
  });
  listener.unref();
  return {
    url: `http://127.0.0.1:${listener.port}`,
    close() {
      listener.stop(true);
      for (const upstream of upstreams) upstream.end();
    },
  };
}

/** Handles one proxy request (CONNECT or absolute-form) whose head is the first `headLength` bytes. */
async function serve(client: Socket<Client>, headLength: number, route: SocksRoute, lookup: Lookup, upstreams: Set<TcpSocket>): Promise<void> {
  const request = parseHead(client.data.buffered.toString("latin1", 0, headLength));
  const isConnect = request?.method === "CONNECT";
  const destination = request && (isConnect ? parseAuthority(request.target) : parseAbsoluteUrl(request.target));
  if (!request || !destination) return reject(client, 400, new BridgeError("proxy_refused", "expected CONNECT host:port or an absolute http:// URL"));

  let upstream: TcpSocket;
  try {
    upstream = await openSocksTunnel(route, destination, lookup);
  } catch (e) {
    const failure = e instanceof BridgeError ? e : new BridgeError("upstream", `SOCKS5 failed: ${String(e)}`);
    return reject(client, failure.kind === "proxy_auth" ? 407 : 502, failure);
  }
  if (client.data.closed) return void upstream.end();

  const tunnel: Tunnel = { upstream, toClient: makePipe(upstream, client) };
  const toClient = (bytes: Buffer) => tunnel.toClient.push(bytes);
  upstreams.add(upstream);
  upstream.on("data", isConnect ? toClient : withConnectionClose(toClient));
  upstream.on("drain", () => client.resume());
  upstream.on("error", () => {}); // the close that follows tears the tunnel down
  upstream.on("close", () => {
    upstreams.delete(upstream);
    tunnel.toClient.end();
  });
  const body = client.data.buffered.subarray(headLength);
  client.data = { ...client.data, buffered: Buffer.alloc(0), tunnel };
  if (isConnect) toClient(Buffer.from("HTTP/1.1 200 Connection Established\r\n\r\n"));
  else toUpstream(client, upstream, Buffer.from(originFormHead(request, destination.path), "latin1"));
  if (body.length > 0) toUpstream(client, upstream, body);
  upstream.resume();
}

/** Client bytes to the SOCKS side; the client is paused while the SOCKS socket's buffer is full. */
function toUpstream(client: Socket<Client>, upstream: TcpSocket, bytes: Buffer): void {
  if (!upstream.write(bytes)) client.pause();
}

// ---- SOCKS5 ----

/**
 * A socket to the SOCKS server with the CONNECT to `to` done (the `socks` package's handshake on a
 * connection made here, so a failed dial keeps its errno). Throws BridgeError.
 */
async function openSocksTunnel(route: SocksRoute, to: Destination, lookup: Lookup): Promise<TcpSocket> {
  const host = await socksHost(route, to.host, lookup);
  const socket = await new Promise<TcpSocket>((resolve, reject) => {
    const s = tcpConnect({ host: route.host, port: route.port });
    s.once("connect", () => resolve(s));
    s.once("error", (e) => reject(new BridgeError("proxy_unreachable", connectFailure(e))));
  });
  const { SocksClient } = await import("socks");
  const credentials = route.username !== undefined ? { userId: route.username, password: route.password ?? "" } : {};
  try {
    const { socket: tunnel } = await SocksClient.createConnection({
      proxy: { host: route.host, port: route.port, type: 5, ...credentials },
      command: "connect",
      destination: { host, port: to.port },
      existing_socket: socket,
      timeout: SOCKS_TIMEOUT_MS,
    });
    return tunnel as TcpSocket;
  } catch (e) {
    socket.destroy();
    throw socksFailure(errorText(e), route);
  }
}

/** What a failed handshake says, in hey's words and kinds (the `socks` package's messages are its ERRORS). */
function socksFailure(message: string, route: SocksRoute): BridgeError {
  const rejected = /^Socks5 proxy rejected connection - (\w+)$/.exec(message);
  if (rejected) {
    const reply = SOCKS_REPLY_NAMES.indexOf(rejected[1]!);
    return new BridgeError(
      SOCKS_UPSTREAM_REPLIES.has(reply) ? "upstream" : "proxy_refused",
      `SOCKS5 reply ${reply}: ${SOCKS_REPLY_WORDS[reply] ?? SOCKS_REPLIES[reply] ?? "unknown error"}`,
    );
  }
  if (/invalid socks version|initial handshake response/.test(message))
    return new BridgeError("proxy_refused", `${route.host}:${route.port} does not speak SOCKS5`);
  if (/no accepted authentication type/.test(message))
    return route.username === undefined
      ? new BridgeError("proxy_auth", "SOCKS5 server requires a username and password")
      : new BridgeError("proxy_refused", "the SOCKS5 server accepts none of the offered authentication methods");
  if (/Authentication failed/.test(message)) return new BridgeError("proxy_auth", "SOCKS5 username/password rejected");
  if (/timed out/.test(message)) return new BridgeError("upstream", `no answer from the SOCKS5 server within ${SOCKS_TIMEOUT_MS / 1000} s`);
  if (/Socket closed/.test(message)) return new BridgeError("upstream", "the SOCKS5 server closed the connection");
  return new BridgeError("upstream", `SOCKS5 failed: ${message}`);
}

/** The destination as the SOCKS server is told it: IP literals as IPs; names as-is (socks5h) or resolved here (socks5). */
async function socksHost(route: SocksRoute, host: string, lookup: Lookup): Promise<string> {
  if (parseIp(host) || route.remoteDns) {
    if (!parseIp(host) && Buffer.byteLength(host) > 255) throw new BridgeError("proxy_refused", `host name too long for SOCKS5: ${host.slice(0, 40)}…`);
    return host;
  }
  let failure: unknown;
  const resolved = await lookup(host).then(
    (ip) => (parseIp(ip) ? ip : null),
    (e: unknown) => ((failure = e), null),
  );
  if (resolved) return resolved;
  // a name that does not exist stays so: only a resolver that could not answer (EAI_AGAIN, a timeout) may do better on a retry
  if (failure === undefined || isUnknownHost(failure))
    throw new BridgeError("no_such_host", `cannot resolve ${host} locally; use socks5h:// to let the proxy resolve names`);
  throw new BridgeError(
    "upstream",
    `cannot resolve ${host} locally (${errnoCode(failure) ?? errorText(failure)}); use socks5h:// to let the proxy resolve names`,
  );
}

async function lookupWithBun(host: string): Promise<string> {
  const [first] = await Bun.dns.lookup(host);
  if (!first) throw Object.assign(new Error(`no address for ${host}`), { code: "ENOTFOUND" });
  return first.address;
}

// ---- HTTP proxy side ----

interface RequestHead {
  method: string;
  target: string;
  version: string;
  headers: string[];
}

function parseHead(head: string): RequestHead | null {
  const [requestLine = "", ...lines] = head.split("\r\n");
  const [method, target, version, extra] = requestLine.split(" ");
  if (!method || !target || !version?.startsWith("HTTP/") || extra !== undefined) return null;
  return { method, target, version, headers: lines.filter((line) => line !== "") };
}

function parseAuthority(target: string): Destination | null {
  const match = /^(\[[^\]]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(target);
  return match ? { host: unbracket(match[1]!), port: Number(match[2]), path: "" } : null;
}

function parseAbsoluteUrl(target: string): Destination | null {
  if (!/^http:\/\//i.test(target) || !URL.canParse(target)) return null;
  const url = new URL(target);
  return { host: unbracket(url.hostname), port: url.port === "" ? 80 : Number(url.port), path: url.pathname + url.search };
}

/**
 * The request as the origin expects it: origin-form target, no Proxy-* headers, and
 * `Connection: close`, so the client never reuses this tunnel for a request to another host.
 */
function originFormHead(request: RequestHead, path: string): string {
  const headers = request.headers.filter((line) => !/^(proxy-[^:]*|connection|keep-alive)\s*:/i.test(line));
  return [`${request.method} ${path} ${request.version}`, ...headers, "Connection: close", "", ""].join("\r\n");
}

/**
 * Forwards a response with `Connection: close` in its head. The origin closes after our
 * `Connection: close` request without always saying so (Bun.serve does not), and Bun's fetch would
 * then pool this connection and send its next request into a closed tunnel (ECONNRESET).
 */
function withConnectionClose(forward: (bytes: Buffer) => void): (bytes: Buffer) => void {
  let head: Buffer | null = Buffer.alloc(0);
  return (bytes) => {
    if (head === null) return forward(bytes);
    const buffered = Buffer.concat([head, bytes]);
    const end = buffered.indexOf(HEAD_END);
    if (end === -1 && buffered.length <= MAX_HEAD_BYTES) return void (head = buffered);
    head = null;
    if (end === -1) return forward(buffered);
    const kept = buffered
      .toString("latin1", 0, end)
      .split("\r\n")
      .filter((line) => !/^(connection|keep-alive)\s*:/i.test(line));
    forward(Buffer.from([...kept, "Connection: close", "", ""].join("\r\n"), "latin1"));
    if (buffered.length > end + HEAD_END.length) forward(buffered.subarray(end + HEAD_END.length));
  };
}

/**
 * Answers with an error and closes. The kind and the words go in headers, which fetch keeps on its
 * ERR_PROXY_TUNNEL error for CONNECT (it drops the body), for proxiedFetch to tell the user.
 */
function reject(client: Socket<Client>, status: number, failure: BridgeError): void {
  const detail = failure.message.replace(/[^\x20-\x7e]/g, "?");
  const body = Buffer.from(`hey socks bridge: ${failure.message}\n`);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}`,
    "Content-Type: text/plain; charset=utf-8",
    `${BRIDGE_KIND_HEADER}: ${failure.kind}`,
    `${BRIDGE_DETAIL_HEADER}: ${detail}`,
    `Content-Length: ${body.length}`,
    "Connection: close",
  ];
  client.end(Buffer.concat([Buffer.from(head.join("\r\n") + "\r\n\r\n", "latin1"), body]));
}

// ---- plumbing ----

function makePipe(from: TcpSocket, to: Socket<Client>): Pipe {
  const queue: Buffer[] = [];
  let ending = false;
  const endIfDone = () => {
    if (ending && queue.length === 0) to.end();
  };
  return {
    push(bytes) {
      if (queue.length === 0) {
        const written = to.write(bytes);
        if (written >= bytes.length) return;
        bytes = bytes.subarray(Math.max(written, 0));
      }
      queue.push(bytes);
      from.pause();
    },
    drain() {
      while (queue.length > 0) {
        const chunk = queue[0]!;
        const written = to.write(chunk);
        if (written < chunk.length) return void (queue[0] = chunk.subarray(Math.max(written, 0)));
        queue.shift();
      }
      from.resume();
      endIfDone();
    },
    end() {
      ending = true;
      endIfDone();
    },
  };
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** "connection refused (ECONNREFUSED)" for a failed dial of the SOCKS server. */
function connectFailure(e: unknown): string {
  const code = errnoCode(e);
  if (code === undefined) return errorText(e);
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "no such host",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
  };
  return words[code] ? `${words[code]} (${code})` : code;
}
