// `/jobs`: what it lists of the jobs the agent left running, how it says their age, and the line
// the REPL shows after a turn that left one. Pure.
import { expect, test } from "bun:test";
import { age, jobName, jobsCommand, jobsLine, jobsListing } from "../../src/ui/jobs-command.ts";
import type { RunningJob } from "../../src/tools/group-guard.ts";

const job = (pgid: number, command: string, extra: Partial<RunningJob> = {}): RunningJob => ({
  number: pgid / 100,
  pgid,
  pid: pgid + 1,
  command,
  left: 0,
  ...extra,
});

test("an age is seconds, then minutes and seconds, then hours and minutes", () => {
  expect(age(0, 12_400)).toBe("12s");
  expect(age(0, 65_000)).toBe("1m 5s");
  expect(age(0, (2 * 3600 + 3 * 60 + 9) * 1000)).toBe("2h 3m");
  expect(age(5000, 0)).toBe("0s"); // a clock set back
});

test("/jobs numbers each job with the command the model ran (on one line), its pid, age and output file, and says how to stop one", () => {
  const listed = jobsListing(
    [job(100, "npm run dev &\necho started", { log: "/c/x.job.log", left: 0 }), job(200, "python3 -m http.server 8000 >/dev/null 2>&1 &")],
    90_000,
  );
  expect(listed).toBe(
    [
      "2 jobs the agent left running (they stop when hey exits):",
      "1. npm run dev & echo started",
      "   pid 101 · running 1m 30s · output: /c/x.job.log",
      "2. python3 -m http.server 8000 >/dev/null 2>&1 &",
      "   pid 201 · running 1m 30s · its output is not kept",
      "/jobs stop N stops one (SIGTERM, then SIGKILL after a grace)",
    ].join("\n"),
  );
  expect(jobsListing([], 0)).toBe("no jobs the agent left running");
});

test("after a turn, a line names the running jobs only when one is new to the user", () => {
  const jobs = [job(100, "npm run dev &"), job(200, "sleep 100 &")];
  expect(jobsLine(jobs, new Set())).toBe("2 jobs running: [1] npm run dev &; [2] sleep 100 & (/jobs lists, /jobs stop N stops)");
  expect(jobsLine(jobs, new Set([100, 200]))).toBeUndefined();
  expect(jobsLine(jobs.slice(0, 1), new Set())).toBe("1 job running: [1] npm run dev & (/jobs lists, /jobs stop N stops)");
  expect(jobsLine([], new Set())).toBeUndefined();
});

test("a job is named by its command on one line, cut to a length", () => {
  expect(jobName("  npm run dev &\n\techo started  ")).toBe("npm run dev & echo started");
  expect(jobName("x".repeat(120), 20)).toBe(`${"x".repeat(19)}…`);
});

test("/jobs stop N stops job N; with one job N may be left out; a wrong N or word is refused, stopping nothing", async () => {
  const stopped: number[][] = [];
  const stop = async (pgids: number[]) => void stopped.push(pgids);
  const jobs = [job(100, "npm run dev &"), job(200, "sleep 100 &")];
  expect(await jobsCommand("stop 2", jobs, stop, 0, 2)).toEqual({ text: "stopped job 2: sleep 100 &", ok: true });
  expect(await jobsCommand("stop", jobs.slice(0, 1), stop, 0, 2)).toEqual({ text: "stopped job 1: npm run dev &", ok: true });
  expect(stopped).toEqual([[200], [100]]);
  expect((await jobsCommand("stop 3", jobs, stop, 0, 2)).text).toBe("hey: no job 3: /jobs lists 1, 2");
  expect((await jobsCommand("stop 3", [], stop, 0, 2)).text).toBe("hey: no job 3: none is running");
  expect((await jobsCommand("kill 1", jobs, stop, 0, 2)).ok).toBe(false);
  expect((await jobsCommand("stop", jobs, stop, 0, 2)).ok).toBe(false); // two jobs: which?
  expect(stopped).toHaveLength(2);
  expect((await jobsCommand("", jobs, stop, 0, 2)).text).toStartWith("2 jobs the agent left running");
});

// x56: the numbers were the jobs' places in a fresh listing, so once job 1 ended `/jobs stop 2`
// stopped the job listed as 3
test("a job keeps its number while it runs: after job 1 ends, /jobs stop 2 stops the job listed as 2, and stop 1 says job 1 has ended", async () => {
  const stopped: number[][] = [];
  const stop = async (pgids: number[]) => void stopped.push(pgids);
  const [a, b, c] = [job(100, "sleep 3001 &"), job(200, "sleep 3003 &"), job(300, "sleep 3002 &")];
  expect(jobsListing([a!, b!, c!], 0)).toContain("2. sleep 3003 &");
  const left = [b!, c!]; // sleep 3001 ended since
  expect(jobsListing(left, 0)).toContain("2. sleep 3003 &\n");
  expect(jobsListing(left, 0)).toContain("3. sleep 3002 &\n");
  expect(jobsLine(left, new Set())).toStartWith("2 jobs running: [2] sleep 3003 &; [3] sleep 3002 &");
  expect(await jobsCommand("stop 2", left, stop, 0, 3)).toEqual({ text: "stopped job 2: sleep 3003 &", ok: true });
  expect(stopped).toEqual([[200]]);
  expect(await jobsCommand("stop 1", left, stop, 0, 3)).toEqual({ text: "hey: job 1 has ended: /jobs lists 2, 3", ok: false });
  expect(await jobsCommand("stop", [c!], stop, 0, 3)).toEqual({ text: "stopped job 3: sleep 3002 &", ok: true }); // the one left
  expect(jobsListing([c!], 0)).toContain("/jobs stop 3 stops it");
  expect(stopped).toEqual([[200], [300]]);
});
