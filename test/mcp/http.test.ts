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
import { formatStatus } from "../../src/mcp/status.ts";
import { lateTool } from "../../src/mcp/late-tool.ts";

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
    // refused, or reset when hey's new event stream reached the port while the killed server's
    // listening socket was still being closed (seen under load): either way the server is out of reach
    const port = new URL(old.url).port;
    expect(m.events.find((e) => e.state === "stopped")?.error).toMatch(new RegExp(`cannot reach 127\\.0\\.0\\.1:${port} \\(connection (refused|reset)\\)`));
    restarted = await startEverythingHttp("sse", Number(new URL(old.url).port));
    // before: posted to the old session id, which the new server never answers: timed out after timeout_ms
    expect(await m.call("echo", { message: "after" })).toEqual({ output: "Echo: after" });
    expect(m.events.filter((e) => e.server === "sse").map((e) => e.state)).toEqual(["connected", "stopped", "connected"]);
  } finally {
    await Promise.all([old.stop(), restarted?.stop()]);
  }
});

const NO_ENDPOINT = "its event stream named no endpoint to post to within 0.5 s ([mcp.legacy] timeout_ms); a proxy that buffers event streams does this";

// 86084b9 bounded a call's wait for a session being replaced by timeout_ms, because the SDK's SSE
// start had no limit. That start is bounded by timeout_ms now (src/mcp/sse-start.ts), and it begins
// before any call can wait on it, so the renewal here gives up first: this test shows the call
// ends with why, rather than hanging (without the start's bound: 'echo timed out' after
// 86084b9's wait, for ever before it). Every step of a renewal is bounded now (start, initialize,
// each list: timeout_ms each), and when one fails the call ends then, with or without 86084b9's
// wait, with the same words. That wait still changes something only when a renewal succeeds more
// than timeout_ms after a call began waiting (the call then fails instead of being served late):
// a test would have to answer a step just before its own deadline, a race of clocks.
test("a legacy SSE server that restarts and is slow to open hey's new session: the new session gives up after timeout_ms, and a call waiting on it says why", async () => {
  const legacy = await startLegacyMcp();
  legacies.push(legacy);
  const m = open([serverSettings("legacy", { url: legacy.url, timeoutMs: 500 })], { cacheDir: cache.path });
  expect(await m.call("echo", { text: "before" })).toEqual({ output: "legacy: before" });
  legacy.restartSlow();
  // the event stream ended: hey asks for a new session, whose stream never names its endpoint
  await until(() => legacy.stalled() > 0, "hey to open a new event stream");
  expect(await m.call("echo", { text: "after" })).toEqual({
    output: `MCP server legacy was lost during the call (${NO_ENDPOINT}); hey connects again on the next call`,
    isError: true,
  });
  expect(m.events.filter((e) => e.server === "legacy").map((e) => [e.state, e.error])).toEqual([
    ["connected", undefined],
    ["stopped", NO_ENDPOINT],
  ]);
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
    output: `MCP server legacy was lost during the call (${NO_ENDPOINT}); hey connects again on the next call`,
    isError: true,
  });
});

test("a legacy SSE server whose event stream never names its endpoint fails after timeout_ms with why, in /mcp and to the model, rather than 'connecting' for ever", async () => {
  const legacy = await startLegacyMcp();
  legacies.push(legacy);
  const settings = serverSettings("legacy", { url: legacy.url, timeoutMs: 500 });
  const first = open([settings], { cacheDir: cache.path });
  expect(await first.call("echo", { text: "listed" })).toEqual({ output: "legacy: listed" }); // its list is cached
  await first.manager.close();
  legacy.restartSlow(); // from now on its stream never names the endpoint (as behind a proxy that buffers it)
  const m = open([settings], { cacheDir: cache.path, startupWaitMs: 0 });
  // before: 'connecting' for ever (the SDK's start has no limit)
  await until(() => m.manager.status()[0]?.state === "failed", "the start to give up");
  expect(formatStatus(m.manager.status(), m.manager.offer(), false)).toStartWith(`legacy: failed\n  ${NO_ENDPOINT}`);
  // its cached tool is left out; a call to it by name is told why (before: unknown tool, and hey's own tools listed)
  expect((await m.tools()).map((t) => t.name)).not.toContain("echo");
  const late = lateTool("echo", {
    mcp: m.manager,
    tools: (signal) => m.manager.tools([], signal),
    settings: () => ({ servers: [settings], startupWaitMs: 3_000 }),
    now: Date.now,
  });
  expect(await late?.run({ text: "then" }, { signal: new AbortController().signal, cwd: process.cwd() })).toEqual({
    output: `unknown tool "echo": MCP server legacy failed: ${NO_ENDPOINT}; its tools are left out until it is fixed and the user runs /reload`,
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
