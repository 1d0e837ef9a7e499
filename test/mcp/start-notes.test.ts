// What the model hears of the servers a /reload started, as they are at its next request.
import { expect, test } from "bun:test";
import type { ServerStatus } from "../../src/mcp/server.ts";
import { startNotes, stillStarting } from "../../src/mcp/start-notes.ts";

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
