// A command hey runs while hey is stopped (Ctrl-Z; tools/run-process.ts holdCommands): its whole
// process group stops with hey, so it changes nothing behind the user's back, and goes on once
// continued (`fg`); the group's guard keeps running, to end the group should hey be killed while
// stopped; and the time stopped does not count towards the command's timeout.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { procStat } from "../../src/fs/proc-stat.ts";
import { listProcesses, commandLine } from "../../src/tools/process-tree.ts";
import { holdCommands, runProcess } from "../../src/tools/run-process.ts";
import { tempDir } from "../helpers/e2e.ts";
import { found, until } from "../helpers/wait.ts";

const root = tempDir("hey-held-");
afterAll(() => root.remove());

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").length - 1 : 0);
const stateOf = (pid: number) => procStat(pid)?.[0];
const isGuard = (pid: number) => commandLine(pid)?.endsWith(" hey-guard") === true;

test("held, a command's group stops (its guard aside) and its file stops growing; continued, it goes on and ends as it would have", async () => {
  const file = join(root.path, "count.txt");
  let pgid = 0;
  const run = runProcess(["/bin/sh", "-c", `i=0; while [ $i -lt 40 ]; do i=$((i+1)); echo $i >> ${file}; sleep 0.02; done; echo finished`], {
    cwd: root.path,
    env: undefined,
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    guard: true,
    started: (pid) => (pgid = pid),
  });
  await until(() => lines(file) >= 3, "the command to count");
  const resume = holdCommands();
  const members = () => listProcesses().filter((p) => p.pgid === pgid && p.running);
  const shown = () =>
    members()
      .map((p) => `${p.pid} ${stateOf(p.pid)} ${commandLine(p.pid)}`)
      .join("; ");
  await until(() => members().every((p) => isGuard(p.pid) || stateOf(p.pid) === "T"), "the command's processes to be stopped").catch((e) => {
    throw new Error(`${(e as Error).message}; the group: ${shown()}`); // which process was not stopped, should this ever fail
  });
  const guard = members().find((p) => isGuard(p.pid));
  expect(guard).toBeDefined();
  expect(stateOf(guard!.pid)).not.toBe("T"); // it still reads its pipe: a kill -9 of hey would still end the group
  const counted = lines(file);
  await until(() => members().every((p) => isGuard(p.pid) || stateOf(p.pid) === "T"), "the processes to be seen stopped again");
  expect(lines(file)).toBe(counted);
  expect(counted).toBeLessThan(40);
  resume();
  await until(() => lines(file) > counted, "the count to go on");
  const done = await run;
  expect("error" in done).toBe(false);
  if ("error" in done) return;
  expect(done.ended).toBe("exit");
  expect(done.exitCode).toBe(0);
  expect(lines(file)).toBe(40);
});

test("the time a command was held does not count towards its timeout: held past it, continued, it ends by itself", async () => {
  const timeoutMs = 800;
  let pgid = 0;
  const run = runProcess(["/bin/sh", "-c", "sleep 0.3; echo done"], {
    cwd: root.path,
    env: undefined,
    timeoutMs,
    signal: new AbortController().signal,
    started: (pid) => (pgid = pid),
  });
  await found(() => (pgid ? pgid : undefined), "the command to start");
  const heldAt = performance.now();
  const resume = holdCommands();
  // what is tested is a stop longer than the timeout: the wait is that stop
  await until(() => performance.now() - heldAt > timeoutMs + 500, "the timeout to pass while the command is held");
  resume();
  const done = await run;
  expect("error" in done).toBe(false);
  if ("error" in done) return;
  expect(done.ended).toBe("exit");
  expect(done.stdout.head.trim()).toBe("done");
});
