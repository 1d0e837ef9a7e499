// Each max-turns hand-off in `.hey/task.md` names the task it belongs to, through dist/hey
// (SPEC §6): a new task whose words the note already holds ("LOOP" after "LOOP forever") gets its
// own `Task:` line, and a run of the same task again goes on under it.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import type { ChatRequest } from "../helpers/model-server.ts";

const isHandOff = (req: ChatRequest) => (req as ChatRequest & { tool_choice?: string }).tool_choice === "none";
let handOff = 0;
// a model that calls tools forever
const model = fileModelServer((req) => (isHandOff(req) ? { text: `Remaining: step ${++handOff}` } : { calls: [["bash", { command: "echo hi" }]] }));
const work = eachTempDir();
const state = eachTempDir();

test("a hand-off of a new task names it, though the note holds its words; the same task again does not", async () => {
  const run = (task: string) =>
    runHey(["--base-url", model.baseUrl, "-m", "m", "--output", "json", "--max-turns", "1", "-p", task], {
      cwd: work.path,
      env: { XDG_STATE_HOME: state.path },
    });
  for (const task of ["LOOP forever", "LOOP", "LOOP"]) expect((await run(task)).code).toBe(3);
  const note = readFileSync(join(work.path, ".hey", "task.md"), "utf8");
  const sections = note.split(/^## Stopped at the turn limit \([^)]*\)\n\n/m);
  expect(sections).toEqual(["# Task\n\nLOOP forever\n\n", "Remaining: step 1\n\n", "Task: LOOP\n\nRemaining: step 2\n\n", "Remaining: step 3\n"]);
});

test("a hand-off that cannot be saved (another hey keeps task.md locked) is an error event before the run's done, in --output json", async () => {
  const holder = Bun.spawn(["sleep", "60"]); // a live hey, as far as the lock can tell
  try {
    mkdirSync(join(work.path, ".hey"), { recursive: true });
    writeFileSync(join(work.path, ".hey", "task.md.lock"), `${holder.pid} ${hostname()}\n`);
    const r = await runHey(["--base-url", model.baseUrl, "-m", "m", "--output", "json", "--max-turns", "1", "-p", "LOOP locked"], {
      cwd: work.path,
      env: { XDG_STATE_HOME: state.path },
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(3);
    const events = jsonEvents(r.stdout);
    const error = events.findIndex((e) => e.type === "error");
    const said = String(events[error]!.message);
    expect(events[error]).toMatchObject({ kind: "config", message: expect.stringContaining("could not save the hand-off in .hey/task.md") });
    expect(said).toMatch(/; the hand-off was:\nRemaining: step \d+$/); // never lost: it is in the error, on stderr too
    expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "max_turns" });
    expect(error).toBeLessThan(events.length - 1); // said before done: a script trusting `done` is not told the hand-off is there
  } finally {
    holder.kill();
    rmSync(join(work.path, ".hey", "task.md.lock"), { force: true });
  }
}, 60_000);

test("at a terminal, the hand-off is shown whole and hey's line saying where it is saved comes after it, on a line of its own", async () => {
  const { startTerm } = await import("../helpers/tmux.ts");
  const term = await startTerm({
    args: ["--base-url", model.baseUrl, "-m", "m", "--max-turns", "1", "-p", "LOOP at a terminal"],
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path, NO_COLOR: "1" },
    cols: 200,
  });
  try {
    const screen = await term.waitFor("[exit 3]", { scrollback: true, joined: true });
    const lines = screen.split("\n");
    expect(lines).toContainEqual(expect.stringMatching(/^Remaining: step \d+$/)); // the answer's last word was not cut off by hey's line
    expect(lines).toContainEqual(expect.stringMatching(/^hey: the hand-off is saved in .*task\.md; `hey -c` continues from there$/));
  } finally {
    await term.close();
  }
}, 60_000);

testNeeding(["git"])(
  "a hand-off in a CI checkout leaves `git status` clean: the .hey/ hey made ignores its note, so `git add -A` does not commit it",
  async () => {
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: work.path, stdout: "pipe", stderr: "pipe" });
    git("init", "-q", ".");
    const r = await runHey(["--base-url", model.baseUrl, "-m", "m", "--max-turns", "1", "-p", "fix lint"], {
      cwd: work.path,
      env: { XDG_STATE_HOME: state.path },
    });
    expect(r.code).toBe(3);
    expect(readFileSync(join(work.path, ".hey", "task.md"), "utf8")).toStartWith("# Task\n\nfix lint\n");
    expect(git("status", "--porcelain").stdout.toString()).toBe("");
  },
  60_000,
);
