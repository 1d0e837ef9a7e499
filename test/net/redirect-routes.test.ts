// Redirects through proxiedFetch: each hop goes the way its own URL is routed (proxy, NO_PROXY,
// loopback), with fetch's rules for method, body and credentials. The test proxies resolve
// `model.test` only for themselves, so an answer from it proves the hop went through the proxy.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { proxiedFetch } from "../../src/net/fetch.ts";
import { startHttpProxy, startSocks5Server } from "../helpers/proxies.ts";

const HOSTS = { "model.test": "127.0.0.1" };

let server: ReturnType<typeof Bun.serve>;
let port: number;
/** The server as reached directly (loopback) and as `model.test` (only through a proxy). */
let DIRECT: string;
let PROXIED: string;
beforeAll(() => {
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: routes });
  port = server.port!;
  DIRECT = `http://127.0.0.1:${port}`;
  PROXIED = `http://model.test:${port}`;
});
afterAll(() => server.stop(true));

const started: { close(): void }[] = [];
afterEach(() => {
  for (const s of started.splice(0)) s.close();
});
async function track<T extends { close(): void }>(s: Promise<T>): Promise<T> {
  started.push(await s);
  return started.at(-1) as T;
}

/** `/to?status=307&url=…` redirects there; `/loop` redirects to itself; anything else echoes the request. */
async function routes(req: Request): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname === "/to")
    return new Response("moved", { status: Number(url.searchParams.get("status")), headers: { location: url.searchParams.get("url")! } });
  if (url.pathname === "/loop") return new Response(null, { status: 302, headers: { location: "/loop" } });
  const h = req.headers;
  return Response.json({
    method: req.method,
    host: h.get("host"),
    body: await req.text(),
    contentType: h.get("content-type"),
    authorization: h.get("authorization"),
    apiKey: h.get("x-api-key"),
    cookie: h.get("cookie"),
    team: h.get("x-team"),
  });
}

const redirect = (from: string, status: number, to: string) => `${from}/to?status=${status}&url=${encodeURIComponent(to)}`;
const post = (headers: Record<string, string> = {}) => ({ method: "POST", body: '{"q":1}', headers: { "content-type": "application/json", ...headers } });

describe("each hop is routed by its own URL", () => {
  test("a direct host redirecting to one that needs the proxy: the second hop goes through the proxy", async () => {
    const proxy = await track(startHttpProxy({ hosts: HOSTS }));
    const res = await proxiedFetch({ cli: proxy.url, env: {} })(redirect(DIRECT, 307, `${PROXIED}/echo`), post());
    expect(await res.json()).toMatchObject({ method: "POST", host: `model.test:${port}`, body: '{"q":1}' });
    expect(res).toMatchObject({ status: 200, redirected: true, url: `${PROXIED}/echo` });
    expect(proxy.log.map((r) => `${r.method} ${r.target}`)).toEqual([`POST ${PROXIED}/echo`]);
  });

  test("a proxied host redirecting to one NO_PROXY lists: the second hop goes direct", async () => {
    const proxy = await track(startHttpProxy({ hosts: HOSTS }));
    const direct = `http://0.0.0.0:${port}/echo`; // not loopback to hey: only NO_PROXY sends it direct
    const res = await proxiedFetch({ env: { HTTP_PROXY: proxy.url, NO_PROXY: "0.0.0.0" } })(redirect(PROXIED, 302, direct));
    expect(await res.json()).toMatchObject({ method: "GET", host: `0.0.0.0:${port}` });
    expect(proxy.log.map((r) => r.target)).toEqual([redirect(PROXIED, 302, direct)]);
  });

  test("through SOCKS5: the redirected hop reaches the SOCKS server by name", async () => {
    const socks = await track(startSocks5Server({ hosts: HOSTS }));
    const res = await proxiedFetch({ env: { ALL_PROXY: `socks5h://127.0.0.1:${socks.port}` } })(redirect(DIRECT, 308, `${PROXIED}/echo`), post());
    expect(await res.json()).toMatchObject({ method: "POST", body: '{"q":1}' });
    expect(socks.log).toEqual([{ atyp: 3, host: "model.test", port }]);
  });
});

describe("fetch's rules for each hop", () => {
  const direct = proxiedFetch({ env: {} });

  test.each([
    [301, "GET", "", null],
    [302, "GET", "", null],
    [303, "GET", "", null],
    [307, "POST", '{"q":1}', "application/json"],
    [308, "POST", '{"q":1}', "application/json"],
  ])("a POST redirected with %i arrives as %s", async (status, method, body, contentType) => {
    const res = await direct(redirect(DIRECT, status, `${DIRECT}/echo`), post());
    expect(await res.json()).toMatchObject({ method, body, contentType });
  });

  test("credentials do not follow to another origin (Authorization, x-api-key, Cookie); other headers do, and all stay on the same origin", async () => {
    const headers = { authorization: "Bearer sk-1", "x-api-key": "sk-ant-1", cookie: "s=1", "x-team": "core" };
    const other = await (await direct(redirect(DIRECT, 307, `http://localhost:${port}/echo`), post(headers))).json();
    expect(other).toMatchObject({ authorization: null, apiKey: null, cookie: null, team: "core" });
    const same = await (await direct(redirect(DIRECT, 307, "/echo"), post(headers))).json();
    expect(same).toMatchObject({ authorization: "Bearer sk-1", apiKey: "sk-ant-1", cookie: "s=1", team: "core" });
  });

  test('redirect: "manual" gives the redirect itself; "error" rejects; a loop stops after 20 hops', async () => {
    const manual = await direct(redirect(DIRECT, 307, "/echo"), { redirect: "manual" });
    expect(manual.status).toBe(307);
    expect(manual.headers.get("location")).toBe("/echo");
    await expect(direct(redirect(DIRECT, 307, "/echo"), { redirect: "error" })).rejects.toMatchObject({ code: "UnexpectedRedirect" });
    await expect(direct(`${DIRECT}/loop`)).rejects.toMatchObject({ code: "TooManyRedirects" });
  });

  test("a certificate check skipped for the endpoint (insecure = true) is made again for another host", async () => {
    const seen: { url: string; tls: unknown }[] = [];
    const base = (async (input: string | URL | Request, init?: BunFetchRequestInit) => {
      const url = String(input);
      seen.push({ url, tls: init?.tls });
      return url.includes("/first")
        ? new Response(null, { status: 302, headers: { location: url.includes("same") ? "/then" : "https://other.example/then" } })
        : new Response("ok");
    }) as typeof fetch;
    const insecure = { tls: { rejectUnauthorized: false } };
    await proxiedFetch({ env: {} }, { base })("https://lab.example/first?same", insecure);
    await proxiedFetch({ env: {} }, { base })("https://lab.example/first", insecure);
    expect(seen).toEqual([
      { url: "https://lab.example/first?same", tls: { rejectUnauthorized: false } },
      { url: "https://lab.example/then", tls: { rejectUnauthorized: false } },
      { url: "https://lab.example/first", tls: { rejectUnauthorized: false } },
      { url: "https://other.example/then", tls: {} },
    ]);
  });
});
