// 503 from a remote MCP server is retried with backoff (SPEC §14); nothing else is.
import { expect, test } from "bun:test";
import { MAX_ATTEMPTS, retryDelay, retrying503 } from "../../src/mcp/http-retry.ts";

test.each([
  [1, null, 500],
  [2, null, 1000],
  [3, null, 2000],
  [9, null, 5000],
  [1, "2", 2000],
  [1, "0", 0],
  [1, "120", 5000],
  [2, "Wed, 21 Oct 2015 07:28:00 GMT", 1000],
])("attempt %d, Retry-After %j: wait %d ms", (attempt, header, want) => {
  expect(retryDelay(attempt, header)).toBe(want);
});

const answers = (statuses: number[]) => {
  const calls: string[] = [];
  const fetch = async (input: string | URL | Request) => {
    calls.push(String(input));
    return new Response("x", { status: statuses[calls.length - 1] ?? 200 });
  };
  return { calls, fetch };
};

test("503s are retried until an answer, with the backoff between", async () => {
  const { calls, fetch } = answers([503, 503, 200]);
  const waits: number[] = [];
  const r = await retrying503(fetch, async (ms) => void waits.push(ms))("http://s/mcp", { method: "POST", body: "{}" });
  expect(r.status).toBe(200);
  expect(calls).toHaveLength(3);
  expect(waits).toEqual([500, 1000]);
});

test("at most MAX_ATTEMPTS attempts; the last 503 is returned for the transport to report", async () => {
  const { calls, fetch } = answers(Array(10).fill(503));
  const r = await retrying503(fetch, async () => {})("http://s/mcp", { method: "POST", body: "{}" });
  expect(r.status).toBe(503);
  expect(calls).toHaveLength(MAX_ATTEMPTS);
});

test.each([500, 502, 404, 429])("%d is not retried", async (status) => {
  const { calls, fetch } = answers([status, 200]);
  expect((await retrying503(fetch, async () => {})("http://s/mcp", { method: "POST", body: "{}" })).status).toBe(status);
  expect(calls).toHaveLength(1);
});

test("a body that cannot be sent twice (a stream) is not retried", async () => {
  const { calls, fetch } = answers([503, 200]);
  const body = new ReadableStream({ start: (c) => c.close() });
  expect((await retrying503(fetch, async () => {})("http://s/mcp", { method: "POST", body })).status).toBe(503);
  expect(calls).toHaveLength(1);
});
