// A text-mode answer longer than a pipe takes at once (~8 KB and up) is written in the background
// after the run, and its write's failure came there: `hey -p … > out.txt` on a full disk exited 0
// without a word, and `hey -p … | head -c 10` exited 0 too, where a short answer exits 1 saying the
// answer is lost, or 141. Now a long answer ends as a short one does.
import { expect, test } from "bun:test";
import { ensureBinary } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";

const ANSWER_BYTES = 200_000; // well past a pipe's 64 KB: the write cannot finish before the run ends
const server = fileModelServer(() => ({ text: "x".repeat(ANSWER_BYTES) }));
const home = eachTempDir("hey-long-answer-");

/** `dist/hey -p … REDIRECT` through bash (`| head -c 10`): hey's exit code (PIPESTATUS) and stderr. */
async function heyWith(redirect: string): Promise<{ code: number; stderr: string }> {
  const child = Bun.spawn(
    ["bash", "-c", `"$0" "$@" ${redirect}; exit \${PIPESTATUS[0]}`, await ensureBinary(), "--base-url", server.baseUrl, "-m", "m", "-p", "say it"],
    { cwd: home.path, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1" }, stdin: "ignore", stdout: "ignore", stderr: "pipe" },
  );
  const [stderr, code] = await Promise.all([child.stderr.text(), child.exited]);
  return { code, stderr };
}

test("a long answer to a full disk: exit 1 and the error on stderr, as a short one", async () => {
  const { code, stderr } = await heyWith(">/dev/full");
  expect([code, stderr]).toEqual([1, expect.stringContaining("hey: stdout cannot be written (ENOSPC: no space left on device")]);
});

test("a long answer whose reader takes its start and goes (`| head -c 10`): exit 141, as a short one to a reader gone", async () => {
  expect(await heyWith("| head -c 10 >/dev/null")).toEqual({ code: 141, stderr: "" });
});
