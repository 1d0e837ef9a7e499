// Loopback proxies for tests: an HTTP forward proxy (absolute-form and CONNECT) and a SOCKS5 server.
// Both resolve host names only through `hosts` (e.g. { "model.test": "127.0.0.1" }), so a request
// that reaches the target proves it went through the proxy. The HTTP proxy also takes a port
// there ({ "studio.lan": "127.0.0.1:41234" }), for a server whose port is its name (LM Studio's 1234). Written with node:net, independently of
// hey's own bridge, so they can test it.
import { connect, createServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";

export interface TestProxy<Entry> {
  port: number;
  /** `http://127.0.0.1:PORT` or `socks5://127.0.0.1:PORT` (socks5h:// is the caller's choice). */
  url: string;
  log: Entry[];
  close(): void;
}

export interface HttpProxyRequest {
  method: string;
  /** `http://host:port/path` for absolute-form requests, `host:port` for CONNECT */
  target: string;
  proxyAuthorization: string | undefined;
}

export interface SocksConnect {
  /** 1 IPv4, 3 domain name, 4 IPv6 */
  atyp: number;
  host: string;
  port: number;
  username?: string;
  password?: string;
}

/** An HTTP forward proxy. With `credentials`, other requests get 407 and are not forwarded. */
export async function startHttpProxy(opts: {
  hosts: Record<string, string>;
  credentials?: { username: string; password: string };
}): Promise<TestProxy<HttpProxyRequest>> {
  const log: HttpProxyRequest[] = [];
  const expected = opts.credentials && `Basic ${Buffer.from(`${opts.credentials.username}:${opts.credentials.password}`).toString("base64")}`;
  const server = createServer((client) => {
    client.on("error", () => {});
    readHead(client, (head, rest) => {
      const [requestLine = "", ...headerLines] = head.split("\r\n");
      const [method = "", target = ""] = requestLine.split(" ");
      const proxyAuthorization = headerValue(headerLines, "proxy-authorization");
      log.push({ method, target, proxyAuthorization });
      if (expected && proxyAuthorization !== expected) {
        return void client.end(
          'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
        );
      }
      const badGateway = () => client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      if (method === "CONNECT") {
        const [host = "", port = ""] = splitAuthority(target);
        const open = (upstream: Socket) => {
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          upstream.write(rest);
        };
        return tunnel(client, opts.hosts[host], Number(port), { open, fail: badGateway });
      }
      if (!URL.canParse(target)) return void client.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"); // not absolute-form: a probe of the proxy itself
      const url = new URL(target);
      const headers = headerLines.filter((l) => !/^(proxy-[^:]*|connection|keep-alive):/i.test(l));
      const originHead = [`${method} ${url.pathname}${url.search} HTTP/1.1`, ...headers, "Connection: close", "", ""].join("\r\n");
      const open = (upstream: Socket) => {
        upstream.write(originHead);
        upstream.write(rest);
      };
      const [ip, port = url.port || "80"] = (opts.hosts[url.hostname] ?? "").split(":");
      tunnel(client, ip || undefined, Number(port), { open, fail: badGateway, closeResponse: true });
    });
  });
  return serve(server, "http", log);
}

/**
 * A SOCKS5 server (CONNECT only). With `users`, only username/password auth is accepted; with
 * `reply`, every CONNECT is answered with that reply code (2: not allowed by ruleset, …).
 */
export async function startSocks5Server(opts: {
  hosts: Record<string, string>;
  users?: Record<string, string>;
  reply?: number;
}): Promise<TestProxy<SocksConnect>> {
  const log: SocksConnect[] = [];
  const server = createServer((client) => {
    client.on("error", () => {});
    const { read, stop } = byteReader(client);
    void (async () => {
      const [, methodCount = 0] = await read(2);
      const methods = [...(await read(methodCount))];
      let credentials: { username: string; password: string } | undefined;
      if (opts.users) {
        if (!methods.includes(2)) return void client.end(Buffer.from([5, 0xff]));
        client.write(Buffer.from([5, 2]));
        const [, userLength = 0] = await read(2);
        const username = (await read(userLength)).toString();
        const password = (await read((await read(1))[0]!)).toString();
        credentials = { username, password };
        if (opts.users[username] !== password) return void client.end(Buffer.from([1, 1]));
        client.write(Buffer.from([1, 0]));
      } else {
        client.write(Buffer.from([5, 0]));
      }
      const [, , , atyp = 0] = await read(4);
      const host = atyp === 1 ? [...(await read(4))].join(".") : atyp === 4 ? ipv6Text(await read(16)) : (await read((await read(1))[0]!)).toString();
      const port = (await read(2)).readUInt16BE(0);
      log.push({ atyp, host, port, ...credentials });
      stop();
      const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
      if (opts.reply !== undefined) return void client.end(reply(opts.reply));
      tunnel(client, opts.hosts[host], port, { open: () => client.write(reply(0)), fail: () => client.end(reply(4)) });
    })().catch(() => client.destroy());
  });
  return serve(server, "socks5", log);
}

// ---- plumbing ----

async function serve<Entry>(server: Server, scheme: string, log: Entry[]): Promise<TestProxy<Entry>> {
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    url: `${scheme}://127.0.0.1:${port}`,
    log,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/**
 * Connects to the mapped host and pipes both ways; `fail` runs for an unmapped host or a dial error.
 * `closeResponse` marks the response `Connection: close`: the origin closes after a `Connection: close`
 * request without always saying so (Bun.serve does not), and a client that pooled this connection
 * would send its next request into a dead tunnel.
 */
function tunnel(client: Socket, host: string | undefined, port: number, how: { open(upstream: Socket): void; fail(): void; closeResponse?: boolean }): void {
  if (host === undefined) return how.fail();
  const upstream = connect(port, host);
  upstream.once("error", how.fail);
  upstream.once("connect", () => {
    upstream.off("error", how.fail);
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => client.end());
    how.open(upstream);
    client.pipe(upstream);
    client.resume();
    if (!how.closeResponse) return void upstream.pipe(client);
    readHead(upstream, (head, rest) => {
      const lines = head.split("\r\n").filter((l) => !/^(connection|keep-alive):/i.test(l));
      client.write([...lines, "Connection: close", "", ""].join("\r\n"));
      client.write(rest);
      upstream.pipe(client);
      upstream.resume();
    });
  });
  client.on("close", () => upstream.destroy());
}

/** Calls back with the message head (without the blank line) and any bytes after it; pauses the socket. */
function readHead(socket: Socket, onHead: (head: string, rest: Buffer) => void): void {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf("\r\n\r\n");
    if (end === -1) return;
    socket.off("data", onData);
    socket.pause();
    onHead(buffered.subarray(0, end).toString("latin1"), buffered.subarray(end + 4));
  };
  socket.on("data", onData);
}

/** Sequential exact-length reads from a socket (the SOCKS handshake), rejecting if it closes first. */
function byteReader(socket: Socket): { read(n: number): Promise<Buffer>; stop(): void } {
  let buffered = Buffer.alloc(0);
  let wake = () => {};
  let closed = false;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake();
  };
  socket.on("data", onData);
  socket.on("close", () => {
    closed = true;
    wake();
  });
  return {
    async read(n) {
      while (buffered.length < n) {
        if (closed) throw new Error("closed");
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const out = buffered.subarray(0, n);
      buffered = buffered.subarray(n);
      return out;
    },
    stop() {
      socket.off("data", onData);
      socket.pause();
    },
  };
}

function headerValue(lines: string[], name: string): string | undefined {
  const line = lines.find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line?.slice(name.length + 1).trim();
}

function splitAuthority(target: string): [string, string] {
  const colon = target.lastIndexOf(":");
  return [target.slice(0, colon).replace(/^\[|\]$/g, ""), target.slice(colon + 1)];
}

function ipv6Text(bytes: Buffer): string {
  const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16));
  return groups.join(":");
}

/** A TCP server that takes connections and what they send, and never answers (a proxy stuck on CONNECT). */
export async function startSilentServer(): Promise<{ port: number; close(): void; received(): string[] }> {
  const sockets = new Set<Socket>();
  const received: string[] = []; // what each connection sent, as text
  const server = createServer((socket) => {
    sockets.add(socket);
    const at = received.push("") - 1;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => void (received[at] += chunk.toString("latin1")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    received: () => [...received],
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** A TLS terminator with `keys` in front of the plain proxy at 127.0.0.1:`upstreamPort`: an https:// proxy as users have them (squid's https_port). */
export async function startTlsFront(keys: { cert: string; key: string }, upstreamPort: number): Promise<{ port: number; close(): void }> {
  const server = createTlsServer(keys, (client) => {
    const upstream = connect({ host: "127.0.0.1", port: upstreamPort });
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}
