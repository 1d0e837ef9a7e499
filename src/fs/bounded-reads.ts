// Disk reads with a deadline, for the permission checks (SPEC §8). The checks run before every bash
// call and are synchronous (kernel/tool-calls.ts PermissionCheck, the embedding API's too); a read
// of a path on a hung network mount (an NFS or SMB server gone) blocks in the kernel, and hey with
// it. So each read runs on a worker thread while hey waits for its answer at most DEADLINE_MS
// (Atomics.wait); a read that does not answer in time throws Hung, which the callers turn into
// "cannot verify" naming the file, and the worker it is stuck in is left behind (a fresh one takes
// the next read). After MAX_STUCK such workers, reads fail at once: each holds a thread.
// ~40 µs a read (a round trip between threads); where no worker can be made, or one made never
// starts (its code cannot load there: it costs one wait), the reads run here, without a deadline.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from "node:fs";

export const DEADLINE_MS = 2000;
const MAX_STUCK = 8;

/** A read that did not answer within the deadline. */
export class Hung extends Error {
  readonly code = "EHUNG";
  constructor(readonly path: string) {
    super(`${path} did not answer in ${DEADLINE_MS / 1000} s (a hung network mount?)`);
  }
}

/** What lstat/stat say of a path: its kind, size, link count and identity (device:inode). */
export interface Stat {
  kind: "file" | "dir" | "link" | "other";
  size: number;
  nlink: number;
  id: string;
}

type Op = { op: "lstat" | "stat"; path: string } | { op: "head"; path: string; max: number };
type Answer = { stat?: Stat; size?: number; error?: { code?: string; message: string } };

// Runs in the worker and, without one, here: Node's fs only, no import (a worker made from text can import nothing of hey's)
function perform(fs: typeof import("node:fs"), req: Op): { answer: Answer; bytes?: Uint8Array } {
  const stat = (st: import("node:fs").BigIntStats): Stat => ({
    kind: st.isSymbolicLink() ? "link" : st.isFile() ? "file" : st.isDirectory() ? "dir" : "other",
    size: Number(st.size),
    nlink: Number(st.nlink),
    id: `${st.dev}:${st.ino}`,
  });
  try {
    if (req.op === "lstat") return { answer: { stat: stat(fs.lstatSync(req.path, { bigint: true })) } };
    if (req.op === "stat") return { answer: { stat: stat(fs.statSync(req.path, { bigint: true })) } };
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
const ANSWER_ROOM = 4096;
const WORKER = `const fs = require("node:fs");
const perform = ${perform.toString()};
self.onmessage = (e) => {
  const sab = e.data;
  const ctl = new Int32Array(sab, 0, 6);
  Atomics.store(ctl, 5, 1);
  for (;;) {
    Atomics.wait(ctl, 0, 0);
    Atomics.store(ctl, 0, 0);
    const req = JSON.parse(new TextDecoder().decode(new Uint8Array(sab, ${HEADER}, ctl[2]).slice()));
    const { answer, bytes } = perform(fs, req);
    let text = new TextEncoder().encode(JSON.stringify(answer));
    // an error naming a path near PATH_MAX does not fit: its code does (cut, the answer would not parse)
    if (text.length > ${ANSWER_ROOM}) text = new TextEncoder().encode(JSON.stringify({ error: { code: answer.error && answer.error.code, message: req.path.slice(0, 200) + "…: " + (answer.error && answer.error.code) } }));
    new Uint8Array(sab, ${HEADER}).set(text);
    if (bytes) new Uint8Array(sab, ${HEADER + ANSWER_ROOM}).set(bytes);
    ctl[3] = text.length;
    ctl[4] = bytes ? bytes.length : -1;
    Atomics.store(ctl, 1, 1);
    Atomics.notify(ctl, 1);
  }
};`;

let worker: Worker | undefined;
/** The worker's buffer, made with it (one stuck in a read may still write its own) */
let shared: SharedArrayBuffer | undefined;
let stuck = 0;
let source: string | undefined;
let noWorker = false;

/** The worker's code, replaced by tests (one that never answers stands for a hung mount); undefined: hey's own. */
export function setWorkerSource(code: string | undefined): void {
  worker?.terminate();
  worker = undefined;
  stuck = 0;
  noWorker = false;
  source = code;
}

function ask(req: Op): { answer: Answer; bytes?: Uint8Array } {
  if (stuck >= MAX_STUCK) throw new Hung(req.path);
  const room = HEADER + ANSWER_ROOM + (req.op === "head" ? req.max : 0);
  if (worker && shared!.byteLength < room) {
    worker.terminate();
    worker = undefined;
  }
  if (!worker && !noWorker) {
    try {
      shared = new SharedArrayBuffer(Math.max(room, HEADER + ANSWER_ROOM + (1 << 20)));
      worker = new Worker(URL.createObjectURL(new Blob([source ?? WORKER], { type: "application/javascript" })));
      (worker as Worker & { unref?: () => void }).unref?.();
      worker.postMessage(shared);
    } catch {
      noWorker = true;
    }
  }
  if (!worker) return perform({ closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } as typeof import("node:fs"), req);
  const sab = shared!;
  const ctl = new Int32Array(sab, 0, 6);
  const asked = new TextEncoder().encode(JSON.stringify(req));
  new Uint8Array(sab, HEADER).set(asked);
  ctl[2] = asked.length;
  Atomics.store(ctl, 1, 0);
  Atomics.store(ctl, 0, 1);
  Atomics.notify(ctl, 0);
  if (Atomics.wait(ctl, 1, 0, DEADLINE_MS) === "timed-out" && Atomics.load(ctl, 1) === 0) {
    worker.terminate(); // a thread blocked in the kernel may stay there; it is not waited for
    worker = undefined;
    // one that never started (its code cannot load on this platform) reads nothing: read here from now on, as without workers
    if (Atomics.load(ctl, 5) === 0) {
      noWorker = true;
      return ask(req);
    }
    stuck++;
    throw new Hung(req.path);
  }
  const answer = JSON.parse(new TextDecoder().decode(new Uint8Array(sab, HEADER, ctl[3]!).slice())) as Answer;
  return { answer, ...(ctl[4]! >= 0 ? { bytes: new Uint8Array(sab, HEADER + ANSWER_ROOM, ctl[4]!).slice() } : {}) };
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
