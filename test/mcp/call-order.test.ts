// MCP tools in a turn of several calls: a tool its server marks read-only (`annotations.readOnlyHint:
// true`) runs beside the others; one it marks as changing things, or does not mark (the MCP default),
// runs alone in call order, as a bash command that may change anything does. Before, every MCP call
// of a turn ran at once: two writes to one database, or a write and the listing after it, collided.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runToolCalls } from "../../src/kernel/tool-calls.ts";
import { textOf } from "../../src/kernel/ir.ts";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, FS_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";

setDefaultTimeout(60_000);

let dir: ReturnType<typeof tempDir>;
const managers: TestManager[] = [];
beforeEach(() => {
  dir = tempDir("hey-mcp-order-");
});
afterEach(async () => {
  for (const m of managers.splice(0)) await m.manager.close();
  dir.remove();
});

/** Runs `calls` (tool name, text) as one turn of the model, in parallel as hey runs them; the results' texts, in call order. */
async function turn(m: TestManager, calls: [string, Record<string, unknown>][]): Promise<string[]> {
  const tools = await m.tools();
  const ids = calls.map((_, i) => `c${i}`);
  const done = await runToolCalls(
    calls.map(([name, args], i) => ({ id: ids[i]!, name, arguments: JSON.stringify(args) })),
    { tools, output: { emit: () => {} }, permission: () => undefined, signal: new AbortController().signal, cwd: dir.path, parallel: true },
  );
  return ids.map((id) => textOf(done.find((r) => r.toolCallId === id)!));
}

function fakeServer(): { m: TestManager; log: () => string[] } {
  const logPath = join(dir.path, "calls.log");
  writeFileSync(logPath, "");
  const m = testManager([serverSettings("db", { command: BUN, args: [FAKE_SERVER, "ordered"], env: { FAKE_LOG: logPath } })], {
    cacheDir: join(dir.path, "cache"),
  });
  managers.push(m);
  const log = () =>
    readFileSync(logPath, "utf8")
      .split("\n")
      .filter((l) => /^(began|ended) /.test(l));
  return { m, log };
}

test("calls of a tool not marked read-only (readOnlyHint false, or no hint) run one after another, in call order", async () => {
  const { m, log } = fakeServer();
  const results = await turn(m, [
    ["insert", { text: "a" }],
    ["touch", { text: "b" }],
    ["insert", { text: "c" }],
  ]);
  expect(results).toEqual(["insert a done", "touch b done", "insert c done"]);
  // before: all three started before any ended
  expect(log()).toEqual(["began insert a", "ended insert a", "began touch b", "ended touch b", "began insert c", "ended insert c"]);
});

test("calls of a tool marked read-only run side by side; a write among them waits for the reads before it and holds back those after", async () => {
  const { m, log } = fakeServer();
  await turn(m, [
    ["query", { text: "1" }],
    ["query", { text: "2" }],
    ["insert", { text: "x" }],
    ["query", { text: "3" }],
  ]);
  const lines = log();
  // the two reads overlap: both start before either ends
  expect(lines.slice(0, 2).sort()).toEqual(["began query 1", "began query 2"]);
  expect(lines.slice(2, 4).sort()).toEqual(["ended query 1", "ended query 2"]);
  expect(lines.slice(4)).toEqual(["began insert x", "ended insert x", "began query 3", "ended query 3"]);
});

test("the real filesystem server: its read tools are read-only, its write tools are not, and a listing after a write sees the file", async () => {
  const root = join(realpathSync(dir.path), "project");
  mkdirSync(root);
  writeFileSync(join(root, "notes.txt"), "old\n");
  const m = testManager([serverSettings("fs", { command: "node", args: [FS_SERVER, root] })], { cacheDir: join(dir.path, "cache") });
  managers.push(m);
  const tools = await m.tools();
  const readOnly = (name: string) => tools.find((t) => t.name === name)!.readOnly?.({});
  expect([readOnly("read_text_file"), readOnly("list_directory"), readOnly("search_files")]).toEqual([true, true, true]);
  expect([readOnly("write_file"), readOnly("edit_file"), readOnly("move_file"), readOnly("create_directory")]).toEqual([false, false, false, false]);

  const [, , listing] = await turn(m, [
    ["write_file", { path: join(root, "made.txt"), content: "new\n" }],
    ["edit_file", { path: join(root, "notes.txt"), edits: [{ oldText: "old", newText: "edited" }] }],
    ["list_directory", { path: root }],
  ]);
  expect(listing).toBe("[FILE] made.txt\n[FILE] notes.txt");
  expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("edited\n");
});
