// x144 #6: the user's exported CDPATH reached the agent's bash, and with `CDPATH=~` its `cd .config`
// went to ~/.config, while the permission check had placed it in the project's .config. Through
// dist/hey with a scripted model whose bash runs `cd .config && pwd` under CDPATH=HOME.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { resultText } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const base = eachTempDir("hey-cdpath-");
const model = eachModelServers();

test("with CDPATH=HOME exported, the agent's `cd .config` lands in the project's .config, not the home's", async () => {
  await ensureBinary();
  const home = realpathSync(base.path);
  const project = join(home, "src", "app");
  mkdirSync(join(project, ".config"), { recursive: true });
  const m = model((req) => {
    const results = req.messages.filter((x) => x.role === "tool");
    return results.length ? { text: results.map(resultText).join("") } : { calls: [["bash", { command: "cd .config && pwd" }]] };
  });
  writeUserConfig(home, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  const run = await runHey(["-p", "where is .config?"], { env: { HOME: home, CDPATH: home }, cwd: project, timeoutMs: 90_000 });
  expect(run.stdout).toContain(join(project, ".config"));
  expect(run.stdout).not.toContain(`${join(home, ".config")}\n`);
});
