// The MCP tool-list cache (src/mcp/store.ts): what one run saves, the next offers before its server starts.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createToolStore, FAILURE_HELD_MS } from "../../src/mcp/store.ts";
import { tempDir } from "../helpers/e2e.ts";
import { serverSettings } from "../helpers/mcp.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("hey-mcp-store-");
});
afterEach(() => dir.remove());

const remote = serverSettings("remote", { url: "http://127.0.0.1:9/mcp" });
const whoami = [{ name: "whoami", inputSchema: { type: "object" } }];

test("a sign-in that runs out right after the list was saved leaves no list: the next run does not offer tools it cannot call", async () => {
  const store = createToolStore(dir.path);
  // the server connected (its list is being written) and, a moment later, refused the token
  const saved = store.save(remote, whoami as never);
  const forgotten = store.forget(remote);
  await Promise.all([saved, forgotten]);
  expect(createToolStore(dir.path).load(remote)).toBeUndefined();
});

test("a list saved after a forget is kept (a new sign-in connected again)", async () => {
  const store = createToolStore(dir.path);
  await store.save(remote, whoami as never);
  const forgotten = store.forget(remote);
  const saved = store.save(remote, whoami as never);
  await Promise.all([forgotten, saved]);
  expect(createToolStore(dir.path).load(remote)).toEqual(whoami as never);
});

test("a list the closing run saves lands before the removal the next run's store asks for (a REPL's /new while a server connected): no list is left", async () => {
  // the run being closed saves the list its server just sent; the new run's server wants a sign-in
  const saved = createToolStore(dir.path).save(remote, whoami as never);
  const forgotten = createToolStore(dir.path).forget(remote);
  await Promise.all([saved, forgotten]);
  expect(createToolStore(dir.path).load(remote)).toBeUndefined();
});

test("a start that failed is remembered until the server lists its tools; it never replaces a cached list", async () => {
  const store = createToolStore(dir.path);
  expect(store.failedLast(remote)).toBeUndefined();
  await store.markFailed(remote, "cannot reach 127.0.0.1:9 (connection refused)");
  expect(createToolStore(dir.path).failedLast(remote)).toBe("cannot reach 127.0.0.1:9 (connection refused)"); // the next run's store reads it, and why
  expect(createToolStore(dir.path).load(remote)).toBeUndefined();
  await store.save(remote, whoami as never); // it came up
  expect(createToolStore(dir.path).failedLast(remote)).toBeUndefined();
  await store.markFailed(remote); // down again, with its list cached: the list stays offered
  expect(createToolStore(dir.path).load(remote)).toEqual(whoami as never);
  expect(createToolStore(dir.path).failedLast(remote)).toBeUndefined();
  expect(store.failedLast({ ...remote, url: "http://127.0.0.1:9/other" })).toBeUndefined(); // another configuration
});

test("a failure older than FAILURE_HELD_MS is not held against the server: the next run waits for it again", async () => {
  const store = createToolStore(dir.path);
  await store.markFailed(remote);
  const file = readdirSync(join(dir.path, "mcp")).find((f) => f.startsWith("remote-"))!;
  const path = join(dir.path, "mcp", file);
  const long = new Date(Date.now() - FAILURE_HELD_MS - 60_000).toISOString();
  writeFileSync(path, readFileSync(path, "utf8").replace(/"failed":"[^"]+"/, `"failed":"${long}"`));
  expect(createToolStore(dir.path).failedLast(remote)).toBeUndefined();
});

test("a server's instructions are cached with its list: the next run has them before the server starts; a rename notice kept keeps them; a forget drops them", async () => {
  const store = createToolStore(dir.path);
  await store.save(remote, whoami as never, "Call whoami first.");
  const next = createToolStore(dir.path);
  expect(next.load(remote)).toEqual(whoami as never);
  expect(next.instructions(remote)).toBe("Call whoami first.");
  await next.remember(remote, whoami as never, "a notice");
  expect(createToolStore(dir.path).instructions(remote)).toBe("Call whoami first.");
  await next.save(remote, whoami as never);
  expect(createToolStore(dir.path).instructions(remote)).toBeUndefined();
  await store.save(remote, whoami as never, "again");
  await store.forget(remote);
  expect(createToolStore(dir.path).instructions(remote)).toBeUndefined();
});
