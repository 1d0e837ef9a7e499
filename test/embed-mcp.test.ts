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
