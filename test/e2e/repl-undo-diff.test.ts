// In a real terminal (tmux) through dist/hey (x57): /undo puts back what the agent's last turn
// changed with edit and write_file and keeps the user's own uncommitted lines (hey's old advice,
// `!git restore FILE`, dropped them), tells the model with the next message; /diff shows git's
// changes without sending any of them.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, startModelServer, type ModelServer, type Turn } from "../helpers/model-server.ts";
import type { Term } from "../helpers/tmux.ts";
import { testNeeding } from "../helpers/tools.ts";
import { killMarked, marker, withMarker } from "../helpers/processes.ts";
import { until } from "../helpers/wait.ts";
import { ALL, say, projectTerms } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const dirs = projectTerms();
let server: ModelServer | undefined;
let term: Term | undefined;
afterEach(() => server?.stop());

/** The model: `edit` reads app.txt and sets b to 20, `make` writes notes.txt, `deep` writes deep/er/x.txt; every other line is echoed. */
const editingModel = (req: Parameters<Parameters<typeof startModelServer>[0]>[0]): Turn => {
  const tools = req.messages.slice(req.messages.map((m) => m.role).lastIndexOf("user")).filter((m) => m.role === "tool").length;
  const ask = lastUserText(req);
  if (ask === "edit" && tools === 0) return { calls: [["read_file", { path: "app.txt" }]] };
  if (ask === "edit" && tools === 1) return { calls: [["edit", { path: "app.txt", old_string: "b = 2", new_string: "b = 20" }]] };
  if (ask === "make" && tools === 0) return { calls: [["write_file", { path: "notes.txt", content: "made\n" }]] };
  if (ask.split("\n").at(-1) === "deep" && tools === 0) return { calls: [["write_file", { path: "deep/er/x.txt", content: "hi\n" }]] };
  if (ask === "sed" && tools === 0) return { calls: [["bash", { command: "sed -i 's/x = 1/x = 10/' other.txt" }]] };
  if (tools > 0) return { text: "done." };
  return { text: `you said: ${ask.split("\n").at(-1)}` }; // the last line: what the user typed, after any note
};

test("/undo puts back the agent's edit and keeps the user's own unsaved line; again: the turn before; the model hears of it", async () => {
  const app = join(dirs.project.path, "app.txt");
  const mine = "a = 1\nb = 2\nc = 3  # my own unsaved work\n";
  writeFileSync(app, mine);
  server = startModelServer(editingModel);
  term = await dirs.start(server);
  await say(term, "edit", "done.");
  expect(readFileSync(app, "utf8")).toContain("b = 20");
  await say(term, "make", "done.");
  expect(readFileSync(join(dirs.project.path, "notes.txt"), "utf8")).toBe("made\n");
  await say(term, "/undo", "removed notes.txt (that turn created it)");
  expect(existsSync(join(dirs.project.path, "notes.txt"))).toBe(false);
  await say(term, "/undo", "restored app.txt");
  expect(readFileSync(app, "utf8")).toBe(mine);
  await say(term, "/undo", "nothing more to undo: the 2 turns that changed files are all undone already");
  await say(term, "hello", "you said: hello");
  const sent = JSON.stringify(server.requests.at(-1)!.messages.at(-1));
  expect(sent).toContain("The user ran /undo");
  expect(sent).toContain("app.txt");
});

test("/undo of a write_file that made folders for its file removes them too, and keeps a folder that was there before", async () => {
  const deep = join(dirs.project.path, "deep");
  server = startModelServer(editingModel);
  term = await dirs.start(server);
  await say(term, "deep", "done.");
  expect(readFileSync(join(deep, "er", "x.txt"), "utf8")).toBe("hi\n");
  const screen = await say(term, "/undo", "removed deep/er/x.txt (that turn created it)");
  expect(existsSync(deep)).toBe(false); // the tree is as it was: no empty deep/er/ left behind
  expect(screen).not.toContain("left deep");
  mkdirSync(deep); // there before the turn this time: only deep/er/ is the turn's
  await say(term, "deep", "done.");
  await say(term, "/undo", "removed deep/er/x.txt (that turn created it)");
  expect(readdirSync(dirs.project.path)).toContain("deep");
  expect(readdirSync(deep)).toEqual([]);
});

test("/undo leaves a file the user changed after the agent's edit, and says so", async () => {
  const app = join(dirs.project.path, "app.txt");
  writeFileSync(app, "a = 1\nb = 2\n");
  server = startModelServer(editingModel);
  term = await dirs.start(server);
  await say(term, "edit", "done.");
  writeFileSync(app, "a = 1\nb = 20\nd = 4  # typed after\n");
  await say(term, "/undo", "left app.txt: it changed after the agent's edit");
  expect(readFileSync(app, "utf8")).toBe("a = 1\nb = 20\nd = 4  # typed after\n");
});

testNeeding(["git"])("/diff shows the change and the untracked files; the next message carries none of it", async () => {
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=x@y", "-c", "user.name=x", ...args], { cwd: dirs.project.path });
  writeFileSync(join(dirs.project.path, "big.txt"), "old line\n");
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "init");
  writeFileSync(join(dirs.project.path, "big.txt"), "new line\n");
  writeFileSync(join(dirs.project.path, "fresh.txt"), "x\n");
  server = startModelServer(editingModel);
  term = await dirs.start(server);
  const screen = await say(term, "/diff", "untracked: fresh.txt");
  expect(screen).toContain("-old line");
  expect(screen).toContain("+new line");
  await say(term, "hi", "you said: hi");
  expect(JSON.stringify(server.requests.at(-1)!.messages)).not.toContain("new line");
  await say(term, "!git diff", "the command and its output go with your next message (/diff shows a diff without sending it)");
});

test("/diff outside a git work tree says so", async () => {
  server = startModelServer(editingModel);
  term = await dirs.start(server);
  await say(term, "/diff", "is not in a git work tree");
});

test("/undo after a turn that changed files only with bash says so and undoes nothing; /undo again undoes the turn before it", async () => {
  writeFileSync(join(dirs.project.path, "other.txt"), "x = 1\n");
  server = startModelServer(editingModel);
  term = await dirs.start(server);
  await say(term, "make", "done.");
  await say(term, "sed", "done.");
  expect(readFileSync(join(dirs.project.path, "other.txt"), "utf8")).toBe("x = 10\n");
  await say(term, "/undo", "/undo again undoes the turn before it anyway (its changes to notes.txt)");
  expect(readFileSync(join(dirs.project.path, "notes.txt"), "utf8")).toBe("made\n");
  await say(term, "/undo", "removed notes.txt (that turn created it)");
  expect(existsSync(join(dirs.project.path, "notes.txt"))).toBe(false);
  expect(readFileSync(join(dirs.project.path, "other.txt"), "utf8")).toBe("x = 10\n"); // the command's change stays, as said
  await say(term, "hello", "you said: hello");
  expect(JSON.stringify(server.requests.at(-1)!.messages.at(-1))).toContain("what your bash commands changed in the later turn stays as it is");
});

/** The `sleep` duration the slow textconv driver of a test runs, which finds it: killed after the test if still there. */
let slowDriver: string | undefined;
afterEach(() => {
  if (slowDriver) killMarked([slowDriver]);
  slowDriver = undefined;
});

testNeeding(["git"])("/diff waiting on the user's slow textconv driver stops at Ctrl-C or Esc, the driver with it; the prompt answers at once", async () => {
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=x@y", "-c", "user.name=x", ...args], { cwd: dirs.project.path });
  const m = (slowDriver = marker());
  const driver = join(dirs.home.path, "slow-textconv");
  writeFileSync(driver, `#!/bin/sh\nexec sleep ${m}\n`, { mode: 0o755 }); // a docx-to-text that takes minutes
  writeFileSync(join(dirs.project.path, ".gitattributes"), "*.txt diff=slow\n");
  writeFileSync(join(dirs.project.path, "a.txt"), "old\n");
  git("init", "-q");
  // the user's own driver, in their global config: /diff runs those as `git diff` does (one the repository's config names, it does not)
  writeFileSync(join(dirs.home.path, ".gitconfig"), `[diff "slow"]\n\ttextconv = ${driver}\n`);
  git("add", ".");
  git("commit", "-qm", "init");
  writeFileSync(join(dirs.project.path, "a.txt"), "new\n");
  server = startModelServer(editingModel);
  term = await dirs.start(server);
  const cut = "git diff was stopped: interrupted by user; git diff in a shell of your own shows all of it";
  for (const [runs, key] of [
    [1, "C-c"],
    [2, "Escape"],
  ] as const) {
    await term.type("/diff");
    await term.keys("Enter");
    await until(() => withMarker(m).length > 0, "git to start the textconv driver");
    await term.keys(key);
    await term.waitFor((screen) => screen.split(cut).length > runs, ALL);
    await until(() => withMarker(m).length === 0, "the textconv driver to be stopped with git");
    await say(term, `after ${key}`, `you said: after ${key}`);
  }
});
