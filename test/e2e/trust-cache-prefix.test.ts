// x154 finding 1, through dist/hey: in a plain directory the interactive prompt trusts the project
// (nothing to guard) and a `-p` run does not. A session moved between them — the REPL, then
// `hey -c -p`, then the REPL's `hey -c` — keeps one system prompt, so every request extends the one
// before and the provider's cached prefix keeps serving; before, each move changed the skill guide
// in the system prompt and the whole conversation was billed again.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, systemOf, textOf, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { flat, say } from "./repl-helpers.ts";

setDefaultTimeout(180_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let projects: ReturnType<typeof tempDir>;
let model: ModelServer;
const terminals: Term[] = [];
beforeEach(() => {
  home = tempDir("hey-home-");
  projects = tempDir("hey-projects-");
  model = startModelServer(() => ({ text: "ok" }));
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`;
  writeFileSync(join(home.path, ".config", "hey", "config.toml"), `[default]\nprovider = "mock"\nmodel = "m"\n\n${provider}`);
});
afterEach(async () => {
  for (const t of terminals.splice(0)) await t.close();
  model.stop();
  home.remove();
  projects.remove();
});

async function repl(cwd: string, args: string[], line: string): Promise<void> {
  const term = await startTerm({ cwd, cols: 200, rows: 50, args, env: { HOME: home.path, NO_COLOR: "1" } });
  terminals.push(term);
  await term.waitFor(/^›/m);
  await say(term, line, "ok");
  await say(term, "/quit", "[exit 0]");
  expect(await flat(term)).not.toContain("Trust this project?"); // nothing to guard: never asked
}

async function oneShot(cwd: string, line: string): Promise<void> {
  const run = await runHey(["-c", "-p", line], { cwd, env: { HOME: home.path }, timeoutMs: 60_000 });
  expect(run.stderr).not.toContain("not loaded"); // nothing to leave out
  expect(run.code).toBe(0);
}

const wire = (r: ChatRequest) => r.messages.map((m) => JSON.stringify(m));
/** Whether `now` carries every message of `before` as it was sent, but the last, whose tail may carry the context line. */
const extends_ = (before: ChatRequest, now: ChatRequest) =>
  wire(before)
    .slice(0, -1)
    .every((m, k) => wire(now)[k] === m);

test("the REPL, then hey -c -p, then hey -c in the same plain directory: one system prompt, each request extends the one before", async () => {
  const work = join(realpathSync(projects.path), "work");
  mkdirSync(work);
  await repl(work, [], "first");
  await oneShot(work, "second");
  await oneShot(work, "third");
  await repl(work, ["-c"], "fourth");

  const sent = model.requests;
  const first = systemOf(sent[0]!);
  // before: the REPL's named .hey/skills, the -p run's ~/.config/hey/skills and said the project was untrusted
  for (const r of sent) expect(systemOf(r)).toBe(first);
  // the project's .hey/ would not load in a -p run: the guide names the user's folders, which load in any
  expect(first).toContain("Keep a procedure as a skill: ~/.config/hey/skills/<name>/SKILL.md");
  expect(first).not.toContain("trust");
  for (let k = 1; k < sent.length; k++) expect(extends_(sent[k - 1]!, sent[k]!)).toBe(true);
  expect(sent.map((r) => textOf(r.messages.at(-1)))).toEqual(["first", "second", "third", "fourth"]); // no note: nothing to tell
});

// x160 finding 2: `--approve` trusts a project for one run. Its guide named the project's .hey/skills and
// .hey/config.toml, which the next run without --approve leaves out (a -p run cannot /reload to load them)
test("an --approve run's guide names the folders the next run without --approve loads, not the project's .hey/", async () => {
  const work = join(realpathSync(projects.path), "work");
  mkdirSync(join(work, ".hey", "skills", "demo"), { recursive: true });
  writeFileSync(join(work, ".hey", "skills", "demo", "SKILL.md"), "---\nname: demo\ndescription: Demo.\n---\nSay demo.\n");
  const approved = await runHey(["--approve", "-p", "first"], { cwd: work, env: { HOME: home.path }, timeoutMs: 60_000 });
  expect(approved.code).toBe(0);
  const plain = await runHey(["-c", "-p", "second"], { cwd: work, env: { HOME: home.path }, timeoutMs: 60_000 });
  expect(plain.stderr).toContain("not loaded: .hey/skills/");
  const [first, second] = model.requests.map(systemOf);
  const guide = "Keep a procedure as a skill: ~/.config/hey/skills/<name>/SKILL.md";
  expect(first).toContain(guide);
  expect(first).not.toContain(".hey/config.toml (this project)");
  expect(first).toContain("- demo: Demo."); // loaded in this run all the same
  expect(second).toBe(first); // within the cache's lifetime the session's prompt (x4 #3): the skill left out is a note's
  const told = textOf(model.requests[1]!.messages.at(-1));
  expect(told).toContain("- skill demo: removed; do not use it]");
  expect(told).not.toContain("trusted"); // no trust note: the model never heard the project's .hey/ loads for good
});

// x162 finding 1: a project trusted by `hey trust` with nothing in its .hey/ yet. A -p run read no trust.json when
// nothing was guarded, so its guide named ~/.config/hey/skills while the REPL's named the project's .hey/skills:
// the system prompt changed at each move between them, and the skill had two homes
test("a project trusted with hey trust, nothing in it yet: the REPL, hey -c -p and hey --approve -c -p from a subdirectory keep one system prompt naming its .hey/", async () => {
  const root = join(realpathSync(projects.path), "work");
  const sub = join(root, "sub");
  mkdirSync(join(root, ".git"), { recursive: true }); // the project root, found from sub/
  mkdirSync(sub);
  const trust = await startTerm({ args: ["trust"], cwd: sub, env: { HOME: home.path } });
  terminals.push(trust);
  await trust.waitFor("Trust this project? (y/N)");
  await trust.type("y");
  await trust.keys("Enter");
  await trust.waitFor("is trusted now", { scrollback: true, joined: true });

  await repl(sub, [], "first");
  await oneShot(sub, "second");
  const approved = await runHey(["--approve", "-c", "-p", "third"], { cwd: sub, env: { HOME: home.path }, timeoutMs: 60_000 });
  expect(approved.code).toBe(0);

  const sent = model.requests;
  expect(sent.length).toBe(3);
  const first = systemOf(sent[0]!);
  for (const r of sent) expect(systemOf(r)).toBe(first);
  expect(first).toContain(`Keep a procedure as a skill: ${join(root, ".hey", "skills")}/<name>/SKILL.md`);
  expect(first).toContain(`${join(root, ".hey", "config.toml")} (this project)`);
  for (let k = 1; k < sent.length; k++) expect(extends_(sent[k - 1]!, sent[k]!)).toBe(true);
});

// x161 #3, x162 #4: under a permission list the guide said a new skill loads "at the user's /reload or next run", but
// one the agent writes in the user's folders is left out of the next -p run, waiting for the user's yes at a terminal
test("under a permission list the guide says a new skill of the user's waits for their yes, in the REPL and -p alike, as the next -p run does", async () => {
  model.stop();
  const skill = "~/.config/hey/skills/lint/SKILL.md";
  model = startModelServer((req) => {
    if (req.messages.at(-1)?.role === "tool") return { text: "saved" };
    const said = textOf(req.messages.at(-1));
    return said === "save"
      ? { calls: [["write_file", { path: skill, content: "---\nname: lint\ndescription: Lint the code.\n---\nRun the linter.\n" }]] }
      : { text: "ok" };
  });
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`;
  const list = `[permission]\nallow = ["read_file", "write_file"]\n`;
  writeFileSync(join(home.path, ".config", "hey", "config.toml"), `[default]\nprovider = "mock"\nmodel = "m"\n\n${provider}\n${list}`);
  const work = join(realpathSync(projects.path), "work");
  mkdirSync(work);
  await repl(work, [], "first");
  await oneShot(work, "save");
  const next = await runHey(["-c", "-p", "third"], { cwd: work, env: { HOME: home.path }, timeoutMs: 60_000 });
  expect(next.code).toBe(0);
  expect(next.stderr).toContain(`left out: ${skill}`); // what the guide now tells the model

  const sent = model.requests;
  const first = systemOf(sent[0]!);
  for (const r of sent) expect(systemOf(r)).toBe(first);
  expect(first).toContain(
    "Both load at the user's /reload after their yes there; later runs leave a new or changed skill out until the user approves it (at /reload, or when hey next starts at a terminal).",
  );
  expect(first).not.toContain("or next run");
});
