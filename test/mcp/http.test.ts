// Remote servers (SPEC §14, §16): requests go through hey's proxied fetch, configured headers are
// sent, a server that answers 503 for a moment is retried with backoff, and a server that rejects
// Streamable HTTP is reached over the legacy SSE transport.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { proxiedFetch } from "../../src/net/fetch.ts";
import { tempDir } from "../helpers/e2e.ts";
import { freePort, serverSettings, startEverythingHttp, testManager, type HttpServer, type TestManager } from "../helpers/mcp.ts";
import { until } from "../helpers/wait.ts";
import { startHttpProxy } from "../helpers/proxies.ts";
import { startLegacyMcp, type LegacyMcp } from "../helpers/mcp-http.ts";

setDefaultTimeout(60_000);

let streamable: HttpServer;
let sse: HttpServer;
let cache: ReturnType<typeof tempDir>;
const managers: TestManager[] = [];
const legacies: LegacyMcp[] = [];
beforeAll(async () => {
  [streamable, sse] = await Promise.all([startEverythingHttp("streamableHttp"), startEverythingHttp("sse")]);
  cache = tempDir("hey-mcp-cache-");
});
afterAll(async () => {
  for (const m of managers) await m.manager.close();
  await Promise.all(legacies.map((l) => l.stop()));
  await Promise.all([streamable.stop(), sse.stop()]);
  cache.remove();
});
const open = (...args: Parameters<typeof testManager>) => {
  const m = testManager(...args);
  managers.push(m);
  return m;
};

test("a server that rejects Streamable HTTP is reached over the legacy SSE transport", async () => {
  const m = open([serverSettings("old", { url: sse.url })], { cacheDir: cache.path });
  expect((await m.tools()).map((t) => t.name)).toContain("echo");
  expect(await m.call("echo", { message: "over SSE" })).toEqual({ output: "Echo: over SSE" });
});

test("a legacy SSE server that restarted is noticed when its event stream drops, and the next call gets a new session, not a timeout", async () => {
  const old = await startEverythingHttp("sse", freePort());
  let restarted: HttpServer | undefined;
  try {
    const m = open([serverSettings("sse", { url: old.url, timeoutMs: 20_000 })], { cacheDir: cache.path });
    expect(await m.call("echo", { message: "before" })).toEqual({ output: "Echo: before" });
    await old.stop();
    // the user is told at once, as for a Streamable HTTP server that went away
    await until(() => m.events.some((e) => e.server === "sse" && e.state === "stopped"), "the dropped stream to be noticed");
    expect(m.events.find((e) => e.state === "stopped")?.error).toMatch(/cannot reach 127\.0\.0\.1:\d+ \(connection refused\)/);
    restarted = await startEverythingHttp("sse", Number(new URL(old.url).port));
    // before: posted to the old session id, which the new server never answers: timed out after timeout_ms
    expect(await m.call("echo", { message: "after" })).toEqual({ output: "Echo: after" });
    expect(m.events.filter((e) => e.server === "sse").map((e) => e.state)).toEqual(["connected", "stopped", "connected"]);
  } finally {
    await Promise.all([old.stop(), restarted?.stop()]);
  }
});

test("a legacy SSE server that restarts and is slow to open hey's new session holds a call timeout_ms at most, not until it is back", async () => {
  const legacy = await startLegacyMcp();
  legacies.push(legacy);
  const m = open([serverSettings("legacy", { url: legacy.url, timeoutMs: 500 })], { cacheDir: cache.path });
  expect(await m.call("echo", { text: "before" })).toEqual({ output: "legacy: before" });
  legacy.restartSlow();
  // the event stream ended: hey asks for a new session, whose stream never names its endpoint
  await until(() => legacy.stalled() > 0, "hey to open a new event stream");
  // before (86084b9): the call waited for that session as long as the server took, here for ever;
  // then it was sent to the old session after the wait, and after timeout_ms more the model read
  // that the server 'may finish it in the background' — a call no server had, waited for twice
  expect(await m.call("echo", { text: "after" })).toEqual({
    output: "echo failed: the server restarted and has not opened hey's new session within timeout_ms; try again",
    isError: true,
  });
});

test("a call its old session turns away (404) while the new one is slow to open waits timeout_ms at most too, and says why", async () => {
  const legacy = await startLegacyMcp();
  legacies.push(legacy);
  const m = open([serverSettings("legacy", { url: legacy.url, timeoutMs: 500 })], { cacheDir: cache.path });
  expect(await m.call("echo", { text: "before" })).toEqual({ output: "legacy: before" });
  legacy.restartSlow("gone");
  await until(() => legacy.stalled() > 0, "hey to open a new event stream");
  // before: the 404 sent the call back to wait for that session, for ever
  expect(await m.call("echo", { text: "after" })).toEqual({
    output: "echo failed: the server restarted and has not opened hey's new session within timeout_ms; try again",
    isError: true,
  });
});

test("a call to a cached tool of a legacy SSE server whose event stream never names its endpoint waits timeout_ms, not for ever", async () => {
  const legacy = await startLegacyMcp();
  legacies.push(legacy);
  const settings = serverSettings("legacy", { url: legacy.url, timeoutMs: 500 });
  const first = open([settings], { cacheDir: cache.path });
  expect(await first.call("echo", { text: "listed" })).toEqual({ output: "legacy: listed" }); // its list is cached
  await first.manager.close();
  legacy.restartSlow(); // from now on its stream never names the endpoint (as behind a proxy that buffers it)
  const m = open([settings], { cacheDir: cache.path, startupWaitMs: 0 });
  // before: the call waited for the start, which has no limit
  expect(await m.call("echo", { text: "then" })).toEqual({
    output: "MCP server legacy is still starting after 0.5 s ([mcp.legacy] timeout_ms); try again later",
    isError: true,
  });
});

test("503s are retried with backoff; configured headers are sent with every request", async () => {
  let unavailable = 2;
  const seen: { method: string; auth: string | null }[] = [];
  const front = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      seen.push({ method: req.method, auth: req.headers.get("authorization") });
      if (req.method === "POST" && unavailable > 0) {
        unavailable--;
        return new Response("deploying", { status: 503, headers: { "retry-after": "0" } });
      }
      const target = new URL(new URL(req.url).pathname, streamable.url);
      const headers = new Headers(req.headers);
      headers.delete("host");
      return fetch(target, { method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer() });
    },
  });
  try {
    const m = open([serverSettings("busy", { url: `http://127.0.0.1:${front.port}/mcp`, headers: { Authorization: "Bearer s3cret" } })], {
      cacheDir: cache.path,
    });
    expect(await m.call("echo", { message: "after 503s" })).toEqual({ output: "Echo: after 503s" });
    expect(unavailable).toBe(0);
    expect(seen.slice(0, 3).map((s) => s.method)).toEqual(["POST", "POST", "POST"]); // initialize, twice refused, then answered
    expect(seen.every((s) => s.auth === "Bearer s3cret")).toBe(true);
    await m.manager.close();
  } finally {
    front.stop(true);
  }
});

test("requests go through the configured proxy ([proxy] url), as model requests do", async () => {
  const port = new URL(streamable.url).port;
  const proxy = await startHttpProxy({ hosts: { "mcp.test": "127.0.0.1" } });
  try {
    const viaProxy = proxiedFetch({ config: proxy.url, env: {} });
    const m = open([serverSettings("far", { url: `http://mcp.test:${port}/mcp` })], { cacheDir: cache.path, fetch: viaProxy });
    expect(await m.call("echo", { message: "proxied" })).toEqual({ output: "Echo: proxied" });
    expect(proxy.log.some((r) => r.target.startsWith(`http://mcp.test:${port}/mcp`))).toBe(true);
    await m.manager.close();
  } finally {
    proxy.close();
  }
});
