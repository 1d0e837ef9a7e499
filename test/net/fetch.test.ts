// proxiedFetch end to end on loopback: a model-like server reached as `model.test`, a name only the
// test proxies resolve, so a successful request proves which way it went.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { NetError } from "../../src/net/errors.ts";
import { proxiedFetch } from "../../src/net/fetch.ts";
import { startSocksBridge } from "../../src/net/socks-bridge.ts";
import type { ProxySources } from "../../src/net/proxy.ts";
import { startHttpProxy, startSilentServer, startSocks5Server, type TestProxy } from "../helpers/proxies.ts";

const LOCAL_ONLY_IP = "10.9.8.7"; // what the injected lookup answers for model.test; only the SOCKS server maps it
const HOSTS = { "model.test": "127.0.0.1", [LOCAL_ONLY_IP]: "127.0.0.1" };
const SSE_CHUNKS = 4;
const SSE_DELAY_MS = 40;

const started: { close(): void }[] = [];
afterEach(() => {
  for (const server of started.splice(0)) server.close();
});
async function track<T extends { close(): void }>(server: Promise<T>): Promise<T> {
  started.push(await server);
  return started.at(-1) as T;
}
const httpProxy = (credentials?: { username: string; password: string }) => track(startHttpProxy({ hosts: HOSTS, credentials }));
const socksServer = (users?: Record<string, string>) => track(startSocks5Server({ hosts: HOSTS, users }));
const socksUrl = (server: TestProxy<unknown>, scheme: string, userinfo = "") => `${scheme}://${userinfo}127.0.0.1:${server.port}`;
const withCredentials = (url: string, userinfo: string) => url.replace("://", `://${userinfo}@`);

let model: ReturnType<typeof Bun.serve>;
let modelPort: number;
let MODEL: string;
beforeAll(() => {
  model = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: modelRoutes });
  modelPort = model.port!;
  MODEL = `http://model.test:${modelPort}`;
});
afterAll(() => model.stop(true));

async function modelRoutes(req: Request): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname === "/v1/models") return Response.json({ object: "list", data: [{ id: "tiny", object: "model", created: 0, owned_by: "test" }] });
  if (url.pathname === "/v1/stream") return sse();
  const body = req.method === "POST" ? await req.json() : null;
  return Response.json({ method: req.method, host: req.headers.get("host"), proxyAuth: req.headers.get("proxy-authorization"), body });
}

function sse(): Response {
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (let n = 0; n < SSE_CHUNKS; n++) {
        controller.enqueue(new TextEncoder().encode(`data: {"n":${n}}\n\n`));
        await Bun.sleep(SSE_DELAY_MS);
      }
      controller.enqueue(new TextEncoder().encode("data: [DONE]\n\n"));
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream" } });
}

/** The SSE events as they arrive, with the number of separate reads they came in. */
async function readEvents(res: Response): Promise<{ events: string[]; reads: number }> {
  let text = "";
  let reads = 0;
  for await (const chunk of res.body!) {
    text += new TextDecoder().decode(chunk);
    reads++;
  }
  return { events: text.split("\n\n").filter(Boolean), reads };
}

const EXPECTED_EVENTS = [...Array.from({ length: SSE_CHUNKS }, (_, n) => `data: {"n":${n}}`), "data: [DONE]"];

describe("through an HTTP proxy", () => {
  test.each<[string, (proxyUrl: string) => ProxySources]>([
    ["HTTP_PROXY", (url) => ({ env: { HTTP_PROXY: url } })],
    ["ALL_PROXY", (url) => ({ env: { ALL_PROXY: url } })],
    ["--proxy", (url) => ({ cli: url, env: {} })],
    ["[proxy] url", (url) => ({ config: url, env: {} })],
    ["--proxy without a scheme", (url) => ({ cli: url.replace("http://", ""), env: {} })],
  ])("%s routes the request", async (_name, sources) => {
    const proxy = await httpProxy();
    const res = await proxiedFetch(sources(proxy.url))(`${MODEL}/v1/echo`);
    expect(await res.json()).toMatchObject({ method: "GET", host: `model.test:${modelPort}`, proxyAuth: null });
    expect(proxy.log).toEqual([{ method: "GET", target: `${MODEL}/v1/echo`, proxyAuthorization: undefined }]);
  });

  test("credentials in the URL become Proxy-Authorization, and the origin never sees it", async () => {
    const proxy = await httpProxy({ username: "alice", password: "s3cr@t" });
    const fetchVia = proxiedFetch({ cli: withCredentials(proxy.url, "alice:s3cr%40t"), env: {} });
    const res = await fetchVia(`${MODEL}/v1/echo`);
    expect(await res.json()).toMatchObject({ proxyAuth: null });
    expect(proxy.log[0]?.proxyAuthorization).toBe(`Basic ${btoa("alice:s3cr@t")}`);
  });

  test("a refused CONNECT is a permanent NetError naming the proxy and its variable, without the password", async () => {
    const proxy = await httpProxy({ username: "alice", password: "right" });
    const fetchVia = proxiedFetch({ env: { HTTPS_PROXY: withCredentials(proxy.url, "alice:wrong-pass") } });
    const error = await rejectionOf(fetchVia(`https://model.test:${modelPort}/`));
    expect(error).toBeInstanceOf(NetError);
    expect(error).toMatchObject({ kind: "proxy_auth", permanent: true });
    expect(error.message).toBe(
      `the proxy http://***@127.0.0.1:${proxy.port} (from HTTPS_PROXY) rejected the credentials in its URL (407 Proxy Authentication Required) — check the user and password in HTTPS_PROXY`,
    );
    expect(`${error.message} ${String(error.stack)} ${JSON.stringify(error)}`).not.toContain("wrong-pass");
    expect(proxy.log.map((r) => r.method)).toEqual(["CONNECT"]);
  });

  test("a plain-http request the proxy answers with 407 is the same NetError, not the server's answer", async () => {
    const proxy = await httpProxy({ username: "alice", password: "right" });
    const error = await rejectionOf(proxiedFetch({ cli: withCredentials(proxy.url, "alice:wrong-pass"), env: {} })(`${MODEL}/v1/echo`));
    expect(error).toMatchObject({ kind: "proxy_auth", permanent: true });
    expect(error.message).toContain("(from --proxy)");
  });

  test("a POST with a JSON body and a streamed SSE response come through intact", async () => {
    const proxy = await httpProxy();
    await expectPostAndStream(proxiedFetch({ cli: proxy.url, env: {} }));
    expect(proxy.log.map((r) => r.method)).toEqual(["POST", "GET"]);
  });

  test("works as the openai SDK's fetch", async () => {
    const proxy = await httpProxy();
    const client = new OpenAI({ apiKey: "test", baseURL: `${MODEL}/v1`, maxRetries: 0, fetch: proxiedFetch({ cli: proxy.url, env: {} }) });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["tiny"]);
    expect(proxy.log.map((r) => r.target)).toEqual([`${MODEL}/v1/models`]);
  });
});

describe("direct", () => {
  test("a NO_PROXY match goes direct, where model.test does not resolve", async () => {
    const proxy = await httpProxy();
    const fetchVia = proxiedFetch({ cli: proxy.url, env: { NO_PROXY: "other.org, *.TEST" } });
    const error = await rejectionOf(fetchVia(`${MODEL}/v1/echo`));
    expect(error.code).toBe("ENOTFOUND");
    expect(proxy.log).toEqual([]);
  });

  test("a loopback target goes direct even with HTTP_PROXY set", async () => {
    const proxy = await httpProxy();
    const res = await proxiedFetch({ env: { HTTP_PROXY: proxy.url } })(`http://127.0.0.1:${modelPort}/v1/echo`);
    expect(res.status).toBe(200);
    expect(proxy.log).toEqual([]);
  });

  test("hey's choice overrides Bun's own HTTP_PROXY and NO_PROXY handling", async () => {
    const proxy = await httpProxy();
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    try {
      process.env.HTTP_PROXY = proxy.url; // Bun alone would send this loopback request to the proxy
      process.env.NO_PROXY = "model.test"; // Bun alone would skip an explicit proxy for this host
      const direct = await proxiedFetch({ env: {} })(`http://127.0.0.1:${modelPort}/v1/echo`);
      expect(direct.status).toBe(200);
      expect(proxy.log).toEqual([]);
      const proxied = await proxiedFetch({ cli: proxy.url, env: {} })(`${MODEL}/v1/echo`);
      expect(proxied.status).toBe(200);
      expect(proxy.log.map((r) => r.target)).toEqual([`${MODEL}/v1/echo`]);
    } finally {
      restoreEnv(saved);
    }
  });

  test("credentials in an error message from fetch are redacted", async () => {
    const failing = (async () => {
      throw new TypeError("could not reach http://alice:s3cret@proxy.corp:8080 for you");
    }) as unknown as typeof fetch;
    const error = await rejectionOf(proxiedFetch({ env: {} }, { base: failing })("https://api.example.com/"));
    expect(error.name).toBe("TypeError");
    expect(error.message).toBe("could not reach http://***@proxy.corp:8080 for you");
    expect(String(error.stack)).not.toContain("s3cret");
  });
});

describe("through a SOCKS5 server", () => {
  test("socks5h:// sends the host name to the SOCKS server", async () => {
    const socks = await socksServer();
    const res = await proxiedFetch({ env: { ALL_PROXY: socksUrl(socks, "socks5h") } })(`${MODEL}/v1/echo`);
    expect(await res.json()).toMatchObject({ host: `model.test:${modelPort}` });
    expect(socks.log).toEqual([{ atyp: 3, host: "model.test", port: modelPort }]);
  });

  test("socks5:// resolves locally and sends the IP", async () => {
    const socks = await socksServer();
    const asked: string[] = [];
    const lookup = async (host: string) => (asked.push(host), LOCAL_ONLY_IP);
    const res = await proxiedFetch({ cli: socksUrl(socks, "socks5"), env: {} }, { lookup })(`${MODEL}/v1/echo`);
    expect(res.status).toBe(200);
    expect(asked).toEqual(["model.test"]);
    expect(socks.log).toEqual([{ atyp: 1, host: LOCAL_ONLY_IP, port: modelPort }]);
  });

  test("socks5:// with a name that does not exist here fails for good, as a direct request to it does, saying to use socks5h://", async () => {
    const socks = await socksServer();
    const lookup = () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "DNS_ENOTFOUND" }));
    const error = await rejectionOf(proxiedFetch({ env: { ALL_PROXY: socksUrl(socks, "socks5") } }, { lookup })(`${MODEL}/v1/echo`));
    expect(error).toMatchObject({ kind: "no_such_host", permanent: true });
    expect(error.message).toBe(
      `the host model.test does not resolve on this machine (no such host), so hey does not retry: socks5:// has this machine resolve names before asking the proxy socks5://127.0.0.1:${socks.port} (from ALL_PROXY) — if only the proxy's side knows model.test, use socks5h://127.0.0.1:${socks.port} in ALL_PROXY; else check the host name`,
    );
    expect(socks.log).toEqual([]);
  });

  test("socks5:// with a resolver that could not answer (EAI_AGAIN) is retryable, and still suggests socks5h://", async () => {
    const socks = await socksServer();
    const lookup = () => Promise.reject(Object.assign(new Error("temporary failure"), { code: "EAI_AGAIN" }));
    const error = await rejectionOf(proxiedFetch({ cli: socksUrl(socks, "socks5"), env: {} }, { lookup })(`https://model.test:${modelPort}/`));
    expect(error).toMatchObject({ kind: "upstream", permanent: false });
    expect(error.message).toContain("cannot resolve model.test locally (EAI_AGAIN); use socks5h://");
    expect(socks.log).toEqual([]);
  });

  test("username and password reach the SOCKS server", async () => {
    const socks = await socksServer({ alice: "s3cr@t" });
    const res = await proxiedFetch({ cli: socksUrl(socks, "socks5h", "alice:s3cr%40t@"), env: {} })(`${MODEL}/v1/echo`);
    expect(res.status).toBe(200);
    expect(socks.log).toEqual([{ atyp: 3, host: "model.test", port: modelPort, username: "alice", password: "s3cr@t" }]);
  });

  test("rejected credentials are the same permanent NetError for http and https targets, without the password", async () => {
    const socks = await socksServer({ alice: "right" });
    const fetchVia = proxiedFetch({ cli: socksUrl(socks, "socks5h", "alice:wrong-pass@"), env: {} });
    const expected = `the proxy socks5h://***@127.0.0.1:${socks.port} (from --proxy) rejected the credentials in its URL (SOCKS5 username/password rejected) — check the user and password in --proxy`;
    for (const url of [`${MODEL}/v1/echo`, `https://model.test:${modelPort}/`]) {
      const error = await rejectionOf(fetchVia(url));
      expect(error).toMatchObject({ kind: "proxy_auth", permanent: true, message: expected });
      expect(String(error.stack)).not.toContain("wrong-pass");
    }
  });

  test("credentials the server requires but the URL lacks: a NetError saying where to put them", async () => {
    const socks = await socksServer({ alice: "right" });
    const error = await rejectionOf(proxiedFetch({ cli: socksUrl(socks, "socks5h"), env: {} })(`${MODEL}/v1/echo`));
    expect(error).toMatchObject({ kind: "proxy_auth", permanent: true });
    expect(error.message).toContain("requires a username and password) — put them in --proxy as socks5h://USER:PASSWORD@HOST:PORT");
  });

  test("a SOCKS server that is not listening is a permanent NetError naming it, not a hang", async () => {
    const socks = await socksServer();
    const deadPort = socks.port;
    socks.close();
    const error = await rejectionOf(proxiedFetch({ cli: `socks5h://127.0.0.1:${deadPort}`, env: {} })(`${MODEL}/v1/echo`));
    expect(error).toMatchObject({ kind: "proxy_unreachable", permanent: true });
    expect(error.message).toBe(
      `cannot reach the proxy socks5h://127.0.0.1:${deadPort} (from --proxy): connection refused (ECONNREFUSED) — is it running, and is --proxy right?`,
    );
  });

  test("SOCKS reply codes in words: the server's refusal is permanent, an unreachable host retryable", async () => {
    const refusing = await track(startSocks5Server({ hosts: HOSTS, reply: 2 }));
    const refused = await rejectionOf(proxiedFetch({ cli: socksUrl(refusing, "socks5h"), env: {} })(`https://model.test:${modelPort}/`));
    expect(refused).toMatchObject({ kind: "proxy_refused", permanent: true });
    expect(refused.message).toContain(`refused to connect to model.test:${modelPort} (SOCKS5 reply 2: connection not allowed by ruleset)`);
    const socks = await socksServer();
    const unreachable = await rejectionOf(proxiedFetch({ cli: socksUrl(socks, "socks5h"), env: {} })(`http://unknown.test:${modelPort}/`));
    expect(unreachable).toMatchObject({ kind: "upstream", permanent: false });
    expect(unreachable.message).toContain(`could not connect to unknown.test:${modelPort} (SOCKS5 reply 4: host unreachable)`);
  });

  test("SOCKS reply 1 (microsocks' answer to a name it cannot resolve) is the proxy failing to reach the host, not its rules", async () => {
    const failing = await track(startSocks5Server({ hosts: HOSTS, reply: 1 }));
    const error = await rejectionOf(proxiedFetch({ cli: socksUrl(failing, "socks5h"), env: {} })(`https://nowhere.test:${modelPort}/`));
    expect(error).toMatchObject({ kind: "upstream", permanent: false });
    expect(error.message).toContain(
      `could not connect to nowhere.test:${modelPort} (SOCKS5 reply 1: general failure: it could not resolve the host name or connect to it)`,
    );
    expect(error.message).not.toContain("rules");
  });

  test("a POST with a JSON body and a streamed SSE response come through intact", async () => {
    const socks = await socksServer();
    await expectPostAndStream(proxiedFetch({ cli: socksUrl(socks, "socks5h"), env: {} }));
    expect(socks.log).toHaveLength(2);
  });

  test("a started bridge does not keep the process alive", async () => {
    const script = `import { startSocksBridge } from ${JSON.stringify(join(import.meta.dir, "../../src/net/socks-bridge.ts"))};
      const bridge = await startSocksBridge({ kind: "socks5", shown: "socks5h://127.0.0.1:1", source: "--proxy", host: "127.0.0.1", port: 1, remoteDns: true });
      console.log(bridge.url);`;
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => child.kill(), 5000);
    const exitCode = await child.exited;
    clearTimeout(timer);
    expect([exitCode, (await new Response(child.stdout).text()).trim()]).toEqual([0, expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)]);
  });

  test("close() drops the bridge's listener", async () => {
    const bridge = await startSocksBridge({ kind: "socks5", shown: "socks5h://127.0.0.1:1", source: "--proxy", host: "127.0.0.1", port: 1, remoteDns: true });
    bridge.close();
    const error = await rejectionOf(fetch(`${MODEL}/`, { proxy: bridge.url }));
    expect(error.code).toBe("ECONNREFUSED");
  });
});

describe("https targets are tunnelled with CONNECT", () => {
  test("the proxy sees CONNECT model.test:PORT (plain-HTTP server, so the TLS handshake then fails)", async () => {
    const proxy = await httpProxy();
    const error = await rejectionOf(proxiedFetch({ env: { HTTPS_PROXY: proxy.url } })(`https://model.test:${modelPort}/`));
    expect(error.message).toContain("TLS handshake failed");
    expect(proxy.log).toEqual([{ method: "CONNECT", target: `model.test:${modelPort}`, proxyAuthorization: undefined }]);
  });

  test("a proxy that takes CONNECT and never answers: a request given up on names the proxy, not the server", async () => {
    const silent = await track(startSilentServer());
    const fetchVia = proxiedFetch({ env: { HTTPS_PROXY: `http://127.0.0.1:${silent.port}` } });
    const error = await rejectionOf(fetchVia(`https://model.test:${modelPort}/v1/stream`, { signal: AbortSignal.timeout(200) }));
    expect(error).toMatchObject({ kind: "proxy_unreachable", permanent: true });
    expect(error.message).toContain(`the proxy http://127.0.0.1:${silent.port} (from HTTPS_PROXY) did not answer CONNECT model.test:${modelPort} in `);
    expect(error.message).toContain("the tunnel never opened, so nothing reached the server");
    // a person's abort is theirs: no probe, no proxy message
    const stopped = new AbortController();
    const aborted = rejectionOf(fetchVia(`https://model.test:${modelPort}/v1/stream`, { signal: stopped.signal }));
    setTimeout(() => stopped.abort(), 100);
    expect((await aborted).name).toBe("AbortError");
  });

  test("hey's own CONNECT to a silent proxy carries no credentials: the proxy's password never crosses that probe's connection", async () => {
    const silent = await track(startSilentServer());
    const fetchVia = proxiedFetch({ env: { HTTPS_PROXY: `http://ana:s3cret-pass@127.0.0.1:${silent.port}` } });
    await rejectionOf(fetchVia(`https://model.test:${modelPort}/v1/stream`, { signal: AbortSignal.timeout(200) }));
    const probes = silent.received().filter((r) => r.startsWith(`CONNECT model.test:${modelPort}`));
    expect(probes.length).toBeGreaterThanOrEqual(2); // the request's own, then hey's probe
    expect(probes.at(-1)).not.toContain("Proxy-Authorization");
  });

  const tls = testCertificate();
  describe("with a self-signed certificate for model.test", () => {
    let secure: ReturnType<typeof Bun.serve>;
    let securePort: number;
    beforeAll(() => {
      secure = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, tls: { cert: tls.cert, key: tls.key }, fetch: modelRoutes });
      securePort = secure.port!;
    });
    afterAll(() => secure.stop(true));

    test("through the HTTP proxy", async () => {
      const proxy = await httpProxy();
      const res = await proxiedFetch({ env: { HTTPS_PROXY: proxy.url } })(`https://model.test:${securePort}/v1/echo`, { tls: { ca: tls.cert } });
      expect(await res.json()).toMatchObject({ host: `model.test:${securePort}` });
      expect(proxy.log.map((r) => `${r.method} ${r.target}`)).toEqual([`CONNECT model.test:${securePort}`]);
    });

    test("through the SOCKS5 bridge, streaming", async () => {
      const socks = await socksServer();
      const res = await proxiedFetch({ env: { HTTPS_PROXY: socksUrl(socks, "socks5h") } })(`https://model.test:${securePort}/v1/stream`, {
        tls: { ca: tls.cert },
      });
      expect((await readEvents(res)).events).toEqual(EXPECTED_EVENTS);
      expect(socks.log).toEqual([{ atyp: 3, host: "model.test", port: securePort }]);
    });
  });
});

async function expectPostAndStream(fetchVia: typeof fetch): Promise<void> {
  const payload = { model: "tiny", messages: [{ role: "user", content: "héllo ✓ ".repeat(2000) }] };
  const posted = await fetchVia(`${MODEL}/v1/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
  expect(await posted.json()).toMatchObject({ method: "POST", body: payload });
  const streamed = await fetchVia(`${MODEL}/v1/stream`);
  expect(streamed.headers.get("content-type")).toBe("text/event-stream");
  const { events, reads } = await readEvents(streamed);
  expect(events).toEqual(EXPECTED_EVENTS);
  expect(reads).toBeGreaterThan(1); // chunks arrive as they are sent, not buffered to the end
}

async function rejectionOf(request: Promise<Response>): Promise<Error & { code?: string }> {
  const outcome: unknown = await request.then(
    (res) => res,
    (e: unknown) => e,
  );
  if (outcome instanceof Error) return outcome;
  throw new Error(`expected the request to reject, got ${outcome instanceof Response ? `HTTP ${outcome.status}` : String(outcome)}`);
}

function restoreEnv(saved: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/**
 * A self-signed certificate for model.test, valid until 2126, committed so the test needs no
 * openssl (made with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes
 * -days 36500 -subj /CN=model.test -addext subjectAltName=DNS:model.test).
 */
function testCertificate(): { cert: string; key: string } {
  const dir = join(import.meta.dir, "..", "fixtures", "tls");
  return { cert: readFileSync(join(dir, "model.test.crt"), "utf8"), key: readFileSync(join(dir, "model.test.key"), "utf8") };
}

test("an https:// proxy that cannot be told (it closes every connection) is probed once, not before every request", async () => {
  let connections = 0;
  const closing = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        connections++;
        socket.end();
      },
      data() {},
    },
  });
  try {
    const fetchVia = proxiedFetch({ cli: `https://127.0.0.1:${closing.port}`, env: {} });
    await expect(fetchVia(`${MODEL}/v1/echo`)).rejects.toThrow();
    const first = connections; // the probes (TLS, HTTP, SOCKS5), then the request
    expect(first).toBeGreaterThanOrEqual(2);
    await expect(fetchVia(`${MODEL}/v1/echo`)).rejects.toThrow();
    expect(connections - first).toBe(1); // the request alone
  } finally {
    closing.stop(true);
  }
});
