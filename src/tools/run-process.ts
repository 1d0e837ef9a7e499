// Running one command for the bash tool and its external output filter (SPEC §7): a fresh process
// group, stdin closed or fed, stdout and stderr captured in bounded memory (capture.ts); a timeout
// or an abort kills the whole group, and what of the command's process tree left it. A job the
// command leaves in the background keeps its output pipes: what it prints later goes to a file
// (job-log.ts).
import { capture, drained, type Captured } from "./capture.ts";
import { guardsOf, guarded, heldLog, jobInGroup, release } from "./group-guard.ts";
import { hostJob } from "./job-object.ts";
import { openJobLog, type JobLog } from "./job-log.ts";
import { CALL_MARK, listProcesses, markedProcesses, type Proc, send, STOP_GRACE_MS, stillRunning, treeOf } from "./process-tree.ts";
import { errorText } from "../kernel/errors.ts";
import { procStat } from "../fs/proc-stat.ts";

const KILL_POLL_MS = 20;
/**
 * After SIGKILL the group's processes take a moment to be gone (a 1-in-20 test run still saw a
 * dying `sleep`); the call waits up to this long so that when it returns nothing of the group runs.
 */
const KILL_WAIT_MS = 1000;

/** A command that ran: its two streams as captured, how it ended. */
export interface Finished {
  stdout: Captured;
  stderr: Captured;
  exitCode: number;
  /** the signal that ended the shell, if one did */
  signal?: string;
  ended: "exit" | "timeout" | "abort";
  /** where what a job left running prints from now on goes, when one holds the output open */
  jobLog?: JobLog;
}

export interface RunOptions {
  cwd: string;
  /** the shell's command line is written out already (ShellChoice.verbatim: cmd.exe) */
  verbatim?: boolean;
  env: Record<string, string | undefined> | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  input?: ReadableStream<Uint8Array>;
  /** the group ends with hey, however hey ends (group-guard.ts) */
  guard?: boolean;
  /** the session the command runs for: a job it leaves running is that session's (group-guard.ts jobsLeft) */
  owner?: string;
  /** the command as the model wrote it: what names a job it leaves running (`/jobs`, hey's exit) */
  label?: string;
  /** the file a stream ("stdout", "stderr") spills to when it outgrows memory */
  spill?: (stream: "stdout" | "stderr") => () => string;
  /** told of each chunk of stdout and stderr as it arrives, and which it is */
  listen?: (chunk: Uint8Array, stream: "stdout" | "stderr") => void;
  /** told the command's process id (its group's, when it has one of its own) once it started */
  started?: (pid: number) => void;
  /** the file for what a job the command left running prints after it exited; without it, the pipes are closed then */
  jobLog?: () => string;
  /** what that file hides of what the job prints, as the call's result does (secrets hey knows); none: kept as printed */
  hide?: (text: string) => string;
  /** what turns the shell's stderr into the text it stands for before it is captured (PowerShell's CLIXML: clixml.ts); none: as written */
  stderrText?: (stream: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>;
}

/**
 * Runs argv in its own process group (so a timeout or abort can kill the whole tree), stdin
 * closed or fed `input`. Returns `{error}` only when it could not start. Never throws.
 */
export async function runProcess(argv: string[], opts: RunOptions): Promise<Finished | { error: string }> {
  let proc: Bun.Subprocess<"ignore" | number | ReadableStream<Uint8Array>, "pipe", "pipe">;
  const mark = crypto.randomUUID();
  try {
    // every process of the command carries the mark (CALL_MARK), found by it when the command is stopped
    const env = opts.guard ? { ...(opts.env ?? process.env), [CALL_MARK]: mark } : (opts.env ?? process.env);
    const run = opts.guard ? await guarded(argv, env.PATH, opts.cwd) : { argv, stdin: "ignore" as const };
    const joinJob = opts.guard ? await hostJob() : undefined; // Windows: job-object.ts
    proc = Bun.spawn(run.argv, {
      cwd: opts.cwd,
      env,
      // Bun does the writing, and a filter that stops reading early (head -n 3) is fine; a guard reads its pipe
      stdin: opts.input ?? run.stdin,
      stdout: "pipe",
      stderr: "pipe",
      // POSIX: setsid(), so the group can be killed. On Windows it would give the child its own
      // console; taskkill /T finds the tree there instead.
      detached: process.platform !== "win32",
      windowsHide: true,
      windowsVerbatimArguments: opts.verbatim === true,
    });
    joinJob?.(proc.pid);
  } catch (e) {
    return { error: errorText(e) };
  }
  opts.started?.(proc.pid);
  // read now, while the shell runs: what the command starts later carries a start no earlier (markedProcesses)
  const since = opts.guard && process.platform === "linux" ? procStat(proc.pid)?.[19] : undefined;
  const { listen } = opts;
  const stdout = capture(proc.stdout, opts.spill?.("stdout"), undefined, listen && ((chunk) => listen(chunk, "stdout")));
  const stderr = capture(
    opts.stderrText ? opts.stderrText(proc.stderr) : proc.stderr,
    opts.spill?.("stderr"),
    undefined,
    listen && ((chunk) => listen(chunk, "stderr")),
  );

  let ended: Finished["ended"] = "exit";
  let stopping: Promise<void> | undefined;
  const stop = (why: "timeout" | "abort") => {
    if (stopping) return;
    ended = why;
    stopping = killGroup(proc, opts.guard ? mark : undefined);
  };
  const onAbort = () => stop("abort");
  const timer = pausableTimer(() => stop("timeout"), opts.timeoutMs);
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener("abort", onAbort, { once: true });
  const running: Running = { pgid: proc.pid, guarded: opts.guard === true, timer };
  if (process.platform !== "win32") commands.add(running);

  const exitCode = await proc.exited;
  commands.delete(running);
  timer.clear();
  opts.signal.removeEventListener("abort", onAbort);
  await stopping;
  if (opts.guard && !stopping)
    release(proc.pid, {
      ...(opts.owner !== undefined ? { owner: opts.owner } : {}),
      ...(opts.label !== undefined ? { command: opts.label } : {}),
      mark,
      ...(since !== undefined ? { since } : {}),
    });
  // the shell is gone; a grandchild (`server &`) may hold the pipes
  await drained([stdout, stderr], () => mayStillHold(proc.pid, opts.guard ? mark : undefined, since));
  let log: JobLog | undefined;
  const later = opts.jobLog && (() => (log ??= openJobLog(opts.jobLog!, opts.hide ? { hide: opts.hide } : {})).writer());
  const [out, err] = await Promise.all([stdout.finish(later), stderr.finish(later)]);
  if (log && !log.error) heldLog(proc.pid, log.path);
  const signal = typeof proc.signalCode === "string" ? proc.signalCode : undefined;
  return { stdout: out, stderr: err, exitCode, signal, ended, ...(log ? { jobLog: log } : {}) };
}

/**
 * Whether a process may still hold the output pipes of the command of group `pgid`, its shell gone:
 * a job in the group (`server &`), or on Linux one outside it that carries the call's `mark` (a
 * double fork, `(setsid server &)`; processes started at or after `since`). Windows: always (the
 * job object is not asked). Never rejects.
 */
async function mayStillHold(pgid: number, mark: string | undefined, since: string | undefined): Promise<boolean> {
  if (process.platform === "win32") return true;
  const all = listProcesses();
  if (jobInGroup(pgid, all)) return true;
  if (mark === undefined || since === undefined) return false;
  return (await markedProcesses(mark, since, all)).some((p) => p.pgid !== pgid);
}

/** A command running now: its group, and the timer of its timeout. */
interface Running {
  pgid: number;
  guarded: boolean;
  timer: PausableTimer;
}

/** The commands running now (POSIX): what holdCommands stops while hey is stopped. */
const commands = new Set<Running>();

/**
 * Stops every command running now while hey is stopped (Ctrl-Z), as a shell stops the whole
 * pipeline of its foreground job, and returns what continues them (at `fg`). SIGSTOP to each
 * command's group: its own session makes it an orphaned group, where the kernel discards SIGTSTP.
 * The group's guard (group-guard.ts) is continued at once: stopped, it would not end the group
 * should hey be killed (kill -9) while stopped. The time stopped does not count towards a
 * command's timeout: a command stopped for ten minutes is not killed the moment it continues.
 * The jobs the commands left running (`server &`) are not stopped, as a shell's background jobs
 * are not. POSIX only; never throws.
 */
export function holdCommands(): () => void {
  const held = [...commands];
  for (const command of held) {
    command.timer.pause();
    signalGroup(command.pgid, "SIGSTOP");
    if (command.guarded)
      for (const pid of guardsOf(command.pgid))
        try {
          process.kill(pid, "SIGCONT");
        } catch {} // gone meanwhile
  }
  return () => {
    for (const command of held) {
      signalGroup(command.pgid, "SIGCONT");
      command.timer.resume();
    }
  };
}

const signalGroup = (pgid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pgid, signal);
  } catch {} // ESRCH: the group has ended
};

/** A timeout that can be held: paused, the time until it fires stays what it was. */
export interface PausableTimer {
  pause(): void;
  resume(): void;
  clear(): void;
}

/** Calls `fire` once `ms` have passed, not counting the time it was paused. `now` is the clock (ms). */
export function pausableTimer(fire: () => void, ms: number, now: () => number = performance.now.bind(performance)): PausableTimer {
  let left = ms;
  let since = now();
  let cleared = false;
  const go = () => {
    cleared = true;
    fire();
  };
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(go, left);
  return {
    pause() {
      if (timer === undefined || cleared) return;
      clearTimeout(timer);
      timer = undefined;
      left = Math.max(0, left - (now() - since));
    },
    resume() {
      if (timer !== undefined || cleared) return;
      since = now();
      timer = setTimeout(go, left);
    },
    clear() {
      cleared = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * SIGTERM to the whole group and to what the command started outside it (a test runner's
 * `detached` browser; on Linux also what carries the command's `mark` though no longer below it: a
 * double fork, `(setsid server &)`), then SIGKILL to what of them still runs after STOP_GRACE_MS (at once when
 * nothing does); returns once they are gone (or KILL_WAIT_MS).
 */
async function killGroup(proc: Bun.Subprocess, mark: string | undefined): Promise<void> {
  const signal = (sig: NodeJS.Signals | 0): boolean => {
    try {
      if (process.platform === "win32") {
        if (sig !== 0) Bun.spawnSync(["taskkill", "/pid", String(proc.pid), "/T", "/F"]);
        return sig === 0 ? proc.exitCode === null : true;
      }
      process.kill(-proc.pid, sig);
      return true;
    } catch {
      return false; // ESRCH: no process left in the group
    }
  };
  // read before the first signal: once its parent is gone, a process is no longer below the shell
  let outside: Proc[] = process.platform === "win32" ? [] : await outsideGroup(proc.pid, mark);
  const running = () => signal(0) && (process.platform !== "linux" || runsOnLinux(proc.pid));
  const left = () => (outside = outside.length > 0 ? stillRunning(outside) : outside).length > 0 || running();
  signal("SIGTERM");
  send(outside, "SIGTERM");
  for (let waited = 0; waited < STOP_GRACE_MS && left(); waited += KILL_POLL_MS) await Bun.sleep(KILL_POLL_MS);
  if (outside.length > 0) {
    const all = listProcesses();
    send(
      stillRunning(outside, all).flatMap((p) => treeOf(p.pid, all)),
      "SIGKILL",
    );
  }
  if (!signal("SIGKILL")) return;
  for (let waited = 0; waited < KILL_WAIT_MS && running(); waited += KILL_POLL_MS) await Bun.sleep(KILL_POLL_MS);
}

/** What of `pid`'s process tree left its group, and (Linux) what carries `mark` outside it, wherever it is now. */
async function outsideGroup(pid: number, mark: string | undefined): Promise<Proc[]> {
  const all = listProcesses();
  const below = treeOf(pid, all).filter((p) => p.pgid !== pid);
  const shell = all.find((p) => p.pid === pid);
  const read = mark && shell ? await markedProcesses(mark, shell.start, all) : [];
  const marked = read.filter((p) => p.pgid !== pid && !below.some((b) => b.pid === p.pid));
  return [...below, ...marked];
}

/**
 * Whether a process of group `pgid` still runs, zombies aside: where no init reaps orphans (some
 * containers), a killed grandchild stays a zombie and `kill(-pgid, 0)` keeps succeeding.
 */
const runsOnLinux = (pgid: number): boolean => listProcesses().some((p) => p.pgid === pgid && p.running);
