// Issue 13 row 8: hundreds of parallel tool calls in one turn under a low file-descriptor limit
// (macOS' default is 256) all get their real result, in call order — none is EMFILE. Through the
// compiled binary against a local mock model.
import { expect, test } from "bun:test";
import { ensureBinary } from "../helpers/e2e.ts";
import { resultText } from "../helpers/model-server.ts";
import { fileModelServer, fileTempDir } from "../helpers/fixtures.ts";

const CALLS = 400;
const server = fileModelServer((req) =>
  req.messages.at(-1)!.role === "tool"
    ? { text: "all done" }
    : { calls: Array.from({ length: CALLS }, (_, i): [string, unknown] => ["bash", { command: `echo call ${i}` }]) },
);
const work = fileTempDir("hey-parallel-");

test(`${CALLS} parallel bash calls under \`ulimit -n 256\`: every result is the command's, in call order`, async () => {
  const bin = await ensureBinary();
  const proc = Bun.spawn(
    ["sh", "-c", `ulimit -n 256 && exec "$0" "$@"`, bin, "--base-url", server.baseUrl, "-m", "m", "--max-turns", "3", "-p", "run them all"],
    {
      cwd: work.path,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, NO_COLOR: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      timeout: 60_000,
    },
  );
  const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  expect({ code, stdout }).toEqual({ code: 0, stdout: "all done\n" });
  const results = server.requests.at(-1)!.messages.filter((m) => m.role === "tool");
  expect(results.map((m) => resultText(m))).toEqual(Array.from({ length: CALLS }, (_, i) => `call ${i}\n[exit code 0]`));
  expect(stderr).not.toContain("EMFILE");
}, 90_000);
