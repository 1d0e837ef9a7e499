// Servers that misbehave, made by us (test/fixtures/mcp/fake-server.ts): none of them blocks the
// first request past startup_wait_ms or hangs a call; each failure is reported once with why (and
// the tail of the server's stderr); a crash is restarted once, then the server is failed (its tools
// left out) until /reload, unless it had stayed up RESTART_BACK_MS.
// A call that changes its server's tools returns once the new list is read (a bounded wait).
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { formatStatus } from "../../src/mcp/status.ts";
import { createToolStore } from "../../src/mcp/store.ts";
import { until } from "../helpers/wait.ts";
import { alive } from "../helpers/processes.ts";

setDefaultTimeout(60_000);

let dir: ReturnType<typeof tempDir>;
const managers: TestManager[] = [];
beforeEach(() => {
  dir = tempDir("hey-mcp-faults-");
});
afterEach(async () => {
  for (const m of managers.splice(0)) await m.manager.close();
  dir.remove();
});

const fake = (name: string, mode: string[], more: Parameters<typeof serverSettings>[1] = {}) =>
  serverSettings(name, { command: BUN, args: [FAKE_SERVER, ...mode], env: { FAKE_LOG: join(dir.path, `${name}.log`) }, ...more });
function open(servers: ReturnType<typeof fake>[], startupWaitMs = 20_000): TestManager {
  const m = testManager(servers, { cacheDir: join(dir.path, "cache"), startupWaitMs });
  managers.push(m);
  return m;
}
/**
 * good's list cached by a run before, as on a user's second run: offered at once, however long its process takes to start
 * (under load, longer than a test's short startup_wait_ms, and then its tools were missing)
 */
async function goodCached(): Promise<ReturnType<typeof fake>> {
  const good = fake("good", ["ok", "good", "echo"]);
  const before = open([good]);
  await before.tools();
  await before.manager.close(); // waits for the cache write
  return good;
}
const starts = (name: string) =>
  readFileSync(join(dir.path, `${name}.log`), "utf8")
    .trim()
    .split("\n").length;

test("a server that exits during initialize fails with its exit code and stderr; the others' tools are offered", async () => {
  const m = open([fake("broken", ["exit-on-init"]), fake("good", ["ok", "good", "echo"])]);
  const names = (await m.tools()).map((t) => t.name);
  expect(names).toEqual(["echo"]);
  const failed = m.events.find((e) => e.server === "broken")!;
  expect(failed).toMatchObject({ type: "mcp", state: "failed" });
  expect(failed.error).toBe("it exited with code 3 before it was ready\n  fatal: cannot open the database at /nope");
  expect(m.events.filter((e) => e.state === "failed")).toHaveLength(1); // once
  expect(m.manager.status().find((s) => s.name === "broken")).toMatchObject({ state: "failed", stderr: "fatal: cannot open the database at /nope" });
});

test("a server that never answers holds the first request back no longer than startup_wait_ms, then times out and is left out", async () => {
  const m = open([fake("mute", ["silent"], { timeoutMs: 4_000 }), await goodCached()], 600);
  const t0 = performance.now();
  expect((await m.tools()).map((t) => t.name)).toEqual(["echo"]);
  expect(performance.now() - t0).toBeGreaterThanOrEqual(400);
  // bounded by startup_wait_ms, not by the server's 4 s timeout: the request was answered before mute failed
  expect(m.events.filter((e) => e.server === "mute").map((e) => e.state)).toEqual(["not_ready"]);
  await until(() => m.events.some((e) => e.server === "mute" && e.state === "failed"), "the timeout");
  expect(m.events.find((e) => e.server === "mute" && e.state === "not_ready")!.error).toStartWith("was not ready after 0.6 s"); // said when the wait ran out
  expect(m.events.find((e) => e.server === "mute" && e.state === "failed")!.error).toBe("it did not answer initialize in time (timeout_ms)");
  // the next request does not wait again
  const t1 = performance.now();
  await m.tools();
  expect(performance.now() - t1).toBeLessThan(100);
});

test("a server without a cached list whose start failed last run is not waited for: the next run's first request goes at once, the server still starting", async () => {
  const first = open([fake("mute", ["silent"], { timeoutMs: 300 }), fake("good", ["ok", "good", "echo"])]);
  expect((await first.tools()).map((t) => t.name)).toEqual(["echo"]); // waited until it failed
  await until(() => first.events.some((e) => e.server === "mute" && e.state === "failed"), "the timeout");
  await first.manager.close(); // its record written
  // the same server (its timeout is no part of what it is) on the next run: down still, and slower to say so
  const next = open([fake("mute", ["silent"], { timeoutMs: 10_000 }), fake("good", ["ok", "good", "echo"])]);
  expect((await next.tools()).map((t) => t.name)).toEqual(["echo"]);
  // before: the request waited for it again until it failed (its 10 s here; startup_wait_ms at most), at every run
  expect(next.manager.status().find((s) => s.name === "mute")).toMatchObject({ state: "connecting" });
});

test("a server that writes garbage on stdout fails at once, naming what it wrote", async () => {
  const m = open([fake("noisy", ["garbage"])]);
  const t0 = performance.now();
  expect(await m.tools()).toEqual([]);
  expect(performance.now() - t0).toBeLessThan(5_000);
  expect(m.events).toEqual([
    { type: "mcp", server: "noisy", state: "failed", error: 'it wrote something that is not JSON-RPC on stdout: "Welcome to the garbage server!"' },
  ]);
});

test("a server that writes a log line on stdout before it answers is used all the same, as other clients use it", async () => {
  const m = open([fake("chatty", ["banner", "chatty"])]);
  expect((await m.tools()).map((t) => t.name)).toEqual(["echo"]);
  expect(await m.call("echo", { text: "hi" })).toEqual({ output: "chatty: hi" });
  expect(m.events.filter((e) => e.state === "failed")).toEqual([]);
});

test("a server that crashes after a call is restarted once, on the next call; after the second crash it is failed: its tools leave the request, /mcp and the model say /reload", async () => {
  const m = open([fake("flaky", ["crash-after-call", "flaky"]), fake("good", ["ok", "good", "fine"])]);
  expect(await m.call("echo", { text: "one" })).toEqual({ output: "flaky: one" });
  await until(() => m.events.some((e) => e.state === "stopped"), "the crash");
  expect(m.events.find((e) => e.state === "stopped")!.error).toBe("exited with code 1\n  segfault (pretend)");
  expect(await m.call("echo", { text: "two" })).toEqual({ output: "flaky: two" }); // restarted
  expect(starts("flaky")).toBe(2);
  await until(() => m.events.some((e) => e.state === "failed"), "the second crash");
  const why = "exited with code 1; it stopped again after a restart, so it is not restarted again: /reload restarts it";
  expect(m.events.filter((e) => e.server === "flaky").map((e) => e.state)).toEqual(["connected", "stopped", "connected", "failed"]);
  expect(m.events.at(-1)!.error).toBe(`${why}\n  segfault (pretend)`);
  expect((await m.tools()).map((t) => t.name)).toEqual(["fine"]); // its schemas no longer ride on every request
  const listing = formatStatus(m.manager.status(), m.manager.offer(), false);
  expect(listing).toContain(`flaky: failed\n  ${why}`);
  expect(starts("flaky")).toBe(2);
});

test("a call that outlives timeout_ms is an error result and the server is kept", async () => {
  const m = open([fake("sleepy", ["sleepy"], { timeoutMs: 300 })]);
  const slow = await m.call("nap", { ms: 3_000 });
  expect(slow).toEqual({
    output: "nap timed out after 0.3 s ([mcp.sleepy] timeout_ms); the server is still running and may finish it in the background",
    isError: true,
  });
  expect(await m.call("nap", { ms: 1 })).toEqual({ output: "rested" });
  expect(starts("sleepy")).toBe(1);
});

test("closing while a server is still starting stops its process", async () => {
  const m = open([fake("slow", ["slow-start", "30000"])], 0);
  await until(() => existsLog("slow"), "the start");
  const pid = Number(readFileSync(join(dir.path, "slow.log"), "utf8").trim().split(" ").at(-1));
  await m.manager.close();
  await until(() => !alive(pid), "the process to end", 5_000);
});

const existsLog = (name: string) => {
  try {
    return readFileSync(join(dir.path, `${name}.log`), "utf8").length > 0;
  } catch {
    return false;
  }
};

test("/reload brings a server that stopped twice back: an unchanged table whose server is not running starts again", async () => {
  const flaky = fake("flaky", ["crash-after-call", "flaky"]);
  const m = open([flaky]);
  for (const [text, state] of [
    ["one", "stopped"],
    ["two", "failed"],
  ] as const) {
    expect((await m.call("echo", { text })).output).toBe(`flaky: ${text}`);
    await until(() => m.manager.status()[0]!.state === state, "the crash");
  }
  const settings = { ...defaultSettingsForTest(), mcp: { servers: [flaky], startupWaitMs: 20_000, deferTools: "never" as const } };
  const staged = await m.manager.reloadable.check(settings);
  expect(staged.errors).toEqual([]);
  expect(staged.changes).toEqual(["~ mcp server flaky (started again: it had failed)"]);
  await staged.apply();
  expect((await m.call("echo", { text: "four" })).output).toBe("flaky: four");
  expect(starts("flaky")).toBe(3);
});

test("/reload refuses a server whose command is not found, naming where it is defined; the current servers are kept", async () => {
  const good = fake("good", ["ok", "good", "echo"]);
  const m = open([good]);
  expect((await m.call("echo", { text: "x" })).output).toBe("good: x");
  const ghost = serverSettings("ghost", { command: "no-such-mcp-server-x" });
  const byPath = serverSettings("bypath", { command: "/nonexistent/mcp-server" });
  const staged = await m.manager.reloadable.check({
    ...defaultSettingsForTest(),
    mcp: { servers: [good, ghost, byPath], startupWaitMs: 20_000, deferTools: "never" },
  });
  expect(staged.errors).toEqual([
    '/test/config.toml: [mcp.ghost] command "no-such-mcp-server-x" not found on PATH',
    '/test/config.toml: [mcp.bypath] command "/nonexistent/mcp-server" not found',
  ]);
  // reloadAll applies nothing when any part has errors: the server still answers
  expect((await m.call("echo", { text: "y" })).output).toBe("good: y");
  expect(m.manager.status().map((s) => [s.name, s.state])).toEqual([["good", "connected"]]);
});

test("a server whose command is not found at start-up fails naming where it is defined, as /reload would", async () => {
  const m = open([serverSettings("ghost", { command: "no-such-mcp-server-x" }), fake("good", ["ok", "good", "echo"])]);
  expect((await m.tools()).map((t) => t.name)).toEqual(["echo"]);
  const why = '/test/config.toml: [mcp.ghost] command "no-such-mcp-server-x" not found on PATH';
  expect(m.events.find((e) => e.server === "ghost")).toMatchObject({ state: "failed", error: why });
  expect(m.manager.status().find((s) => s.name === "ghost")).toMatchObject({ state: "failed", error: why });
});

test("a disabled server's missing command is no error at /reload: it will not start", async () => {
  const good = fake("good", ["ok", "good", "echo"]);
  const m = open([good]);
  const ghost = { ...serverSettings("ghost", { command: "no-such-mcp-server-x" }), enabled: false };
  const staged = await m.manager.reloadable.check({ ...defaultSettingsForTest(), mcp: { servers: [good, ghost], startupWaitMs: 20_000, deferTools: "never" } });
  expect(staged.errors).toEqual([]);
});

test("/reload with MCP off (--no-mcp) tells of no server: none will start", async () => {
  const { createMcpManager } = await import("../../src/mcp/manager.ts");
  const manager = createMcpManager(
    { servers: [], startupWaitMs: 0, off: true },
    {
      connect: () => Promise.reject(new Error("never")),
      store: { load: () => undefined, instructions: () => undefined } as never,
      missingCommand: () => "not found",
      report: () => {},
      warn: () => {},
      refused: () => false,
      budget: () => 40_000,
      now: Date.now,
    },
  );
  const staged = await manager.reloadable.check({
    ...defaultSettingsForTest(),
    mcp: { servers: [serverSettings("broken", { command: "/nonexistent/mcp-server" })], startupWaitMs: 0, deferTools: "never" },
  });
  expect(staged).toMatchObject({ errors: [], changes: [] });
  await manager.close();
});

test("a server tool named like a built-in is offered under its server's prefix, said when the server connects, once", async () => {
  const m = testManager([fake("good", ["ok", "good", "echo"])], { cacheDir: join(dir.path, "cache"), builtins: ["bash", "echo"] });
  managers.push(m);
  await until(() => m.events.some((e) => e.state === "connected"), "the connection");
  expect(m.warnings).toEqual(["MCP server good's tool echo is offered as good_echo: hey's own echo keeps its name"]);
  await m.tools([{ name: "echo" } as never]);
  expect(m.warnings).toHaveLength(1);
});

test("a failure is reported once, also when servers with a cached list start after it", async () => {
  const good = fake("good", ["ok", "good", "echo"]);
  const first = open([good]);
  await first.tools();
  await first.manager.close(); // its list is now cached

  const m = open([fake("broken", ["exit-on-init"]), good], 0);
  await until(() => m.events.some((e) => e.state === "failed"), "the failure");
  expect((await m.call("echo", { text: "x" })).output).toBe("good: x"); // the cached server starts
  await until(() => m.events.some((e) => e.server === "good" && e.state === "connected"), "the cached server to connect");
  // the cached servers' deferred start, due once a request asked for tools, has run: it left the failed one alone
  expect(m.manager.status().find((s) => s.name === "broken")?.state).toBe("failed");
  expect(m.events.map((e) => [e.server, e.state])).toEqual([
    ["broken", "failed"],
    ["good", "connected"],
  ]);
  expect(starts("broken")).toBe(1);
});

test("a server whose tools change while hey runs (tools/list_changed) is read again, every page of it: a tool on page 2 is not lost", async () => {
  const m = open([fake("paged", ["paged"])]);
  expect((await m.tools()).map((t) => t.name)).toEqual(["grow", "first"]);
  expect(await m.call("grow")).toEqual({ output: "grew" });
  await until(() => m.manager.status()[0]!.tools?.some((t) => t.name === "grown") === true, "the new list");
  expect((await m.tools()).map((t) => t.name)).toEqual(["grow", "first", "grown"]);
});

const names = async (m: TestManager) => (await m.tools()).map((t) => t.name);

// the usual "enable X, then call X's tools": our fake's trigger_change says the list changed before it answers
test.each(["0", "400"])("the request right after a call that changed the tools offers the new list (the server lists it %s ms later)", async (delay) => {
  const m = open([fake("sw", ["switch", delay])]);
  expect(await names(m)).toEqual(["before_change", "trigger_change"]);
  expect(await m.call("trigger_change")).toEqual({ output: "changed" });
  // before: still before_change (the SDK's refresh waited 300 ms after the notice), and after_change was an unknown tool
  expect(await names(m)).toEqual(["trigger_change", "after_change"]);
  expect(m.warnings).toEqual(["MCP server sw's tools changed: + after_change, − before_change (2 tools now)"]);
  expect(await m.call("after_change")).toEqual({ output: "fake: " });
});

test("a server that never lists its changed tools: the call returns after a bounded wait, saying so; the old list stays", async () => {
  const m = open([fake("sw", ["switch", "never"], { timeoutMs: 1_000 })]);
  expect(await m.call("trigger_change")).toEqual({
    output: "changed\n[hey: MCP server sw said its tools changed, but did not list them within 1 s: the next request still offers its old tools]",
  });
  expect(await names(m)).toEqual(["before_change", "trigger_change"]);
  expect(await m.call("before_change")).toEqual({ output: "fake: " });
});

test("a server that asks hey a question (elicitation) or for a completion (sampling), which hey does not declare, is told hey does not support it", async () => {
  const m = open([fake("asks", ["asks"])]);
  // before: -32601 "Method not found", which named nothing the model or the user could act on
  const ask = await m.call("ask");
  expect(ask.isError).toBe(true);
  expect(ask.output).toContain(
    '"error":{"code":-32601,"message":"hey does not support elicitation (a server asking the user a question mid-call): it declares no such capability"}',
  );
  expect((await m.call("sample")).output).toContain(
    '"message":"hey does not support sampling (a server asking the model for a completion): it declares no such capability"',
  );
  // /mcp says so under the server
  expect(formatStatus(m.manager.status(), m.manager.offer(), false)).toContain(
    "\n  asked hey for elicitation and sampling, which hey does not support: its tools that need it fail\n",
  );
});

test("a badly described tool costs that tool, not its server: no input type is read as an object schema, an output schema that does not compile is dropped, a schema a model's API refuses is left out and said", async () => {
  const m = open([fake("bad", ["bad-schemas"])]);
  // before: the server failed with the SDK's validation errors as JSON, every tool lost
  expect((await m.tools()).map((t) => t.name)).toEqual(["echo", "untyped", "dangling"]);
  expect(m.events).toEqual([{ type: "mcp", server: "bad", state: "connected", tools: 4, offered: 3 }]);
  expect(m.warnings).toEqual([`MCP server bad's tool typo is not offered: its input schema is invalid (properties.n.type: "integr" is no JSON Schema type)`]);
  expect(formatStatus(m.manager.status(), m.manager.offer(), false)).toContain("not offered: typo (invalid input schema)");
  expect(await m.call("untyped", { text: "hi" })).toEqual({ output: "fake: hi" });
  expect(await m.call("dangling")).toEqual({ output: "fake: " });
  expect(await m.call("echo", { text: "still" })).toEqual({ output: "fake: still" });
});

test("a server whose tools change while hey still connects to it (its notice comes as hey reads its prompts) is offered the new list", async () => {
  const m = open([fake("late", ["late-tools"])]);
  // before: the notice was dropped (the server was not connected yet), and hey offered `echo` alone until the server's next notice
  await until(async () => (await m.tools()).some((t) => t.name === "later"), "the tool it announced while connecting");
  expect((await m.tools()).map((t) => t.name)).toEqual(["echo", "later"]);
  expect(await m.call("later")).toEqual({ output: "fake: " });
});

test("a server /reload starts again is waited for by the next request, though its failure was recorded for the next run", async () => {
  const delay = join(dir.path, "delay");
  writeFileSync(delay, "10000");
  const slow = fake("slow", ["slow-start", delay], { timeoutMs: 300 });
  const m = open([slow]);
  expect(await m.tools()).toEqual([]); // waited until it timed out
  await until(() => createToolStore(join(dir.path, "cache")).failedLast(slow) !== undefined, "its failure recorded");
  writeFileSync(delay, "0"); // what held it up is fixed: /reload is how it comes back
  const staged = await m.manager.reloadable.check({ ...defaultSettingsForTest(), mcp: { servers: [slow], startupWaitMs: 20_000, deferTools: "never" } });
  expect(staged.changes).toEqual(["~ mcp server slow (started again: it had failed)"]);
  await staged.apply();
  // before: the request after /reload went without its tools, as a next run's would (the record is for runs to come)
  expect((await m.tools()).map((t) => t.name)).toEqual(["echo"]);
});

test("a remote server still answering 503 when the start-up wait runs out is not waited for on the next run (failing, not slow)", async () => {
  const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy", { status: 503, headers: { "retry-after": "4" } }) });
  try {
    const far = () => serverSettings("far", { url: `http://127.0.0.1:${busy.port}/mcp` });
    const first = open([far(), await goodCached()], 300);
    expect((await first.tools()).map((t) => t.name)).toEqual(["echo"]); // waited 0.3 s, then went without it
    await first.manager.close();
    const next = open([far(), fake("good", ["ok", "good", "echo"])], 20_000);
    expect((await next.tools()).map((t) => t.name)).toEqual(["echo"]);
    // before: the request waited for its retries to run out (4 attempts, 4 s apart: 12 s), at every run
    expect(next.manager.status().find((s) => s.name === "far")).toMatchObject({ state: "connecting" });
  } finally {
    busy.stop(true);
  }
});

test("closing a remote server that answers 503 stops its retries at once: no more requests, nothing to wait for", async () => {
  let requests = 0;
  const busy = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => (requests++, new Response("busy", { status: 503, headers: { "retry-after": "0.2" } })),
  });
  try {
    const m = open([serverSettings("far", { url: `http://127.0.0.1:${busy.port}/mcp` })]);
    await until(() => requests >= 1, "the first request");
    await m.manager.close();
    // before: closing waited for the 503s to run out (4 attempts, 0.2 s apart), a second at exit for a server that is down
    expect(requests).toBeLessThan(4);
  } finally {
    busy.stop(true);
  }
});

test("a server that exits at start-up is recorded with its stderr's error line, for the next run's note and /mcp", async () => {
  const db = fake("db", ["exit-on-init"]);
  const m = open([db]);
  expect(await m.tools()).toEqual([]);
  await until(() => createToolStore(join(dir.path, "cache")).failedLast(db) !== undefined, "its failure recorded");
  // before: "it exited with code 3 before it was ready" alone: the next run's model did not read why
  expect(createToolStore(join(dir.path, "cache")).failedLast(db)).toBe(
    "it exited with code 3 before it was ready (its stderr: fatal: cannot open the database at /nope)",
  );
});
