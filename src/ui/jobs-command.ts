// `/jobs`: the jobs the agent's commands left running (`npm run dev &`, a server), which otherwise
// only hey's exit would name: each one's number, the command the model ran, its process id, how
// long it has run and the file its later output goes to; `/jobs stop N` stops one as a timeout
// stops a command (SIGTERM, a grace, SIGKILL), so the user restarts a server without hunting for
// its PID. Pure: the caller gives the jobs and how to stop one (tools/group-guard.ts).
import type { RunningJob } from "../tools/group-guard.ts";

/** How a job is named on one line: its command's words with the whitespace between them (newlines too) made one space, cut to `max` characters. */
export function jobName(command: string, max = 100): string {
  const line = command.trim().replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `1m 5s`, `2h 3m`, `12s`: how long since `from`, at `now` (ms). */
export function age(from: number, now: number): string {
  const s = Math.max(0, Math.floor((now - from) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** The `/jobs` listing of `jobs` at `now`: a numbered line each, then how to stop one. */
export function jobsListing(jobs: RunningJob[], now: number): string {
  if (jobs.length === 0) return "no jobs the agent left running";
  const lines = jobs.map(
    (j) => `${j.number}. ${jobName(j.command)}\n   pid ${j.pid} · running ${age(j.left, now)} · ${j.log ? `output: ${j.log}` : "its output is not kept"}`,
  );
  const stop = jobs.length === 1 ? `/jobs stop ${jobs[0]!.number} stops it` : "/jobs stop N stops one";
  return `${jobs.length} job${jobs.length === 1 ? "" : "s"} the agent left running (they stop when hey exits):\n${lines.join("\n")}\n${stop} (SIGTERM, then SIGKILL after a grace)`;
}

/** The line after a turn that left a job running the user has not been told of; undefined when there is none. */
export function jobsLine(jobs: RunningJob[], told: ReadonlySet<number>): string | undefined {
  if (!jobs.some((j) => !told.has(j.pgid))) return undefined;
  const names = jobs.map((j) => `[${j.number}] ${jobName(j.command, 60)}`).join("; ");
  return `${jobs.length} job${jobs.length === 1 ? "" : "s"} running: ${names} (/jobs lists, /jobs stop N stops)`;
}

/**
 * `/jobs` (list) or `/jobs stop N` of `jobs` (those running now), stopping one with `stop`; what to
 * show, and whether it worked. `numbered`: the highest number given (tools/group-guard.ts jobsNumbered):
 * a number up to it that no running job has is one that ended, refused as such, never another's.
 */
export async function jobsCommand(
  arg: string,
  jobs: RunningJob[],
  stop: (pgids: number[]) => Promise<void>,
  now: number,
  numbered: number,
): Promise<{ text: string; ok: boolean }> {
  const words = arg.split(/\s+/).filter(Boolean);
  if (words.length === 0) return { text: jobsListing(jobs, now), ok: true };
  const [verb, which] = words;
  const n = which === undefined && jobs.length === 1 ? jobs[0]!.number : Number(which);
  if (verb !== "stop" || words.length > 2 || !Number.isInteger(n))
    return { text: `hey: /jobs lists the jobs the agent left running; /jobs stop N stops job N; got "${arg}"`, ok: false };
  const job = jobs.find((j) => j.number === n);
  const running = jobs.length === 0 ? "none is running" : `/jobs lists ${jobs.map((j) => j.number).join(", ")}`;
  if (!job) return { text: n >= 1 && n <= numbered ? `hey: job ${n} has ended: ${running}` : `hey: no job ${n}: ${running}`, ok: false };
  await stop([job.pgid]);
  return { text: `stopped job ${n}: ${jobName(job.command)}`, ok: true };
}
