// A session another hey has open is marked in `hey --sessions` and `/sessions`, as `/resume`
// marks it, through dist/hey: the user sees which one `hey --resume` would refuse before trying.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-in-use-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

test("hey --sessions and /sessions mark the session an interactive hey has open; the others are listed as before", async () => {
  const cwd = realpathSync(home.path);
  model = startModelServer(() => ({ text: "ok" }));
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`,
  );
  const env = { HOME: home.path };
  await runHey(["-p", "an earlier question"], { cwd, env });

  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  await say(term, "still working on this", "ok"); // answered: its session file exists, and this hey holds it

  const listed = (await runHey(["--sessions"], { cwd, env })).stdout;
  expect(listed).toContain("(open in another hey) still working on this");
  expect(listed).toMatch(/  an earlier question\n/);
  expect((await runHey(["-p", "/sessions"], { cwd, env })).stdout).toContain("(open in another hey) still working on this");
});
