// `hey -p … | reader` where the reader takes nothing (`| sleep 60`, a pager not yet looked at): the run
// is over and hey waits for the pipe to take the answer. A SIGTERM then used to end hey after a
// silent 5 s grace; it now says why on stderr and leaves at once, exit 143.
import { afterAll, expect, test } from "bun:test";
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SIGNAL_REASON } from "../../src/ui/signals.ts";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { fileModelServer } from "../helpers/fixtures.ts";
import { until } from "../helpers/wait.ts";

const ANSWER = `${"B".repeat(300_000)} END`; // more than a pipe holds (64 KB)
const server = fileModelServer(() => ({ text: ANSWER }));
const root = tempDir("hey-unread-answer-");
afterAll(() => root.remove());

test("SIGTERM while the answer waits for a reader that reads nothing: the reason on stderr, exit 143", async () => {
  const pipe = join(root.path, "pipe");
  expect(Bun.spawnSync(["mkfifo", pipe]).exitCode).toBe(0);
  const unread = openSync(pipe, "r+"); // the reading end held open, never read: the pipe fills
  const state = join(root.path, "state");
  try {
    const hey = Bun.spawn([await ensureBinary(), "--base-url", server.baseUrl, "-m", "m", "-p", "say a lot"], {
      cwd: root.path,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root.path, XDG_STATE_HOME: state, XDG_CACHE_HOME: join(root.path, "cache"), NO_COLOR: "1" },
      stdin: "ignore",
      stdout: unread,
      stderr: "pipe",
      timeout: 30_000,
    });
    // the run is over once the session holds the answer (saved before hey writes it out)
    const sessions = join(state, "hey", "sessions");
    await until(
      () => existsSync(sessions) && readdirSync(sessions).some((f) => f.endsWith(".jsonl") && readFileSync(join(sessions, f), "utf8").includes(" END")),
      "the answer saved",
    );
    hey.kill("SIGTERM");
    expect(await hey.exited).toBe(143);
    expect((await hey.stderr.text()).split("\n")).toContain(SIGNAL_REASON.SIGTERM);
  } finally {
    closeSync(unread);
  }
}, 40_000);
