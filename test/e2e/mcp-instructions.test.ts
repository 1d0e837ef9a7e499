// An MCP server's `instructions` (its initialize result's words for the model) reach the model:
// server-everything's go into the system prompt under the server's name, the same text in every
// request of the run (the prompt cache), in the first run (no cached list: the request waits for
// the server) and in the next (its cached list, with the instructions cached beside it: the server
// starts only after the first request went). Through dist/hey, with the real server from npm.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { EVERYTHING_SERVER } from "../helpers/mcp.ts";
import { systemOf } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-instructions-");
const model = eachModelServers();

test("server-everything's instructions are in the system prompt of every request of the run, under its name", async () => {
  await ensureBinary();
  const instructions = readFileSync(join(EVERYTHING_SERVER, "..", "docs", "instructions.md"), "utf8").trim();
  const m = model((req) => (req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls: [["echo", { message: "hi" }]] }));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 30000\n` +
      `\n[mcp.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"]\n`,
  );
  const run = await runHey(["-p", "echo hi"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(run.stdout).toBe("done\n");
  expect(m.requests).toHaveLength(2);
  expect(systemOf(m.requests[0]!)).toContain(`Instructions from MCP server everything:\n${instructions}`);
  expect(systemOf(m.requests[1]!)).toBe(systemOf(m.requests[0]!));

  // the next run offers the cached list at once and starts the server after its first request: the cached instructions are in its system prompt
  const again = await runHey(["-p", "echo hi"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(again.stdout).toBe("done\n");
  const [first, second] = m.requests.slice(2);
  expect(systemOf(first!)).toBe(systemOf(m.requests[0]!));
  expect(systemOf(second!)).toBe(systemOf(first!));
  expect(JSON.stringify([first!.messages, second!.messages])).not.toContain("its instructions");
});
