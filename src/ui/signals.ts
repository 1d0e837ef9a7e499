// How hey ends on a signal (SPEC §6, §24), for the one-shot run and the REPL alike: Ctrl-C
// (SIGINT) cancels the running turn; SIGTERM, SIGHUP and SIGQUIT end the run as Ctrl-C does — the turn is
// cancelled saying why, the tools' process groups are killed, the session is flushed — then hey
// exits 128 + the signal's number. A turn that ignores its cancel is left behind after a grace.
// A signal hey was started with set to be ignored stays ignored, as POSIX programs leave it:
// `nohup hey -p … &` outlives its terminal, and a script's `hey -p a & hey -p b & wait` (whose
// background jobs the shell starts with SIGINT ignored) is not ended by a Ctrl-C meant for the
// script. Linux reads that from /proc; macOS has no /proc, and there hey listens to them all.
import { EXIT } from "../cli.ts";
import { writer } from "./term.ts";
import { holdCommands } from "../tools/run-process.ts";

/** The signals that end a run, and its exit code after each. */
export const SIGNAL_EXIT = { SIGTERM: EXIT.terminated, SIGHUP: EXIT.hangup, SIGQUIT: EXIT.quit } as const;
export type EndSignal = keyof typeof SIGNAL_EXIT;

/** What a run cancelled by a signal says happened (its error, the results of the calls it cut short); Ctrl-C says "interrupted by user". */
export const SIGNAL_REASON = { SIGTERM: "terminated (SIGTERM)", SIGHUP: "the terminal hung up (SIGHUP)", SIGQUIT: "quit (SIGQUIT)" } as const satisfies Record<
  EndSignal,
  string
>;

/** After SIGTERM or SIGHUP, how long the cancelled turn gets to end (tools killed, session flushed) before hey leaves anyway. */
export const SIGNAL_GRACE_MS = 5000;

/** The signals of SIGNAL_EXIT and SIGINT that were ignored when hey started (learnIgnoredSignals). */
let ignored: ReadonlySet<string> = new Set();

/** Learns which signals hey was started with set to be ignored; once, before any listener (Linux only: elsewhere none). */
export async function learnIgnoredSignals(): Promise<void> {
  if (process.platform !== "linux") return; // on Windows a failed Bun.file read can end the process (test/no-rejecting-bun-file.test.ts)
  try {
    ignored = ignoredIn(await Bun.file("/proc/self/status").text());
  } catch {} // no /proc mounted: none known
}

/** Which of SIGHUP, SIGINT, SIGQUIT and SIGTERM the `SigIgn:` mask of a /proc/PID/status names (bit n-1 is signal n). */
export function ignoredIn(status: string): Set<string> {
  const mask = /^SigIgn:\s*([0-9a-f]+)$/im.exec(status)?.[1];
  const bits = mask === undefined ? 0n : BigInt(`0x${mask}`);
  const numbers = { SIGHUP: 1n, SIGINT: 2n, SIGQUIT: 3n, SIGTERM: 15n };
  return new Set(Object.entries(numbers).flatMap(([name, n]) => ((bits >> (n - 1n)) & 1n ? [name] : [])));
}

/**
 * Listens for SIGINT (`interrupt`), SIGTERM and SIGHUP (`end`) until the returned function is
 * called; `keep` names signals whose listener stays (after a hang-up, the SIGHUP that follows
 * must not kill hey by default before the session is closed). A signal ignored when hey started
 * gets no listener: it stays ignored.
 */
export function onSignals(handlers: { interrupt(): void; end(signal: EndSignal): void }): (keep?: readonly EndSignal[]) => void {
  const all: [NodeJS.Signals, () => void][] = [
    ["SIGINT", () => handlers.interrupt()],
    ["SIGTERM", () => handlers.end("SIGTERM")],
    ["SIGHUP", () => handlers.end("SIGHUP")],
    // `kill -QUIT` (raw mode makes Ctrl-\ a key): by default it would leave the terminal raw
    ["SIGQUIT", () => handlers.end("SIGQUIT")],
  ];
  const listeners = all.filter(([name]) => !ignored.has(name));
  for (const [name, listener] of listeners) process.on(name, listener);
  return (keep = []) => {
    for (const [name, listener] of listeners) if (!(keep as readonly string[]).includes(name)) process.off(name, listener);
  };
}

/** Exits with `code` once the grace period has passed (`before` runs first), unless hey has ended by then. */
export function exitAfterGrace(code: number, before: () => void = () => {}): void {
  setTimeout(() => {
    before();
    process.exit(code);
  }, SIGNAL_GRACE_MS).unref();
}

/**
 * Makes an exit 0 that hey did not choose a failure: exit 1, `hey: ` + `why` on stderr, and on
 * stdout what `stdout` makes of `why` (with `--output json`, an `error` and a `done` event). Bun on
 * Windows can let its event loop die while hey still awaits something, and the process then
 * exits 0 mid-run, silently (oven-sh/bun#39787: a failed Bun.file() read), which a script or CI job
 * would take for success. Every way hey ends on purpose calls the returned function first.
 */
export function guardUnfinishedExit(why: string, stdout: (why: string) => string | undefined = () => undefined): () => void {
  let chosen = false;
  process.on("exit", (code) => {
    if (chosen || code !== EXIT.ok) return;
    process.exitCode = EXIT.runtime;
    writer(1).write(stdout(why) ?? "");
    writer(2).write(`hey: ${why}\n`);
  });
  return () => {
    chosen = true;
  };
}

/**
 * Stops hey as a job of the shell, as Ctrl-Z in a cooked terminal would: first the commands hey's
 * bash calls are running (holdCommands: each has a process group of its own, which no signal to
 * hey's reaches), then with `whole` SIGTSTP to hey's whole process group, as vim does (a wrapper
 * script that started hey stops with it, so the shell sees the job stopped), else to hey alone.
 * Returns once continued (`fg`), the commands continued too, or at once when the kernel discarded
 * the stop (a shell without job control: an orphaned process group). The jobs the commands left
 * running and the MCP servers go on, as a shell's background jobs do. hey's own SIGTSTP listeners
 * (onJobControl) are set aside meanwhile: with one, the signal would only call it again. Never throws.
 */
export function stopJob(whole = true): void {
  const listeners = process.listeners("SIGTSTP");
  for (const listener of listeners) process.off("SIGTSTP", listener);
  const continueCommands = holdCommands();
  try {
    process.kill(whole ? 0 : process.pid, "SIGTSTP");
  } catch {}
  continueCommands();
  for (const listener of listeners) process.on("SIGTSTP", listener);
}

/**
 * `off` (what onSignals returns) with, until it is called, a SIGTSTP (Ctrl-Z in `hey -p`'s
 * terminal, which stays cooked; `kill -TSTP`) stopping the commands hey runs along with hey
 * (stopJob). Not hey's whole process group unless hey leads it: a Ctrl-Z at the terminal sends
 * SIGTSTP to every process of the foreground group anyway, while a SIGTSTP a supervisor sends to
 * hey alone must not stop the script that started hey, or the rest of its pipeline (`hey -p … |
 * tee log`). The REPL stops its own way (onJobControl). POSIX only.
 */
export function withCommandsStopping(off: (keep?: readonly EndSignal[]) => void): (keep?: readonly EndSignal[]) => void {
  if (process.platform === "win32") return off; // no job control signals there
  const stop = () => stopJob(leadsGroup());
  process.on("SIGTSTP", stop);
  return (keep) => {
    process.off("SIGTSTP", stop);
    off(keep);
  };
}

/**
 * Whether hey leads its process group (a shell with job control started it as a job): a group
 * whose id is hey's pid exists, and a pid is no group's id but its leader's.
 */
function leadsGroup(): boolean {
  try {
    process.kill(-process.pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM"; // the group exists; one of its processes is another user's
  }
}

/**
 * Until the returned function is called, hey stops and continues as a program that owns the
 * terminal must (vim, less, readline): a SIGTSTP from outside (`kill -TSTP`, Ctrl-Z while a `!`
 * command has the terminal) runs `stop`, which gives the terminal back and calls stopJob; a
 * SIGCONT (`fg`, `kill -CONT`, also after a SIGSTOP, which cannot be caught and leaves the
 * terminal to the shell's settings) runs `continued`, which takes the terminal back and draws
 * again. `stop` and `continued` must not throw.
 */
export function onJobControl(stop: () => void, continued: () => void): () => void {
  if (process.platform === "win32") return () => {}; // no job control signals there
  process.on("SIGTSTP", stop);
  process.on("SIGCONT", continued);
  return () => {
    process.off("SIGTSTP", stop);
    process.off("SIGCONT", continued);
  };
}
