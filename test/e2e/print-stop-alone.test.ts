// x80 finding 7: `hey -p` sent SIGTSTP to its whole process group on any SIGTSTP, so a supervisor
// stopping hey alone (`kill -TSTP <hey>`) stopped the script that started hey too, and the rest of
// its pipeline. Now a hey that does not lead its group stops itself alone (its commands with it),
// while a terminal's Ctrl-Z, which reaches the whole foreground group, still stops the job.
// dist/hey runs under `sh -c` as a job of a bash with job control (`set -m`): the script leads the
// group, hey is a member, as under a wrapper script started from a shell. bash then becomes a
// `sleep` that outlives the job: a group whose parent left would be orphaned, and the kernel ends
// an orphaned group that is stopped (SIGHUP).
import { afterEach, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { procStat } from "../../src/fs/proc-stat.ts";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { groupMembers, held } from "../helpers/held-group.ts";
import { sseReply, startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { until } from "../helpers/wait.ts";

const E2E_TIMEOUT = 60_000;

let server: ReplayServer;
let bin = "";
beforeAll(async () => {
  bin = await ensureBinary();
}, 120_000);

let work: ReturnType<typeof tempDir>;
let script: ReturnType<typeof Bun.spawn> | undefined;
let group = 0;
afterEach(() => {
  if (group)
    for (const signal of ["SIGKILL", "SIGCONT"] as const)
      try {
        process.kill(-group, signal);
      } catch {} // ended
  script?.kill("SIGKILL");
  server.stop();
  work.remove();
  group = 0;
});

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").length - 1 : 0);
const state = (pid: number) => procStat(pid)?.[0];
const pids = () => [...new Bun.Glob("[0-9]*").scanSync({ cwd: "/proc", onlyFiles: false })].map(Number);
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

/** Whether the group of the command counting into `file` is stopped (its guard, which watches hey, aside). */
const commandStopped = (file: string) => {
  const shell = pids().find((pid) => cmdline(pid).includes(file) && procStat(pid)?.[2] === String(pid));
  return shell !== undefined && held(groupMembers(shell));
};

/** `hey -p count` under a wrapper script in its own process group, its model counting into a file with bash; resolves once counting. */
async function countingRun(): Promise<{ sh: number; hey: number; file: string; exit: string }> {
  work = tempDir("hey-e2e-stop-");
  server = startReplayServer(); // one per test: a failed test leaves no reply queued for the next
  const file = join(work.path, "count.txt");
  const exit = join(work.path, "exit");
  const command = `for i in $(seq 100); do echo $i >> ${file}; sleep 0.03; done`;
  server.enqueue(
    sseReply(
      sse([chatChunk({ toolCall: { index: 0, id: "call_1", name: "bash", arguments: JSON.stringify({ command }) } }), chatChunk({ finish: "tool_calls" })]),
    ),
    sseReply(sse([chatChunk({ content: "Counted." }), chatChunk({ finish: "stop" })])),
  );
  const pidFile = join(work.path, "sh.pid");
  script = Bun.spawn(
    [
      "bash",
      "-c",
      `set -m; sh -c '"$@"; echo $? > "$EXIT"' sh "$@" & echo $! > "$PID_FILE"; exec sleep 600`,
      "bash",
      bin,
      "--base-url",
      `${server.url}/v1`,
      "-m",
      "m",
      "-p",
      "count",
    ],
    {
      cwd: work.path,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, NO_COLOR: "1", EXIT: exit, PID_FILE: pidFile },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
    },
  );
  await until(() => lines(pidFile) === 1, "the script to start");
  const sh = Number(readFileSync(pidFile, "utf8"));
  group = sh;
  let hey = 0;
  await until(() => (hey = pids().find((pid) => procStat(pid)?.[1] === String(sh) && cmdline(pid).startsWith(bin)) ?? 0) > 0, "hey to start");
  expect(procStat(hey)?.[2]).toBe(String(sh)); // a member of the script's group, not its leader
  await until(() => lines(file) >= 3, "the command to count");
  return { sh, hey, file, exit };
}

test(
  "SIGTSTP to a hey -p that does not lead its group stops hey and its command, not the script that started it",
  async () => {
    const { sh, hey, file, exit } = await countingRun();
    process.kill(hey, "SIGTSTP");
    await until(() => state(hey) === "T" && commandStopped(file), "hey and its command to stop");
    expect(state(sh)).not.toBe("T");
    const counted = lines(file);
    process.kill(hey, "SIGCONT");
    await until(() => lines(file) > counted, "the count to go on after SIGCONT");
    // the script, never stopped, goes on once hey ends
    await until(() => existsSync(exit) && readFileSync(exit, "utf8") === "0\n", "the script to see hey exit 0");
    expect(lines(file)).toBe(100);
  },
  E2E_TIMEOUT,
);

test(
  "a terminal's Ctrl-Z (SIGTSTP to the whole group) still stops the script, hey and its command, and SIGCONT goes on to the end",
  async () => {
    const { sh, hey, file, exit } = await countingRun();
    process.kill(-sh, "SIGTSTP");
    await until(() => state(sh) === "T" && state(hey) === "T" && commandStopped(file), "the job and hey's command to stop");
    const counted = lines(file);
    expect(counted).toBeLessThan(100);
    process.kill(-sh, "SIGCONT");
    await until(() => lines(file) > counted, "the count to go on after SIGCONT");
    await until(() => existsSync(exit) && readFileSync(exit, "utf8") === "0\n", "the script to see hey exit 0");
    expect(lines(file)).toBe(100);
  },
  E2E_TIMEOUT,
);
