// x4 findings 3 and 4, through dist/hey: `hey -c` within the prompt cache's lifetime sends the system prompt
// the session's last request was sent with, and tells the model what changed since in notes, as a live run
// does. Before, a skill written between the runs (the guide tells the agent to write them) or a `/trust`
// made the next run build another system prompt, and its first request missed the whole cache.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, systemOf, textOf, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { flat, say } from "./repl-helpers.ts";

setDefaultTimeout(180_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let projects: ReturnType<typeof tempDir>;
let model: ModelServer;
let work: string;
const terminals: Term[] = [];
beforeEach(() => {
  home = tempDir("hey-home-");
  projects = tempDir("hey-projects-");
  model = startModelServer(() => ({ text: "ok" }));
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`;
  writeFileSync(join(home.path, ".config", "hey", "config.toml"), `[default]\nprovider = "mock"\nmodel = "m"\n\n${provider}`);
  work = join(realpathSync(projects.path), "work");
  mkdirSync(work);
  writeFileSync(join(work, "AGENTS.md"), "# Rules\nRun the tests before finishing.\n");
});
afterEach(async () => {
  for (const t of terminals.splice(0)) await t.close();
  model.stop();
  home.remove();
  projects.remove();
});

async function hey(args: string[]): Promise<void> {
  const run = await runHey(args, { cwd: work, env: { HOME: home.path }, timeoutMs: 60_000 });
  if (run.code !== 0) throw new Error(run.stderr.slice(-800));
}

const writeSkill = () => {
  const dir = join(home.path, ".config", "hey", "skills", "deploy");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), "---\nname: deploy\ndescription: Deploy the app to staging.\n---\nRun ./deploy.sh staging.\n");
};

const wire = (r: ChatRequest) => r.messages.map((m) => JSON.stringify(m));
/** Whether `now` carries every message of `before` as it was sent, but the last, whose tail may carry the context line. */
const extends_ = (before: ChatRequest, now: ChatRequest) =>
  wire(before)
    .slice(0, -1)
    .every((m, k) => wire(now)[k] === m);
const NOTE = "[hey: the skills changed since this session's last request; as of this message these lines update the skills list in the system prompt:";

test("a skill written between two runs: hey -c sends the same system prompt, extends the last request and tells the model of the skill", async () => {
  await hey(["-p", "first"]);
  writeSkill(); // as the agent would, told so by the guide: no /reload
  await hey(["-c", "-p", "second"]);
  await hey(["-c", "-p", "third"]);

  const [first, second, third] = model.requests;
  expect(model.requests).toHaveLength(3);
  // before: the second run's system prompt listed deploy, and its first request repeated 5 % of the one before
  expect(systemOf(second!)).toBe(systemOf(first!));
  expect(systemOf(third!)).toBe(systemOf(first!));
  expect(systemOf(first!)).not.toContain("deploy");
  expect(extends_(first!, second!)).toBe(true);
  expect(extends_(second!, third!)).toBe(true);
  const told = second!.messages.at(-1)!;
  expect(textOf(told)).toContain(`${NOTE}\n+ skill deploy: Deploy the app to staging. (~/.config/hey/skills/deploy/SKILL.md)]`);
  expect(textOf(told)).toContain("second");
  expect(textOf(third!.messages.at(-1))).not.toContain(NOTE); // the model has it: said once
});

test("past the cache's lifetime the resumed run builds the system prompt afresh: the new skill is in its list", async () => {
  await hey(["-p", "first"]);
  writeSkill();
  // the first run's request was made two hours ago: past the hour a local endpoint's cache is taken to live
  // (providers/cache-lifetime.ts), it is gone, and a rewrite costs nothing
  const dir = join(home.path, ".local", "state", "hey", "sessions");
  const path = join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!);
  const old = newId(Date.now() - 2 * 60 * 60_000).slice(0, 9);
  writeFileSync(path, readFileSync(path, "utf8").replace(/("type":"usage","id":")[0-9a-z]{9}/g, `$1${old}`));
  await hey(["-c", "-p", "second"]);

  const [first, second] = model.requests;
  expect(systemOf(first!)).not.toContain("deploy");
  expect(systemOf(second!)).toContain("- deploy: Deploy the app to staging.");
  expect(textOf(second!.messages.at(-1))).not.toContain(NOTE);
});

test("an AGENTS.md edited between two runs switches in at the next run, as README says: the new text, the new list", async () => {
  await hey(["-p", "first"]);
  writeSkill();
  writeFileSync(join(work, "AGENTS.md"), "# Rules\nRun the linter too.\n");
  await hey(["-c", "-p", "second"]);

  const [, second] = model.requests;
  expect(systemOf(second!)).toContain("Run the linter too.");
  expect(systemOf(second!)).toContain("- deploy: Deploy the app to staging.");
  expect(textOf(second!.messages.at(-1))).not.toContain(NOTE);
});

test("a /trust in the REPL, then hey -c -p: the system prompt the REPL sent, each request extends the one before", async () => {
  const term = await startTerm({ cwd: work, cols: 200, rows: 50, args: [], env: { HOME: home.path, NO_COLOR: "1" } });
  terminals.push(term);
  await term.waitFor(/^›/m);
  await say(term, "first", "ok");
  await say(term, "/trust", "is trusted now"); // nothing to guard: recorded without a question
  await say(term, "second", "ok");
  await say(term, "/quit", "[exit 0]");
  expect(await flat(term)).toContain("is trusted now");
  await hey(["-c", "-p", "third"]);

  const sent = model.requests;
  expect(sent).toHaveLength(3);
  // before: the -c run's guide named the project's .hey/skills and .hey/config.toml, a new system prompt
  for (const r of sent) expect(systemOf(r)).toBe(systemOf(sent[0]!));
  expect(systemOf(sent[0]!)).toContain("Keep a procedure as a skill: ~/.config/hey/skills/<name>/SKILL.md");
  for (let k = 1; k < sent.length; k++) expect(extends_(sent[k - 1]!, sent[k]!)).toBe(true);
  // the model hears where new skills go now, once (prompt/trust-note.ts)
  const notes = sent.flatMap((r) => r.messages.filter((m) => m.role === "user").map(textOf)).filter((t) => t.includes("this project is trusted now"));
  expect(new Set(notes).size).toBeLessThanOrEqual(1);
});
