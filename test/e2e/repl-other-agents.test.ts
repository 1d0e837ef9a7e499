// At the interactive prompt (README "Coming from another agent"): Claude Code's deny rules are
// said before the first prompt, and another agent's `/command` or a skill's name typed as one is
// answered with hey's way — nothing is sent to the model.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { answer, flat, lastLine, say } from "./repl-helpers.ts";

const server = fileReplayServer(undefined, { models: ["mock-model"] });
const dirs = [tempDir("hey-home-"), tempDir("hey-project-")];
const [home, project] = [dirs[0]!.path, dirs[1]!.path];
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
  for (const d of dirs) d.remove();
});

function lay(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

test("the deny rules are said at start; /cost and /review src/main.ts name hey's way and send nothing", async () => {
  mkdirSync(join(project, ".git"));
  lay(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  lay(join(home, ".claude", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Review code.\n---\nReview carefully.\n");
  term = await startTerm({ rows: 40, cwd: project, env: { HOME: home }, args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"] });
  const t = term;
  await t.waitFor((s) => lastLine(s) === "›");
  const start = await flat(t);
  expect(start).toContain("hey: warning: .claude/settings.json has Claude Code permission rules (1 deny) that hey does not apply");
  expect(start).toContain('deny = ["bash: rm *"]');
  const sent = server.requests.length;
  expect((await say(t, "/cost", "/usage shows")).replace(/\s+/g, " ")).toContain("hey: hey has no /cost; /usage shows the tokens and context of the session");
  const review = (await say(t, "/review src/main.ts", "/skill:review")).replace(/\s+/g, " ");
  expect(review).toContain("hey: /review is no command; the skill review is /skill:review src/main.ts");
  expect(server.requests.length).toBe(sent);
  // a refused line is not lost: Up brings it back to the prompt
  await t.keys("Up");
  await t.waitFor((s) => lastLine(s) === "› /review src/main.ts");
  await t.keys("C-u");
  // Claude Code's /status takes no arguments: with words after it the line is the user's, for the model
  server.enqueue(answer("Looking at the handler."));
  await say(t, "/status endpoint returns 500", "Looking at the handler.");
  expect(JSON.stringify(server.requests.at(-1)!.body)).toContain("/status endpoint returns 500");
}, 90_000);
