// `/resume` continues a session with the model it last used (README "/resume"), however the run
// got there: a `/model` choice made before a `/clear` belongs to the session `/clear` began, not to
// one picked later — in a real terminal (tmux) through dist/hey.
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
  home = tempDir("hey-resume-model-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

test("a session /resume picks after /model and /clear goes on with its own model, not the one /model chose for the cleared session", async () => {
  const cwd = realpathSync(home.path);
  model = startModelServer((req) => ({ text: `answered by ${req.model}` }));
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m1"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m1", "m2", "m3"]\n`,
  );
  const stateHome = join(home.path, ".local", "state");
  const earlier = writeSession(stateHome, cwd, "an earlier question", "an earlier answer");
  appendFileSync(join(stateHome, "hey", "sessions", `${earlier}.jsonl`), toLine({ type: "model", id: newId(), provider: "mock", model: "m3" }));

  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  const t = term;
  await say(t, "/model m2", "model: ");
  await say(t, "/clear", "new session");
  // the answer's last word is drawn when the stream ends (the renderer holds a word that may go on): wait for it
  const answered = /answered by m\d/;
  expect(await say(t, "hello", answered)).toContain("answered by m2"); // the cleared session keeps the choice
  // the model it goes on with is said, not only shown by the next answer
  await say(t, `/resume ${earlier}`, `resumed session ${earlier} (2 messages loaded) · mock/m3`);
  expect(await say(t, "go on", answered)).toContain("answered by m3");
  expect(model.requests.at(-1)!.model).toBe("m3");
  await say(t, "/quit", "[exit 0]");
});
