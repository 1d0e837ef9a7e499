// Skills written for Claude Code, run by hey as Claude Code runs them (x45 findings 3–5): a
// "manual only" skill (disable-model-invocation) is the user's to run, not offered to the model; a
// title for a name (Anthropic's early examples) runs by its folder's name or its slug, with no
// warnings on every run; $ARGUMENTS and ${CLAUDE_SKILL_DIR} are filled in before the model reads it.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, systemOf, textOf, type ModelServer } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  mkdirSync(join(project.path, ".git"));
  model = startModelServer(() => ({ text: "ok" }));
});
afterEach(() => {
  model.stop();
  home.remove();
  project.remove();
});

const hey = (args: string[]) => runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: project.path, env: { HOME: home.path } });
const skill = (folder: string, text: string) => {
  const path = join(home.path, ".claude", "skills", folder, "SKILL.md");
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return dirname(path);
};
const sentLast = () => textOf(model.requests.at(-1)!.messages.at(-1));

test("disable-model-invocation: true keeps a skill out of the model's list; the user still runs it", async () => {
  skill("deploy-prod", "---\nname: deploy-prod\ndescription: Deploy the current branch to production\ndisable-model-invocation: true\n---\nRun make deploy.\n");
  skill("notes", "---\nname: notes\ndescription: Take notes.\n---\nWrite them down.\n");
  const run = await hey(["-p", "ship it"]);
  expect(run.code).toBe(0);
  const system = systemOf(model.requests[0]!);
  expect(system).toContain("- notes: Take notes.");
  expect(system).not.toContain("deploy-prod");
  expect(run.stderr).not.toContain("disable-model-invocation");
  const manual = await hey(["-p", "/skill:deploy-prod now"]);
  expect(manual.code).toBe(0);
  expect(sentLast()).toContain("Run make deploy.");
});

test("name: Generating Commit Messages in commit-helper/ runs as /skill:commit-helper and by its slug; no warning, run after run", async () => {
  skill("commit-helper", "---\nname: Generating Commit Messages\ndescription: Generates clear commit messages from git diffs.\n---\nRead the staged diff.\n");
  for (const line of ["/skill:commit-helper", "/skill:generating-commit-messages"]) {
    const run = await hey(["-p", line]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(sentLast()).toContain("Read the staged diff.");
  }
  expect(systemOf(model.requests[0]!)).toContain("- commit-helper: Generates clear commit messages from git diffs.");
  const wrong = await hey(["-p", "/skill:Generating Commit Messages"]);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toBe('hey: no skill named "Generating"; the skill titled "Generating Commit Messages" is /skill:commit-helper\n');
});

test("$ARGUMENTS, $ARGUMENTS[N] and ${CLAUDE_SKILL_DIR} are filled in; the args still follow the skill", async () => {
  const dir = skill(
    "fix-issue",
    "---\nname: fix-issue\ndescription: Fix a GitHub issue\n---\nFix GitHub issue $ARGUMENTS following our coding standards.\n1. Read the issue with `gh issue view $ARGUMENTS[0]`\nHelper: ${CLAUDE_SKILL_DIR}/scripts/check.sh\n",
  );
  const run = await hey(["-p", "/skill:fix-issue 4711"]);
  expect(run.code).toBe(0);
  const sent = sentLast();
  expect(sent).toContain("Fix GitHub issue 4711 following our coding standards.");
  expect(sent).toContain("`gh issue view 4711`");
  expect(sent).toContain(`Helper: ${dir}/scripts/check.sh`);
  expect(sent).not.toContain("$ARGUMENTS");
  expect(sent).not.toContain("CLAUDE_SKILL_DIR");
  expect(sent).toEndWith("</skill>\n\n4711");
});
