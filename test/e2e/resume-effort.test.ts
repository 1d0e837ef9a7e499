// The reasoning effort is the session's, as its model is: `/effort high` at the prompt is kept with
// the session, so `hey -c` sends it again; `-t` on the command line wins over it, as `-m` does over
// the session's model; a one-shot `hey -c -p "/effort high"` is refused, naming -t, and changes
// nothing. Through dist/hey against a loopback chat server (the REPL in tmux).
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-resume-effort-");
  model = startModelServer(() => ({ text: "ok" }));
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m1"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m1"]\n`,
  );
});
afterEach(async () => {
  await term?.close();
  term = undefined;
  model.stop();
  home.remove();
});

const hey = (args: string[]) => runHey(args, { cwd: realpathSync(home.path), env: { HOME: home.path } });
const lastEffort = () => (model.requests.at(-1) as { reasoning_effort?: string } | undefined)?.reasoning_effort;

test("/effort high at the prompt, /quit, then hey -c: the next request still sends high, and /effort there says so", async () => {
  term = await startTerm({ cwd: realpathSync(home.path), cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  await say(term, "/effort high", "effort: high");
  await say(term, "hello", "ok");
  expect(lastEffort()).toBe("high");
  await say(term, "/quit", "[exit 0]");

  expect(await hey(["-c", "-p", "/effort"])).toMatchObject({ code: 0, stdout: "effort: high\n" });
  const run = await hey(["-c", "-p", "go on"]);
  expect(run).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(model.requests).toHaveLength(2);
  expect(lastEffort()).toBe("high");
});

test("-t on the command line wins over the session's effort, and is kept for the next hey -c", async () => {
  expect((await hey(["-t", "high", "-p", "one"])).code).toBe(0);
  expect(lastEffort()).toBe("high");
  expect((await hey(["-c", "-t", "low", "-p", "two"])).code).toBe(0);
  expect(lastEffort()).toBe("low");
  expect((await hey(["-c", "-p", "three"])).code).toBe(0);
  expect(lastEffort()).toBe("low");
});

test('hey -c -p "/effort high" is refused, naming -t, and the session keeps its effort', async () => {
  expect((await hey(["-p", "one"])).code).toBe(0);
  expect(lastEffort()).toBeUndefined();
  const refused = await hey(["-c", "-p", "/effort high"]);
  expect(refused.code).not.toBe(0);
  expect(refused.stdout).toBe("");
  expect(refused.stderr).toContain(
    "hey: /effort high sets the effort of an interactive session only; for one run use -t high (hey -c -t high continues the last session with it)",
  );
  expect((await hey(["-c", "-p", "two"])).code).toBe(0);
  expect(lastEffort()).toBeUndefined();
});
