// Parallel runs through dist/hey against a loopback model (CI jobs, a REPL beside `hey -p`): each
// run's approvals record and each run's hand-off land, so a later widening of any of their
// --config files is left out and named, and `.hey/task.md` holds every hand-off it was told of.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import type { ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const RUNS = 10;
const isHandOff = (req: ChatRequest) => (req as ChatRequest & { tool_choice?: string }).tool_choice === "none";
// "work" keeps calling tools (until --max-turns stops it); anything else is answered at once
const model = fileModelServer((req) =>
  isHandOff(req)
    ? { text: "Remaining: the rest" }
    : JSON.stringify(req.messages).includes("work ")
      ? { calls: [["bash", { command: "echo hi" }]] }
      : { text: "ok" },
);
const home = eachTempDir("hey-parallel-home-");
const work = eachTempDir("hey-parallel-work-");
const hey = (args: string[]) => runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: work.path, env: { HOME: home.path } });
const each = <T>(run: (i: number) => Promise<T>) => Promise.all(Array.from({ length: RUNS }, (_, i) => run(i)));

test("10 runs at once, each with a new --config file: each file's record is kept, so widening any of them later is left out and named", async () => {
  expect((await hey(["-p", "first"])).code).toBe(0); // the first record exists: each run below adds its file to it
  const config = (i: number) => join(work.path, `c${i}.toml`);
  for (let i = 0; i < RUNS; i++) writeFileSync(config(i), '[permission]\ndeny = ["bash: rm *"]\n');
  for (const run of await each((i) => hey(["--config", config(i), "-p", `run ${i}`]))) expect(run).toMatchObject({ code: 0, stderr: "" });
  for (let i = 0; i < RUNS; i++) writeFileSync(config(i), "");
  for (const [i, run] of (await each((i) => hey(["--config", config(i), "-p", `again ${i}`]))).entries())
    expect(run.stderr).toContain(`not used: - [permission] deny "bash: rm *" in ${config(i)}`);
  expect(readdirSync(join(home.path, ".local", "state", "hey")).filter((f) => f.includes("lock"))).toEqual([]);
});

test("10 runs at once stopped at --max-turns: every hand-off each said it saved is in .hey/task.md", async () => {
  const runs = await each((i) => hey(["--max-turns", "1", "-p", `work ${i}`]));
  for (const run of runs) {
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("hey: the hand-off is saved in");
  }
  const note = readFileSync(join(work.path, ".hey", "task.md"), "utf8");
  expect(note.match(/^## Stopped at the turn limit/gm)?.length).toBe(RUNS);
  for (let i = 0; i < RUNS; i++) expect(note).toContain(`work ${i}\n`);
  expect(readdirSync(join(work.path, ".hey")).sort()).toEqual([".gitignore", "task.md"]); // no lock or temp file left; the .gitignore hey wrote for the .hey/ it made
});
