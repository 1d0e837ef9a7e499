// Ctrl-Z while the agent's command runs (README "Keys"), through dist/hey in tmux under an
// interactive bash: the command stops with hey — a counter it writes stops growing, no longer
// changing files behind the user's back — and goes on at `fg`; a hey killed (kill -9) while
// stopped still takes its command's process group with it.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { procStat } from "../../src/fs/proc-stat.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { groupMembers, held, type Member } from "../helpers/held-group.ts";
import type { Term } from "../helpers/tmux.ts";
import { until } from "../helpers/wait.ts";
import { answer, lastLine, replTerms, toolCalls } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { start } = replTerms(server);

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").length - 1 : 0);

/** The live processes of the group the command writing `file` runs in (its shell's cmdline names the file). */
function commandGroup(file: string): Member[] {
  const shell = [...new Bun.Glob("[0-9]*").scanSync({ cwd: "/proc", onlyFiles: false })].find((pid) => {
    try {
      return procStat(pid)?.[2] === pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(file);
    } catch {
      return false; // gone meanwhile
    }
  });
  return shell === undefined ? [] : groupMembers(Number(shell));
}

/**
 * hey under a shell with job control, its model calling bash with a command that counts into `file`
 * (in HOME) 150 times: asked at the prompt, or with `oneShot` as `hey -p count`.
 */
async function countingTurn(oneShot = false): Promise<{ t: Term; file: string }> {
  const args = ["--base-url", `${server.url}/v1`, "-m", "mock-model", ...(oneShot ? ["-p", "count"] : [])];
  const count = (file: string) => toolCalls([["bash", { command: `for i in $(seq 150); do echo $i >> ${file}; sleep 0.04; done` }]]);
  const t = await start({ args, jobControl: true, before: oneShot ? "while [ ! -e go ]; do sleep 0.05; done" : "" });
  const file = join(t.home, "count.txt");
  server.enqueue(count(file)); // the answer after it is queued by the tests that let the command end
  if (oneShot)
    writeFileSync(join(t.home, "go"), ""); // the call names the file in the terminal's HOME, known once it started
  else {
    await t.waitFor((s) => lastLine(s) === "›");
    await t.type("count");
    await t.keys("Enter");
  }
  await until(() => lines(file) >= 3, "the command to count");
  return { t, file };
}

const stopped = (file: string) => held(commandGroup(file));

test(
  "Ctrl-Z while the agent's command writes a counter file: the file stops growing while hey is stopped, and grows again after fg",
  async () => {
    const { t, file } = await countingTurn();
    await t.keys("C-z");
    await t.waitFor(/Stopped/);
    await until(() => stopped(file), "the command's processes to stop with hey");
    const counted = lines(file);
    await until(() => stopped(file), "the command to be seen stopped again");
    expect(lines(file)).toBe(counted);
    expect(counted).toBeLessThan(150);
    expect(commandGroup(file).filter((p) => p.guard && p.state !== "T")).toHaveLength(1); // the guard keeps watching hey
    server.enqueue(answer("Counted."));
    await t.type("fg");
    await t.keys("Enter");
    await until(() => lines(file) > counted, "the count to go on after fg");
    await t.waitFor("Counted.", { timeoutMs: 30_000 });
    expect(lines(file)).toBe(150);
  },
  E2E_TIMEOUT,
);

test(
  "hey killed (kill -9) while stopped with its command: the command's whole process group ends too, not left stopped for ever",
  async () => {
    const { t, file } = await countingTurn();
    await t.keys("C-z");
    await t.waitFor(/Stopped/);
    await until(() => stopped(file), "the command's processes to stop with hey");
    process.kill(await t.heyPid(), "SIGKILL");
    await until(() => commandGroup(file).length === 0, "the command's group to end with hey");
    expect(lines(file)).toBeLessThan(150); // ended, not finished
  },
  E2E_TIMEOUT,
);

test(
  "hey -p: Ctrl-Z stops its command too, and fg continues it to the end",
  async () => {
    const { t, file } = await countingTurn(true);
    await t.keys("C-z");
    await t.waitFor(/Stopped/);
    await until(() => stopped(file), "the command's processes to stop with hey");
    const counted = lines(file);
    expect(counted).toBeLessThan(150);
    server.enqueue(answer("Counted."));
    await t.type("fg");
    await t.keys("Enter");
    await until(() => lines(file) > counted, "the count to go on after fg");
    await t.waitFor("[exit 0]", { timeoutMs: 30_000 });
    expect(lines(file)).toBe(150);
  },
  E2E_TIMEOUT,
);
