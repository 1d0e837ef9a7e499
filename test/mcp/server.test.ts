// A call that meets a server as it dies (SPEC §14): whether the write fails first (EPIPE) or the
// exit is seen first, the model reads the same "stopped during the call" message, with the exit's reason.
import { expect, test } from "bun:test";
import { CallError, createServer, type Connection, type ConnectHooks } from "../../src/mcp/server.ts";
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
    events: { changed: () => {}, listed: () => {} },
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
