// A plain command on a busy machine (a build running) must not be reported as leaving a job that
// holds its output open (CI finding: 4 of 400 parallel `echo call N` got that note and a job log).
// The end of the output pipes came more than 200 ms after the shell exited only because hey got no
// CPU in time: past that wait, hey now looks for what could still hold them, and with nothing left
// in the command's group (its guard aside) it waits on for their end. A real job is reported at once.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { drained } from "../../src/tools/capture.ts";
import { mayHoldOutput } from "../../src/tools/group-guard.ts";
import { fileBashTool } from "../helpers/bash-tool.ts";
import { killMarked, marker } from "../helpers/processes.ts";
import { until } from "../helpers/wait.ts";

const { dir, tool, ctx } = fileBashTool("hey-late-end-");
const leftovers: string[] = [];
afterEach(() => killMarked(leftovers.splice(0)));

/** A pipe that ends when a timer of `ms` fires: timers fire in the order they are due, so the test reads no clock. */
const pipeEndingAfter = (ms: number) => {
  const pipe = { ended: false, done: Bun.sleep(ms).then(() => void (pipe.ended = true)) };
  return pipe;
};

test("the pipes' end comes late and nothing could hold them: hey waits for it rather than calling it a job", async () => {
  const pipe = pipeEndingAfter(400); // past the 200 ms drain
  await drained([pipe], async () => false);
  expect(pipe.ended).toBe(true);
});

test("a job that may hold the pipes is reported at once: hey does not wait for their end", async () => {
  const pipe = pipeEndingAfter(1000);
  await drained([pipe], async () => true);
  expect(pipe.ended).toBe(false);
});

test("the pipes never end though nothing seen holds them (a daemon that left unseen): the wait still ends", async () => {
  await drained([{ done: new Promise<void>(() => {}) }], async () => false);
});

test.each([
  ["/bin/sh -c read line || kill -KILL 0 hey-guard", false], // the guard: its output is /dev/null
  ["/bin/sh -c exec 3<&0 </dev/null\n(/bin/sh -c 'read line || kill -KILL 0' hey-guard <&3 >/dev/null 2>&1 &)\nexec 3<&- \"$@\" hey /bin/sh -c echo hi", false], // on its way to be the guard
  [undefined, false], // gone, or ending
  ["python3 -m http.server 8000", true],
  ["sleep 30", true],
  ["/bin/sh -c npm run dev", true],
] as const)("a process of the command's group, %j, may hold its output: %p", (line, may) => {
  expect(mayHoldOutput(line)).toBe(may);
});

/** Holds the test's process (hey's, here) for `ms` as a loaded machine does: no timer or pipe is served meanwhile. */
const starve = (ms: number) => {
  const from = performance.now();
  while (performance.now() - from < ms) {}
};

test("hey starved of CPU just after the shell exited, a short-lived subshell gone meanwhile: a plain result, no job note", async () => {
  // the shell prints its pid and exits; a subshell holds the pipes 0.1 s more. Once hey has reaped
  // the shell (its drain has begun), hey is held for a second while it serves an event (as a busy
  // hey is, or one the machine gives no CPU): the subshell ends meanwhile, and the drain's deadline
  // is served before the pipes' end, due by then too
  const pidFile = join(dir, "shell.pid");
  let starved = false;
  const watch = setInterval(() => {
    if (starved || !existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, "utf8"));
    try {
      process.kill(pid, 0);
    } catch {
      starved = true; // reaped: its exit is known to hey
      // held while serving an event, as a busy hey is: past that, due timers are served first
      void Bun.spawn(["true"]).exited.then(() => starve(1000));
    }
  }, 5);
  try {
    const r = await tool().run({ command: `echo $$ > shell.pid; echo done; (sleep 0.1) &` }, ctx());
    expect(starved).toBe(true);
    expect(r).toEqual({ output: "done\n[exit code 0]" });
  } finally {
    clearInterval(watch);
  }
}, 20_000);

test("a job that left the command's group (`setsid`) holding its output is still reported, its later output in the job log", async () => {
  const m = marker();
  leftovers.push(m);
  const r = await tool().run({ command: `setsid sh -c 'while [ ! -e go ]; do sleep 0.02; done; echo later; exec sleep ${m}' &\necho launched` }, ctx());
  expect(r.output).toStartWith("launched\n[exit code 0]\n[a job the command left running holds its output open: what it prints from now on goes to ");
  const log = r.output.match(/goes to (\S+) /)![1]!;
  await Bun.write(join(dir, "go"), "");
  await until(() => readFileSync(log, "utf8") === "later\n", "the job's later line in its log", 10_000);
}, 20_000);
