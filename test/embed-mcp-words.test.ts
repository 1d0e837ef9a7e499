// What createMcp's servers tell an embedded agent's model and program is worded for a program
// (src/embed-words.ts): there is no /reload to tell a user to type, and the option is `timeoutMs`.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { embeddedWords } from "../src/embed-words.ts";
import { createAgent, createMcp, createProvider, type AgentEvent } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "./helpers/mcp.ts";
import { startModelServer } from "./helpers/model-server.ts";
import { until } from "./helpers/wait.ts";

const dir = tempDir("hey-embed-mcp-words-");
afterAll(() => dir.remove());

test.each([
  [
    "MCP server docs failed: it did not answer initialize in time (timeout_ms); its tools are left out until it is fixed and the user runs /reload",
    "MCP server docs failed: it did not answer initialize in time (timeoutMs); its tools are left out until it is fixed and the program starts its MCP servers again",
  ],
  [
    "MCP server docs is still starting after 60 s ([mcp.docs] timeout_ms); try again later",
    "MCP server docs is still starting after 60 s (the timeoutMs of server docs); try again later",
  ],
  [
    'MCP server docs started, but [mcp.docs] exclude_tools leaves out "rm" (the server has rm, ls); fix that table, then the user runs /reload',
    'MCP server docs started, but the excludeTools of server docs leaves out "rm" (the server has rm, ls); fix that server\'s settings, then the program starts its MCP servers again',
  ],
  ["MCP server docs was closed (/reload replaced it)", "MCP server docs was closed (the program closed its MCP servers)"],
  [
    "MCP server docs stopped again (exit 1); it is not restarted twice: /reload restarts it",
    "MCP server docs stopped again (exit 1); it is not restarted twice: it starts again when the program starts its MCP servers again",
  ],
  ["search failed: ENOENT", "search failed: ENOENT"],
])("%s", (cli, embedded) => {
  expect(embeddedWords(cli)).toBe(embedded);
});

test("a call to the tool of a server that never answers tells the model of timeoutMs, not /reload or timeout_ms; the mcp event too", async () => {
  const model = startModelServer((req) => (req.messages.some((m) => m.role === "tool") ? { text: "done" } : { calls: [["hangs_x", {}]] }));
  const mcpEvents: AgentEvent[] = [];
  const mcp = createMcp([{ name: "hangs", command: BUN, args: [FAKE_SERVER, "silent"], timeoutMs: 1000 }], {
    cacheDir: join(dir.path, "cache"),
    output: { emit: (e) => void mcpEvents.push(e) },
  });
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const results: string[] = [];
    const agent = createAgent({ provider, mcp, output: { emit: (e) => void (e.type === "tool_result" && results.push(e.output)) } });
    expect((await agent.send("use it", new AbortController().signal)).stop).toBe("end");
    await until(() => mcpEvents.some((e) => e.type === "mcp" && e.state === "failed"), "the server's failure");
    const said = [results.join("\n"), JSON.stringify(mcpEvents), JSON.stringify(mcp.status())];
    expect(results[0]).toContain("MCP server hangs failed: it did not answer initialize in time (timeoutMs)");
    expect(results[0]).toContain("until it is fixed and the program starts its MCP servers again");
    for (const text of said) {
      expect(text).not.toContain("/reload");
      expect(text).not.toContain("timeout_ms");
    }
  } finally {
    await mcp.close();
    model.stop();
  }
});
