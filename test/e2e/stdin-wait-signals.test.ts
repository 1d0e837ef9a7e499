// `(sleep 20) | hey -p hi --output json` killed with SIGTERM while hey waits for stdin: it exited
// 143 with no line on stdout — no `error`, no `done`, though every run ends with one — and nothing
// on stderr, since the run's signal handlers were set up only after stdin was read. A signal
// there now ends hey as one during the run does.
import { expect, test } from "bun:test";
import { SIGNAL_REASON } from "../../src/ui/signals.ts";
import { ensureBinary, jsonEvents } from "../helpers/e2e.ts";
import { fileModelServer, fileTempDir } from "../helpers/fixtures.ts";
import { until } from "../helpers/wait.ts";

const server = fileModelServer(() => ({ text: "never asked" }));
const home = fileTempDir("hey-stdin-wait-");
const NO_USAGE = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 };

test.each([
  ["json", "SIGTERM", 143, SIGNAL_REASON.SIGTERM],
  ["json", "SIGINT", 130, "interrupted by user"],
  ["text", "SIGHUP", 129, SIGNAL_REASON.SIGHUP],
] as const)("--output %s, %s while hey waits for stdin: exit %d, the run's error and done, its line on stderr", async (output, signal, code, reason) => {
  const hey = Bun.spawn([await ensureBinary(), "--base-url", server.baseUrl, "-m", "m", "--output", output, "-p", "hi"], {
    cwd: home.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1" },
    stdin: "pipe", // open, and nothing written to it
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
    killSignal: "SIGKILL",
  });
  let stderr = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of hey.stderr) stderr += decoder.decode(chunk);
  })();
  await until(() => stderr.includes("waiting for stdin"), "hey to say it waits for stdin");
  hey.kill(signal);
  const [stdout, exited] = await Promise.all([hey.stdout.text(), hey.exited, reading]);
  expect(exited).toBe(code);
  if (output === "json") {
    expect(jsonEvents(stdout)).toEqual([
      { type: "error", kind: "interrupted", message: reason },
      { type: "done", stop_reason: "interrupted", turns: 0, usage: NO_USAGE },
    ]);
  } else expect(stdout).toBe("");
  expect(stderr.split("\n")).toContain(output === "json" ? `hey: ${reason}` : reason);
  expect(server.requests).toHaveLength(0);
});
