// A call that meets a server as it dies (SPEC §14): whether the write fails first (EPIPE) or the
// exit is seen first, the model reads the same "stopped during the call" message, with the exit's reason.
import { expect, test } from "bun:test";
import { CallError, createServer, RESTART_BACK_MS, type Connection, type ConnectHooks } from "../../src/mcp/server.ts";
import { serverSettings } from "../helpers/mcp.ts";

/** A server whose one call fails with `error`; `exitAfterMs` later (or before, when negative) the process exit is reported. */
async function dyingCall(error: CallError, exitAfterMs: number | undefined) {
  let hooks: ConnectHooks | undefined;
  const exit = () => hooks!.onClose("exited with code 1", "segfault (pretend)");
  const connection: Connection = {
    tools: [{ name: "ping", inputSchema: { type: "object" } }],
    prompts: [],
    get: async () => ({}),
    call: async () => {
      if (exitAfterMs !== undefined && exitAfterMs < 0) exit();
      else if (exitAfterMs !== undefined) setTimeout(exit, exitAfterMs);
      throw error;
    },
    close: async () => {},
  };
  const server = createServer(serverSettings("flaky", { command: "x" }), {
    connect: async (_s, h) => ((hooks = h), connection),
    cached: undefined,
    events: { changed: () => {}, listed: () => {}, answered: () => {} },
  });
  server.start();
  await server.settled();
  return server.call("ping", {}, new AbortController().signal);
}

const STOPPED = { error: "MCP server flaky stopped during the call (exited with code 1); it is restarted on the next call" };

test.each([
  ["the write fails (EPIPE) before the exit is seen", new CallError("closed", "not connected: EPIPE: broken pipe, write"), 20],
  ["the SDK reports the connection closed before the exit is seen", new CallError("closed", "Connection closed"), 5],
  ["the exit is seen first, then the call fails however it fails", new CallError("failed", "EPIPE: broken pipe, write"), -1],
  ["the exit is seen first, then the call reports the close", new CallError("closed", "Connection closed"), -1],
] as const)("%s: the same message", async (_name, error, exitAfterMs) => {
  expect(await dyingCall(error, exitAfterMs)).toEqual(STOPPED);
});

test("a connection that closed with no exit reported still reads cleanly", async () => {
  expect(await dyingCall(new CallError("closed", "not connected: EPIPE: broken pipe, write"), undefined)).toEqual({
    error: "MCP server flaky stopped during the call (the connection closed); it is restarted on the next call",
  });
});

test("a failure of a live server stays that failure", async () => {
  expect(await dyingCall(new CallError("failed", "MCP error -32602: bad params"), undefined)).toEqual({ error: "ping failed: MCP error -32602: bad params" });
});

/** A local server over a fake connection whose exits the test reports, on a clock it sets. */
function crashing() {
  let hooks: ConnectHooks | undefined;
  const clock = { now: 5_000_000 };
  let starts = 0;
  const connection: Connection = {
    tools: [{ name: "ping", inputSchema: { type: "object" } }],
    prompts: [],
    get: async () => ({}),
    call: async () => ({ content: [{ type: "text", text: "pong" }] }),
    close: async () => {},
  };
  const server = createServer(serverSettings("flaky", { command: "x" }), {
    connect: async (_s, h) => ((hooks = h), starts++, connection),
    cached: undefined,
    events: { changed: () => {}, listed: () => {}, answered: () => {} },
    now: () => clock.now,
  });
  const exit = () => hooks!.onClose("exited with code 1", "");
  const call = () => server.call("ping", {}, new AbortController().signal);
  return { server, clock, exit, call, starts: () => starts };
}

test("a local server that stops again soon after its restart is failed, not stopped: hey will not restart it", async () => {
  const { server, exit, call, starts } = crashing();
  server.start();
  await server.settled();
  exit();
  expect(server.status().state).toBe("stopped");
  expect("result" in (await call())).toBe(true); // restarted
  exit();
  expect(server.status()).toMatchObject({
    state: "failed",
    error: "exited with code 1; it stopped again after a restart, so it is not restarted again: /reload restarts it",
  });
  expect(await call()).toEqual({
    error: "MCP server flaky stopped again (exited with code 1; it stopped again after a restart, so it is not restarted again: /reload restarts it)",
  });
  expect(starts()).toBe(2);
});

test(`a local server that stayed up ${RESTART_BACK_MS / 60_000} minutes before it stopped again has its restart back`, async () => {
  const { server, clock, exit, call, starts } = crashing();
  server.start();
  await server.settled();
  exit();
  expect("result" in (await call())).toBe(true); // its one restart
  clock.now += RESTART_BACK_MS; // a working day later
  exit();
  expect(server.status().state).toBe("stopped");
  expect("result" in (await call())).toBe(true);
  expect(starts()).toBe(3);
  exit(); // at once again: that is a crash loop
  expect(server.status().state).toBe("failed");
});
