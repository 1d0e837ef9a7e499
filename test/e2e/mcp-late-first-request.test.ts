// In a real terminal (tmux) through dist/hey: the user types a while, so the first request comes
// after `[mcp] startup_wait_ms` (0 here: always after it). A server still starting then is said not
// ready, as it is when the first request waits it out; the model is told it is starting; once it
// connects, its tools join the next request. The server is a shell that waits for a file the test
// writes (a gate) before it runs the fake server, so it is surely still starting at the first request.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { lastUserText, startModelServer, textOf, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { ALL, flat, say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-late-first-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);

test("a server still starting at a first request typed after startup_wait_ms is said not ready on screen; its tools join a later request", async () => {
  const cwd = realpathSync(home.path);
  const go = join(home.path, "go");
  model = startModelServer((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `result: ${textOf(last).split("\n")[0]}` };
    return lastUserText(req) === "use it" ? { calls: [["echo", { text: "hi" }]] } : { text: "first answer" };
  });
  const server = `while [ ! -e ${JSON.stringify(go)} ]; do sleep 0.05; done; exec ${JSON.stringify(BUN)} ${JSON.stringify(FAKE_SERVER)} ok slow`;
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 0\n\n` +
      `[mcp.slow]\ncommand = "/bin/sh"\nargs = ["-c", ${JSON.stringify(server)}]\n`,
  );

  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  const t = term;
  await say(t, "/mcp", "slow: connecting"); // a look, not a request: nothing is said of a request yet
  expect(await flat(t)).not.toContain("was not ready");
  await say(t, "first", "first answer");
  // before: nothing was said when the first request came after the wait, the usual case in a session
  // (a background line: drawn under the answer once the turn is over, so waited for)
  const said =
    /hey: MCP server slow was not ready after [\d.]+ s, so the first request went without its tools; raise \[mcp\] startup_wait_ms to wait longer for it/;
  await t.waitFor((screen) => said.test(screen.replace(/\s+/g, " ")), ALL);
  expect(toolNames(model.requests[0]!)).not.toContain("echo");
  expect(JSON.stringify(model.requests[0]!.messages)).toContain("MCP server slow is still starting");

  writeFileSync(go, ""); // it starts now
  await t.waitFor("connected: slow (1 tool)");
  await say(t, "use it", "result: slow: hi");
  expect(toolNames(model.requests.at(-2)!)).toContain("echo");
  expect((await flat(t)).split("was not ready").length - 1).toBe(1); // the first request's, not every one's
  await say(t, "/quit", "[exit 0]");
});
