// The jobs the agent left running, at the REPL: after the turn that left one a line says so;
// `/jobs` lists each (the command the model ran, its pid, its output file) and `/jobs stop N`
// stops one with SIGTERM first, so its TERM trap runs; `/quit` says which jobs it stops and gives
// them the same SIGTERM, as does a terminal closed under it — in a real terminal (tmux) through dist/hey.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { killMarked, marker, withMarker } from "../helpers/processes.ts";
import { until } from "../helpers/wait.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
const leftovers: string[] = [];
beforeEach(() => {
  home = tempDir("hey-repl-jobs-");
});
afterEach(async () => {
  await term?.close();
  killMarked(leftovers.splice(0));
  model?.stop();
  home.remove();
});

/** Whether `req` is the request right after the user asked `what`. */
const asked = (req: ChatRequest, what: string) => req.messages.at(-1)!.role === "user" && JSON.stringify(req.messages.at(-1)).includes(what);

/** A REPL whose model, asked "start A" or "start B", leaves that job running: a loop that writes FILE.txt when it gets SIGTERM. */
async function replWithJobs(): Promise<Record<"A" | "B", string>> {
  const jobs = { A: marker(), B: marker() };
  leftovers.push(jobs.A, jobs.B);
  // the call returns once the job's trap is set: a SIGTERM before that (a loaded machine) would end it trapless
  const command = (name: "A" | "B") =>
    `sh -c 'trap "echo cleaned > ${name}.txt; exit" TERM; : > ${name}.ready; while :; do sleep 0.1; done; : ${jobs[name]}' >/dev/null 2>&1 & until [ -e ${name}.ready ]; do sleep 0.05; done`;
  model = startModelServer((req) => {
    for (const name of ["A", "B"] as const) if (asked(req, `start ${name}`)) return { calls: [["bash", { command: command(name) }]] };
    if (asked(req, "run plain")) return { calls: [["bash", { command: "echo plain" }]] };
    return { text: "answered" };
  });
  term = await startTerm({ cwd: home.path, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" }, args: ["--base-url", model.baseUrl, "-m", "m"] });
  return jobs;
}

test("after a turn that left a job running a line says so; /jobs lists both jobs, /jobs stop 1 stops the first with SIGTERM, and the second keeps its number 2", async () => {
  const jobs = await replWithJobs();
  const t = term!;
  await say(t, "start A", /1 job running: \[1\] sh -c 'trap.*A\.txt.*\(\/jobs lists/);
  await say(t, "start B", /2 jobs running: /);
  const listed = await say(t, "/jobs", "/jobs stop N stops one");
  expect(listed).toContain("2 jobs the agent left running");
  expect(listed).toMatch(/1\. sh -c 'trap "echo cleaned > A\.txt; exit" TERM;[^\n]*\n\s+pid \d+ · running \d+/);
  expect(listed).toMatch(/2\. sh -c 'trap "echo cleaned > B\.txt; exit" TERM;/);

  await say(t, "/jobs stop 1", "stopped job 1: sh -c 'trap");
  expect(existsSync(join(home.path, "A.txt"))).toBe(true); // its trap ran: SIGTERM, not SIGKILL
  await until(() => withMarker(jobs.A).length === 0, "job A to end", 10_000);
  expect(withMarker(jobs.B).length).toBeGreaterThan(0);
  // x56: job 2 stays 2 (a fresh count made it 1, and `/jobs stop 2` stopped nothing or another job)
  const after = await say(t, "/jobs", "1 job the agent left running");
  expect(after).toMatch(/2\. sh -c 'trap "echo cleaned > B\.txt/);
  expect(after).toContain("/jobs stop 2 stops it");
  await say(t, "/jobs stop 1", "hey: job 1 has ended: /jobs lists 2");
  await say(t, "/jobs stop 5", "hey: no job 5: /jobs lists 2");
  expect(withMarker(jobs.B).length).toBeGreaterThan(0);
});

test("the model is told with the next message which job the user stopped, once: its history still says the job runs", async () => {
  await replWithJobs();
  const t = term!;
  await say(t, "start A", "1 job running");
  await say(t, "/jobs stop 1", "stopped job 1: sh -c 'trap");
  await say(t, "is A still up?", "answered");
  const note = (req: ChatRequest) => JSON.stringify(req.messages.at(-1)).match(/\[hey: the user stopped a job.*?it no longer runs\]/)?.[0];
  const told = model!.requests.find((req) => asked(req, "is A still up?"))!;
  expect(note(told)).toMatch(
    /^\[hey: the user stopped a job your commands left running, with \/jobs stop: `sh -c 'trap .*A\.txt.*` \(pid \d+\); it no longer runs\]$/,
  );
  await say(t, "and now?", "answered");
  expect(note(model!.requests.find((req) => asked(req, "and now?"))!)).toBeUndefined();
});

test("a command that leaves nothing running takes no job number: the first job after it is job 1", async () => {
  await replWithJobs();
  const t = term!;
  await say(t, "run plain", "answered");
  await say(t, "start A", /1 job running: \[1\] sh -c 'trap/);
  await say(t, "/jobs stop 1", "stopped job 1: sh -c 'trap");
});

test("/quit says which jobs it stops, and stops them with SIGTERM: the job's TERM trap writes its file", async () => {
  const jobs = await replWithJobs();
  const t = term!;
  await say(t, "start B", "1 job running");
  await say(t, "/quit", "stopping 1 job the agent left running: sh -c 'trap");
  await until(() => withMarker(jobs.B).length === 0, "the job to end with hey", 10_000);
  await until(() => existsSync(join(home.path, "B.txt")), "the job's trap to write its file", 10_000);
});

test("the terminal closed (SIGHUP): the job still gets SIGTERM, and its TERM trap writes its file", async () => {
  const jobs = await replWithJobs();
  const t = term!;
  await say(t, "start A", "1 job running");
  await t.kill();
  await until(() => withMarker(jobs.A).length === 0, "the job to end with hey", 10_000);
  await until(() => existsSync(join(home.path, "A.txt")), "the job's trap to write its file", 10_000);
});
