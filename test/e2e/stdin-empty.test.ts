// `git diff | hey -p "review this"` with no changes: stdin arrives empty. hey used to drop it
// without a word. Now stderr (and, in JSON, a `notice`) says so, and the model reads the message
// alone: a program that starts hey with a pipe it never writes (Node's spawnSync, Python's
// stdin=PIPE, an editor plugin) meant no input, and its prompt is not changed; `</dev/null` says nothing.
import { expect, test } from "bun:test";
import { ensureBinary } from "../helpers/e2e.ts";
import { fileModelServer, fileTempDir } from "../helpers/fixtures.ts";
import { lastUserText } from "../helpers/model-server.ts";

const server = fileModelServer(() => ({ text: "nothing to review" }));
const work = fileTempDir("hey-stdin-empty-");

/** `hey -p "review this" EXTRA` with stdin from the shell's `redirect`: hey's stdout and stderr. */
async function run(redirect: string, extra: string[] = []): Promise<{ stdout: string; stderr: string }> {
  const bin = await ensureBinary();
  const proc = Bun.spawn(["bash", "-c", `${redirect} "$0" "$@"`, bin, "--base-url", server.baseUrl, "-m", "m", ...extra, "-p", "review this"], {
    cwd: work.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, NO_COLOR: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
    killSignal: "SIGKILL",
  });
  const [stdout, stderr] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  return { stdout, stderr };
}

test.each([
  ["printf '' |", "0 bytes"],
  ["printf '\\n\\n' |", "only whitespace"],
])("an empty pipe (%s): stderr says so, and the model reads the message alone", async (redirect, what) => {
  const r = await run(redirect);
  expect(r).toEqual({ stdout: "nothing to review\n", stderr: `hey: stdin: empty (${what}); the message was sent alone\n` });
  expect(lastUserText(server.requests.at(-1)!)).toBe("review this");
});

test("--output json: the empty stdin is a `notice` event", async () => {
  const r = await run("printf '' |", ["--output", "json"]);
  const notices = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; message?: string })
    .filter((e) => e.type === "notice");
  expect(notices.map((e) => e.message)).toEqual(["stdin: empty (0 bytes); the message was sent alone"]);
});

test("</dev/null is no input: nothing said, the message goes alone", async () => {
  const r = await run("</dev/null");
  expect(r).toEqual({ stdout: "nothing to review\n", stderr: "" });
  expect(lastUserText(server.requests.at(-1)!)).toBe("review this");
});
