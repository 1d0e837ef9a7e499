// bun scripts/bytecode-order.ts → packaging/bytecode-order.txt, the profile scripts/build.ts lays
// dist/hey's bytecode out by (--bytecode-order): the functions a run uses are placed together, so
// a run maps fewer pages of the binary (SPEC §22's short task peaked ~3 MB lower). Recorded with
// BUN_BYTECODE_ORDER_OUT from the short task of bench-memory.ts (read, run, edit, run, answer) in
// text mode, the common way hey runs. A profile from older code still applies (only the functions
// changed since lose their place), so it is re-recorded now and then, not with every change;
// `bun run build` afterwards to use it.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../test/helpers/e2e.ts";
import { FIXED, makeRepo } from "../test/helpers/task-repo.ts";
import { SHORT_TASK } from "./bench-memory.ts";
import { runMeasured, startMock, textSse } from "./bench-mock.ts";
import { BYTECODE_ORDER } from "./build.ts";

const hey = await ensureBinary();
const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-bytecode-order-")));
let next = 0;
const server = startMock(() => SHORT_TASK[next++] ?? textSse("(script exhausted)"));
try {
  const work = join(dir, "task");
  mkdirSync(work);
  makeRepo(work);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(dir, "home"), NO_COLOR: "1", TMPDIR: dir, BUN_BYTECODE_ORDER_OUT: BYTECODE_ORDER };
  const run = await runMeasured([hey, "--base-url", server.url, "-m", "m", "-p", "the test fails, fix it"], { cwd: work, env, timeoutMs: 30_000 });
  if (run.code !== 0 || readFileSync(join(work, "math.mjs"), "utf8") !== FIXED)
    throw new Error(`the task failed (exit ${run.code}): ${run.stderr.slice(0, 500)}`);
  console.log(`recorded ${BYTECODE_ORDER}; bun run build lays dist/hey out by it`);
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
