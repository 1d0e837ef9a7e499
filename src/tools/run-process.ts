// Running one command for the bash tool and its external output filter (SPEC §7): a fresh process
// group, stdin closed or fed, stdout and stderr captured in bounded memory (capture.ts); a timeout
// or an abort kills the whole group.
import { capture, drained, type Captured } from "./capture.ts";
import { guarded, release } from "./group-guard.ts";
import { hostJob } from "./job-object.ts";
import { listProcesses } from "./process-tree.ts";
import { errorText } from "../kernel/errors.ts";

/** SIGTERM first so test runners can clean up; the group gets SIGKILL after this. */
const KILL_GRACE_MS = 200;
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
  /** the file a stream ("stdout", "stderr") spills to when it outgrows memory */
  spill?: (stream: "stdout" | "stderr") => () => string;
  /** told of each chunk of stdout and stderr as it arrives */
  listen?: (chunk: Uint8Array) => void;
}

/**
 * Runs argv in its own process group (so a timeout or abort can kill the whole tree), stdin
 * closed or fed `input`. Returns `{error}` only when it could not start. Never throws.
 */
export async function runProcess(argv: string[], opts: RunOptions): Promise<Finished | { error: string }> {
  let proc: Bun.Subprocess<"ignore" | number | ReadableStream<Uint8Array>, "pipe", "pipe">;
  try {
    const env = opts.env ?? process.env;
    const run = opts.guard ? guarded(argv, env.PATH, opts.cwd) : { argv, stdin: "ignore" as const };
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
  const stdout = capture(proc.stdout, opts.spill?.("stdout"), undefined, opts.listen);
  const stderr = capture(proc.stderr, opts.spill?.("stderr"), undefined, opts.listen);

  let ended: Finished["ended"] = "exit";
  let stopping: Promise<void> | undefined;
  const stop = (why: "timeout" | "abort") => {
    if (stopping) return;
    ended = why;
    stopping = killGroup(proc);
  };
  const onAbort = () => stop("abort");
  const timer = setTimeout(() => stop("timeout"), opts.timeoutMs);
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener("abort", onAbort, { once: true });

  const exitCode = await proc.exited;
  clearTimeout(timer);
  opts.signal.removeEventListener("abort", onAbort);
  await stopping;
  if (opts.guard && !stopping) release(proc.pid);
  await drained([stdout, stderr]); // the shell is gone; a grandchild (`server &`) may hold the pipes
  const [out, err] = await Promise.all([stdout.finish(), stderr.finish()]);
  return { stdout: out, stderr: err, exitCode, signal: typeof proc.signalCode === "string" ? proc.signalCode : undefined, ended };
}

/** SIGTERM to the whole group, then SIGKILL to it once it is empty or KILL_GRACE_MS have passed; returns once it is gone (or KILL_WAIT_MS). */
async function killGroup(proc: Bun.Subprocess): Promise<void> {
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
  signal("SIGTERM");
  for (let waited = 0; waited < KILL_GRACE_MS && signal(0); waited += KILL_POLL_MS) await Bun.sleep(KILL_POLL_MS);
  if (!signal("SIGKILL")) return;
  const running = () => signal(0) && (process.platform !== "linux" || runsOnLinux(proc.pid));
  for (let waited = 0; waited < KILL_WAIT_MS && running(); waited += KILL_POLL_MS) await Bun.sleep(KILL_POLL_MS);
}

/**
 * Whether a process of group `pgid` still runs, zombies aside: where no init reaps orphans (some
 * containers), a killed grandchild stays a zombie and `kill(-pgid, 0)` keeps succeeding.
 */
const runsOnLinux = (pgid: number): boolean => listProcesses().some((p) => p.pgid === pgid && p.running);
