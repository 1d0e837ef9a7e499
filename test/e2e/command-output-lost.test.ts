// Output that is not a run's answer — `hey --help`, a slash command run one-shot, `--sessions` —
// written to a full disk exited 0 without a word, its output lost. It now fails as a one-shot run's
// lost answer does: exit 1, saying so on stderr.
import { expect, test } from "bun:test";
import { ensureBinary } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";

const server = fileModelServer(() => ({ text: "never asked" }));
const home = eachTempDir("hey-command-lost-");
const LOST = "hey: stdout cannot be written (ENOSPC: no space left on device, write): the output is lost\n";

test.each([[["--help"]], [["-p", "/usage"]], [["--sessions"]]])("hey %p > /dev/full: exit 1, and why on stderr", async (args) => {
  const proc = Bun.spawn(["sh", "-c", `exec "$0" "$@" >/dev/full`, await ensureBinary(), "--base-url", server.baseUrl, "-m", "m", ...args], {
    cwd: home.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1" },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    timeout: 20_000,
  });
  const [stderr, code] = await Promise.all([proc.stderr.text(), proc.exited]);
  expect({ code, stderr }).toEqual({ code: 1, stderr: LOST });
});
