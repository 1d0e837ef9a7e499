// `hey --resume` with no ID (README "Sessions"): at a terminal the REPL opens on /resume's list and
// the session picked is continued, as Claude Code's `--resume` and Codex's `resume` do; with no
// terminal there is nothing to pick with, and it says how to name one — through dist/hey.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say, writeSession } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-resume-pick-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

test("hey --resume at a terminal lists this directory's sessions, and the one picked goes on", async () => {
  const cwd = realpathSync(home.path);
  model = startModelServer(() => ({ text: "answered" }));
  const stateHome = join(home.path, ".local", "state");
  writeSession(stateHome, cwd, "the older question", "the older answer");
  await Bun.sleep(5); // ids are time-ordered: the newer session is listed first
  const newer = writeSession(stateHome, cwd, "the newer question", "the newer answer");

  term = await startTerm({ cwd, args: ["--base-url", model.baseUrl, "-m", "m", "--resume"], env: { HOME: home.path, NO_COLOR: "1" } });
  // before: `--resume needs a session ID` and exit 2
  const list = await term.waitFor("resume which?");
  expect(list).toContain("the newer question");
  expect(list).toContain("the older question");
  await term.type("1");
  await term.keys("Enter");
  await term.waitFor(`resumed session ${newer} (2 messages loaded)`);
  await say(term, "go on", "answered");
  const sent = JSON.stringify(model.requests.at(-1)!.messages);
  expect(sent).toContain("the newer answer");
  expect(sent).not.toContain("the older answer");
  await say(term, "/quit", "[exit 0]");
});

test("hey --resume with no terminal, or with a prompt, says how to name the session, and runs nothing", async () => {
  const cwd = realpathSync(home.path);
  const env = { HOME: home.path };
  for (const args of [["--resume"], ["--resume", "-p", "hi"], ["--resume", "--output", "json"]]) {
    const run = await runHey(args, { cwd, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--resume needs a session ID here: hey --sessions lists them");
    expect(run.stderr).toContain("at a terminal, hey --resume alone picks from a list");
  }
});
