// `git diff | hey -p …` with more than `[input] max_bytes` on stdin: hey read the cap's worth and
// exited with the pipe still open, so the writer died of SIGPIPE and a CI step under
// `bash -e -o pipefail` (GitHub Actions' default shell) failed with 141. The rest is now read and
// thrown away while the run goes on; an endless writer is waited for a bounded time only. In JSON
// the cut is a `notice` event too.
import { expect, test } from "bun:test";
import { ensureBinary, jsonEvents } from "../helpers/e2e.ts";
import { fileModelServer, fileTempDir } from "../helpers/fixtures.ts";
import { lastUserText } from "../helpers/model-server.ts";

const server = fileModelServer(() => ({ text: "summed up" }));
const work = fileTempDir("hey-stdin-cap-");
const CUT = "stdin: only the first 256 KB went into the prompt ([input] max_bytes); the rest was left out";

/** `WRITER | hey -p summarize EXTRA` under `set -o pipefail`: each side's exit code, hey's stdout and stderr. */
async function piped(writer: string, extra: string[] = []): Promise<{ codes: string; stdout: string; stderr: string }> {
  const bin = await ensureBinary();
  const script = `set -o pipefail; ${writer} | "$0" "$@" 2>"$HOME/err"; echo "rc \${PIPESTATUS[*]}"; cat "$HOME/err" >&2`;
  const proc = Bun.spawn(["bash", "-c", script, bin, "--base-url", server.baseUrl, "-m", "m", "-p", "summarize", ...extra], {
    cwd: work.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, NO_COLOR: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
    killSignal: "SIGKILL",
  });
  const [out, stderr] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  const codes = /^rc (.*)$/m.exec(out)?.[1] ?? "";
  return { codes, stdout: out.replace(/^rc .*\n/m, ""), stderr };
}

test("7 MB piped in under pipefail: the writer ends normally (not on SIGPIPE), hey answers from the first 256 KB and says the cut", async () => {
  const run = await piped("seq 1 1000000");
  expect(run).toEqual({ codes: "0 0", stdout: "summed up\n", stderr: `hey: ${CUT}\n` });
  const prompt = lastUserText(server.requests.at(-1)!);
  // whole lines up to 256 KB: 1 to 45541 (262,140 bytes), no more
  expect([prompt.includes("```stdin\n1\n2\n"), prompt.includes("\n45541\n```"), prompt.includes("\n45542\n")]).toEqual([true, true, false]);
});

test("an endless writer (`yes |`): hey still ends with its answer, and the writer is left to SIGPIPE then", async () => {
  const run = await piped("yes");
  expect(run).toEqual({ codes: "141 0", stdout: "summed up\n", stderr: `hey: ${CUT}\n` });
});

test("--output json: the cut is a `notice` event after `session`, before the first request, and still a line on stderr", async () => {
  const run = await piped("seq 1 1000000", ["--output", "json"]);
  expect(run.codes).toBe("0 0");
  expect(run.stderr).toBe(`hey: ${CUT}\n`);
  expect(
    jsonEvents(run.stdout)
      .map((e) => (e.type === "notice" ? e : e.type))
      .slice(0, 3),
  ).toEqual(["session", { type: "notice", message: CUT }, "turn_start"]);
});
