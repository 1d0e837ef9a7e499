// What the bash tool starts ends with hey, however hey ends: `kill -9` of hey, which runs no code
// of its own then, leaves no job behind (tools/group-guard.ts), neither a command still running
// nor a job an earlier command left in the background; nor does hey's normal exit or SIGTERM, which give
// a job SIGTERM first (its trap runs) and end what it started in a session of its own. While hey runs,
// a background job runs on, printing into the file its call's result named, and a call that left
// nothing running leaves no guard behind either.
// Through the compiled binary against a local mock model.
import { afterAll, afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ChatRequest } from "../helpers/model-server.ts";
import { killMarked, marker, processes, withMarker } from "../helpers/processes.ts";
import { found, until } from "../helpers/wait.ts";

const root = tempDir("hey-jobs-");
const leftovers: string[] = [];
afterEach(() => killMarked(leftovers.splice(0)));
afterAll(() => root.remove());

/** The tool results the model has been sent so far, in order. */
const results = (req: ChatRequest) => req.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
const inGroup = (pgid: number) => processes().filter((p) => p.pgid === pgid);
const env = (name: string) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: root.path,
  XDG_STATE_HOME: join(root.path, name, "state"),
  XDG_CACHE_HOME: join(root.path, name, "cache"),
  NO_COLOR: "1",
});

test("kill -9 of hey: the running command and a job an earlier command left in the background both end", async () => {
  const [job, running] = [marker(), marker()];
  leftovers.push(job, running);
  const commands = ["echo $$", `sleep ${job} >/dev/null 2>&1 & echo $$`, `sleep ${running}`];
  const model = startModelServer((req) => ({ calls: [["bash", { command: commands[results(req).length] ?? "true" }]] }));
  try {
    const hey = Bun.spawn([await ensureBinary(), "--base-url", model.baseUrl, "-m", "m", "-p", "start the server and test it"], {
      cwd: root.path,
      env: env("kill9"),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
      timeout: 30_000,
    });
    const sleeper = await found(() => withMarker(running).find((p) => p.args.startsWith("sleep")), "the running command", 15_000);
    const [quiet, withJob] = results(model.requests.at(-1)!).map((r) => Number.parseInt(r, 10));
    // while hey runs: the job runs on, and the call that left nothing running left no guard either
    expect(inGroup(withJob!).some((p) => p.args.startsWith(`sleep ${job}`))).toBe(true);
    await until(() => inGroup(quiet!).length === 0, "the first call's group to be empty", 10_000);

    hey.kill("SIGKILL");
    expect(await hey.exited).toBe(137);
    await until(() => withMarker(job).length === 0 && withMarker(running).length === 0, "the jobs to end after kill -9 of hey", 10_000);
    await until(() => inGroup(withJob!).length === 0 && inGroup(sleeper.pgid).length === 0, "their guards to end", 10_000);
  } finally {
    model.stop();
  }
}, 40_000);

test("a job the model left in the background ends when hey exits normally, hey says so on stderr, and `hey -c` tells the model once", async () => {
  const job = marker();
  leftovers.push(job);
  const command = `sleep ${job} >/dev/null 2>&1 & echo started`;
  const model = startModelServer((req) => (results(req).length === 0 ? { calls: [["bash", { command }]] } : { text: "ok" }));
  try {
    const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "-p", "start it"], { cwd: root.path, env: env("normal") });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`hey: stopping 1 job the agent left running: ${command}\n`);
    await until(() => withMarker(job).length === 0, "the job to end with hey", 10_000);
    expect(model.requests.map((r) => JSON.stringify(r)).filter((r) => r.includes("this is a new run of hey"))).toEqual([]);

    const before = model.requests.length;
    const again = await runHey(["--base-url", model.baseUrl, "-m", "m", "-c", "-p", "is it up?"], { cwd: root.path, env: env("normal") });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain("hey: ended"); // nothing left running this time
    const resumed = JSON.stringify(model.requests[before]);
    expect(resumed).toContain(
      `[hey: this is a new run of hey; the job the last run left running ended with it: \`${command}\`; start again what is still needed]`,
    );
    // told once: the run after that one, which left nothing running, is told nothing
    const third = model.requests.length;
    expect((await runHey(["--base-url", model.baseUrl, "-m", "m", "-c", "-p", "and now?"], { cwd: root.path, env: env("normal") })).code).toBe(0);
    expect(JSON.stringify(model.requests[third])).not.toContain("this is a new run of hey");
  } finally {
    model.stop();
  }
}, 40_000);

test("at hey's exit a job left running gets SIGTERM first: its TERM trap writes its file; a child it started in a session of its own ends too", async () => {
  const [job, detached] = [marker(), marker()];
  leftovers.push(job, detached);
  const dir = join(root.path, "trap");
  mkdirSync(dir);
  // a dev server of sorts: it cleans up on TERM (a pid file, containers), and starts a browser outside its group
  const command = `sh -c 'trap "echo cleaned > cleaned.txt; exit" TERM; setsid sleep ${detached} & : > ready; while :; do sleep 0.1; done; : ${job}' >/dev/null 2>&1 &\nuntil [ -e ready ]; do sleep 0.05; done; echo started`; // returns once the trap is set
  const model = startModelServer((req) => (results(req).length === 0 ? { calls: [["bash", { command }]] } : { text: "ok" }));
  try {
    const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "-p", "start it"], { cwd: dir, env: env("trap") });
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "cleaned.txt"))).toBe(true);
    expect(run.stderr).toContain("hey: stopping 1 job the agent left running: sh -c 'trap");
    await until(() => withMarker(job).length === 0 && withMarker(detached).length === 0, "the job and its detached child to end", 10_000);
  } finally {
    model.stop();
  }
}, 40_000);

test("hey ended by SIGTERM mid-turn: a job an earlier call left running still gets SIGTERM, and its TERM trap writes its file", async () => {
  const [job, running] = [marker(), marker()];
  leftovers.push(job, running);
  const dir = join(root.path, "sigterm");
  mkdirSync(dir);
  const commands = [
    `sh -c 'trap "echo cleaned > cleaned.txt; exit" TERM; : > ready; while :; do sleep 0.1; done; : ${job}' >/dev/null 2>&1 & until [ -e ready ]; do sleep 0.05; done`,
    `sleep ${running}`,
  ];
  const model = startModelServer((req) => ({ calls: [["bash", { command: commands[results(req).length] ?? "true" }]] }));
  try {
    const hey = Bun.spawn([await ensureBinary(), "--base-url", model.baseUrl, "-m", "m", "-p", "start it"], {
      cwd: dir,
      env: env("sigterm"),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
      timeout: 30_000,
    });
    await found(() => withMarker(running).find((p) => p.args.startsWith("sleep")), "the second call's command", 15_000);
    hey.kill("SIGTERM");
    expect(await hey.exited).toBe(143);
    expect(existsSync(join(dir, "cleaned.txt"))).toBe(true);
    expect(await new Response(hey.stderr).text()).toContain("hey: stopping 1 job the agent left running: sh -c 'trap");
    await until(() => withMarker(job).length === 0 && withMarker(running).length === 0, "both to end", 10_000);
  } finally {
    model.stop();
  }
}, 40_000);

test("a job the model left in the background goes on printing after its call; the next call reads what it printed from the file the result named", async () => {
  const job = marker();
  leftovers.push(job);
  // a server of sorts: it logs each request on stdout (before: its first line after the call killed it, SIGPIPE)
  const serve = `(: ${job}; while [ ! -e go ]; do sleep 0.02; done; echo "request 1 served"; echo ok > alive; exec sleep ${job}) &\necho launched`;
  const named = (result: string) => result.match(/what it prints from now on goes to (\S+) /)?.[1];
  const model = startModelServer((req) => {
    const [first, second] = results(req);
    if (first === undefined) return { calls: [["bash", { command: serve }]] };
    if (second === undefined)
      return {
        calls: [
          ["bash", { command: `touch go; for i in $(seq 200); do grep -q served '${named(first)}' && break; sleep 0.05; done; cat alive '${named(first)}'` }],
        ],
      };
    return { text: "checked" };
  });
  try {
    const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "-p", "start the server and test it"], { cwd: root.path, env: env("later") });
    expect(run.code).toBe(0);
    const [first, second] = results(model.requests.at(-1)!);
    expect(first).toContain("launched\n[exit code 0]\n[a job the command left running holds its output open: what it prints from now on goes to ");
    expect(second).toStartWith("ok\nrequest 1 served\n[exit code 0]");
    await until(() => withMarker(job).length === 0, "the job to end with hey", 10_000);
  } finally {
    model.stop();
  }
}, 40_000);

test("with TMPDIR naming no directory, the guard's pipe is made elsewhere: kill -9 of hey still ends the running command", async () => {
  const running = marker();
  leftovers.push(running);
  const model = startModelServer(() => ({ calls: [["bash", { command: `sleep ${running}` }]] }));
  try {
    const hey = Bun.spawn([await ensureBinary(), "--base-url", model.baseUrl, "-m", "m", "-p", "run it"], {
      cwd: root.path,
      env: { ...env("tmpdir"), TMPDIR: join(root.path, "nonexistent", "tmp") },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
      timeout: 30_000,
    });
    await found(() => withMarker(running).find((p) => p.args.startsWith("sleep")), "the running command", 15_000);
    hey.kill("SIGKILL");
    expect(await hey.exited).toBe(137);
    await until(() => withMarker(running).length === 0, "the command to end after kill -9 of hey", 10_000);
  } finally {
    model.stop();
  }
}, 40_000);
