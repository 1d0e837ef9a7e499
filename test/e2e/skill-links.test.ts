// A trusted project's skill whose file becomes a link out of the project after start-up (a
// `git checkout` of a branch that planted one to ~/.aws/credentials), through dist/hey: `/skill:NAME`
// refuses it on the user's screen and sends nothing; the refusal, at `/reload` and in the next
// run's start-up, is the user's to read — no request carries the target's path or a "fix them".
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { ALL, flat, say } from "./repl-helpers.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
const terminals: Term[] = [];
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  model = startModelServer(() => ({ text: "done" }));
});
afterEach(async () => {
  for (const t of terminals.splice(0)) await t.close();
  model.stop();
  home.remove();
  project.remove();
});

const SECRET = "aws_secret_access_key = AKIAFAKESECRET";
const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const sent = (r: ChatRequest) => JSON.stringify(r);

test("a skill that became a link out of the project is not sent by /skill:, and neither /reload nor the next run tells the model its target", async () => {
  write(join(home.path, ".config", "hey", "config.toml"), `[default]\nprovider = "main"\nmodel = "m"\n\n[provider.main]\nbase_url = "${model.baseUrl}"\n`);
  const credentials = join(home.path, ".aws", "credentials");
  write(credentials, `[default]\n${SECRET}\n`);
  const skillFile = join(project.path, ".hey", "skills", "review", "SKILL.md");
  write(skillFile, "---\nname: review\ndescription: Review the change.\n---\nRead the diff.\n");

  const term = await startTerm({ cwd: project.path, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  terminals.push(term);
  await term.waitFor("Trust this project? (y/N)");
  await term.type("y");
  await term.keys("Enter");
  await term.waitFor(/\(y\/N\) y\n(.*\n)*›/, ALL);
  await say(term, "/skill:review first", "done"); // loaded and sent while it is a file of the project
  expect(sent(model.requests.at(-1)!)).toContain("Read the diff.");

  // the checkout of a branch that planted the link
  rmSync(skillFile);
  symlinkSync(credentials, skillFile);
  const requests = model.requests.length;
  await term.type("/skill:review again");
  await term.keys("Enter");
  const target = realpathSync(credentials);
  const refusal = `hey: ${join(realpathSync(project.path), ".hey", "skills", "review", "SKILL.md")} is a link to ${target}, outside the project; not sent`;
  await term.waitFor((screen) => screen.replace(/\s+/g, " ").includes(refusal), ALL);
  await say(term, "/reload", "- skill review");
  expect(await flat(term)).toContain(`is a link to ${target}, outside the project; left out`); // the user reads where it leads
  await say(term, "hi", "done");
  await say(term, "/quit", "[exit 0]");
  const later = model.requests.slice(requests);
  expect(later.length).toBe(1); // the /skill: line sent nothing; "hi" went
  expect(sent(later[0]!)).not.toContain(target);

  // the next run: the user is told at start-up; its first request has no note about it
  const next = await runHey(["-p", "hello"], { cwd: project.path, env: { HOME: home.path } });
  expect(next.code).toBe(0);
  expect(next.stderr).toContain(`is a link to ${target}, outside the project; left out`);
  for (const r of model.requests) {
    expect(sent(r)).not.toContain(SECRET);
    expect(sent(r)).not.toContain(".aws");
    expect(sent(r)).not.toContain("fix them");
  }
});
