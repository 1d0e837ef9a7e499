// hey started the ways a long job is left to run on its own: `nohup hey -p … &` at a terminal
// (GNU nohup puts an unreadable descriptor in place of the terminal's stdin, and sets SIGHUP to be
// ignored), and a script's `hey -p a & hey -p b & wait` (whose background jobs the shell starts
// with SIGINT ignored). Such a stdin is no input, and a signal ignored at start stays ignored: the
// run goes on to its answer. Through the compiled binary against a local mock model.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ChatRequest, lastUserText } from "../helpers/model-server.ts";

const root = tempDir("hey-detached-");
afterAll(() => root.remove());

const env = (name: string) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: root.path,
  XDG_CONFIG_HOME: join(root.path, name, "config"),
  XDG_STATE_HOME: join(root.path, name, "state"),
  XDG_CACHE_HOME: join(root.path, name, "cache"),
  NO_COLOR: "1",
});

/** Runs `sh -c SCRIPT hey ARGS…` (the script ends with `exec "$0" "$@"`: hey itself, same pid), its stdin not a terminal. */
async function viaShell(script: string, args: string[], name: string) {
  const proc = Bun.spawn(["/bin/sh", "-c", script, await ensureBinary(), ...args], {
    cwd: root.path,
    env: env(name),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
    killSignal: "SIGKILL",
  });
  return { proc, done: Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]) };
}

test("a stdin open only for writing (what nohup puts in place of a terminal) is no input: the prompt is sent and answered", async () => {
  const model = startModelServer(() => ({ text: "hello there" }));
  try {
    const { done } = await viaShell('exec "$0" "$@" 0>/dev/null', ["--base-url", model.baseUrl, "-m", "m", "-p", "hi"], "stdin");
    const [stdout, stderr, code] = await done;
    expect(stderr).not.toContain("stdin");
    expect(code).toBe(0);
    expect(stdout).toBe("hello there\n");
    expect(model.requests.map(lastUserText)).toEqual(["hi"]);
  } finally {
    model.stop();
  }
}, 40_000);

test("SIGHUP and SIGINT ignored when hey started (nohup, a script's background job) stay ignored: the run is not ended by them", async () => {
  let hey = 0;
  const results = (req: ChatRequest) => req.messages.filter((m) => m.role === "tool");
  // the model's command signals hey while its turn runs; the run goes on to the model's answer
  const model = startModelServer((req) =>
    results(req).length === 0 ? { calls: [["bash", { command: `kill -HUP ${hey}; kill -INT ${hey}; echo signalled` }]] } : { text: "finished anyway" },
  );
  try {
    const { proc, done } = await viaShell('trap "" INT; exec nohup "$0" "$@"', ["--base-url", model.baseUrl, "-m", "m", "-p", "a slow job"], "signals");
    hey = proc.pid;
    const [stdout, stderr, code] = await done;
    expect(stderr).not.toContain("hung up");
    expect(stderr).not.toContain("interrupted");
    expect(code).toBe(0);
    expect(stdout).toBe("finished anyway\n");
    expect(String(results(model.requests.at(-1)!)[0]?.content)).toStartWith("signalled");
  } finally {
    model.stop();
  }
}, 40_000);
