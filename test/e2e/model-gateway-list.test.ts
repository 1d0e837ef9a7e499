// A provider with a key and no `models = [...]` (a gateway) is named by `/model` alone, and once its
// endpoint's list is read, in the background, its models are listed and Tab completes them after
// `gw2/` (report x50, 1: it was missing from the list, and Tab offered nothing). dist/hey in tmux
// against a loopback replay server whose GET /models lists two models.
import { setDefaultTimeout, test } from "bun:test";
import { realpathSync } from "node:fs";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { startTerm } from "../helpers/tmux.ts";
import { until } from "../helpers/wait.ts";
import { say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer(undefined, { models: ["gpt-4.1", "deepseek-chat"] });
const home = fileTempDir("hey-gateway-list-");

test("/model names gw2 at once, then lists what its endpoint serves; Tab after gw2/ completes one of them", async () => {
  writeUserConfig(
    home.path,
    `[default]\nprovider = "local"\nmodel = "m"\n[provider.local]\nbase_url = "${server.url}/v1"\nmodels = ["m"]\n` +
      `[provider.gw2]\nbase_url = "${server.url}/v1"\napi_key = "sk-gw2"\n`,
  );
  const term = await startTerm({ cwd: realpathSync(home.path), cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  try {
    await say(term, "/model", "gw2/… (no models configured: /model gw2/MODEL takes any model its endpoint serves)");
    await until(async () => {
      await say(term, "/model", "switch with /model PROVIDER/MODEL");
      return (await term.screen()).includes("  gw2/deepseek-chat");
    }, "gw2's models in /model's list");
    await term.type("/model gw2/dee");
    await term.keys("Tab");
    await term.waitFor(/› \/model gw2\/deepseek-chat\s*$/);
    await term.keys("Enter");
    await term.waitFor("model: gw2/deepseek-chat");
    await say(term, "/quit", "[exit 0]");
  } finally {
    await term.close();
  }
});
