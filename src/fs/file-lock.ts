// Locks between hey processes: `<file>.lock`, created exclusively (a link, which fails when it
// exists, on Windows too), holds the holder's pid, host and, on Linux, the boot's id, the
// process's start time (a lock from before a reboot is stale, whatever process has its pid now)
// and its PID namespace: a pid means nothing in another one (two containers or `unshare -p`
// sandboxes sharing a HOME and a hostname, each hey pid 1), so such a lock is held, as another host's. A lock whose process is gone (a crash, a kill -9) is stale and
// taken over. sessions/lock.ts holds a session's for a whole run;
// withFileLock holds one around a read-modify-write of a record several heys share (the approvals
// record, trust.json, `.hey/task.md`), so no hey's update is written over by another's.
import {
  closeSync,
  constants,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { errnoCode } from "../kernel/errors.ts";
import { checkOwnFile } from "./own-files.ts";
import { procStat } from "./proc-stat.ts";

/** A shared file stayed locked by another live hey for longer than the wait allows. */
export class FileLockedError extends Error {
  override name = "FileLockedError";
}

/**
 * How long withFileLock waits for another hey's lock: a read-modify-write takes milliseconds, so a
 * lock held this long belongs to a hey that is stopped (Ctrl-Z) or hung, and waiting on gains nothing.
 */
export const LOCK_WAIT_MS = 5000;
/** Between two tries: short, as a holder is done in milliseconds; varied, so waiters do not wake together. */
const POLL_MS = [5, 25] as const;
/**
 * How often a hey touches the locks it holds for a whole run (a session's): a hey in another PID
 * namespace cannot see its process, only that the lock's time moves.
 */
export const LOCK_REFRESH_MS = 15_000;
/** A lock from another PID namespace untouched this long (four refreshes missed) is stale: its hey is gone (its container stopped or restarted). */
export const LOCK_STALE_MS = 4 * LOCK_REFRESH_MS;
/** How many times a stale lock is taken over before giving up: each try lost means another hey took it first. */
const TAKEOVER_TRIES = 3;

/**
 * Makes `lock` this process's. Returns undefined when it did; else who holds it ("pid N", "pid N
 * on HOST", "pid N in another container or sandbox", or that it cannot be read: held, better refused than interleaved). A stale lock is
 * taken over. Throws the system error (ENOENT when its directory is missing) when it cannot be made.
 */
export function tryLock(lock: string): string | undefined {
  for (let attempt = 0; ; attempt++) {
    try {
      makeLock(lock);
      return undefined;
    } catch (e) {
      if (errnoCode(e) !== "EEXIST" || attempt > TAKEOVER_TRIES) throw e;
      const seen = readLock(lock);
      const owner = seen === null ? `its lock ${lock} cannot be read` : seen === undefined ? undefined : lockOwner(lock, seen);
      if (owner) return owner;
      if (seen !== null) removeStale(lock, seen);
    }
  }
}

/**
 * Creates `lock` whole: written beside it, then linked in place (link fails with EEXIST when it
 * exists), so no other hey ever reads it empty and takes it for one torn by a crash. Where the file
 * system has no hard links (FAT, exFAT, some network mounts) it is created exclusively and written.
 */
function makeLock(lock: string): void {
  const made = `${lock}.new-${process.pid}`; // left by a kill between the write and the link: sessions/leftovers.ts, sweepDeadCopies
  try {
    writeLock(made, constants.O_TRUNC);
    linkSync(made, lock);
  } catch (e) {
    if (!NO_LINKS.has(errnoCode(e) ?? "")) throw e;
    writeLock(lock, constants.O_EXCL);
  } finally {
    removeQuietly(made); // a full disk, a lock already there: nothing left behind
  }
}

/** What link says on a file system without hard links. */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

function writeLock(path: string, flag: number): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | flag | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, lockText());
  } catch (e) {
    closeSync(fd);
    removeQuietly(path); // a full disk: no empty lock left behind
    throw e;
  }
  closeSync(fd);
}

/**
 * Runs `update` holding `<file>.lock` (made beside `file`, its directory created — 0700 with
 * `private` — never through a link), so that what it reads of `file` is still there when it
 * writes it. Waits for another hey's lock up to `waitMs`, then throws FileLockedError naming the
 * file and the holder; throws OwnFileError for a link, the system error when no lock can be made.
 * The lock is removed when `update` settles, whatever it throws, and at the latest at exit.
 */
export async function withFileLock<T>(file: string, update: () => Promise<T>, opts: { private?: boolean; waitMs?: number } = {}): Promise<T> {
  const lock = `${file}.lock`;
  checkOwnFile(lock);
  // this process's own updates of the file take turns (the lock file cannot tell them apart)
  const before = turns.get(lock) ?? Promise.resolve();
  let done = () => {};
  const mine = new Promise<void>((resolve) => (done = resolve));
  const turn = before.then(() => mine);
  turns.set(lock, turn);
  await before;
  try {
    return await locked(file, lock, update, opts);
  } finally {
    done();
    if (turns.get(lock) === turn) turns.delete(lock);
  }
}

/** The updates waiting for, or holding, each lock in this process: the last one's turn. */
const turns = new Map<string, Promise<void>>();

async function locked<T>(file: string, lock: string, update: () => Promise<T>, opts: { private?: boolean; waitMs?: number }): Promise<T> {
  const until = Date.now() + (opts.waitMs ?? LOCK_WAIT_MS);
  for (;;) {
    let owner: string | undefined;
    try {
      owner = tryLock(lock);
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
      mkdirSync(dirname(lock), { recursive: true, ...(opts.private ? { mode: 0o700 } : {}) });
      continue;
    }
    if (owner === undefined) break;
    if (Date.now() >= until)
      throw new FileLockedError(
        `${file} is being written by another hey (${owner}) that has not finished in ${Math.ceil((opts.waitMs ?? LOCK_WAIT_MS) / 1000)} s; try again once it has — if no other hey is running, delete ${lock}`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS[0] + Math.random() * (POLL_MS[1] - POLL_MS[0])));
  }
  const mine = lockText();
  held.add(lock);
  if (!hooked) process.on("exit", () => held.forEach(removeQuietly));
  hooked = true;
  try {
    return await update();
  } finally {
    held.delete(lock);
    if (readLock(lock) === mine) removeQuietly(lock); // never another's, made after this one's was deleted by hand
  }
}

const held = new Set<string>();
let hooked = false;

/**
 * Whether a lock's `text` is this process's: its pid, and its start time and PID namespace where it
 * has them (a hey in another namespace may have this one's pid). The host is left out: a laptop's
 * name changes with its network.
 */
export function isOwnLock(text: string): boolean {
  const [pid, , , start = "", ns = ""] = text.trim().split(/\s+/);
  return pid === String(process.pid) && (start === "" || start === startTime(process.pid)) && (ns === "" || ns === pidNamespace());
}

/** This process's lock text: `PID HOST [BOOT [START [NAMESPACE]]]`, each later field only where the one before is known. */
const lockText = () => {
  const boot = bootId();
  const start = boot === undefined ? undefined : startTime(process.pid);
  const ns = start === undefined ? undefined : pidNamespace();
  return `${process.pid} ${hostname()}${boot ? ` ${boot}${start ? ` ${start}${ns ? ` ${ns}` : ""}` : ""}` : ""}\n`;
};

/**
 * Removes the stale lock whose text was `seen` (undefined: a link to nothing), and only that one:
 * another hey that judged it stale too may have replaced it with its own since (two heys started
 * at once after a crash). It is moved aside first, which one process alone can do, and put back
 * when it is not the one judged.
 */
function removeStale(lock: string, seen: string | undefined): void {
  const aside = `${lock}.stale-${process.pid}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // gone already: the next try makes it
  }
  if (readLock(aside) !== seen) {
    try {
      linkSync(aside, lock); // never over a lock made meanwhile
    } catch {
      // one was: that hey holds the lock, and the next try says so
    }
  }
  removeQuietly(aside);
}

/** The lock's text; undefined when there is none, null when it cannot be read (held, as lockOwner counts it). */
function readLock(lock: string): string | undefined | null {
  try {
    return readFileSync(lock, "utf8");
  } catch (e) {
    return errnoCode(e) === "ENOENT" ? undefined : null;
  }
}

/**
 * "pid N" when the lock's process is alive (or "pid N on HOST", "pid N in another container or sandbox", where it cannot be checked);
 * undefined for no lock or a stale one. An unreadable lock counts as held: better refused than
 * interleaved. `known`: its text, already read.
 */
export function lockOwner(lock: string, known?: string): string | undefined {
  let text: string;
  try {
    text = known ?? readFileSync(lock, "utf8");
  } catch (e) {
    return errnoCode(e) === "ENOENT" ? undefined : `its lock ${lock} cannot be read`;
  }
  const [pidText = "", host = "", bootText = "", startText = "", nsText = ""] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return undefined; // a torn lock: its writer died while making it
  if (host !== "" && host !== hostname()) return `pid ${pid} on ${host}`;
  // made before this machine last started (a crash, then a reboot): its pid may be another process's now
  if (bootText !== "" && bootId() !== undefined && bootText !== bootId()) return undefined;
  // another PID namespace's pid (another container, an `unshare -p` sandbox): no process here tells whether it runs, but
  // its hey refreshes the lock's time while it holds it (sessions/lock.ts), so one long left alone is a hey gone with its container
  if (nsText !== "" && pidNamespace() !== undefined && nsText !== pidNamespace())
    return lockAge(lock) > LOCK_STALE_MS ? undefined : `pid ${pid} in another container or sandbox`;
  if (pid === process.pid) return undefined; // an earlier process had our pid
  if (!alive(pid)) return undefined;
  // started after the lock was made: a process that has the dead hey's pid since (a container restarted, pids reused)
  const start = startText === "" ? undefined : startTime(pid);
  return start !== undefined && start !== startText ? undefined : `pid ${pid}`;
}

/**
 * When process `pid` started, in clock ticks since boot (field 22 of Linux's /proc/PID/stat, read
 * after the command's name, which may hold spaces and parentheses); undefined elsewhere, or when
 * it cannot be read (then its lock is respected).
 */
function startTime(pid: number): string | undefined {
  const field = procStat(pid)?.[19];
  return field && /^\d+$/.test(field) ? field : undefined;
}

/** How long ago `lock` was last written or touched, in ms; 0 when it cannot be told (then it counts as fresh: held). */
function lockAge(lock: string): number {
  const stat = statSync(lock, { throwIfNoEntry: false });
  return stat ? Date.now() - stat.mtimeMs : 0;
}

let boot: string | null | undefined;
let namespace: string | null | undefined;

/** This process's PID namespace (the inode of Linux's /proc/self/ns/pid), undefined elsewhere. */
function pidNamespace(): string | undefined {
  if (namespace === undefined) {
    try {
      namespace = /^pid:\[(\d+)\]$/.exec(readlinkSync("/proc/self/ns/pid"))?.[1] ?? null;
    } catch {
      namespace = null;
    }
  }
  return namespace ?? undefined;
}

/**
 * This boot's id (Linux's boot_id; a lock written by an older hey has none), undefined elsewhere:
 * a start time computed from the uptime moves with the clock, and with sleep where the uptime
 * leaves it out, so a live lock could be taken for a stale one.
 */
function bootId(): string | undefined {
  if (boot === undefined) {
    try {
      boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
    } catch {
      boot = null;
    }
  }
  return boot ?? undefined;
}

export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/**
 * Removes, in `dir`, the copies a killed hey left of `name` (kill -9 between a write and its link or
 * rename): `.NAME.PID.X.tmp` (atomic.ts) and `NAME.lock.new-PID`, of processes no longer running
 * here — and, with `minAgeMs`, last written longer ago than that (a copy a hey on another machine or in
 * another container is writing now has a pid of its own namespace). Never throws: what cannot go is
 * tried again next time.
 */
export function sweepDeadCopies(dir: string, name: string, minAgeMs = 0): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of names) {
    const pid = Number(
      (entry.startsWith(`.${name}.`) && /^\.[^/]+\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(entry)?.[1]) ||
        (entry.startsWith(`${name}.lock.new-`) && entry.slice(`${name}.lock.new-`.length)) ||
        NaN,
    );
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    if (minAgeMs === 0 || Date.now() - (statSync(join(dir, entry), { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > minAgeMs)
      removeQuietly(join(dir, entry));
  }
}

/**
 * Whether process `pid` runs (one of another user's counts). A zombie does not (Linux: state Z in
 * /proc/PID/stat): a hey killed with kill -9 stays one until its parent reaps it — for good in a
 * container whose first process reaps nothing — and its lock would be held by nothing that can let go.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return errnoCode(e) === "EPERM";
  }
  const state = procStat(pid)?.[0];
  return state === undefined || !/^[ZX]/.test(state); // no /proc (macOS, Windows) or gone meanwhile: as kill said
}
