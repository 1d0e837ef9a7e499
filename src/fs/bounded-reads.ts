// Disk reads with a deadline, for the permission checks (SPEC §8). The checks run before every bash
// call and are synchronous (kernel/tool-calls.ts PermissionCheck, the embedding API's too); a read
// of a path on a hung network mount (an NFS or SMB server gone) blocks in the kernel, and hey with
// it. So each read runs on a worker thread while hey waits for its answer at most DEADLINE_MS
// (Atomics.wait); a read that does not answer in time throws Hung, which the callers turn into
// "cannot verify" naming the file. The worker it is stuck in is left behind (a thread blocked in
// the kernel cannot be ended: terminate() frees nothing until the read returns) and a fresh one
// takes the next read. A stuck worker whose read has answered since (the mount is back) is ended
// at the next read. While one is stuck, a read of its path, of one below it, or of any path on its
// mount when that is a network or FUSE one (fs/mounts.ts), fails at once (no second wait, no
// second thread); with MAX_STUCK stuck (a thread and ~2.5 MB each), every read
// fails at once until one of them answers. Within one check (oneCheck) a read that did not answer
// makes the check's later reads fail at once: a check waits one deadline at most. ~40 µs a read (a
// round trip between threads). Where no worker can be made, or until the first one made starts (its
// code may not load there: it costs one wait), the reads run here, without a deadline; once one has
// started, a fresh one that cannot be made or does not start in time (an overloaded machine, no
// threads left) fails the read, as a hung one does: here, a hung mount would freeze hey.
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { hardLinkBelow, resolveTarget } from "./disk-walks.ts";
import { mayHang, MOUNTINFO, mountOf, parseMountinfo, type Mount } from "./mounts.ts";

export const DEADLINE_MS = 2000;
/** Workers left stuck in a read at once, at most: each holds a thread until its read returns. */
export const MAX_STUCK = 8;

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

/** What lstat/stat say of a path: its kind, size, link count and identity (device:inode). */
export interface Stat {
  kind: "file" | "dir" | "link" | "other";
  size: number;
  nlink: number;
  id: string;
}

type Op =
  | { op: "lstat" | "stat" | "real"; path: string }
  | { op: "list"; path: string; dirs?: boolean }
  | { op: "head"; path: string; max: number }
  | { op: "links"; path: string; file: string };
type Answer = { stat?: Stat; size?: number; real?: string; links?: boolean | "maybe"; names?: string[]; error?: { code?: string; message: string } };
type Walks = { path: typeof nodePath; real: typeof resolveTarget; links: typeof hardLinkBelow };

// Runs in the worker and, without one, here: Node's fs and the walks only, no import (a worker made from text can import nothing of hey's)
function perform(fs: typeof import("node:fs"), req: Op, walks: Walks): { answer: Answer; bytes?: Uint8Array } {
  const stat = (st: import("node:fs").BigIntStats): Stat => ({
    kind: st.isSymbolicLink() ? "link" : st.isFile() ? "file" : st.isDirectory() ? "dir" : "other",
    size: Number(st.size),
    nlink: Number(st.nlink),
    id: `${st.dev}:${st.ino}`,
  });
  try {
    if (req.op === "lstat") return { answer: { stat: stat(fs.lstatSync(req.path, { bigint: true })) } };
    if (req.op === "stat") return { answer: { stat: stat(fs.statSync(req.path, { bigint: true })) } };
    if (req.op === "real") return { answer: { real: walks.real(fs, walks.path, req.path) } };
    if (req.op === "links") return { answer: { links: walks.links(fs, walks.path, req.file, req.path) } };
    if (req.op === "list" && req.dirs)
      return { answer: { names: fs.readdirSync(req.path, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? [d.name] : [])) } };
    if (req.op === "list") return { answer: { names: fs.readdirSync(req.path) } };
    // a FIFO is opened non-blocking, so it cannot hang the read; only a regular file is read
    const fd = fs.openSync(req.path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (st.isDirectory()) return { answer: { error: { code: "EISDIR", message: `${req.path} is a directory` } } };
      if (!st.isFile()) return { answer: { error: { code: "EINVAL", message: `${req.path} is not a regular file` } } };
      const bytes = new Uint8Array(Math.min(st.size, (req as { max: number }).max));
      let got = 0;
      for (let n = 1; got < bytes.length && n > 0; got += n) n = fs.readSync(fd, bytes, got, bytes.length - got, got);
      return { answer: { size: st.size }, bytes: bytes.subarray(0, got) };
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { answer: { error: { ...(err.code ? { code: err.code } : {}), message: err.message } } };
  }
}

// the buffer: [request's state, answer's state, request's length, answer's length, bytes' length,
// started], then the request or the answer (JSON), then the bytes. The worker waits on the buffer,
// not for messages: a read is two wake-ups, no message to copy.
const HEADER = 24;
const ANSWER_ROOM = 65536; // a resolved path may be as long as the path asked about
/** hey's worker code; `gate` (tests): a function, as JS, called with each request before it is read (one that blocks stands for a hung mount). */
export const workerSource = (gate = "() => {}") => `const fs = require("node:fs");
const gate = ${gate};
const perform = ${perform.toString()};
const walks = { path: require("node:path"), real: ${resolveTarget.toString()}, links: ${hardLinkBelow.toString()} };
self.onmessage = (e) => {
  const sab = e.data;
  const ctl = new Int32Array(sab, 0, 6);
  Atomics.store(ctl, 5, 1);
  Atomics.notify(ctl, 5);
  for (;;) {
    Atomics.wait(ctl, 0, 0);
    Atomics.store(ctl, 0, 0);
    const req = JSON.parse(new TextDecoder().decode(new Uint8Array(sab, ${HEADER}, ctl[2]).slice()));
    gate(req);
    const { answer, bytes } = perform(fs, req, walks);
    let text = new TextEncoder().encode(JSON.stringify(answer));
    // an error naming a path near PATH_MAX does not fit: its code does (cut, the answer would not parse)
    if (text.length > ${ANSWER_ROOM}) text = new TextEncoder().encode(JSON.stringify({ error: { code: (answer.error && answer.error.code) || "E2BIG", message: req.path.slice(0, 200) + "…: " + ((answer.error && answer.error.code) || "answer too long") } }));
    new Uint8Array(sab, ${HEADER}).set(text);
    if (bytes) new Uint8Array(sab, ${HEADER + ANSWER_ROOM}).set(bytes);
    ctl[3] = text.length;
    ctl[4] = bytes ? bytes.length : -1;
    Atomics.store(ctl, 1, 1);
    Atomics.notify(ctl, 1);
  }
};`;

/**
 * A worker and its buffer (one stuck in a read may still write its own); `op`, `since`: the read it
 * is stuck in, and since when; `mount`: the network or FUSE mount that read's path is on.
 */
type Reader = { worker: Worker; shared: SharedArrayBuffer; started: boolean; late?: boolean; op?: Op; since?: number; mount?: Mount };

let current: Reader | undefined;
let stuck: Reader[] = [];
let source: string | undefined;
let deadline = DEADLINE_MS;
/** The deadline setWorkerSource falls back to (setStandardDeadline). */
let standard = DEADLINE_MS;
/** Where the mount table is read (tests: a file of their own), and the table as it was when a read last got stuck. */
let mountinfo = MOUNTINFO;
let mounts: Mount[] = [];
let noWorker = false;
/** Whether a worker has started in this process: then workers work here, and reads never run on hey's own thread. */
let everStarted = false;
/** Inside oneCheck: whether a check is running, the path whose read in it did not answer in time, and its answers so far. */
let checking = false;
let lost: string | undefined;
const answers = new Map<string, { answer: Answer; bytes?: Uint8Array }>();

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

const control = (r: Reader) => new Int32Array(r.shared, 0, 6);

/** Ends the stuck workers whose read has answered since: back in their loop, their thread can end. */
function reap(): void {
  stuck = stuck.filter((r) => {
    if (Atomics.load(control(r), 1) === 0) return true;
    r.worker.terminate();
    return false;
  });
}

/**
 * Why `path` is not read now, or undefined: a stuck read of it, of a directory above it or of a
 * path on its network mount, or MAX_STUCK reads stuck.
 */
function blocked(path: string): string | undefined {
  const on = stuck.find((r) => r.op!.path === path || (r.op!.op !== "links" && path.startsWith(r.op!.path.replace(/\/?$/, "/"))));
  const secs = (r: Reader) => {
    const s = (Date.now() - r.since! + deadline) / 1000; // since the read began
    return s < 10 ? s.toFixed(1) : Math.round(s);
  };
  if (on) return `${on.op!.path === path ? "" : `is below ${on.op!.path}, which `}has not answered for ${secs(on)} s (a hung network mount?)`;
  const point = stuck.some((r) => r.mount) ? mountOf(path, mounts)?.point : undefined;
  const same = point === undefined ? undefined : stuck.find((r) => r.mount?.point === point);
  if (same) return `is on ${point} (${same.mount!.type}), where a read of ${same.op!.path} has not answered for ${secs(same)} s (a hung network mount?)`;
  if (stuck.length >= MAX_STUCK)
    return `was not read: ${stuck.length} reads before it have not answered (the first, of ${stuck[0]!.op!.path}, for ${secs(stuck[0]!)} s: a hung network mount?); hey reads again once one answers`;
  return undefined;
}

/** A new worker, or why none could be made. */
function fresh(room: number): Reader | string {
  try {
    const shared = new SharedArrayBuffer(Math.max(room, HEADER + ANSWER_ROOM + (1 << 20)));
    const worker = new Worker(URL.createObjectURL(new Blob([source ?? workerSource()], { type: "application/javascript" })));
    (worker as Worker & { unref?: () => void }).unref?.();
    worker.postMessage(shared);
    return { worker, shared, started: false };
  } catch (e) {
    return (e as Error).message;
  }
}

/** The worker's answer to `req` (within a check, the one it gave before); throws Hung, saying `slow` (or "did not answer…") when it does not answer in time. */
function ask(req: Op, slow?: string): { answer: Answer; bytes?: Uint8Array } {
  if (!checking) return read(req, slow);
  const key = JSON.stringify(req);
  const known = answers.get(key) ?? read(req, slow);
  answers.set(key, known);
  return known;
}

function read(req: Op, slow?: string): { answer: Answer; bytes?: Uint8Array } {
  reap();
  const why =
    blocked(req.path) ??
    (lost === undefined ? undefined : `was not read: ${lost}, read before it in this check, did not answer in ${deadline / 1000} s (a hung network mount?)`);
  if (why) throw new Hung(req.path, why);
  const room = HEADER + ANSWER_ROOM + (req.op === "head" ? req.max : 0);
  if (current && current.shared.byteLength < room) {
    current.worker.terminate();
    current = undefined;
  }
  if (!current && !noWorker) {
    const made = fresh(room);
    if (typeof made === "object") current = made;
    else if (everStarted) throw new Hung(req.path, `was not read: hey could not start a thread to read it (${made})`);
    else noWorker = true; // no workers on this platform: read here, as before there were any
  }
  const r = current;
  const here = () => perform(fs, req, { path: nodePath, real: resolveTarget, links: hardLinkBelow });
  if (!r) return here();
  const ctl = control(r);
  // the first, not started when waited for, is looked at again without waiting: once it starts, it reads
  if (r.late && Atomics.load(ctl, 5) === 0) return here();
  if (!r.started && !r.late && Atomics.wait(ctl, 5, 0, deadline) === "timed-out" && Atomics.load(ctl, 5) === 0) {
    // once workers have worked here, one slow to start is kept (the next read looks again), and this read fails
    if (everStarted) {
      if (checking) lost = req.path;
      throw new Hung(req.path, `was not read: hey's thread for reads has not started in ${deadline / 1000} s (an overloaded machine, or no threads left?)`);
    }
    // the first has not started (its code cannot load on this platform, or the machine is overloaded): read here until it does
    r.late = true;
    return here();
  }
  r.started = everStarted = true;
  r.late = false;
  const asked = new TextEncoder().encode(JSON.stringify(req));
  // a path of a megabyte (no system takes one) does not fit the buffer: said as the system would
  if (asked.length > r.shared.byteLength - HEADER)
    throw Object.assign(new Error(`${req.path.slice(0, 200)}… is too long a path to look at (${asked.length} bytes)`), {
      code: "ENAMETOOLONG",
      path: req.path,
    });
  new Uint8Array(r.shared, HEADER).set(asked);
  ctl[2] = asked.length;
  Atomics.store(ctl, 1, 0);
  Atomics.store(ctl, 0, 1);
  Atomics.notify(ctl, 0);
  const answeredIn = (ms: number) => Atomics.wait(ctl, 1, 0, ms) !== "timed-out" || Atomics.load(ctl, 1) !== 0;
  // a request the thread has not even taken up (it clears ctl[0] when it does) waits on a starved
  // CPU, not a hung mount: one more deadline before a busy machine's check is refused for nothing
  if (!answeredIn(deadline) && (Atomics.load(ctl, 0) === 0 || !answeredIn(deadline))) {
    // a thread blocked in the kernel cannot be ended; it is kept to be ended once its read returns
    stuck.push({ ...r, op: req, since: Date.now(), ...stuckMount(req) });
    current = undefined;
    if (checking) lost = req.path;
    throw new Hung(req.path, slow);
  }
  const answer = JSON.parse(new TextDecoder().decode(new Uint8Array(r.shared, HEADER, ctl[3]!).slice())) as Answer;
  return { answer, ...(ctl[4]! >= 0 ? { bytes: new Uint8Array(r.shared, HEADER + ANSWER_ROOM, ctl[4]!).slice() } : {}) };
}

/** The network or FUSE mount the stuck read `req` names a path on (the table read afresh); none for a search below a directory, whose stuck path is not known. */
function stuckMount(req: Op): { mount?: Mount } {
  if (req.op === "links") return {};
  try {
    mounts = parseMountinfo(fs.readFileSync(mountinfo, "utf8"));
  } catch {
    mounts = []; // no such table (not Linux): no mount is known
  }
  const mount = mountOf(req.path, mounts);
  // the root itself (a rootless container's fuse-overlayfs): a slow read there does not refuse every path hey checks
  return mount && mount.point !== "/" && mayHang(mount.type) ? { mount } : {};
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
