// What the model hears of the servers a /reload started, as they are at its next request.
import { expect, test } from "bun:test";
import type { ServerStatus } from "../../src/mcp/server.ts";
import { startingNotes, startNotes, stillStarting } from "../../src/mcp/start-notes.ts";

const status = (name: string, state: ServerStatus["state"], more: Partial<ServerStatus> = {}): ServerStatus => ({
  name,
  state,
  tools: undefined,
  cached: false,
  ...more,
});

test("only the servers the reload added or changed, and only those not serving, each in one line with why", () => {
  const changes = ["+ skill notes", "+ mcp server dies", "+ mcp server slow", "~ mcp server web (url)", "+ mcp server fine", "- mcp server gone"];
  const statuses = [
    status("dies", "failed", { error: "it exited with code 3 before it was ready", stderr: "Traceback\n  at x (y:1:2)\nfatal: no database" }),
    status("slow", "connecting"),
    status("web", "auth_required", { error: "it answers HTTP 401 without one" }),
    status("fine", "connected", { tools: [] }),
    status("old", "failed", { error: "not this reload's" }),
  ];
  expect(startNotes(changes, statuses)).toEqual([
    "MCP server dies did not start: it exited with code 3 before it was ready (its stderr: Traceback | fatal: no database); its tools are left out until its table is fixed and the user runs /reload",
    "MCP server slow is still starting; its tools join the list when it is ready",
    "MCP server web needs a sign-in (it answers HTTP 401 without one); the user runs /mcp login web",
  ]);
});

test("with no /reload to tell of, a request names the servers still starting with no tool list yet (a cached list is offered: not named)", () => {
  const tool = { name: "t", inputSchema: {} };
  expect(stillStarting([status("slow", "connecting"), status("cached", "connecting", { tools: [tool] }), status("up", "connected", { tools: [tool] })])).toBe(
    "[hey: MCP server slow is still starting: its tools join the list when ready (a call to one by name waits for it)]",
  );
  expect(stillStarting([status("gh", "connecting"), status("db", "connecting")])).toBe(
    "[hey: MCP servers gh, db are still starting: their tools join the list when ready (a call to one by name waits for it)]",
  );
  expect(stillStarting([status("up", "connected", { tools: [] }), status("dies", "failed", { error: "x" })])).toBeUndefined();
});

test("beside a /reload note, the servers it started are left to that note: only start-up's still starting are named", () => {
  const statuses = [status("early", "connecting"), status("late", "connecting"), status("changed", "connecting")];
  expect(stillStarting(statuses, ["+ mcp server late", "~ mcp server changed (args)"])).toBe(
    "[hey: MCP server early is still starting: its tools join the list when ready (a call to one by name waits for it)]",
  );
  expect(stillStarting(statuses.slice(1), ["+ mcp server late", "~ mcp server changed (args)"])).toBeUndefined();
});

test("a server whose start failed in a recent run (the run did not wait for it) is not promised: the note says it failed before, and why", () => {
  const dead = status("dead", "connecting", { failedBefore: "cannot reach 127.0.0.1:1 (connection refused)" });
  expect(stillStarting([dead])).toBe(
    "[hey: MCP server dead failed to start in a recent run: cannot reach 127.0.0.1:1 (connection refused); it is being tried again: do not count on its tools]",
  );
  expect(stillStarting([status("slow", "connecting"), status("old", "connecting", { failedBefore: "" })])).toBe(
    "[hey: MCP server slow is still starting: its tools join the list when ready (a call to one by name waits for it)]\n" +
      "[hey: MCP server old failed to start in a recent run; it is being tried again: do not count on its tools]",
  );
});

test("over a run: a server said to be starting that failed since is said, once, to have failed, with why; one the run did not wait for too", () => {
  const note = startingNotes();
  expect(note([status("slow", "connecting"), status("up", "connected", { tools: [] })])).toBe(
    "[hey: MCP server slow is still starting: its tools join the list when ready (a call to one by name waits for it)]",
  );
  const failed = status("slow", "failed", { error: "it exited with code 1 before it was ready" });
  expect(note([failed])).toBe("[hey: MCP server slow failed to start: it exited with code 1 before it was ready; its tools are not coming this run]");
  expect(note([failed])).toBeUndefined(); // said once
  // failed last run, and again by the first note: told it failed, never that its tools are coming
  const fresh = startingNotes();
  const refused = { error: "cannot reach 127.0.0.1:1 (connection refused)", failedBefore: "cannot reach 127.0.0.1:1 (connection refused)" };
  expect(fresh([status("dead", "failed", refused)])).toBe(
    "[hey: MCP server dead failed to start: cannot reach 127.0.0.1:1 (connection refused); its tools are not coming this run]",
  );
});

test("the run's first request names each server that failed before it (exited within the start-up wait), with its stderr; once", () => {
  const note = startingNotes();
  const db = status("db", "failed", {
    error: "it exited with code 3 before it was ready",
    stderr: "connecting…\nboom: cannot connect to database at localhost:5432",
  });
  const cached = status("gh", "failed", { error: "it exited with code 1 before it was ready", tools: [{ name: "search", inputSchema: {} }] });
  // before: nothing, and the model read `unknown tool "tool_1"; available: bash, …` with no word of db
  expect(note([db, cached, status("up", "connected", { tools: [] })])).toBe(
    "[hey: MCP server db failed to start: it exited with code 3 before it was ready (its stderr: connecting… | boom: cannot connect to database at localhost:5432); its tools are not coming this run]\n" +
      "[hey: MCP server gh failed to start: it exited with code 1 before it was ready; its tools are not coming this run]",
  );
  expect(note([db, cached])).toBeUndefined();
  // one that fails later, never named as starting (its cached list was offered): the tool list's change says it (guidance.ts)
  expect(note([db, status("late", "failed", { error: "x", tools: [] })])).toBeUndefined();
  // a /reload before the first request: its own note names the server (startNotes), not twice
  expect(startingNotes()([db], ["+ mcp server db"])).toBeUndefined();
});
