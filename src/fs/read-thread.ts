// The thread a permission check's disk reads run on (fs/bounded-reads.ts): its code, the buffer it
// shares with hey, and its start. A thread is made by `new Worker` and says it has started in the
// buffer; hey waits for that with Atomics.wait, since a check is synchronous and hey's own thread
// cannot take a message while it waits. A thread that has not started in its wait (an overloaded
// machine, no threads left, or a start that never comes) is not waited for again: bounded-reads.ts
// refuses the reads meant for it at once, and tries a fresh one once it has been given as long again.
import { existsSync } from "node:fs";
import { hardLinkBelow, leadsOnto, type Op, perform, resolveTarget, treeBelow } from "./disk-walks.ts";
import type { Mount } from "./mounts.ts";

// the buffer: [request's state, answer's state, request's length, answer's length, bytes' length,
// started, the network mount its path leads onto (its index in the request's `onto`, plus one; 0:
// none), how many of the path's own names led there, the thread's id in the system (Linux; 0: not
// known)], then the request or the answer (JSON), then the bytes. The worker waits on the buffer,
// not for messages: a read is two wake-ups, no message to copy.
export const HEADER = 64;
const SLOTS = HEADER / 4;
export const ANSWER_ROOM = 65536; // a resolved path may be as long as the path asked about
/** hey's worker code; `gate` (tests): a function, as JS, called with each request before it is read (one that blocks stands for a hung mount). */
export const workerSource = (gate = "() => {}") => `const fs = require("node:fs");
const gate = ${gate};
const perform = ${perform.toString()};
const walks = { path: require("node:path"), real: ${resolveTarget.toString()}, links: ${hardLinkBelow.toString()}, tree: ${treeBelow.toString()} };
const leadsOnto = ${leadsOnto.toString()};
self.onmessage = (e) => {
  const sab = e.data;
  const ctl = new Int32Array(sab, 0, ${SLOTS});
  // which thread this is, so that hey, waiting for an answer, can tell a thread that ended from one held in a read
  try { ctl[8] = Number(String(fs.readlinkSync("/proc/thread-self")).split("/").pop()) || 0; } catch {}
  Atomics.store(ctl, 5, 1);
  Atomics.notify(ctl, 5);
  for (;;) {
    // only the request's state says one has come: a wake is none (hey's wake for the request before may come late)
    while (Atomics.load(ctl, 0) === 0) Atomics.wait(ctl, 0, 0);
    Atomics.store(ctl, 0, 0);
    let req = { path: "" }, answer, bytes;
    // an error thrown here would end the thread (and leave hey waiting): it is the answer instead
    try {
      req = JSON.parse(new TextDecoder().decode(new Uint8Array(sab, ${HEADER}, ctl[2]).slice()));
      // said before the read that may hang there: hey then waits a network mount's time, not a local disk's
      const onto = req.onto ? leadsOnto(fs, req.path, req.onto) : undefined;
      if (onto) { ctl[7] = onto.names; Atomics.store(ctl, 6, onto.point + 1); }
      gate(req);
      ({ answer, bytes } = perform(fs, req, walks));
    } catch (e) {
      answer = { error: { code: "EWORKER", message: "hey's thread for reads failed: " + String(e && e.message || e) } };
      bytes = undefined;
    }
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
 * A worker and its buffer (one stuck in a read may still write its own); `made`: when; `cold`:
 * when its wait for its start ran out, if it did; `late`: the first thread of the process that had
 * not started when waited for (its reads run on hey's thread until it starts); `op`, `since`: the
 * read it is stuck in, and when it began; `mount`: the network or FUSE mount that read's path is on,
 * and `via`: the path, as written, whose link led there (`/p/data` of `/p/data/a`), when one did;
 * `ended`: why the thread ended by itself, once hey's event loop has heard it (an error, or exit).
 */
export type Reader = {
  worker: Worker;
  shared: SharedArrayBuffer;
  made: number;
  started: boolean;
  cold?: number;
  late?: boolean;
  op?: Op;
  since?: number;
  mount?: Mount;
  via?: string;
  ended?: string;
};

export const control = (r: Reader) => new Int32Array(r.shared, 0, SLOTS);

/** One URL per code: a thread made again and again (a fresh one after each stuck read) does not add a blob each time. */
const urls = new Map<string, string>();

/** A new worker running `code` (hey's own: workerSource()) with a buffer of at least `room` bytes, or why none could be made. */
export function freshReader(room: number, code = workerSource()): Reader | string {
  try {
    const shared = new SharedArrayBuffer(Math.max(room, HEADER + ANSWER_ROOM + (1 << 20)));
    let url = urls.get(code);
    if (!url) urls.set(code, (url = URL.createObjectURL(new Blob([code], { type: "application/javascript" }))));
    const worker = new Worker(url);
    (worker as Worker & { unref?: () => void }).unref?.();
    const r: Reader = { worker, shared, made: Date.now(), started: false };
    // heard between checks, when hey's event loop runs (a check waiting for the thread cannot hear it: threadEnded)
    worker.addEventListener("error", (e) => {
      r.ended = (e as ErrorEvent).message || "an error";
    });
    worker.addEventListener("close", () => {
      r.ended ??= "it exited";
    });
    worker.postMessage(shared);
    return r;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Whether `r`'s thread has ended by itself: heard from its events, or, while hey waits for its
 * answer and cannot hear them, seen gone from the system's list of hey's threads (Linux: a thread
 * that has started says its id; a thread held in a read stays listed).
 */
export function threadEnded(r: Reader): boolean {
  const tid = Atomics.load(control(r), 8);
  if (r.ended === undefined && tid > 0 && !existsSync(`/proc/self/task/${tid}`)) r.ended = "it is gone";
  return r.ended !== undefined;
}

/** Whether `r` has started, waiting for it at most `ms` (0: only looking). */
export const startedIn = (r: Reader, ms: number): boolean =>
  Atomics.load(control(r), 5) !== 0 || (ms > 0 && Atomics.wait(control(r), 5, 0, ms) !== "timed-out") || Atomics.load(control(r), 5) !== 0;
