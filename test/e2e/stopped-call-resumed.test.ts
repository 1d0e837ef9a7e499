// A call the user stopped, resumed (f105c): hey -p asked to stop twice (Ctrl-C, then Ctrl-C again
// while the call ignores its cancel) quits before the call ends. It used to leave the call without
// a result, and `hey -c` then told the model "interrupted: hey stopped before this call finished",
// which reads as a crash, and the user "hey stopped before it finished"; models ran the call again.
// The call's result now says the user stopped it, and not to run it again unless asked. A hey killed
// outright (kill -9) still says hey stopped (killed-mid-turn.test.ts).
import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileReplayServer } from "../helpers/fixtures.ts";
import { killMarked, marker, waitForGroup } from "../helpers/processes.ts";
import { until } from "../helpers/wait.ts";
import { answer, toolCalls } from "./repl-helpers.ts";

const server = fileReplayServer();
const dir = eachTempDir("hey-stopped-call-");
const leftovers: string[] = [];
const running: { kill(signal?: number | NodeJS.Signals): void }[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.kill("SIGKILL");
  killMarked(leftovers.splice(0));
});

const env = () => ({
  HOME: dir.path,
  XDG_STATE_HOME: join(dir.path, "state"),
  XDG_CONFIG_HOME: join(dir.path, "config"),
  XDG_CACHE_HOME: join(dir.path, "cache"),
});
const args = (...rest: string[]) => ["--base-url", `${server.url}/v1`, "-m", "mock-model", ...rest];

/** The words the old source gave such a call (kernel/tool-calls.ts NO_RESULT), spelled out: the test runs against it too. */
const HEY_STOPPED = "interrupted: hey stopped before this call finished";

test("Ctrl-C twice in hey -p while a call ignores its cancel: hey -c tells the model the user stopped it, not that hey stopped", async () => {
  const m = marker();
  leftovers.push(m);
  const termed = join(dir.path, "got-term");
  // a command that outlives its SIGTERM (its cleanup), as a dev server or a test runner may
  server.enqueue(toolCalls([["bash", { command: `trap 'echo > ${termed}' TERM; sleep ${m} & wait; sleep ${m}; echo never` }]]));
  const hey = Bun.spawn([await ensureBinary(), ...args("-p", "run it")], {
    cwd: dir.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1", ...env() },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
  });
  running.push(hey);
  await waitForGroup(m);
  hey.kill("SIGINT");
  await until(() => existsSync(termed), "hey to ask the command to stop"); // the first Ctrl-C read
  // the second is read before the command's cleanup wait is over: hey stopped meanwhile, as a loaded machine may hold it
  process.kill(hey.pid, "SIGSTOP");
  hey.kill("SIGINT");
  process.kill(hey.pid, "SIGCONT");
  expect(await hey.exited).toBe(130);
  killMarked([m]);

  server.enqueue(answer("Understood."));
  const run = await runHey(args("-c", "-p", "what happened"), { cwd: dir.path, env: env() });
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain("hey stopped before it finished");
  type Sent = { role: string; content: string | null; tool_call_id?: string };
  const messages = (server.requests.at(-1)!.body as { messages: Sent[] }).messages;
  const result = messages.find((x) => x.role === "tool")?.content ?? "";
  expect(result).not.toContain(HEY_STOPPED);
  expect(result).toStartWith(
    "interrupted by user: the user stopped this call before it finished, and hey quit while it ran; it may have done part of its work. Do not run it again unless the user asks",
  );
  expect(messages.map((x) => x.role).filter((r) => r !== "system")).toEqual(["user", "assistant", "tool", "user"]);
  expect(server.violations).toEqual([]);
});
