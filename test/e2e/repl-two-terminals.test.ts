// Two interactive heys in one project, each in its own real terminal (tmux), through dist/hey: the
// agent adds an MCP server to the config, the user says yes to it at `/reload` in one; a `/reload`
// in the other then starts it without asking again, as a new start of hey would.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { lastLine, say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
const terms: Term[] = [];
beforeEach(() => {
  home = tempDir("hey-two-terminals-");
});
afterEach(async () => {
  for (const t of terms.splice(0)) await t.close();
  model?.stop();
  home.remove();
});

test("a server approved at /reload in one terminal is started by /reload in the other without asking again", async () => {
  model = startModelServer(() => ({ text: "ok" }));
  const configFile = join(home.path, ".config", "hey", "config.toml");
  const provider = `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`;
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(configFile, provider);
  await runHey(["-p", "hi"], { cwd: home.path, env: { HOME: home.path } }); // the approvals record exists from a run the model answered
  const open = async () => {
    const t = await startTerm({ cwd: home.path, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
    terms.push(t);
    await t.waitFor((s) => lastLine(s) === "›");
    return t;
  };
  const first = await open();
  const second = await open();

  // what the agent writes (both heys read the same file)
  writeFileSync(configFile, `${provider}\n[mcp.notes]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", "notes"])}\n`);
  await say(first, "/reload", "Use this change? (y/N)");
  await first.type("y");
  await first.keys("Enter");
  await first.waitFor((s) => s.includes("connected: notes") && lastLine(s) === "›");

  const reloaded = await say(second, "/reload", /connected: notes|\(y\/N\)/);
  // before: the second hey asked '… would give the agent more than you approved: + [mcp.notes] …  Use this change? (y/N)'
  expect(reloaded).not.toContain("Use this change?");
  expect(reloaded).toContain("+ mcp server notes");
});
