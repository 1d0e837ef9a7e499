// A bash call stopped by its timeout (or Ctrl-C) gets SIGTERM and time to clean up before SIGKILL,
// the same STOP_GRACE_MS a `!` command gets; and what it started outside its process group (a test
// runner's `detached` browser, `setsid`) is stopped with it rather than left running under init
// (explorer finding: 200 ms between SIGTERM and SIGKILL; a trap's cleanup never finished and a
// runner's detached child outlived hey).
import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileBashTool } from "../helpers/bash-tool.ts";
import { killMarked, marker, withMarker } from "../helpers/processes.ts";

const { dir, tool, ctx } = fileBashTool("hey-stop-test-");
const leftovers: string[] = [];
afterEach(() => killMarked(leftovers.splice(0)));

test("a timed-out command's TERM trap has time to clean up", async () => {
  const m = marker();
  leftovers.push(m);
  const command = `trap 'echo cleaning; sleep 0.3; echo done > cleaned; exit 1' TERM; echo started; sleep ${m} & wait`;
  const r = await tool({ timeoutMs: 500 }).run({ command }, ctx());
  expect(r.output).toStartWith("started\ncleaning\n[exit code 124]\n[timed out after 0.5 s; the process group was killed]");
  expect(existsSync(join(dir, "cleaned"))).toBe(true);
}, 20_000);

test("what a timed-out command started in a session of its own is stopped with it", async () => {
  const m = marker();
  leftovers.push(m);
  const r = await tool({ timeoutMs: 500 }).run({ command: `setsid sleep ${m} & echo started; wait` }, ctx());
  expect(r.output).toContain("[timed out after 0.5 s; the process group was killed]");
  expect(withMarker(m)).toEqual([]); // not left running under init
}, 20_000);
