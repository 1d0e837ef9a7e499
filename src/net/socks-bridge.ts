// A loopback HTTP proxy that forwards through a SOCKS5 server, because Bun's fetch cannot speak
// SOCKS: an explicit socks5:// proxy throws UnsupportedProxyProtocol and ALL_PROXY=socks5:// is
// silently ignored (oven-sh/bun#16812). fetch is pointed at this bridge as a plain HTTP proxy.
import type { Socket } from "bun";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { BRIDGE_DETAIL_HEADER, BRIDGE_KIND_HEADER, type NetErrorKind } from "./errors.ts";
import { parseIp, type SocksRoute } from "./proxy.ts";

export interface SocksBridgeOptions {
  /** Resolves a name to one IP address, for socks5:// (local DNS). Rejects when it cannot. Default: Bun.dns. */
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
const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 407: "Proxy Authentication Required", 431: "Request Header Fields Too Large", 502: "Bad Gateway" };
const SOCKS_VERSION = 5;
const AUTH = { none: 0x00, userPass: 0x02, noneAcceptable: 0xff } as const;
const ATYP = { ipv4: 1, domain: 3, ipv6: 4 } as const;
/** RFC 1928 §6 reply codes, by number */
const SOCKS_REPLIES = ["succeeded", "general failure", "connection not allowed by ruleset", "network unreachable",
  "host unreachable", "connection refused", "TTL expired", "command not supported", "address type not supported"];
/** The reply codes that say the server could not be reached (retryable, as a refused direct connection); the others are the proxy's refusal. */
const SOCKS_UPSTREAM_REPLIES = new Set([3, 4, 5, 6]);

type Lookup = (host: string) => Promise<string>;
type Destination = { host: string; port: number; path: string };

/** One direction of a tunnel: what the destination has not taken yet; the source is paused meanwhile. */
interface Pipe {
  push(bytes: Buffer): void;
  drain(): void;
  /** Ends the destination once everything queued has been written. */
  end(): void;
}

interface Tunnel {
  upstream: Socket<Upstream>;
  toUpstream: Pipe;
  toClient: Pipe;
}

interface Client {
  buffered: Buffer; // the request head, and any body bytes, until the tunnel is up
  opening: boolean;
  tunnel: Tunnel | null;
  closed: boolean;
}

/** Swappable handlers: the SOCKS handshake reader first, then the pipe to the client. */
interface Upstream {
  onData(bytes: Buffer): void;
  onDrain(): void;
  onClose(): void;
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
  const upstreams = new Set<Socket<Upstream>>();
  const listener = Bun.listen<Client>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        client.data = { buffered: Buffer.alloc(0), opening: false, tunnel: null, closed: false };
      },
      data(client, bytes) {
        const state = client.data;
        if (state.tunnel) return state.tunnel.toUpstream.push(bytes);
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
async function serve(client: Socket<Client>, headLength: number, route: SocksRoute, lookup: Lookup, upstreams: Set<Socket<Upstream>>): Promise<void> {
  const request = parseHead(client.data.buffered.toString("latin1", 0, headLength));
  const isConnect = request?.method === "CONNECT";
  const destination = request && (isConnect ? parseAuthority(request.target) : parseAbsoluteUrl(request.target));
  if (!request || !destination) return reject(client, 400, new BridgeError("proxy_refused", "expected CONNECT host:port or an absolute http:// URL"));

  let upstream: Socket<Upstream>;
  try {
    upstream = await openSocksTunnel(route, destination, lookup);
  } catch (e) {
    const failure = e instanceof BridgeError ? e : new BridgeError("upstream", `SOCKS5 failed: ${String(e)}`);
    return reject(client, failure.kind === "proxy_auth" ? 407 : 502, failure);
  }
  if (client.data.closed) return void upstream.end();

  const tunnel: Tunnel = { upstream, toUpstream: makePipe(client, upstream), toClient: makePipe(upstream, client) };
  const toClient = (bytes: Buffer) => tunnel.toClient.push(bytes);
  upstreams.add(upstream);
  upstream.data = {
    onData: isConnect ? toClient : withConnectionClose(toClient),
    onDrain: () => tunnel.toUpstream.drain(),
    onClose: () => {
      upstreams.delete(upstream);
      tunnel.toClient.end();
    },
  };
  const body = client.data.buffered.subarray(headLength);
  client.data = { ...client.data, buffered: Buffer.alloc(0), tunnel };
  if (isConnect) toClient(Buffer.from("HTTP/1.1 200 Connection Established\r\n\r\n"));
  else tunnel.toUpstream.push(Buffer.from(originFormHead(request, destination.path), "latin1"));
  if (body.length > 0) tunnel.toUpstream.push(body);
}

// ---- SOCKS5 (RFC 1928; username/password: RFC 1929) ----

/** A socket to the SOCKS server with the CONNECT to `to` done. Throws BridgeError. */
async function openSocksTunnel(route: SocksRoute, to: Destination, lookup: Lookup): Promise<Socket<Upstream>> {
  const address = await socksAddress(route, to.host, lookup);
  const reader = makeReader();
  const timer = setTimeout(() => reader.fail(`no answer from the SOCKS5 server within ${SOCKS_TIMEOUT_MS / 1000} s`), SOCKS_TIMEOUT_MS);
  const socket = await Bun.connect<Upstream>({
    hostname: route.host,
    port: route.port,
    data: { onData: reader.push, onDrain() {}, onClose: () => reader.fail("the SOCKS5 server closed the connection") },
    socket: {
      data: (s, bytes) => s.data.onData(bytes),
      drain: (s) => s.data.onDrain(),
      close: (s) => s.data.onClose(),
      error() {},
      connectError() {},
    },
  }).catch((e: unknown) => {
    clearTimeout(timer);
    throw new BridgeError("proxy_unreachable", connectFailure(e));
  });
  try {
    await authenticate(socket, reader, route);
    socket.write(Uint8Array.of(SOCKS_VERSION, 1 /* CONNECT */, 0, ...address, to.port >> 8, to.port & 0xff));
    const [, reply = 1, , atyp] = await reader.read(4);
    if (reply !== 0)
      throw new BridgeError(SOCKS_UPSTREAM_REPLIES.has(reply) ? "upstream" : "proxy_refused", `SOCKS5 reply ${reply}: ${SOCKS_REPLIES[reply] ?? "unknown error"}`);
    const boundLength = atyp === ATYP.ipv4 ? 4 : atyp === ATYP.ipv6 ? 16 : (await reader.read(1))[0]!;
    await reader.read(boundLength + 2);
    return socket;
  } catch (e) {
    socket.end();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function authenticate(socket: Socket<Upstream>, reader: Reader, route: SocksRoute): Promise<void> {
  const hasCredentials = route.username !== undefined;
  socket.write(Uint8Array.of(SOCKS_VERSION, ...(hasCredentials ? [2, AUTH.none, AUTH.userPass] : [1, AUTH.none])));
  const [version, method] = await reader.read(2);
  if (version !== SOCKS_VERSION) throw new BridgeError("proxy_refused", `${route.host}:${route.port} does not speak SOCKS5`);
  if (method === AUTH.none) return;
  if (method === AUTH.userPass && hasCredentials) {
    const user = Buffer.from(route.username ?? "");
    const pass = Buffer.from(route.password ?? "");
    socket.write(Uint8Array.of(1, user.length, ...user, pass.length, ...pass));
    const [, status] = await reader.read(2);
    if (status !== 0) throw new BridgeError("proxy_auth", "SOCKS5 username/password rejected");
    return;
  }
  if (method === AUTH.noneAcceptable && !hasCredentials) throw new BridgeError("proxy_auth", "SOCKS5 server requires a username and password");
  throw new BridgeError("proxy_refused", "the SOCKS5 server accepts none of the offered authentication methods");
}

/** ATYP and address bytes: IP literals as IPs; names sent as-is (socks5h) or resolved here (socks5). */
async function socksAddress(route: SocksRoute, host: string, lookup: Lookup): Promise<number[]> {
  const literal = parseIp(host);
  if (literal) return ipAddress(literal);
  if (route.remoteDns) {
    const name = Buffer.from(host);
    if (name.length > 255) throw new BridgeError("proxy_refused", `host name too long for SOCKS5: ${host.slice(0, 40)}…`);
    return [ATYP.domain, name.length, ...name];
  }
  const resolved = await lookup(host).then(parseIp, () => null);
  if (!resolved) throw new BridgeError("upstream", `cannot resolve ${host} locally; use socks5h:// to let the proxy resolve names`);
  return ipAddress(resolved);
}

function ipAddress(ip: Uint8Array): number[] {
  return [ip.length === 4 ? ATYP.ipv4 : ATYP.ipv6, ...ip];
}

async function lookupWithBun(host: string): Promise<string> {
  const [first] = await Bun.dns.lookup(host);
  if (!first) throw new Error(`no address for ${host}`);
  return first.address;
}

interface Reader {
  push(bytes: Buffer): void;
  fail(reason: string): void;
  /** Resolves with exactly n bytes; rejects with a BridgeError once the connection failed. */
  read(n: number): Promise<Buffer>;
}

/** Exact-length reads over a socket's data events, for the handshake. */
function makeReader(): Reader {
  let buffered = Buffer.alloc(0);
  let failure: BridgeError | null = null;
  let waiting: { n: number; resolve(b: Buffer): void; reject(e: Error): void } | null = null;
  const settle = () => {
    if (waiting && buffered.length >= waiting.n) {
      waiting.resolve(buffered.subarray(0, waiting.n));
      buffered = buffered.subarray(waiting.n);
      waiting = null;
    } else if (waiting && failure) {
      waiting.reject(failure);
      waiting = null;
    }
  };
  return {
    push(bytes) {
      buffered = Buffer.concat([buffered, bytes]);
      settle();
    },
    fail(reason) {
      failure ??= new BridgeError("upstream", reason);
      settle();
    },
    read: (n) =>
      new Promise((resolve, reject) => {
        waiting = { n, resolve, reject };
        settle();
      }),
  };
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
    const kept = buffered.toString("latin1", 0, end).split("\r\n").filter((line) => !/^(connection|keep-alive)\s*:/i.test(line));
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

function makePipe(from: Socket<unknown>, to: Socket<unknown>): Pipe {
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
  const words: Record<string, string> = { ECONNREFUSED: "connection refused", ENOTFOUND: "no such host", EHOSTUNREACH: "host unreachable", ENETUNREACH: "network unreachable" };
  return words[code] ? `${words[code]} (${code})` : code;
}
