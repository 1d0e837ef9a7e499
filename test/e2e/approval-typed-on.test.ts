// The (y/N) question at the REPL's start, in a real terminal (tmux): a y with the first message
// typed on after it (`yhi there`) is no answer — not a silent no that drops the message. hey asks
// again, and the text waits, unsent, at the prompt that follows.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { ALL, flat } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  model = startModelServer(() => ({ text: "ok" }));
});
afterEach(async () => {
  await term?.close();
  model.stop();
  home.remove();
  project.remove();
});

const configFile = () => join(home.path, ".config", "hey", "config.toml");
const writeConfig = (allow: string[]) => {
  mkdirSync(join(configFile(), ".."), { recursive: true });
  writeFileSync(
    configFile(),
    `[default]\nprovider = "local"\nmodel = "m1"\n[provider.local]\nbase_url = "${model.baseUrl}"\nmodels = ["m1"]\n[permission]\nallow = ${JSON.stringify(allow)}\n`,
  );
};

test("start-up question: `yhi there` is asked again, not taken as a no; y then approves, and `yhi there` waits at the prompt, unsent", async () => {
  writeConfig(["read_file"]);
  expect((await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } })).code).toBe(0); // approved as it was
  writeConfig(["read_file", "bash: touch *"]);
  const requests = model.requests.length;

  term = await startTerm({ cwd: project.path, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  await term.waitFor("Use this change? (y/N)");
  await term.type("yhi there");
  await term.keys("Enter");
  await term.waitFor('hey: "yhi there" does not answer the question: type y or n, then Enter (what you typed waits at the prompt after it)', ALL);
  // asked again: the question is drawn after the line that says why, so wait for it rather than read the screen once
  await term.waitFor((screen) => screen.replace(/\s+/g, " ").split("Use this change? (y/N)").length === 3, ALL);
  await term.type("y");
  await term.keys("Enter");
  await term.waitFor((screen) => screen.trimEnd().endsWith("› yhi there"));
  const screen = await flat(term);
  expect(screen).not.toContain("not used, not approved"); // the change was approved
  expect(model.requests.length).toBe(requests); // and nothing was sent
});
