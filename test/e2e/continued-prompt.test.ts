// A session continued with `hey -c` sends the system prompt its last request sent, byte for byte,
// when nothing the model must know changed (README "Prompt caching"), through dist/hey: moving
// between `hey -p` and the interactive prompt in a project with nothing to trust, or continuing
// from another directory of the project, whose move the model is told once in a note.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { lastUserText, startModelServer, systemOf, textOf, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let project: string;
let model: ModelServer;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-continued-");
  project = join(realpathSync(home.path), "proj");
  mkdirSync(join(project, ".git"), { recursive: true }); // a project root, with nothing in it to trust
  mkdirSync(join(project, "src"));
  model = startModelServer((req) => ({ text: `answered: ${lastUserText(req).split("\n").at(-1)}` }));
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

const oneShot = (args: string[], cwd = project) => runHey(args, { cwd, env: { HOME: home.path } });
const MOVED = "[hey: the working directory is now ";
/** the notes of a move in a request's user messages (each a line of its own, before the user's words) */
const moves = (i: number) =>
  model.requests[i]!.messages.filter((m) => m.role === "user").flatMap((m) =>
    textOf(m)
      .split("\n")
      .filter((line) => line.startsWith(MOVED)),
  );

test("hey -p, then hey -c at the prompt, then hey -c -p again: one system prompt in every request", async () => {
  expect((await oneShot(["-p", "first question"])).code).toBe(0);
  term = await startTerm({ cwd: project, args: ["-c"], cols: 160, rows: 40, env: { HOME: home.path, NO_COLOR: "1" } });
  await say(term, "second question", "answered: second question");
  await term.close();
  term = undefined;
  expect((await oneShot(["-c", "-p", "third question"])).code).toBe(0);
  expect(model.requests.map(lastUserText).map((t) => t.split("\n").at(-1))).toEqual(["first question", "second question", "third question"]);
  const [first, ...later] = model.requests.map(systemOf);
  expect(first).toContain(".hey/skills/<name>/SKILL.md"); // the project's folder, as the interactive prompt says it
  expect(first).not.toContain("untrusted");
  for (const system of later) expect(system).toBe(first!);
});

test("hey -c -p from a subdirectory keeps the system prompt and tells the model the new directory once", async () => {
  expect((await oneShot(["-p", "at the root"])).code).toBe(0);
  const src = join(project, "src");
  expect((await oneShot(["-c", "-p", "from src"], src)).code).toBe(0);
  expect((await oneShot(["-c", "-p", "from src again"], src)).code).toBe(0);
  expect((await oneShot(["-c", "-p", "back at the root"])).code).toBe(0);
  const systems = model.requests.map(systemOf);
  expect(systems[0]).toContain(`Working directory: ${project}\n`);
  for (const system of systems) expect(system).toBe(systems[0]!);
  const note = (dir: string) => `${MOVED}${dir} (the user continued this session there): relative paths and commands start from it]`;
  expect(moves(0)).toEqual([]);
  expect(moves(1)).toEqual([note(src)]); // in the message that came from there
  expect(moves(2)).toEqual([note(src)]); // said once: the history has it
  expect(moves(3)).toEqual([note(src), note(project)]);
});
