// An MCP server's tool selection is part of what the user approved (a red-team report): the agent
// removed `exclude_tools = ["get_env"]` from an approved server and the next run offered get_env
// without a word. Now the approved exclusion stays in force, the run says what it left out, and a
// narrower selection applies at once. Through dist/hey, with our fake MCP server and a scripted model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import type { ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-selection-");
const model = eachModelServers();
const names = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name).filter((n) => ["echo", "get_env", "add"].includes(n));

test("exclude_tools removed from an approved server: get_env stays left out and the run says so; tools narrowed applies at once", async () => {
  await ensureBinary();
  const m = model(() => ({ text: "ok" }));
  const config = (selection: string) =>
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n` +
    `[mcp.ev]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "ev", "echo,get_env,add"]\n${selection}`;
  const hey = () => runHey(["-p", "go"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });

  writeUserConfig(home.path, config('exclude_tools = ["get_env"]\n'));
  const first = await hey(); // the first run records the file as approved
  expect(first.code).toBe(0);
  expect(names(m.requests.at(-1)!)).toEqual(["echo", "add"]);

  writeUserConfig(home.path, config(""));
  const widened = await hey();
  expect(widened.code).toBe(0);
  expect(names(m.requests.at(-1)!)).toEqual(["echo", "add"]);
  expect(widened.stderr).toContain('not used: + [mcp.ev] exclude_tools no longer leaves out "get_env"');

  writeUserConfig(home.path, config('tools = ["echo"]\nexclude_tools = ["get_env"]\n'));
  const narrowed = await hey();
  expect(narrowed.code).toBe(0);
  expect(names(m.requests.at(-1)!)).toEqual(["echo"]);
  expect(narrowed.stderr).not.toContain("not used");
});
