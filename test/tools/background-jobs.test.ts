// A job a bash command leaves in the background (`npm run dev &`, `python3 -m http.server &`) keeps
// the command's output pipes. It must run on and go on printing after the call returned: what it
// prints then goes to a file of the call's that the result names (explorer finding: hey closed the
// pipes 200 ms after the shell exited, so the job died of SIGPIPE at its next line, and a server
// that logs each request failed every request after the first).
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openJobLog, paced } from "../../src/tools/job-log.ts";
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
  const log = openJobLog(path, { maxBytes: 1000 });
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

test("a job's later output hides the secrets the call's result hides, a secret cut between two chunks too", async () => {
  const m = marker();
  leftovers.push(m);
  const hide = (text: string) => text.replaceAll("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "[redacted]");
  // the token comes in two writes, the second after the call returned; then a line without its end (a prompt)
  const job = `(while [ ! -e go-secret ]; do sleep 0.02; done; printf 'LATER=ghp_abcdefghij'; sleep 0.05; printf 'klmnopqrstuvwxyz0123456789\\nready> '; exec sleep ${m}) &`;
  const r = await tool({ hide }).run({ command: job }, ctx());
  const log = jobLogPath(r.output)!;
  writeFileSync(join(dir, "go-secret"), "");
  await until(() => readFileSync(log, "utf8").endsWith("ready> "), "the job's lines, and its prompt without an end, in the file", 10_000);
  expect(readFileSync(log, "utf8")).toBe("LATER=[redacted]\nready> ");
}, 20_000);

test("a job that prints in a loop is read at the job rate after a first burst: it waits on its writes, and the file says so", async () => {
  const path = join(dir, "paced.job.log");
  let clock = 0;
  const log = openJobLog(path, { rate: { bytesPerSecond: 1 << 20, burstBytes: 3000 }, now: () => clock });
  const write = log.writer();
  const line = new TextEncoder().encode(`${"y".repeat(999)}\n`);
  expect([write(line), write(line), write(line)]).toEqual([undefined, undefined, undefined]); // the burst
  const wait = write(line); // 1000 bytes over: a millisecond at 1 MB/s
  expect(wait).toBeInstanceOf(Promise);
  await wait;
  clock += 2000; // two seconds later: the burst may come at once again
  expect(write(line)).toBeUndefined();
  write(undefined);
  const text = readFileSync(path, "utf8");
  expect(text.split("\n").filter((l) => l.startsWith("[…"))).toEqual([
    "[… this job prints faster than hey reads a job's output, 1 MB/s after the first 3 KB: it waits on its writes from here …]",
  ]);
  expect(text.split("\n").filter((l) => l.startsWith("y"))).toHaveLength(5); // nothing dropped
  // once the file is cut to its newest part, its first line still says why the job is slow
  const capped = openJobLog(join(dir, "paced-capped.job.log"), { maxBytes: 3000, rate: { bytesPerSecond: 1 << 20, burstBytes: 2000 }, now: () => 0 });
  const put = capped.writer();
  for (let i = 0; i < 4; i++) await put(line);
  put(undefined);
  expect(readFileSync(join(dir, "paced-capped.job.log"), "utf8")).toMatch(
    /^\[… \d+ earlier bytes dropped: this file keeps about the last 3 KB; this job prints faster than hey reads a job's output, 1 MB\/s after the first 2 KB: it waits on its writes …\]\ny/,
  );
});

test("paced: a token bucket that refills at the rate, up to the burst", () => {
  const rate = { bytesPerSecond: 1 << 20, burstBytes: 4 << 20 };
  const full = { allowance: 4 << 20, at: 0 };
  expect(paced(full, 1 << 20, 0, rate)).toEqual({ pace: { allowance: 3 << 20, at: 0 }, waitMs: 0 });
  expect(paced({ allowance: 0, at: 0 }, 1 << 19, 0, rate)).toEqual({ pace: { allowance: -(1 << 19), at: 0 }, waitMs: 500 });
  expect(paced({ allowance: 0, at: 0 }, 1 << 19, 500, rate).waitMs).toBe(0); // half a second refilled half a MB
  expect(paced(full, 0, 60_000, rate).pace.allowance).toBe(4 << 20); // never more than the burst
});

test("`yes &` left running costs hey little: its later output is read at the job rate, the job waiting on its writes", async () => {
  const m = marker();
  leftovers.push(m);
  const r = await tool().run({ command: `yes spam line from a chatty dev server ${m} &` }, ctx());
  const log = jobLogPath(r.output)!;
  await until(() => readFileSync(log, "utf8").includes("it waits on its writes from here"), "the job to be read at the job rate", 20_000);
  // the file has not been cut: at 1 MB/s it takes seconds to pass 8 MB (read at once, it was cut again and again)
  expect(readFileSync(log, "utf8")).not.toContain("earlier bytes dropped");
}, 30_000);

test("a job left running where no folder for its output can be made (a read-only HOME's cache): the call reports what ran, the dropped output is a note", async () => {
  const m = marker();
  leftovers.push(m);
  writeFileSync(join(dir, "not-a-folder"), ""); // mkdir under it fails, as under a read-only HOME, whoever runs the test
  const r = await tool({ outputDir: join(dir, "not-a-folder", "out") }).run({ command: `echo started\n(exec sleep ${m}) &` }, ctx());
  expect(r.isError).toBeUndefined();
  expect(r.output).toStartWith(
    "started\n[exit code 0]\n[a job the command left running holds its output open; what it prints from now on is dropped (could not create a file for it: ",
  );
  expect(r.output).toContain("not-a-folder");
});
