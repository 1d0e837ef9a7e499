// Issue 10 (litter): bash's full outputs live under the user's cache, one private folder per
// session, never in $TMPDIR; older ones are pruned at start-up; `/sessions prune` takes a
// session's outputs with it. Through the compiled binary against a local mock model.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { textOf } from "../helpers/model-server.ts";
import { fileModelServer, fileTempDir } from "../helpers/fixtures.ts";

// the model runs one command whose output is cut, then answers with what it was told
const server = fileModelServer((req) => {
  const last = req.messages.at(-1)!;
  return last.role === "tool" ? { text: `saw: ${textOf(last).split("\n").at(-1)}` } : { calls: [["bash", { command: "seq 1 100000" }]] };
});
const root = fileTempDir("hey-outputs-");

test("a cut output is saved under $XDG_CACHE_HOME/hey/outputs/<session>/, private; $TMPDIR stays empty; old outputs are pruned", async () => {
  const [tmp, cache, state, work] = ["tmp", "cache", "state", "work"].map((d) => join(root.path, d)) as [string, string, string, string];
  for (const d of [tmp, work]) mkdirSync(d, { recursive: true });
  const outputs = join(cache, "hey", "outputs");
  // an output from another session, 8 days old, and one from yesterday
  const old = join(outputs, "0oldsession", "x.log");
  const recent = join(outputs, "0recentsession", "y.log");
  for (const [file, days] of [
    [old, 8],
    [recent, 1],
  ] as const) {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, "old output\n");
    const t = (Date.now() - days * 86_400_000) / 1000;
    utimesSync(file, t, t);
  }

  const env = { TMPDIR: tmp, XDG_CACHE_HOME: cache, XDG_STATE_HOME: state };
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "--output", "json", "-p", "count"], { cwd: work, env });
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  const session = events[0]!.id as string;
  const result = events.find((e) => e.type === "tool_result");
  const path = String(JSON.stringify(result)).match(/\[full output: ([^\]]+)\]/)![1]!;
  expect(path).toStartWith(join(outputs, session) + "/");
  expect(readFileSync(path, "utf8")).toStartWith("1\n2\n3\n");
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(statSync(join(outputs, session)).mode & 0o777).toBe(0o700);
  expect(readdirSync(tmp)).toEqual([]);
  expect(existsSync(old)).toBe(false);
  expect(existsSync(join(outputs, "0oldsession"))).toBe(false);
  expect(existsSync(recent)).toBe(true);

  // `/sessions prune` removes the session and its outputs
  const sessions = join(state, "hey", "sessions");
  const file = readdirSync(sessions).find((f) => f.startsWith(session))!;
  const t = (Date.now() - 40 * 86_400_000) / 1000;
  utimesSync(join(sessions, file), t, t);
  const prune = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "/sessions prune 30d"], { cwd: work, env });
  expect(prune.stdout + prune.stderr).toContain("deleted 1 session");
  expect(existsSync(join(outputs, session))).toBe(false);
  expect(existsSync(recent)).toBe(true);
}, 30_000);
