// The first request says which servers it went without however late it comes: in an interactive
// session the user types a while, so it usually comes after startup_wait_ms. A server still starting
// then is reported not ready, as one still starting when the wait ran out, and its tools join a later
// request; a remote server still answering 503 is recorded as failing, so the next run does not wait
// for it. The manager's clock is moved on to be past the wait without sitting it out.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";
import { createToolStore } from "../../src/mcp/store.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { until } from "../helpers/wait.ts";

setDefaultTimeout(60_000);

let dir: ReturnType<typeof tempDir>;
const managers: TestManager[] = [];
beforeEach(() => {
  dir = tempDir("hey-mcp-late-first-");
});
afterEach(async () => {
  for (const m of managers.splice(0)) await m.manager.close();
  dir.remove();
});

/** A manager whose clock the test moves on by `skew.ms`. */
function open(servers: ReturnType<typeof serverSettings>[], startupWaitMs: number, skew = { ms: 0 }): TestManager {
  const m = testManager(servers, { cacheDir: join(dir.path, "cache"), startupWaitMs, now: () => Date.now() + skew.ms });
  managers.push(m);
  return m;
}
/** A local server that sleeps `ms` before it answers anything. */
const slow = (ms: number) => serverSettings("slow", { command: BUN, args: [FAKE_SERVER, "slow-start", String(ms)] });
const notReadyAfter = (s: string) =>
  `was not ready after ${s}, so the first request went without its tools; raise [mcp] startup_wait_ms to wait longer for it (once it connects, its tool list is cached and later runs offer its tools at once)`;

test("a server still starting at a first request that comes after startup_wait_ms is reported not ready, once, saying how long it had; its tools join a later request", async () => {
  const skew = { ms: 0 };
  const m = open([slow(1_500)], 3_000, skew);
  skew.ms = 45_000; // the user typed for 45 s
  expect(await m.tools()).toEqual([]); // at once: the wait is over
  expect(m.manager.status()[0]).toMatchObject({ name: "slow", state: "connecting" });
  // before: nothing was said; the user was left to wonder where its tools were
  expect(m.events).toEqual([{ type: "mcp", server: "slow", state: "not_ready", error: notReadyAfter("45 s") }]);
  await m.tools();
  expect(m.events.filter((e) => e.state === "not_ready")).toHaveLength(1); // the first request's, not every one's
  await until(() => m.events.some((e) => e.state === "connected"), "slow to connect");
  expect((await m.tools()).map((t) => t.name)).toEqual(["echo"]);
});

test("a look at the tools (/mcp, /context) before the first request says nothing: no request went; the request after it does", async () => {
  const skew = { ms: 0 };
  const m = open([slow(30_000)], 3_000, skew);
  skew.ms = 20_000;
  expect(await m.manager.tools([], new AbortController().signal, true)).toEqual([]);
  expect(m.events).toEqual([]); // before: "the first request went without its tools", at /mcp
  skew.ms = 30_000;
  await m.tools();
  expect(m.events).toEqual([{ type: "mcp", server: "slow", state: "not_ready", error: notReadyAfter("30 s") }]);
});

test("a first request aborted while it waits leaves the report to the next request", async () => {
  const skew = { ms: 0 };
  const m = open([slow(30_000)], 20_000, skew);
  const stop = new AbortController();
  const first = m.manager.tools([], stop.signal);
  stop.abort();
  await expect(first).rejects.toThrow();
  expect(m.events).toEqual([]);
  skew.ms = 25_000;
  expect(await m.tools()).toEqual([]);
  expect(m.events).toEqual([{ type: "mcp", server: "slow", state: "not_ready", error: notReadyAfter("25 s") }]);
});

test("two requests waiting at once for a server that stays slow report it once, with the start-up wait", async () => {
  const m = open([slow(30_000)], 300);
  await Promise.all([m.tools(), m.tools()]);
  expect(m.events).toEqual([{ type: "mcp", server: "slow", state: "not_ready", error: notReadyAfter("0.3 s") }]);
});

test("a server said not ready and still starting after a /reload that keeps it is not said again by the reload's first request; a server the reload added is", async () => {
  const skew = { ms: 0 };
  const kept = slow(30_000);
  const m = open([kept], 3_000, skew);
  skew.ms = 10_000;
  await m.tools();
  const added = serverSettings("added", { command: BUN, args: [FAKE_SERVER, "slow-start", "30000"] });
  const staged = await m.manager.reloadable.check({ ...defaultSettingsForTest(), mcp: { servers: [kept, added], startupWaitMs: 3_000, deferTools: "never" } });
  expect(staged.changes).toEqual(["+ mcp server added"]);
  await staged.apply();
  skew.ms = 20_000; // the reload's wait is over too
  expect(await m.tools()).toEqual([]);
  expect(m.events.map((e) => `${e.server} ${e.state}: ${e.error?.split(",")[0]}`)).toEqual([
    "slow not_ready: was not ready after 10 s",
    "added not_ready: was not ready after 10 s",
  ]);
});

test("a remote server still answering 503 at a first request that comes after startup_wait_ms is recorded as failing: the next run does not wait for it", async () => {
  const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy", { status: 503, headers: { "retry-after": "4" } }) });
  try {
    const far = serverSettings("far", { url: `http://127.0.0.1:${busy.port}/mcp` });
    const skew = { ms: 0 };
    const first = open([far], 3_000, skew);
    await until(() => first.manager.status()[0]!.busy === true, "its first 503");
    skew.ms = 60_000;
    expect(await first.tools()).toEqual([]);
    await first.manager.close(); // its record written
    const why = "it still answered HTTP 503 60 s after it started, when the first request went";
    // before: nothing was recorded, and the next run waited for its retries again (4 attempts, 4 s apart)
    expect(createToolStore(join(dir.path, "cache")).failedLast(far)).toBe(why);
    const next = open([far], 20_000);
    expect(await next.tools()).toEqual([]);
    expect(next.manager.status()[0]).toMatchObject({ state: "connecting", failedBefore: why });
    expect(next.warnings.join("\n")).toContain(`: ${why}; tried again now, this run does not wait for it`); // said once on stderr
  } finally {
    busy.stop(true);
  }
});
