// A local MCP server ends with hey however hey ends, `kill -9` too, with what it started in its
// process group (a language server, a browser, a watcher): the bash tool's guard is in the server's
// group as well (src/mcp/child.ts). Through the compiled binary against a local mock model.
import { afterAll, afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { resultText, startModelServer, type ChatRequest } from "../helpers/model-server.ts";
import { killMarked, marker, processes, withMarker } from "../helpers/processes.ts";
import { found, until } from "../helpers/wait.ts";

const root = tempDir("hey-mcp-ends-");
const leftovers: string[] = [];
afterEach(() => killMarked(leftovers.splice(0)));
afterAll(() => root.remove());

const results = (req: ChatRequest) => req.messages.filter((m) => m.role === "tool").map(resultText);

test("kill -9 of hey: a stdio server that ignores the end of its stdin, and the process it started, both end", async () => {
  const [helper, stubborn, running] = [marker(), marker(), marker()];
  leftovers.push(helper, stubborn, running);
  // a server that starts a helper, and once its stdin ends goes on running (as `sleep STUBBORN`)
  const script = `sleep ${helper} & ${BUN} ${FAKE_SERVER} ok; exec sleep ${stubborn}`;
  writeUserConfig(root.path, `[mcp.t]\ncommand = "sh"\nargs = ${JSON.stringify(["-c", script])}\n`);
  // the model uses the server's tool, then runs a command that holds hey in the turn
  const model = startModelServer((req) =>
    results(req).length === 0 ? { calls: [["echo", { text: "hi" }]] } : { calls: [["bash", { command: `sleep ${running}` }]] },
  );
  try {
    const hey = Bun.spawn([await ensureBinary(), "--base-url", model.baseUrl, "-m", "m", "-p", "use the server"], {
      cwd: root.path,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: root.path,
        XDG_STATE_HOME: join(root.path, "state"),
        XDG_CACHE_HOME: join(root.path, "cache"),
        NO_COLOR: "1",
      },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
      timeout: 30_000,
    });
    await found(() => withMarker(running).find((p) => p.args.startsWith("sleep")), "the command after the server's tool ran", 20_000);
    expect(results(model.requests.at(-1)!)[0]).toContain("hi");
    const server = withMarker(helper).find((p) => p.args.startsWith("sleep"))!;
    expect(server).toBeDefined();

    hey.kill("SIGKILL");
    expect(await hey.exited).toBe(137);
    // before: the helper ran on under init, and the server, its stdin ended, became `sleep STUBBORN`
    await until(() => withMarker(helper).length === 0 && withMarker(stubborn).length === 0, "the server and its helper to end after kill -9 of hey", 10_000);
    await until(() => processes().every((p) => p.pgid !== server.pgid), "nothing of the server's process group to be left, its guard too", 10_000);
  } finally {
    model.stop();
  }
}, 40_000);
