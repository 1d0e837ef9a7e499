// The processes running on this machine, and killing a process with everything below it. A `!`
// command stays in hey's own process group (the terminal's foreground group: it must be, to read
// the terminal), so stopping it cannot signal a group: it signals the command's tree, read from
// /proc on Linux and from ps(1) on other POSIX systems. The bash tool's commands have a group of
// their own; it reads the list to tell a zombie from a running process, and on a timeout or an
// abort to find what the command started outside its group (a `detached` child).
import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { procStat } from "../fs/proc-stat.ts";

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  /** false for a zombie: dead, waiting for its parent (or an init that may never come) to reap it */
  running: boolean;
  /** when it started, as the system tells it: a pid reused since is another process */
  start: string;
}

const POLL_MS = 20;

/**
 * How long a command asked to stop gets to clean up before SIGKILL: a trap removing its temp files,
 * a test runner closing the browser it started. `!COMMAND` gets it from Ctrl-C (the terminal's
 * SIGINT, then SIGTERM), a bash call from the SIGTERM its timeout or Ctrl-C sends.
 */
export const STOP_GRACE_MS = 1500;

/** Every process on the machine; [] when they cannot be listed. Never throws. */
export function listProcesses(): Proc[] {
  return process.platform === "linux" ? fromProc() : fromPs();
}

function fromProc(): Proc[] {
  const all: Proc[] = [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return all;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const fields = procStat(name);
    if (!fields) continue; // gone meanwhile
    all.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), running: !/^[ZX]/.test(fields[0]!), start: fields[19] ?? "" });
  }
  return all;
}

function fromPs(): Proc[] {
  let out: string;
  try {
    out = Bun.spawnSync(["ps", "-A", "-o", "pid=,ppid=,pgid=,stat=,lstart="]).stdout.toString();
  } catch {
    return [];
  }
  return parsePs(out);
}

/** The command line `pid` runs (`python3 -u -m http.server 8000`), its words joined by spaces; undefined when it cannot be read. Never throws. */
export function commandLine(pid: number): string | undefined {
  try {
    const line =
      process.platform === "linux"
        ? readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replaceAll("\0", " ")
        : Bun.spawnSync(["ps", "-o", "args=", "-p", String(pid)])
            .stdout.toString()
            .trim();
    return line === "" ? undefined : line;
  } catch {
    return undefined;
  }
}

/** `ps -A -o pid=,ppid=,pgid=,stat=,lstart=` as processes (lstart, last, holds spaces). */
export function parsePs(out: string): Proc[] {
  return out
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), running: !m[4]!.startsWith("Z"), start: m[5]! }));
}

/** The environment variable that marks every process a bash call started (runProcess sets it; children inherit it). */
export const CALL_MARK = "HEY_CALL";
/** the most processes whose environment is read for one look: those started since the command, most recent first */
const MARKED_READS = 2048;
/** how many of those reads run at once (each holds one of the runtime's I/O threads while it waits) */
const MARKED_AT_ONCE = 16;
/** how long one look waits for them in all: a process in D state (an NFS mount that hangs) never answers, and is left out */
export const MARKED_DEADLINE_MS = 1000;

/**
 * The running processes that carry `CALL_MARK=mark` in the environment they started with, of those
 * started at or after `since` (the command's shell's start): what a command started and then left,
 * a double fork (`(setsid server &)`) re-parented to init, a gpg-agent and its pinentry. Linux only
 * (/proc/PID/environ; only the user's own processes are readable); [] elsewhere: macOS has no
 * other process's environment to read, and ps(1) shows it only in part. Read off the event loop
 * (the terminal stays live), those not read within `deadlineMs` left out. Never rejects.
 */
export async function markedProcesses(
  mark: string,
  since: string,
  all: Proc[] = listProcesses(),
  deadlineMs = MARKED_DEADLINE_MS,
  read: (path: string) => Promise<Uint8Array> = (path) => readFile(path),
): Promise<Proc[]> {
  if (process.platform !== "linux") return [];
  const needle = Buffer.from(`${CALL_MARK}=${mark}\0`);
  const from = Number(since);
  const candidates = all
    .filter((p) => p.running && Number(p.start) >= from)
    .sort((a, b) => Number(b.start) - Number(a.start))
    .slice(0, MARKED_READS);
  const found: Proc[] = [];
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const p = candidates[next++]!;
      try {
        if (Buffer.from(await read(`/proc/${p.pid}/environ`)).includes(needle)) found.push(p);
      } catch {} // gone, or another user's
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
  await Promise.race([Promise.all(Array.from({ length: MARKED_AT_ONCE }, worker)), deadline]);
  clearTimeout(timer);
  next = candidates.length; // the workers still waiting start no more reads
  return [...found];
}

/** `pid` and every running process below it (its children, theirs…), parents first; [] when `pid` does not run. */
export function treeOf(pid: number, all: Proc[] = listProcesses()): Proc[] {
  const tree = all.filter((p) => p.pid === pid && p.running);
  for (let i = 0; i < tree.length; i++) tree.push(...all.filter((p) => p.ppid === tree[i]!.pid && p.running));
  return tree;
}

/**
 * SIGTERM to `pid` and every process below it, then SIGKILL to those of them still running after
 * `graceMs` (at once when none is), with what they started meanwhile; resolves then. The tree is
 * read before the first signal: once `pid` is gone, its orphans are no longer below it. `pid` must
 * not have been reaped yet (its number could be another process's). Windows: `taskkill /T /F`.
 */
export async function killTree(pid: number, graceMs: number): Promise<void> {
  if (process.platform === "win32") return void Bun.spawnSync(["taskkill", "/pid", String(pid), "/T", "/F"]);
  let left = treeOf(pid);
  send(left, "SIGTERM");
  for (let waited = 0; waited < graceMs && (left = stillRunning(left)).length > 0; waited += POLL_MS) await Bun.sleep(POLL_MS);
  const all = listProcesses();
  send(
    stillRunning(left, all).flatMap((p) => treeOf(p.pid, all)),
    "SIGKILL",
  );
}

/** SIGKILL to `pid` and every process below it, now: for when hey exits. `pid` as for killTree. */
export function killTreeNow(pid: number): void {
  if (process.platform === "win32") return void Bun.spawnSync(["taskkill", "/pid", String(pid), "/T", "/F"]);
  send(treeOf(pid), "SIGKILL");
}

/** Those of `procs` that still run, the same processes (not a reused pid). */
export function stillRunning(procs: Proc[], all: Proc[] = listProcesses()): Proc[] {
  const now = new Map(all.map((p) => [p.pid, p]));
  return procs.filter((p) => {
    const seen = now.get(p.pid);
    return seen?.running === true && seen.start === p.start;
  });
}

/** `signal` to each of `procs` still there. */
export function send(procs: Proc[], signal: NodeJS.Signals): void {
  for (const p of procs)
    try {
      process.kill(p.pid, signal);
    } catch {} // ESRCH: gone meanwhile
}
