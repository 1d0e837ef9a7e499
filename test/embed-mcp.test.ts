// MCP servers in an embedded agent (src/lib.ts createMcp): what a program hears of its servers
// (the `mcp` events hey prints as `connected: fs (14 tools)`) and which of their tools it offers.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createMcp, defaultTools, permissionCheck, type AgentEvent } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "./helpers/mcp.ts";
import { until } from "./helpers/wait.ts";

const dir = tempDir("hey-embed-mcp-");
afterAll(() => dir.remove());

test("each server's mcp events reach the program's output: connected with its tool counts, failed with why", async () => {
  const events: AgentEvent[] = [];
  const mcp = createMcp(
    [
      { name: "fake", command: BUN, args: [FAKE_SERVER, "ok", "fake", "echo,shout"] },
      { name: "gone", command: "no-such-command-for-hey-tests" },
    ],
    { cacheDir: join(dir.path, "cache"), output: { emit: (e) => void events.push(e) }, permission: permissionCheck({ deny: ["shout"] }) },
  );
  try {
    await until(() => events.length === 2, "both servers' events");
    expect(events).toContainEqual({ type: "mcp", server: "fake", state: "connected", tools: 2, offered: 1 });
    expect(events).toContainEqual(expect.objectContaining({ type: "mcp", server: "gone", state: "failed", error: expect.stringContaining("not found") }));
    const names = (await mcp.tools(defaultTools(), new AbortController().signal)).map((t) => t.name);
    expect(names).toContain("echo");
    expect(names).not.toContain("shout");
  } finally {
    await mcp.close();
  }
});

test("servers createMcp cannot run are refused at once, each named, instead of failing later as 'Invalid URL' or never", () => {
  expect(() =>
    createMcp([
      { name: "fs", command: "true" },
      { name: "x" },
      { name: "y", command: "node", url: "http://127.0.0.1:9/mcp" },
      { name: "fs", url: "http://127.0.0.1:9/mcp" },
      { name: "", command: "true" },
    ]),
  ).toThrow(
    [
      "createMcp: servers[1] (x) needs command (a local server) or url (a remote one)",
      "createMcp: servers[2] (y) has both command and url; keep one",
      "createMcp: servers[3] (fs) is named like servers[0]; each server needs a name of its own",
      "createMcp: servers[4] has no name",
    ].join("\n"),
  );
});
