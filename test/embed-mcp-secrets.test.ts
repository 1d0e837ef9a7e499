// createMcp keeps its servers' credentials from the model as the CLI does (README "Secrets"): a
// credential-named header or `env` value that a server sends back — an HTTP 500 that echoes the
// Authorization header, a tool description or stderr that prints its token — reaches no request,
// event, warning or cached file, and an agent given the servers hides them in its own tools' results too.
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createMcp, createProvider, type AgentEvent } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "./helpers/mcp.ts";
import { startModelServer } from "./helpers/model-server.ts";
import { until } from "./helpers/wait.ts";

const dir = tempDir("hey-embed-mcp-secrets-");
afterAll(() => dir.remove());

const HEADER_TOKEN = "rk_live_ZZZsecret0987654321";
const ENV_TOKEN = "tok_SUPERSECRET_123456";

/** Every file under `root`, read. */
const filesIn = (root: string): string[] =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => readFileSync(join(f.parentPath, f.name), "utf8"));

test("a header's token a server echoes and an env token a server prints reach no request, mcp event, warning or cache file", async () => {
  const echo = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => new Response(`internal error, auth was: ${req.headers.get("authorization")}`, { status: 500 }),
  });
  // the project holds the token too, where no shape gives it away: the agent given the servers hides it in its own tools' results
  writeFileSync(join(dir.path, "notes.txt"), `remote auth is ${HEADER_TOKEN}\n`);
  const model = startModelServer((req) =>
    req.messages.some((m) => m.role === "tool")
      ? { text: "done" }
      : {
          calls: [
            ["remote_x", {}],
            ["read_file", { path: "notes.txt" }],
          ],
        },
  );
  const cacheDir = join(dir.path, "cache");
  const mcpEvents: AgentEvent[] = [];
  const warnings: string[] = [];
  const mcp = createMcp(
    [
      { name: "remote", url: `http://127.0.0.1:${echo.port}/mcp`, headers: { Authorization: `Bearer ${HEADER_TOKEN}` }, timeoutMs: 10_000 },
      { name: "local", command: BUN, args: [FAKE_SERVER, "ok", "local", "whoami"], env: { DEMO_TOKEN: ENV_TOKEN, FAKE_DESCRIBE: `(token ${ENV_TOKEN})` } },
      { name: "dying", command: BUN, args: [FAKE_SERVER, "exit-on-init"], env: { DEMO_TOKEN: ENV_TOKEN, FAKE_SAY: ENV_TOKEN } },
    ],
    { cacheDir, output: { emit: (e) => void mcpEvents.push(e) }, warn: (m) => void warnings.push(m) },
  );
  try {
    await until(() => mcpEvents.length === 3, "the three servers' events");
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const events: AgentEvent[] = [];
    const agent = createAgent({ provider, mcp, cwd: dir.path, output: { emit: (e) => void events.push(e) } });
    expect((await agent.send("who am I?", new AbortController().signal)).stop).toBe("end");

    const sent = JSON.stringify(model.requests);
    expect(sent).toContain("auth was: [redacted]"); // the model still reads why the server failed
    expect(sent).toContain("(token [redacted])");
    expect(sent).toContain("remote auth is [redacted]");
    expect(JSON.stringify(mcpEvents)).toContain("[redacted]");
    for (const seen of [sent, JSON.stringify(mcpEvents), JSON.stringify(events), warnings.join("\n"), ...filesIn(cacheDir)]) {
      expect(seen).not.toContain(HEADER_TOKEN);
      expect(seen).not.toContain(ENV_TOKEN);
    }
  } finally {
    await mcp.close();
    model.stop();
    echo.stop(true);
  }
});
