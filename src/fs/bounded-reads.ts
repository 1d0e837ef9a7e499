// Disk reads with a deadline, for the permission checks (SPEC §8). The checks run before every bash
// call and are synchronous (kernel/tool-calls.ts PermissionCheck, the embedding API's too); a read
// of a path on a hung network mount (an NFS or SMB server gone) blocks in the kernel, and hey with
// it. So each read runs on a worker thread while hey waits for its answer (Atomics.wait) at most
// DEADLINE_MS for a path on a network or FUSE mount (fs/mounts.ts), or anywhere when the mount
// table is not known (not Linux), and LOCAL_TIMES as long on a local disk, where a read waits on
// a busy machine, not on a server (a build running must not make a tmpfs path "a hung network
// mount?"); whether a path is local is told by where its links lead (the worker follows them
// before the read, with readlink on local disks only), not by its name: `data` linked to
// /mnt/nfs/data is on the NFS mount. A read that does not answer in time throws Hung, which the callers turn into
// "cannot verify" naming the file. The worker it is stuck in is left behind (a thread blocked in
// the kernel cannot be ended: terminate() frees nothing until the read returns) and a fresh one
// takes the next read. A stuck worker whose read has answered since (the mount is back) is ended
// at the next read. While one is stuck, a read of its path, of one below it or below the link that
// led it onto a network mount, or of any path on its mount when that is a network or FUSE one
// (fs/mounts.ts), fails at once (no second wait, no
// second thread); with MAX_STUCK stuck (a thread and ~2.5 MB each), every read
// fails at once until one of them answers. Within one check (oneCheck) a read that did not answer
// makes the check's later reads fail at once: a check waits one deadline at most. ~40 µs a read (a
// round trip between threads). A thread that ends by itself while hey waits for its answer is seen
// within ALIVE_MS and its read asked of a fresh one (ended). The thread's code and start:
// fs/read-thread.ts; where no worker can be made, or until the first one made starts, the reads
// run here (readerFor).
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { type Answer, hardLinkBelow, type Op, perform, resolveTarget, type Stat, TREE_ROOM, treeAnswer, treeBelow, type TreeFound } from "./disk-walks.ts";
import { hangingMount, MOUNTINFO, mayHang, mountOf, parseMountinfo, type Mount } from "./mounts.ts";
import { ANSWER_ROOM, control, freshReader, HEADER, type Reader, startedIn, threadEnded } from "./read-thread.ts";

export const DEADLINE_MS = 2000;
/**
 * How many deadlines a read of a path on a local disk waits, and a fresh thread's start: there the
 * machine's load is what holds a read (a CI run at load 10 on two cores saw a tmpfs path not answer
 * in 2 s, and refused `touch` as "a hung network mount?"); finite, since a local disk may hang too.
 * A path whose links lead onto a network mount waits one deadline, whatever its name.
 */
export const LOCAL_TIMES = 15;
/** Workers left stuck in a read at once, at most: each holds a thread until its read returns. */
export const MAX_STUCK = 8;
/** How often a read waiting for its answer looks whether its thread is still there. */
const ALIVE_MS = 500;

export type { Stat } from "./disk-walks.ts";
export { workerSource } from "./read-thread.ts";

/** A read that did not answer within the deadline, or was not tried (one before it is still stuck). The message starts with the path. */
export class Hung extends Error {
  readonly code = "EHUNG";
  constructor(
    readonly path: string,
    why = `did not answer in ${deadline / 1000} s (a hung network mount?)`,
  ) {
    super(`${path} ${why}`);
  }
}

let current: Reader | undefined;
let stuck: Reader[] = [];
let source: string | undefined;
let deadline = DEADLINE_MS;
/** The deadline setWorkerSource falls back to (setStandardDeadline). */
let standard = DEADLINE_MS;
/** Where the mount table is read (tests: a file of their own), and the table as it was last read. */
let mountinfo = MOUNTINFO;
let mounts: Mount[] = [];
/** Its network and FUSE mounts but the root (hangingMount): where a local path's links are followed to. */
let hanging: Mount[] = [];
/** The table's text as last read (undefined: not yet), and whether it could be (not Linux: every path may hang). */
let tableText: string | undefined;
let tableKnown = false;
let noWorker = false;
/** Whether a worker has started in this process: then workers work here, and reads never run on hey's own thread. */
let everStarted = false;
/** Inside oneCheck: whether a check is running, the path whose read in it did not answer in time, and its answers so far. */
let checking = false;
let lost: string | undefined;
const answers = new Map<string, { answer: Answer; bytes?: Uint8Array }>();
let checks = 0;

/** Which check is running (or ran last): what a caller keys what it worked out from the disk on, to work it out once per check. */
export const checkNumber = (): number => checks;

/**
 * Runs one permission check: once a read of it has not answered in time, its later reads fail at
 * once, so the whole check waits at most one deadline (a command naming paths on one hung mount
 * many times, `cd a || cd b; : > f` resolved from each directory). A read asked again within it is
 * answered as the first time (each path a command names is compared with every control file); the
 * next check reads again, so a link the agent made since is seen.
 */
export function oneCheck<T>(check: () => T): T {
  if (checking) return check();
  checking = true;
  checks++;
  try {
    return check();
  } finally {
    checking = false;
    lost = undefined;
    answers.clear();
  }
}

/**
 * The worker's code, replaced by tests (one that never answers stands for a hung mount), how long
 * a read may take (tests: shorter) and the mount table read (tests: one of their own); undefined:
 * hey's own. Ends every worker there is.
 */
export function setWorkerSource(code: string | undefined, deadlineMs = standard, mountTable = MOUNTINFO): void {
  for (const r of [current, ...stuck]) r?.worker.terminate();
  current = undefined;
  stuck = [];
  noWorker = false;
  everStarted = false;
  source = code;
  deadline = deadlineMs;
  mountinfo = mountTable;
  tableText = undefined;
}

/**
 * The deadline of every read from now on, and the one setWorkerSource falls back to. The test
 * suite's preload makes it long for the tests that are not about it: on a loaded two-core CI
 * machine a read of a test's own temp dir once took over 4 s, and a check that should have passed
 * refused "cannot verify".
 */
export function setStandardDeadline(ms: number): void {
  standard = deadline = ms;
}

/** Whether a thread for reads has worked in this process (a permission list's checks start one). */
export const readerStarted = (): boolean => everStarted;

/** Workers stuck in a read now (a read that answered since ends its worker). */
export function stuckReads(): number {
  reap();
  return stuck.length;
}

/** Ends the stuck workers whose read has answered since (back in their loop, their thread can end), and forgets those whose thread ended by itself. */
function reap(): void {
  stuck = stuck.filter((r) => {
    if (Atomics.load(control(r), 1) === 0 && r.ended === undefined) return true;
    r.worker.terminate();
    return false;
  });
}

/**
 * Why `path` is not read now, or undefined: a stuck read of it, of a directory above it, of a path
 * below the same link onto a network mount, or of a path on its network mount, or MAX_STUCK reads stuck.
 */
function blocked(path: string): string | undefined {
  const secs = (r: Reader) => {
    const s = (Date.now() - r.since!) / 1000;
    return s < 10 ? s.toFixed(1) : Math.round(s);
  };
  const below = (dir: string) => path === dir || path.startsWith(dir.replace(/\/?$/, "/"));
  const via = stuck.find((r) => r.via !== undefined && below(r.via));
  if (via)
    return `${via.via === path ? "" : `is below ${via.via}, which `}leads onto ${via.mount!.point} (${via.mount!.type}), where a read of ${via.op!.path} has not answered for ${secs(via)} s (a hung network mount?)`;
  const on = stuck.find((r) => r.op!.path === path || (r.op!.op !== "links" && r.op!.op !== "tree" && below(r.op!.path)));
  if (on) return `${on.op!.path === path ? "" : `is below ${on.op!.path}, which `}has not answered for ${secs(on)} s (a hung network mount?)`;
  const point = stuck.some((r) => r.mount) ? mountOf(path, mounts)?.point : undefined;
  const same = point === undefined ? undefined : stuck.find((r) => r.mount?.point === point);
  if (same) return `is on ${point} (${same.mount!.type}), where a read of ${same.op!.path} has not answered for ${secs(same)} s (a hung network mount?)`;
  if (stuck.length >= MAX_STUCK)
    return `was not read: ${stuck.length} reads before it have not answered (the first, of ${stuck[0]!.op!.path}, for ${secs(stuck[0]!)} s: a hung network mount?); hey reads again once one answers`;
  return undefined;
}

/** The worker's answer to `req` (within a check, the one it gave before); throws Hung, saying `slow` (or "did not answer…") when it does not answer in time. */
function ask(req: Op, slow?: string): { answer: Answer; bytes?: Uint8Array } {
  if (!checking) return read(req, slow);
  const key = JSON.stringify(req);
  const known = answers.get(key) ?? read(req, slow);
  answers.set(key, known);
  return known;
}

function read(req: Op, slow?: string, again = false): { answer: Answer; bytes?: Uint8Array } {
  reap();
  const why = blocked(req.path) ?? (lost === undefined ? undefined : `was not read: ${lost}`);
  if (why) throw new Hung(req.path, why);
  const r = readerFor(req.path, HEADER + ANSWER_ROOM + (req.op === "head" ? req.max : req.op === "tree" ? TREE_ROOM : 0));
  if (!r) return perform(fs, req, { path: nodePath, real: resolveTarget, links: hardLinkBelow, tree: treeBelow });
  const ctl = control(r);
  const limit = limitOf(req);
  // a local path's long wait is for a busy disk: the worker says first whether its links lead onto a network mount
  const onto = limit > deadline ? hanging : []; // limitOf read the table
  const asked = new TextEncoder().encode(JSON.stringify(onto.length ? { ...req, onto: onto.map((m) => m.point) } : req));
  // a path of a megabyte (no system takes one) does not fit the buffer: said as the system would
  if (asked.length > r.shared.byteLength - HEADER)
    throw Object.assign(new Error(`${req.path.slice(0, 200)}… is too long a path to look at (${asked.length} bytes)`), {
      code: "ENAMETOOLONG",
      path: req.path,
    });
  new Uint8Array(r.shared, HEADER).set(asked);
  ctl[2] = asked.length;
  ctl[6] = 0;
  Atomics.store(ctl, 1, 0);
  Atomics.store(ctl, 0, 1);
  Atomics.notify(ctl, 0);
  const began = Date.now();
  // waited for in slices: a thread that ended by itself (its read cannot answer any more) is not waited for to the end;
  // the time left is the clock's, not the slices counted (a wait that returns early must not end the deadline early).
  // Only the answer's state says it has come: a wake is no answer (the thread's wake for the read before may come late,
  // after hey saw that answer by its state and asked this one: under load, checks refused in 2 ms "did not answer in 60 s")
  const answeredIn = (ms: number) => {
    const until = performance.now() + ms;
    for (let left = ms; ; left = until - performance.now()) {
      Atomics.wait(ctl, 1, 0, Math.max(0, Math.min(left, ALIVE_MS)));
      if (Atomics.load(ctl, 1) !== 0) return true;
      if (until - performance.now() <= 0 || threadEnded(r)) return false;
    }
  };
  // One deadline first; then a request the thread has not even taken up (it clears ctl[0]) waits on a
  // starved CPU, and a local path whose links lead onto no network mount (ctl[6]; the mount table as
  // it was) on a busy disk: both wait longer (one more deadline, or LOCAL_TIMES in all).
  const waitsLong = () => Atomics.load(ctl, 0) !== 0 || (limit > deadline && Atomics.load(ctl, 6) === 0 && !tableChanged());
  const long = !answeredIn(deadline) && r.ended === undefined && waitsLong();
  if (long ? !answeredIn(limit > deadline ? limit - deadline : deadline) : Atomics.load(ctl, 1) === 0) {
    if (r.ended !== undefined) return ended(r, req, slow, again);
    // a thread blocked in the kernel cannot be ended; it is kept to be ended once its read returns
    const led = Atomics.load(ctl, 6);
    const mount = led > 0 ? onto[led - 1] : undefined;
    const via = mount && `/${req.path.split("/").filter(Boolean).slice(0, ctl[7]).join("/")}`;
    stuck.push({ ...r, op: req, since: began, ...(mount ? { mount, via } : stuckMount(req)) });
    current = undefined;
    const waited = long && limit > deadline;
    const why = mount
      ? `did not answer in ${deadline / 1000} s (${via} leads onto ${mount.point} (${mount.type}): a hung network mount?)`
      : `did not answer in ${(waited ? limit : deadline) / 1000} s (${waited ? "a hung disk, or a link onto a hung network mount?" : "a hung network mount?"})`;
    if (checking) lost = `${req.path}, read before it in this check, ${why}`;
    throw new Hung(req.path, slow ?? why);
  }
  const answer = JSON.parse(new TextDecoder().decode(new Uint8Array(r.shared, HEADER, ctl[3]!).slice())) as Answer;
  return { answer, ...(ctl[4]! >= 0 ? { bytes: new Uint8Array(r.shared, HEADER + ANSWER_ROOM, ctl[4]!).slice() } : {}) };
}

/**
 * The read `req` whose thread ended by itself before answering (`r.ended` says why): no read holds
 * it, so it is not kept as stuck; the read is asked once more of a fresh thread, and a second
 * thread ending too fails it, saying so.
 */
function ended(r: Reader, req: Op, slow: string | undefined, again: boolean): { answer: Answer; bytes?: Uint8Array } {
  r.worker.terminate();
  if (current === r) current = undefined;
  if (!again) return read(req, slow, true);
  const why = `was not read: hey's thread for reads ended before answering (${r.ended})`;
  if (checking) lost = why;
  throw new Hung(req.path, why);
}

/**
 * How long a fresh thread's start is waited for: a local read's time (on a busy CPU, not a mount),
 * but never more than a minute or one deadline (the tests' patient deadline is a minute).
 */
const startWait = () => Math.min(deadline * LOCAL_TIMES, Math.max(deadline, DEADLINE_MS * LOCAL_TIMES));

/**
 * The thread to read `path` on, made when there is none (`room`: the buffer it needs), or
 * undefined to read on hey's own thread: no thread can be made on this platform, or the first one
 * made has not started in a deadline (its code may not load there: that costs one wait; once it
 * starts, it reads). Once a thread has worked here, reads never run on hey's thread, where a hung mount would
 * freeze hey: a fresh one that cannot be made, or has not started in its wait, fails the read, and
 * one that has not started is not waited for again: the reads fail at once until it starts, or,
 * given as long again, a fresh one is tried.
 */
function readerFor(path: string, room: number): Reader | undefined {
  const wait = startWait();
  const given = current?.cold !== undefined && !startedIn(current, 0) && Date.now() - current.cold >= wait;
  if (current && (current.shared.byteLength < room || given || current.ended !== undefined)) {
    current.worker.terminate();
    current = undefined;
  }
  if (!current && !noWorker) {
    const made = freshReader(room, source);
    if (typeof made === "object") current = made;
    else if (everStarted) throw new Hung(path, `was not read: hey could not start a thread to read it (${made})`);
    else noWorker = true; // no workers on this platform: read here, as before there were any
  }
  const r = current;
  if (!r || r.started) return r;
  // the first thread waits one deadline: its code may not load here, and the reads have hey's own thread
  if (!startedIn(r, r.late || r.cold !== undefined ? 0 : everStarted ? wait : deadline)) {
    if (!everStarted) {
      r.late = true;
      return undefined;
    }
    const age = r.cold === undefined ? wait / 1000 : (Date.now() - r.made) / 1000;
    r.cold ??= Date.now();
    const why = `hey's thread for reads has not started in ${age < 10 ? Number(age.toFixed(1)) : Math.round(age)} s (an overloaded machine, or no threads left?)`;
    if (checking) lost = why;
    throw new Hung(path, `was not read: ${why}`);
  }
  r.started = everStarted = true;
  r.late = false;
  return r;
}

/**
 * The mounts there are (undefined: no table known), read once and again only `afresh`, when a read
 * waits (a Kubernetes node's thousands of mounts take milliseconds to read, against ~40 µs a read).
 */
function mountTable(afresh = false): Mount[] | undefined {
  if (afresh || tableText === undefined) {
    try {
      tableText = fs.readFileSync(mountinfo, "utf8");
      mounts = parseMountinfo(tableText);
      hanging = mounts.filter((m) => m.point !== "/" && mayHang(m.type));
      tableKnown = true;
    } catch {
      tableText = "";
      mounts = hanging = []; // no such table (not Linux): no mount is known
      tableKnown = false;
    }
  }
  return tableKnown ? mounts : undefined;
}

/** Whether the mount table has changed since it was read (it is read again): a mount made since may be where a read waits. */
const tableChanged = (was = tableText): boolean => (mountTable(true), tableText !== was);

/**
 * How long the read `req` may take: a deadline on a network or FUSE mount, where no mount table is
 * known (not Linux), and for the search below a directory (its time is the tree's size, which a
 * longer wait would let freeze hey); LOCAL_TIMES deadlines on a local disk, where only a busy
 * machine keeps a read waiting.
 */
function limitOf(req: Op): number {
  const table = req.op === "links" || req.op === "tree" ? undefined : mountTable();
  return table && mountOf(req.path, table) && !hangingMount(req.path, table) ? deadline * LOCAL_TIMES : deadline;
}

/** The network or FUSE mount the stuck read `req` names a path on (the table read afresh); none for a search below a directory, whose stuck path is not known. */
function stuckMount(req: Op): { mount?: Mount } {
  const mount = req.op === "links" || req.op === "tree" ? undefined : hangingMount(req.path, mountTable(true) ?? []);
  return mount ? { mount } : {};
}

function answered(path: string, r: { answer: Answer }): void {
  const e = r.answer.error;
  if (e) throw Object.assign(new Error(e.message), { code: e.code, path });
}

/** lstat(2) within the deadline; throws the system error (with its code) or Hung. */
export function boundedLstat(path: string): Stat {
  const r = ask({ op: "lstat", path });
  answered(path, r);
  return r.answer.stat!;
}

/** stat(2) (links followed) within the deadline; throws the system error or Hung. */
export function boundedStat(path: string): Stat {
  const r = ask({ op: "stat", path });
  answered(path, r);
  return r.answer.stat!;
}

/** The first `max` bytes of the regular file `path` and its size, within the deadline; throws as read-head.ts readHeadBytes does, or Hung. */
export function boundedHead(path: string, max: number): { bytes: Uint8Array; size: number } {
  const r = ask({ op: "head", path, max });
  answered(path, r);
  return { bytes: r.bytes ?? new Uint8Array(), size: r.answer.size ?? 0 };
}

/** The file `abs` really names (fs/disk-walks.ts resolveTarget) within the deadline; throws Hung (or an error for an answer too long to carry). */
export function boundedReal(abs: string): string {
  const r = ask({ op: "real", path: abs });
  answered(abs, r);
  return r.answer.real!;
}

/**
 * The names in the directory `path` (readdir(3)), within the deadline (`dirs`: of its directories
 * only, not of a link to one); throws the system error (E2BIG: too many to carry) or Hung.
 */
export function boundedList(path: string, dirs = false): string[] {
  const r = ask({ op: "list", path, ...(dirs && { dirs }) });
  answered(path, r);
  return r.answer.names!;
}

/** Whether the file at `abs` has another hard link below `dir` (fs/disk-walks.ts hardLinkBelow), the whole search within the deadline; throws Hung naming `dir`. */
export function boundedHardLink(abs: string, dir: string): boolean | "maybe" {
  const r = ask(
    { op: "links", path: dir, file: abs },
    `was not searched in ${deadline / 1000} s for other names of ${abs} (a hung network mount, or too large a tree?)`,
  );
  answered(dir, r);
  return r.answer.links!;
}

/** Every entry below `dir` (fs/disk-walks.ts treeBelow), the whole walk within the deadline; throws Hung naming `dir`. */
export function boundedTree(dir: string): TreeFound {
  const r = ask({ op: "tree", path: dir }, `was not searched in ${deadline / 1000} s (a hung network mount, or too large a tree?)`);
  answered(dir, r);
  return treeAnswer(dir, r.answer.tree!, r.bytes);
}
