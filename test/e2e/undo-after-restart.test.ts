// In a real terminal (tmux) through dist/hey: `/undo` after hey was quit and the session continued
// with `hey -c` puts back what the agent's turns of the earlier hey changed (before: "nothing to
// undo", the copies on disk unused), with the same safety rules; copies hey has since pruned are
// said to be gone.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, startModelServer, type ModelServer, type Turn } from "../helpers/model-server.ts";
import type { Term } from "../helpers/tmux.ts";
import { ALL, say, projectTerms } from "./repl-helpers.ts";
import { runHey } from "../helpers/e2e.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const dirs = projectTerms();
let server: ModelServer | undefined;
afterEach(() => server?.stop());

/** The model: `edit` sets b to 20 in app.txt, `make` writes notes.txt; every other line is echoed. */
const editingModel = (req: Parameters<Parameters<typeof startModelServer>[0]>[0]): Turn => {
  const tools = req.messages.slice(req.messages.map((m) => m.role).lastIndexOf("user")).filter((m) => m.role === "tool").length;
  const ask = lastUserText(req);
  if (ask === "edit" && tools === 0) return { calls: [["read_file", { path: "app.txt" }]] };
  if (ask === "edit" && tools === 1) return { calls: [["edit", { path: "app.txt", old_string: "b = 2", new_string: "b = 20" }]] };
  if (ask === "make" && tools === 0) return { calls: [["write_file", { path: "notes.txt", content: "made\n" }]] };
  if (tools > 0) return { text: "done." };
  return { text: `you said: ${ask.split("\n").at(-1)}` };
};

/** Quits hey at its prompt and waits for it to have exited. */
async function quit(term: Term): Promise<void> {
  await term.type("/quit");
  await term.keys("Enter");
  await term.waitFor("[exit 0]", ALL);
}

/** The session's outputs folder, where its copies are: the one folder under the cache's outputs. */
function outputsFolder(): string {
  const root = join(dirs.home.path, ".cache", "hey", "outputs");
  const folders = readdirSync(root);
  expect(folders).toHaveLength(1);
  return join(root, folders[0]!);
}

test("after hey is quit, `hey -c` then /undo puts back the files of that session's last turns, one turn each; the model hears of it", async () => {
  const app = join(dirs.project.path, "app.txt");
  const mine = "a = 1\nb = 2\nc = 3  # my own unsaved work\n";
  writeFileSync(app, mine);
  server = startModelServer(editingModel);
  let term = await dirs.start(server);
  await say(term, "edit", "done.");
  await say(term, "make", "done.");
  expect(readFileSync(app, "utf8")).toContain("b = 20");
  await quit(term);

  term = await dirs.start(server, ["-c"]);
  await say(term, "/undo", "removed notes.txt (that turn created it)");
  expect(existsSync(join(dirs.project.path, "notes.txt"))).toBe(false);
  await say(term, "/undo", "restored app.txt");
  expect(readFileSync(app, "utf8")).toBe(mine);
  await say(term, "/undo", "nothing more to undo: the 2 turns that changed files are all undone already");
  await say(term, "hello", "you said: hello");
  const sent = JSON.stringify(server.requests.at(-1)!.messages.at(-1));
  expect(sent).toContain("The user ran /undo");
  expect(sent).toContain("app.txt");
  await quit(term);

  // a third hey on the session: its turns were undone by the last one, not never made
  term = await dirs.start(server, ["-c"]);
  await say(term, "/undo", "nothing more to undo: the 2 turns that changed files are all undone already");
});

test("after a restart, a file changed since the agent's edit is left; a copy hey pruned is said to be gone; a session with no copies left says so", async () => {
  const app = join(dirs.project.path, "app.txt");
  const notes = join(dirs.project.path, "notes.txt");
  writeFileSync(app, "a = 1\nb = 2\n");
  server = startModelServer(editingModel);
  let term = await dirs.start(server);
  await say(term, "edit", "done.");
  await say(term, "make", "done.");
  await quit(term);
  writeFileSync(notes, "made\nmy line, typed while hey was closed\n");
  const folder = outputsFolder();
  for (const name of readdirSync(folder)) if (name.startsWith("undo-")) rmSync(join(folder, name)); // as hey's pruning of old outputs does

  term = await dirs.start(server, ["-c"]);
  await say(term, "/undo", "left notes.txt: it changed after the agent's edit");
  await say(term, "/undo", "left app.txt: its copy from before that turn is gone");
  expect([readFileSync(app, "utf8"), readFileSync(notes, "utf8")]).toEqual(["a = 1\nb = 20\n", "made\nmy line, typed while hey was closed\n"]);
  await quit(term);

  rmSync(folder, { recursive: true }); // every output of the session gone, the record of its turns with them
  rmSync(notes);
  term = await dirs.start(server, ["-c"]);
  await say(term, "make", "done.");
  await say(term, "/undo", "removed notes.txt (that turn created it)");
  await say(term, "/undo", "no copies are kept of this session's earlier turns that changed files");
});

test("a new hey that /resumes the session undoes its earlier turn too", async () => {
  const app = join(dirs.project.path, "app.txt");
  writeFileSync(app, "a = 1\nb = 2\n");
  server = startModelServer(editingModel);
  let term = await dirs.start(server);
  await say(term, "edit", "done.");
  await quit(term);
  const id = outputsFolder().split("/").at(-1)!; // the outputs folder is named after the session
  term = await dirs.start(server);
  await say(term, `/resume ${id}`, `resumed session ${id}`);
  await say(term, "/undo", "restored app.txt");
  expect(readFileSync(app, "utf8")).toBe("a = 1\nb = 2\n");
});

test("a `hey -c -p` turn between: after `hey -c`, /undo reaches it first and says it kept no copy, then the REPL's older turn", async () => {
  const app = join(dirs.project.path, "app.txt");
  const notes = join(dirs.project.path, "notes.txt");
  writeFileSync(app, "a = 1\nb = 2\n");
  server = startModelServer(editingModel);
  let term = await dirs.start(server);
  await say(term, "edit", "done.");
  await quit(term);
  const run = await runHey(["-c", "-p", "make"], { cwd: dirs.project.path, env: { HOME: dirs.home.path } });
  expect(run.code).toBe(0);
  expect(readFileSync(notes, "utf8")).toBe("made\n");

  term = await dirs.start(server, ["-c"]);
  await say(term, "/undo", "left notes.txt: a run with -p keeps no copies; not touched");
  expect(existsSync(notes)).toBe(true);
  await say(term, "/undo", "restored app.txt");
  expect(readFileSync(app, "utf8")).toBe("a = 1\nb = 2\n");
});

test("a `hey -c -p` turn whose record cannot be written says so once on stderr, and the run still does its work", async () => {
  const app = join(dirs.project.path, "app.txt");
  writeFileSync(app, "a = 1\nb = 2\n");
  server = startModelServer(editingModel);
  const term = await dirs.start(server);
  await say(term, "edit", "done.");
  await quit(term);
  const record = join(outputsFolder(), "undo.jsonl");
  rmSync(record);
  mkdirSync(record); // as a full disk would refuse it
  const run = await runHey(["-c", "-p", "make"], { cwd: dirs.project.path, env: { HOME: dirs.home.path } });
  expect(run.code).toBe(0);
  expect(readFileSync(join(dirs.project.path, "notes.txt"), "utf8")).toBe("made\n");
  const said = run.stderr.split("\n").filter((l) => l.includes("/undo's record of this run could not be saved"));
  expect(said).toHaveLength(1); // old binary: nothing said
  expect(said[0]).toContain(record);
});
