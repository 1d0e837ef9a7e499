// A command hey runs while hey is stopped (Ctrl-Z; tools/run-process.ts holdCommands): its whole
// process group stops with hey, so it changes nothing behind the user's back, and goes on once
// continued (`fg`); the group's guard keeps running, to end the group should hey be killed while
// stopped; and the time stopped does not count towards the command's timeout.
import { afterAll, afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { holdCommands, runProcess } from "../../src/tools/run-process.ts";
import { tempDir } from "../helpers/e2e.ts";
import { groupMembers, held, shown } from "../helpers/held-group.ts";
import { found, until } from "../helpers/wait.ts";

const root = tempDir("hey-held-");
afterAll(() => root.remove());
let resume = () => {};
afterEach(() => resume()); // a failed test's command is not left stopped: continued, it ends by itself

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").length - 1 : 0);

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
  resume = holdCommands();
  const stopped = (what: string) =>
    until(() => held(groupMembers(pgid)), what).catch((e) => {
      throw new Error(`${(e as Error).message}; the group: ${shown(groupMembers(pgid))}`); // which process was not stopped, should this ever fail
    });
  await stopped("the command's processes to be stopped");
  const guards = groupMembers(pgid).filter((p) => p.guard);
  expect(guards).toHaveLength(1);
  expect(guards[0]!.state).not.toBe("T"); // it still reads its pipe: a kill -9 of hey would still end the group
  const counted = lines(file);
  await stopped("the processes to be seen stopped again");
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
  resume = holdCommands();
  // what is tested is a stop longer than the timeout: the wait is that stop
  await until(() => performance.now() - heldAt > timeoutMs + 500, "the timeout to pass while the command is held");
  resume();
  const done = await run;
  expect("error" in done).toBe(false);
  if ("error" in done) return;
  expect(done.ended).toBe("exit");
  expect(done.stdout.head.trim()).toBe("done");
});
