// `hey -p … --output json | head -3`: once the reader of hey's output goes away, nobody reads what
// the run does, so it stops — the turn cancelled, its commands' process groups killed, the session
// saved — and hey exits 141, as a shell's program does on SIGPIPE. It went on running tools and
// spending tokens to the end, its output dropped, and exited 0.
import { afterAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";
import { until } from "../helpers/wait.ts";

const server = startReplayServer();
const quiet = startReplayServer(); // its own: the first test leaves a reply it never asked for
const home = tempDir("hey-reader-gone-");
afterAll(() => {
  server.stop();
  quiet.stop();
  home.remove();
});

test("a one-shot run whose stdout's reader closes stops there: no tool runs, no second request, exit 141", async () => {
  const bin = await ensureBinary();
  const work = join(home.path, "work");
  let closed = false;
  // the answer's first words, then (once the reader is gone) the rest and a call that would leave a mark
  const call = JSON.stringify({ command: "touch ran.txt" });
  const events = sseEvents([
    chatChunk({ content: "Looking" }),
    ...Array.from({ length: 20 }, () => chatChunk({ content: " more" })),
    chatChunk({ toolCall: { index: 0, id: "c1", name: "bash", arguments: call } }),
    chatChunk({ finish: "tool_calls" }),
  ]);
  server.enqueue({ ...sseReply(events, { delayMs: 20 }), hold: { at: 1, until: () => until(() => closed, "the reader to go away") } });
  server.enqueue(sseReply(sseEvents([chatChunk({ content: "done" }), chatChunk({ finish: "stop" })])));
  mkdirSync(work);
  writeFileSync(join(work, ".keep"), "");
  const child = spawn(bin, ["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", "-p", "look around"], {
    cwd: work,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  // the reader takes the first lines (the request is out, its answer begun) and goes, as `head -3` does
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  await until(() => server.requests.length === 1, "the request");
  child.stdout!.destroy();
  closed = true;
  const code = await exited;
  expect(code).toBe(141);
  expect(server.requests).toHaveLength(1); // before: the call ran and a second request went out
  expect(existsSync(join(work, "ran.txt"))).toBe(false);
  expect(stderr).toContain("the reader of hey's output went away (a closed pipe)");
});

// A run that writes nothing for a while heard of its reader only at its next write: text mode
// writes the answer at the end (`hey -p … | true`), and JSON mode writes nothing while a long
// command runs. The command ran to its end and left its mark, the run went on, and only then did
// hey exit 141. Now the closed pipe is noticed while the command runs: it is killed, exit 141.
test.each([["text"], ["json"]])("a %s run whose reader goes away during a quiet command stops it there, exit 141, the session saved", async (output) => {
  const bin = await ensureBinary();
  const work = join(home.path, `quiet-${output}`);
  const state = join(home.path, `state-${output}`);
  mkdirSync(work);
  const call = JSON.stringify({ command: "touch started.txt; sleep 20; touch ran.txt" });
  quiet.enqueue(sseReply(sseEvents([chatChunk({ toolCall: { index: 0, id: "c1", name: "bash", arguments: call } }), chatChunk({ finish: "tool_calls" })])));
  const before = quiet.requests.length;
  const child = spawn(bin, ["--base-url", `${quiet.url}/v1`, "-m", "m", "--output", output, "-p", "wait a while"], {
    cwd: work,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, XDG_STATE_HOME: state, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.stdout!.resume();
  await until(() => existsSync(join(work, "started.txt")), "the command to start");
  child.stdout!.destroy();
  expect(await exited).toBe(141);
  expect(existsSync(join(work, "ran.txt"))).toBe(false); // before: the command ran to its end, 20 s later
  expect(quiet.requests.length).toBe(before + 1); // no request after the command
  expect(readdirSync(join(state, "hey", "sessions")).filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);
});

// `hey -p … > out.txt` on a full disk is no closed pipe: the run stops (nothing can be read of
// it) with exit 1 and says what failed, where it said "the reader of hey's output went away (a
// closed pipe)" and exited 141 — in text mode, with the answer lost at the end, without a word.
test.each([["json"], ["text"]])("a one-shot run whose stdout is a full disk (%s) exits 1 saying the output cannot be written", async (output) => {
  const bin = await ensureBinary();
  const work = join(home.path, `full-${output}`);
  mkdirSync(work);
  server.enqueue(sseReply(sseEvents([chatChunk({ content: "the answer" }), chatChunk({ finish: "stop" })])));
  const full = openSync("/dev/full", "w");
  const child = spawn(bin, ["--base-url", `${server.url}/v1`, "-m", "m", "--output", output, "-p", "say it"], {
    cwd: work,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1" },
    stdio: ["ignore", full, "pipe"],
  });
  closeSync(full);
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  expect(stderr).toContain("hey: stdout cannot be written (ENOSPC: no space left on device");
  expect(stderr).not.toContain("closed pipe");
  expect(code).toBe(1);
});

// `hey -p … >&-`: the runtime puts /dev/null where the closed stdout was, so the answer vanished
// without a word and hey exited 0, the request sent and paid for. It is not sent now: one line
// says why, exit 1. Spawned through sh, since a spawn's ignored stdout is /dev/null, not closed.
test.each([["text"], ["json"]])(
  "a one-shot run started with stdout closed (%s) sends nothing and exits 1 saying the answer could not be written; >/dev/null still runs",
  async (output) => {
    const bin = await ensureBinary();
    const work = join(home.path, `closed-${output}`);
    mkdirSync(work);
    const heyWith = async (redirect: string) => {
      const child = Bun.spawn(
        ["sh", "-c", `exec "$0" "$@" ${redirect}`, bin, "--base-url", `${server.url}/v1`, "-m", "m", "--output", output, "-p", "say it"],
        {
          cwd: work,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1" },
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
        },
      );
      const [stderr, code] = await Promise.all([child.stderr.text(), child.exited]);
      return { stderr, code };
    };
    const before = server.requests.length;
    expect(await heyWith(">&-")).toEqual({
      stderr: "hey: stdout is closed: the answer could not be written, so nothing was sent (to discard the answer, use >/dev/null)\n",
      code: 1,
    });
    expect(server.requests.length).toBe(before);
    // discarding the answer on purpose is no closed stdout
    server.enqueue(sseReply(sseEvents([chatChunk({ content: "the answer" }), chatChunk({ finish: "stop" })])));
    expect(await heyWith(">/dev/null")).toEqual({ stderr: "", code: 0 });
    expect(server.requests.length).toBe(before + 1);
  },
);
