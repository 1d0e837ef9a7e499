// `hey doctor` at a terminal says which check it is waiting for, and for how long, while a request
// is out (a stuck server takes tens of seconds to give up on); the line is gone before the report.
import { afterAll, afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { fileTempDir } from "../helpers/fixtures.ts";

const work = fileTempDir("hey-doctor-progress-");
const config = join(work.path, "slow.toml");
writeFileSync(config, "[retry]\nidle_timeout_ms = 2500\n");

/** Accepts connections and reads what comes, never writing a byte back. */
const mute = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {}, open() {} } });
afterAll(() => mute.stop(true));

let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
});

test("the check being waited for is shown with its seconds, and cleared before the report", async () => {
  const url = `http://127.0.0.1:${mute.port}/v1`;
  term = await startTerm({ args: ["doctor", "--base-url", url, "-m", "m", "--config", config], cols: 200 });
  await term.waitFor(/waiting for: model list… \d s/);
  await term.waitFor(/waiting for: streamed answer… [1-9] s/); // it counts
  const report = await term.waitFor("not usable", { timeoutMs: 30_000 });
  expect(report).toContain("✗ streamed answer");
  expect(report).not.toContain("waiting for:");
}, 60_000);
