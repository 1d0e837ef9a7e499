// `hey -c` on a session whose provider has no key now sends it nothing (x117); `/clear` then starts a
// new session on the model a plain `hey` would use, which answers (x122: it was refused too) — in a
// real terminal (tmux) through dist/hey. Nothing reaches the vendor: a refused request is never sent.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { appendFileSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say, writeSession } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-resume-no-key-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

test("/clear after a resume refused for want of a key starts a new session on the default model, which answers", async () => {
  const cwd = realpathSync(home.path);
  model = startModelServer((req) => ({ text: `answered by ${req.model}` }));
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m1"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m1"]\n\n[provider.openai]\nmodels = ["gpt-5.5"]\n`,
  );
  const stateHome = join(home.path, ".local", "state");
  const earlier = writeSession(stateHome, cwd, "an earlier question", "an earlier answer");
  appendFileSync(join(stateHome, "hey", "sessions", `${earlier}.jsonl`), toLine({ type: "model", id: newId(), provider: "openai", model: "gpt-5.5" }));

  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" }, args: ["-c"] });
  const t = term;
  expect(await say(t, "go on", "so hey sends it nothing")).toContain("OPENAI_API_KEY is not set");
  await say(t, "/clear", "new session");
  const answered = /answered by m\d/;
  expect(await say(t, "hello", answered)).toContain("answered by m1");
  expect(model.requests.map((r) => r.model)).toEqual(["m1"]);
  await say(t, "/quit", "[exit 0]");
});
