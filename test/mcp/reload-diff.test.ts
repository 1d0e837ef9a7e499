// `/reload` applies MCP servers as a diff (issue 26): a server whose table did not change keeps
// its process (a stateful server keeps its state); a changed one that is serving is started beside
// it and takes over once connected — a failure leaves the old one serving, said in what the reload
// reports; new ones start, removed ones close. Over real processes (our fake server).
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Applied } from "../../src/config/reload.ts";
import type { McpServerSettings } from "../../src/config/settings.ts";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { until } from "../helpers/wait.ts";
import { alive } from "../helpers/processes.ts";

setDefaultTimeout(60_000);

let dir: ReturnType<typeof tempDir>;
const managers: TestManager[] = [];
beforeEach(() => {
  dir = tempDir("hey-mcp-diff-");
});
afterEach(async () => {
  for (const m of managers.splice(0)) await m.manager.close();
  dir.remove();
});

const fake = (name: string, mode: string[], more: Partial<McpServerSettings> = {}) =>
  serverSettings(name, { command: BUN, args: [FAKE_SERVER, ...mode], env: { FAKE_LOG: join(dir.path, `${name}.log`) }, ...more });
/** The process ids of every start of `name`, in order (the fake server logs `start MODE PID`). */
const pids = (name: string) =>
  readFileSync(join(dir.path, `${name}.log`), "utf8")
    .trim()
    .split("\n")
    .map((l) => Number(l.split(" ").at(-1)));
function open(servers: McpServerSettings[]): TestManager {
  const m = testManager(servers, { cacheDir: join(dir.path, "cache"), builtins: ["read_file"] });
  managers.push(m);
  return m;
}
async function reload(m: TestManager, servers: McpServerSettings[]) {
  const staged = await m.manager.reloadable.check({ ...defaultSettingsForTest(), mcp: { servers, startupWaitMs: 20_000, deferTools: "never" } });
  expect(staged.errors).toEqual([]);
  const applied = (await staged.apply()) as Applied;
  return { checked: staged.changes, ...applied };
}

test("an unchanged server keeps its process; a new one starts; a removed one closes", async () => {
  const keep = fake("keep", ["ok", "keep", "echo"]);
  const gone = fake("gone", ["ok", "gone", "bye"]);
  const m = open([keep, gone]);
  expect((await m.call("echo", { text: "a" })).output).toBe("keep: a");
  await until(() => m.manager.status().every((s) => s.state === "connected"), "both connected");
  const [first] = pids("keep");
  const [goneFirst] = pids("gone");

  // the same table, written again (another object, where it is defined moved): not a change
  const again = { ...fake("keep", ["ok", "keep", "echo"]), at: "/elsewhere.toml:9: [mcp.keep]" };
  const added = fake("added", ["ok", "added", "hello"]);
  const r = await reload(m, [again, added]);
  expect(r.changes).toEqual(["+ mcp server added", "- mcp server gone"]);
  expect(r.warnings).toEqual([]);
  expect(pids("keep")).toEqual([first!]); // not started again
  expect(alive(first!)).toBe(true);
  await until(() => !alive(goneFirst!), "the removed server's process to end");
  expect((await m.call("echo", { text: "b" })).output).toBe("keep: b");
  expect((await m.call("hello", { text: "c" })).output).toBe("added: c");
});

test("a changed server that fails to start leaves the old one serving, and the reload says so", async () => {
  const served = fake("db", ["ok", "old", "query"]);
  const m = open([served]);
  expect((await m.call("query", { text: "1" })).output).toBe("old: 1");
  const changed = fake("db", ["exit-on-init"]);
  const r = await reload(m, [changed]);
  expect(r.checked).toEqual(["~ mcp server db"]);
  expect(r.changes).toEqual(["~ mcp server db (not started: the old one keeps serving)"]);
  expect(r.warnings).toEqual([
    "MCP server db: its changed table did not start (it exited with code 3 before it was ready\n  fatal: cannot open the database at /nope); the old one keeps serving, its tools unchanged",
  ]);
  expect((await m.call("query", { text: "2" })).output).toBe("old: 2");
  expect(m.manager.status()).toMatchObject([{ name: "db", state: "connected" }]);
  expect(m.warnings).toEqual([]); // said by the reload, not again in the background
  const [old, failed] = pids("db");
  expect(alive(old!)).toBe(true);
  expect(failed).toBeDefined();
});

test("a changed server that starts takes over: the old process ends, calls go to the new one", async () => {
  const m = open([fake("db", ["ok", "old", "query"])]);
  expect((await m.call("query", { text: "1" })).output).toBe("old: 1");
  const r = await reload(m, [fake("db", ["ok", "new", "query"])]);
  expect(r.changes).toEqual(["~ mcp server db"]);
  expect((await m.call("query", { text: "2" })).output).toBe("new: 2");
  const [old, next] = pids("db");
  await until(() => !alive(old!), "the old process to end");
  expect(alive(next!)).toBe(true);
  expect(m.events.filter((e) => e.state === "connected").map((e) => e.server)).toEqual(["db", "db"]);
});

test("a changed server whose old one is not serving starts in its place at once", async () => {
  const m = open([fake("db", ["exit-on-init"])]);
  await until(() => m.manager.status()[0]!.state === "failed", "the failure");
  const r = await reload(m, [fake("db", ["ok", "fixed", "query"])]);
  expect(r.changes).toEqual(["~ mcp server db"]);
  expect((await m.call("query", { text: "x" })).output).toBe("fixed: x");
});

test("a server named like a built-in tool keeps it: read_file arrives as <server>_read_file", async () => {
  const m = open([fake("fs", ["ok", "fs", "read_file,list"])]);
  const names = (await m.tools()).map((t) => t.name);
  expect(names).toEqual(["fs_read_file", "list"]);
  expect((await m.call("fs_read_file", { text: "x" })).output).toBe("fs: x");
});
