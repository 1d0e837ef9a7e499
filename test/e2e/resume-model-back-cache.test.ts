// `hey -c -m A` after a run on model B (x154 #2): A's provider cache still holds A's last request,
// so the run back on A extends it byte for byte instead of rewriting what A deferred, and the next
// plain `hey -c` extends what that run sent (it had un-pruned what the run before pruned: 16.5 %
// of a 113 KB prefix reused where 96–98 % is normal).
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { eachTempDir } from "../helpers/fixtures.ts";
import { textReply, toolCallsReply } from "../helpers/protocol-streams.ts";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";

let work: ReturnType<typeof tempDir>;
let server: ReplayServer;
const state = eachTempDir();
beforeEach(() => {
  work = tempDir("hey-model-back-");
  // a.txt is small and b.txt large: pruning the first a.txt saves too little to pay for re-sending b.txt uncached
  writeFileSync(join(work.path, "a.txt"), `a: ${"some words of a file ".repeat(40)}\n`.repeat(3));
  writeFileSync(join(work.path, "b.txt"), `b: ${"some words of a file ".repeat(40)}\n`.repeat(40));
  server = startReplayServer();
});
afterEach(() => {
  server.stop();
  work.remove();
});

let calls = 0;
/** One run on `model`: a `cat` of each of `paths`, then an answer; the messages of each request it made. */
async function run(model: string, paths: string[], resume: boolean): Promise<string[][]> {
  for (const path of paths) server.enqueue(toolCallsReply("openai", [{ id: `call_${calls++}`, name: "bash", args: { command: `cat ${path}` } }]));
  server.enqueue(textReply("openai", "done"));
  const from = server.requests.length;
  const args = ["--base-url", `${server.url}/v1`, "--protocol", "openai", "-m", model, ...(resume ? ["-c"] : []), "-p", "look at the files"];
  const done = await runHey(args, { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(done.code).toBe(0);
  return server.requests.slice(from).map((r) => ((r.body as { messages: unknown[] }).messages ?? []).map((m) => JSON.stringify(m)));
}
/** how many messages of `last` the request `next` repeats before the first that differs */
const repeated = (next: string[], last: string[]) => (last.findIndex((m, i) => next[i] !== m) === -1 ? last.length : last.findIndex((m, i) => next[i] !== m));
const pruned = (messages: string[]) => messages.join().split("[pruned: duplicate call").length - 1;

test("hey -c -m A after a run on B extends A's last request, and the next hey -c extends that run's", async () => {
  const a = await run("model-a", ["a.txt", "b.txt", "a.txt"], false);
  expect(pruned(a.at(-1)!)).toBe(0); // deferred for model-a's cache
  const b = await run("model-b", ["a.txt"], true);
  expect(pruned(b[0]!)).toBeGreaterThan(0); // model-b's cache is cold: its first request rewrites
  const c = await run("model-a", ["b.txt"], true);
  expect(repeated(c[0]!, a.at(-1)!)).toBe(a.at(-1)!.length);
  const d = await run("model-a", [], true);
  expect(repeated(d[0]!, c.at(-1)!)).toBe(c.at(-1)!.length);
}, 60_000);
