// A job a bash command leaves in the background (`npm run dev &`, `python3 -m http.server &`) keeps
// the command's output pipes. It must run on and go on printing after the call returned: what it
// prints then goes to a file of the call's that the result names (explorer finding: hey closed the
// pipes 200 ms after the shell exited, so the job died of SIGPIPE at its next line, and a server
// that logs each request failed every request after the first).
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openJobLog } from "../../src/tools/job-log.ts";
import { fileBashTool } from "../helpers/bash-tool.ts";
import { killMarked, marker, withMarker } from "../helpers/processes.ts";
import { until } from "../helpers/wait.ts";

const { dir, tool, ctx } = fileBashTool("hey-jobs-test-");
const leftovers: string[] = [];
afterEach(() => killMarked(leftovers.splice(0)));
const jobLogPath = (output: string) => output.match(/what it prints from now on goes to (\S+) /)?.[1];

test("a job left in the background runs on and prints after the call returned; the result names the file its output goes to", async () => {
  const m = marker();
  leftovers.push(m);
  // the job waits for the test's go, prints to stdout and stderr, leaves a mark, then stays (as a server does)
  const job = `(while [ ! -e go ]; do sleep 0.02; done; echo served-1; echo warn-1 >&2; echo ok > alive; echo served-2; exec sleep ${m}) &`;
  const r = await tool().run({ command: `${job}\necho launched` }, ctx());
  expect(r.isError).toBeUndefined();
  expect(r.output).toStartWith("launched\n[exit code 0]\n[a job the command left running holds its output open: what it prints from now on goes to ");
  expect(r.output).toContain("read it with read_file or tail");
  const log = jobLogPath(r.output)!;
  expect(statSync(log).mode & 0o777).toBe(0o600); // named before anything is in it: it exists

  writeFileSync(join(dir, "go"), "");
  await until(() => existsSync(join(dir, "alive")), "the job to go on after printing (it died of SIGPIPE before)", 10_000);
  await until(() => readFileSync(log, "utf8").split("\n").length === 4, "the job's later output in the named file", 10_000);
  // stdout and stderr as they came: two pipes, read apart, so their lines may cross
  expect(readFileSync(log, "utf8").split("\n").sort()).toEqual(["", "served-1", "served-2", "warn-1"]);
  expect(withMarker(m).length).toBe(1); // still running
}, 20_000);

test("a job's output file keeps its newest part and says how much went before", () => {
  const path = join(dir, "capped.job.log");
  const log = openJobLog(path, 1000);
  const write = log.writer();
  for (let i = 0; i < 300; i++) write(new TextEncoder().encode(`line ${String(i).padStart(3, "0")}\n`)); // 9 bytes each: 2700 in all
  write(undefined);
  const text = readFileSync(path, "utf8");
  expect(text.length).toBeLessThanOrEqual(1000);
  expect(text).toMatch(/^\[… \d+ earlier bytes dropped: this file keeps about the last 1000 bytes …\]\nline \d{3}\n/);
  expect(text).toEndWith("line 298\nline 299\n");
  const kept = text.split("\n").slice(1, -1);
  const dropped = Number(text.match(/(\d+) earlier/)![1]);
  expect(dropped).toBe(2700 - kept.join("\n").length - 1); // every byte not kept is counted
});
