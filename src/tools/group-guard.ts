// A bash call's process group ends with hey, however hey ends — `kill -9` included, when hey runs no
// code at all — and so does a local MCP server's (mcp/child.ts), with what it started there (a
// language server, a browser), stdin's end ignored or not. Each command starts under a small guard: a `sh` in the command's own process group
// that reads a pipe only hey writes to, and kills its group (`kill -KILL 0`) when the read ends. It
// ends when no writer is left: when hey's process ends, for any reason, the kernel closes hey's
// end. (Linux's PR_SET_PDEATHSIG would cover only the shell, not a job it left running, and
// Bun.spawn has no hook to set it in the child.) One pipe serves every guard of the run: a FIFO
// made and unlinked at the first guarded call, hey holding it open to write (no child inherits
// that) and giving each command its read end as stdin (a server, whose stdin is its own, as fd 3).
// Being in the group, the guard also keeps
// the group's number from being reused while it waits, so its kill never reaches another group.
// Once a call's command has exited and only the guard is left in its group, hey ends the guard:
// no idle guard per call; a job left running (`server &`) keeps its guard until it ends or hey
// does (a server's group, guard and all, hey ends when it closes the server or the server exits:
// mcp/stdio.ts). POSIX only (Windows: job-object.ts). The FIFO is made in the first directory that takes it
// ($TMPDIR, $XDG_RUNTIME_DIR, /tmp, /var/tmp, /dev/shm: a TMPDIR that names no directory loses
// nothing); where none does, commands and servers run unguarded, and the user is told so once (at a bash call).
import { constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine, listProcesses, markedProcesses, type Proc, send, STOP_GRACE_MS, stillRunning, treeOf } from "./process-tree.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

/**
 * `sh -c WATCH hey PROGRAM ARGS…`, the pipe on fd 3: the guard starts in the background with the
 * pipe, no output of its own (it must not hold the output pipes open), then the shell becomes the
 * program (`exec`: same pid, same exit status), fd 3 closed. The guard starts from a subshell that
 * ends at once, so it is no child of the program: one that waits until no child is left
 * (`while (wait(NULL) > 0);`, Perl's `1 while wait() != -1`) would wait on the guard for ever.
 */
const WATCH = `(/bin/sh -c 'read line || kill -KILL 0' hey-guard <&3 >/dev/null 2>&1 &)
exec 3<&- "$@"`;
/** WATCH for a bash command, the pipe given as stdin: it moves to fd 3, and the command's stdin is /dev/null, as unguarded. */
const GUARD = `exec 3<&0 </dev/null
${WATCH}`;

/** How long after a call ends its group is first looked at (calls in a row share one look), and again while a job runs on. */
const SWEEP_MS = 500;
const RESWEEP_MS = 10_000;
/** How often a stopping job is looked at during its grace. */
const STOP_POLL_MS = 20;

/** The pipe's read end (the write end is only ever hey's); null once it could not be made, undefined until it is. */
let reader: number | null | undefined;
let making: Promise<number | null> | undefined;
/** Why no directory took the pipe, until unguardedNotice has said it. */
let unguarded: string | undefined;

/** Where the pipe may be made, in order: the first directory that takes it is used. */
export function pipeDirs(env: Record<string, string | undefined>, temp: string): string[] {
  return [...new Set([temp, env.XDG_RUNTIME_DIR, "/tmp", "/var/tmp", "/dev/shm"].filter((d): d is string => Boolean(d)))];
}

/** The pipe's read end, made at the first call; null where it cannot be. Never rejects. */
function pipeReader(): Promise<number | null> {
  making ??= (async () => {
    if (process.platform === "win32") return (reader = null);
    const made = await makePipe(pipeDirs(process.env, tmpdir()));
    if (typeof made === "number") return (reader = made);
    unguarded = `commands run unguarded: a job one leaves running may outlive hey if hey is killed (kill -9), as no directory took the guard's pipe: ${made}; set TMPDIR to a writable directory`;
    return (reader = null);
  })();
  return making;
}

/** The pipe's read end, made in the first of `dirs` that takes it; else what each said, `DIR (ERROR), …`. */
export async function makePipe(dirs: string[]): Promise<number | string> {
  const failed: string[] = [];
  for (const dir of dirs) {
    const made = await pipeIn(dir);
    if (typeof made === "number") return made;
    failed.push(`${dir} (${made})`);
  }
  return failed.join(", ");
}

/** The pipe's read end, made in a directory of its own under `dir` (removed at once: the open ends keep it), or why it could not be. */
async function pipeIn(dir: string): Promise<number | string> {
  let made: string | undefined;
  try {
    made = mkdtempSync(join(dir, "hey-guard-"));
    const path = join(made, "pipe");
    // not spawnSync: that held hey's start up 3 to 15 ms (a loaded machine) when the first thing guarded is an MCP server
    const fifo = Bun.spawn(["mkfifo", "-m", "600", path], { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    const [code, said] = await Promise.all([fifo.exited, new Response(fifo.stderr).text()]);
    if (code !== 0) return said.trim().replace(/^mkfifo: /, "") || `mkfifo exited ${code}`;
    openSync(path, constants.O_RDWR); // hey's end, never written to, never closed: open read-write, it does not wait for a reader
    return openSync(path, constants.O_RDONLY);
  } catch (e) {
    return errnoCode(e) ?? errorText(e);
  } finally {
    if (made) rmSync(made, { recursive: true, force: true });
  }
}

/** Once a run, after the first guarded call found no place for the pipe: the line that says commands run unguarded, and why; else undefined. */
export function unguardedNotice(): string | undefined {
  const line = unguarded;
  unguarded = undefined;
  return line;
}

/**
 * How to spawn `argv` guarded: the argv and its stdin; unguarded (stdin closed) where there is no
 * pipe, and when its program is not found on `path` (from `cwd`; spawning it fails then, saying so).
 */
export async function guarded(argv: string[], path: string | undefined, cwd: string): Promise<{ argv: string[]; stdin: number | "ignore" }> {
  const fd = await pipeReader();
  const found = fd !== null && Bun.which(argv[0]!, { PATH: path ?? "", cwd }) !== null;
  return fd === null || !found ? { argv, stdin: "ignore" } : { argv: ["/bin/sh", "-c", GUARD, "hey", ...argv], stdin: fd };
}

/**
 * How to spawn `argv` guarded when its stdin is its own (an MCP server speaks on it): the argv and
 * the pipe to give it as fd 3; the argv alone (unguarded) where there is no pipe. `argv[0]` is a
 * program found already: a guarded one that cannot run is the shell's exit 126 or 127, no spawn error.
 */
export async function guardedKeepingStdin(argv: string[]): Promise<{ argv: string[]; pipe?: number }> {
  const fd = await pipeReader();
  return fd === null ? { argv } : { argv: ["/bin/sh", "-c", WATCH, "hey", ...argv], pipe: fd };
}

/** A job a command left running: what hey knows of it to name it and stop it. */
export interface HeldJob {
  /** the session the command ran for, whose the job is */
  owner?: string;
  /** the command the model ran (a version manager's shim would name `bash …/pyenv exec python3`) */
  command?: string;
  /** the call's CALL_MARK value and its shell's start: what the job started outside its group is found by them (process-tree.ts markedProcesses) */
  mark?: string;
  since?: string;
  /** where what it prints from now on goes, when it holds its output open */
  log?: string;
}

/**
 * Process groups whose command exited while more of the group ran, to be looked at again, and what
 * is known of each; when each was left, and its number (0 until jobsLeft first finds it running on): `/jobs stop 2`
 * is the job listed as 2 even after job 1 ended, so a number is given once in a run and stays its job's until that ends.
 */
const held = new Map<number, HeldJob & { left: number; number: number }>();
let numbered = 0;
let sweep: ReturnType<typeof setTimeout> | undefined;

/**
 * After a guarded command of group `pgid` exited (and was not killed): its guard is ended once
 * nothing else of the group runs; until then it is a job the command left (`job`: what is known of it).
 */
export function release(pgid: number, job: HeldJob = {}): void {
  if (reader === null || reader === undefined) return;
  held.set(pgid, { ...job, left: Date.now(), number: 0 }); // numbered once seen running on (jobsLeft): most commands leave nothing
  schedule(SWEEP_MS);
}

/** The file a held group's later output goes to, once it is known. */
export function heldLog(pgid: number, log: string): void {
  const job = held.get(pgid);
  if (job) job.log = log;
}

const isGuard = (pid: number) => commandLine(pid)?.endsWith(" hey-guard") === true;

/** How the command line of a fork of a guarded command's shell starts until it execs: WATCH's subshells, the guard on its way (the shell itself became the command). */
const GUARD_FORK = `/bin/sh -c ${GUARD.split("\n")[0]}`;

/**
 * Whether a process of a guarded command's group, of command line `line`, may hold the command's
 * output open: not the guard (its output is /dev/null), nor a fork of the shell on its way to become
 * it (it holds the pipes only until it runs its redirections, which on a loaded machine can be a
 * while after the command exited), nor a process whose line cannot be read (gone, or ending). Pure.
 */
export const mayHoldOutput = (line: string | undefined): boolean => line !== undefined && !line.endsWith(" hey-guard") && !line.startsWith(GUARD_FORK);

/**
 * Whether group `pgid`, its command's shell gone, still runs a process that may hold the command's
 * output open (mayHoldOutput): a job the command left (`server &`). True when the processes cannot
 * be listed. POSIX; never throws.
 */
export function jobInGroup(pgid: number, all: Proc[] = listProcesses()): boolean {
  return all.length === 0 || all.some((p) => p.pgid === pgid && p.running && mayHoldOutput(commandLine(p.pid)));
}

/** The guards running in group `pgid` (one, for a guarded command; none once it ended). Never throws. */
export function guardsOf(pgid: number): number[] {
  return listProcesses()
    .filter((p) => p.pgid === pgid && p.running && isGuard(p.pid))
    .map((p) => p.pid);
}

function schedule(ms: number): void {
  if (sweep) return;
  sweep = setTimeout(() => {
    sweep = undefined;
    const all = listProcesses();
    const members = new Map<number, Proc[]>();
    for (const p of all) if (p.running && held.has(p.pgid)) members.set(p.pgid, [...(members.get(p.pgid) ?? []), p]);
    if (all.length > 0)
      for (const pgid of held.keys()) {
        const left = members.get(pgid) ?? [];
        if (left.length > 1) continue;
        held.delete(pgid);
        // the guard is never its group's leader (the command's shell is): a lone leader is a new group
        // that took the number of one the command ended itself (`trap 'kill 0' EXIT`), not hey's to end
        if (left.length === 1 && left[0]!.pid !== pgid)
          try {
            process.kill(left[0]!.pid, "SIGKILL");
          } catch {} // gone meanwhile
      }
    if (held.size > 0) schedule(RESWEEP_MS);
  }, ms);
  sweep.unref(); // hey exits without waiting for it: the guards then end what is left
}

/** A job left running, as `/jobs` and hey's exit name it. */
export interface RunningJob {
  /** its number in this run, as `/jobs` lists it and `/jobs stop N` takes it; never another job's */
  number: number;
  /** its process group (what stopJobs takes) and its first process */
  pgid: number;
  pid: number;
  /** the command the model ran; else the job's own command line */
  command: string;
  owner?: string;
  /** when its command returned (ms since the epoch) */
  left: number;
  log?: string;
}

/**
 * The jobs the commands left running (`server &`) that still run, oldest first: what `/jobs` lists
 * and what ends with hey. A group whose only process left is its guard is none. POSIX only
 * (Windows' job object ends them unlisted); never throws.
 */
export function jobsLeft(): RunningJob[] {
  if (reader === null || reader === undefined || held.size === 0) return [];
  const running = listProcesses().filter((p) => p.running && held.has(p.pgid));
  const jobs: RunningJob[] = [];
  for (const [pgid, job] of held) {
    const members = running.filter((p) => p.pgid === pgid);
    const inGroup = new Set(members.map((p) => p.pid));
    const first = members.filter((p) => !inGroup.has(p.ppid)).find((p) => !isGuard(p.pid));
    if (!first) continue;
    const command = job.command ?? commandLine(first.pid);
    if (command === undefined) continue;
    if (job.number === 0) job.number = ++numbered;
    jobs.push({
      number: job.number,
      pgid,
      pid: first.pid,
      command,
      left: job.left,
      ...(job.owner !== undefined ? { owner: job.owner } : {}),
      ...(job.log ? { log: job.log } : {}),
    });
  }
  return jobs;
}

/** The highest job number given in this run (0: none): a lower one `jobsLeft` lacks has ended. */
export const jobsNumbered = (): number => numbered;

/**
 * Stops the held jobs of `pgids` (all by default) as a timeout stops a command: SIGTERM to each
 * process of the group but its guard (which stays, to end the group should hey be killed meanwhile)
 * and to what the call started outside it (a `start_new_session` browser, found by its mark), then
 * SIGKILL to what still runs after STOP_GRACE_MS — every job at once, so N jobs wait one grace, not N.
 * A trap on TERM (removing a pid file, `docker compose` stopping its containers) runs. Never throws.
 */
export async function stopJobs(pgids: number[] = [...held.keys()]): Promise<void> {
  await Promise.all(pgids.map(stopHeld));
}

async function stopHeld(pgid: number): Promise<void> {
  const job = held.get(pgid);
  if (!job) return;
  const all = listProcesses();
  const marked = job.mark && job.since !== undefined ? await markedProcesses(job.mark, job.since, all) : [];
  let outside = marked.filter((p) => p.pgid !== pgid);
  const guards = new Set(all.filter((p) => p.pgid === pgid && isGuard(p.pid)).map((p) => p.pid));
  const members = (now: Proc[]) => now.filter((p) => p.pgid === pgid && p.running && !guards.has(p.pid));
  send(members(all), "SIGTERM");
  send(outside, "SIGTERM");
  for (let waited = 0; waited < STOP_GRACE_MS; waited += STOP_POLL_MS) {
    const now = listProcesses();
    outside = stillRunning(outside, now);
    if (outside.length === 0 && members(now).length === 0) break;
    await Bun.sleep(STOP_POLL_MS);
  }
  const now = listProcesses();
  send(
    stillRunning(outside, now).flatMap((p) => treeOf(p.pid, now)),
    "SIGKILL",
  );
  // the guard holds the group's number while it waits: while any of it runs, the number is still this group's
  if (now.some((p) => p.pgid === pgid && p.running))
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {} // gone meanwhile
  held.delete(pgid);
}
