// A session continued with `hey -c` sends the system prompt its last request sent, byte for byte,
// when nothing the model must know changed (README "Prompt caching"), through dist/hey: continued
// from another directory of the project, whose move the model is told once in a note.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { lastUserText, startModelServer, systemOf, textOf, type ModelServer } from "../helpers/model-server.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let project: string;
let model: ModelServer;
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
