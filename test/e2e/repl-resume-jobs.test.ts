// A job the agent left running in the REPL (`sleep … &`, a dev server) is its session's: it ends
// with hey, and the session whose command left it records so, even after `/clear` or `/resume`
// left that session (the REPL closes its sessions before hey ends the jobs): switching to it with
// `/resume`, or `hey -c`, tells the model once, as `hey -c` after `hey -p` does
// (jobs-end-with-hey.test.ts); a session that did not start it is told nothing — in a real
// terminal (tmux) through dist/hey.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
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
  home = tempDir("hey-resume-jobs-");
});
afterEach(async () => {
  await term?.close();
  killMarked(leftovers.splice(0));
  model?.stop();
  home.remove();
});

/** Whether the last user message of `req` asks `what`; whether `req` tells the model that jobs ended. */
const asks = (req: ChatRequest, what: string) => JSON.stringify(req.messages.filter((m) => m.role === "user").at(-1)).includes(what);
const told = (req: ChatRequest | undefined) => JSON.stringify(req).includes("this is a new run of hey");

/** A REPL (at `term`) whose model, asked to "start it", leaves job `sleep JOB` running; returns JOB. */
async function replWithJob(cwd: string): Promise<string> {
  const job = marker();
  leftovers.push(job);
  const command = `sleep ${job} >/dev/null 2>&1 & echo started`;
  model = startModelServer((req) =>
    asks(req, "start it") && req.messages.at(-1)!.role === "user" ? { calls: [["bash", { command }]] } : { text: "answered" },
  );
  term = await openRepl(cwd);
  await say(term, "start it", "answered");
  return job;
}
const openRepl = (cwd: string) =>
  startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" }, args: ["--base-url", model!.baseUrl, "-m", "m"] });

/** `/quit`: hey says it ended the job, and it is gone. */
async function quitEndingJob(t: Term, job: string): Promise<void> {
  await say(t, "/quit", "stopping 1 job the agent left running");
  await until(() => withMarker(job).length === 0, "the job to end with hey", 10_000);
  // hey records the ended job in the session after the job's grace: what `hey -c` reads is there once hey has exited
  await t.waitFor((s) => s.includes("[exit "));
}

test("a job one session of the REPL left running is that session's: after /clear, the next session is not told of it, the one that started it is", async () => {
  const cwd = realpathSync(home.path);
  const job = await replWithJob(cwd);
  const t = term!;
  await say(t, "/clear", "new session");
  await say(t, "hello", "answered");
  await quitEndingJob(t, job);

  const dir = join(home.path, ".local", "state", "hey", "sessions");
  const started = readdirSync(dir)
    .find((f) => f.endsWith(".jsonl") && readFileSync(join(dir, f), "utf8").includes("start it"))
    ?.replace(".jsonl", "");
  // the latest session, begun by /clear, never ran the job: its model is not told it ended
  const before = model!.requests.length;
  expect((await runHey(["--base-url", model!.baseUrl, "-m", "m", "-c", "-p", "anything new?"], { cwd, env: { HOME: home.path } })).code).toBe(0);
  expect(told(model!.requests[before])).toBe(false);
  // the session whose command started it is told, once, when another REPL's /resume picks it (before: it was never told)
  expect(started).toBeDefined();
  await t.close();
  term = await openRepl(cwd);
  await say(term, `/resume ${started}`, `resumed session ${started}`);
  await say(term, "is the server up?", "answered");
  expect(told(model!.requests.at(-1))).toBe(true);
  await say(term, "and now?", "answered");
  expect(told(model!.requests.at(-1))).toBe(false);
  await say(term, "/quit", "[exit 0]");
});

test("a job the REPL's own session left running ends with hey, and `hey -c` tells the model once", async () => {
  const cwd = realpathSync(home.path);
  const job = await replWithJob(cwd);
  await quitEndingJob(term!, job);
  const before = model!.requests.length;
  expect((await runHey(["--base-url", model!.baseUrl, "-m", "m", "-c", "-p", "is it up?"], { cwd, env: { HOME: home.path } })).code).toBe(0);
  // before: the REPL had closed its session when hey ended the job, and nothing was recorded
  expect(JSON.stringify(model!.requests[before])).toContain(`the job the last run left running ended with it: \`sleep ${job} >/dev/null 2>&1 & echo started\``);
});
