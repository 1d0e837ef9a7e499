// The thread a permission check's disk reads run on (fs/bounded-reads.ts): its code, the buffer it
// shares with hey, and its start. A thread is made by `new Worker` and says it has started in the
// buffer; hey waits for that with Atomics.wait, since a check is synchronous and hey's own thread
// cannot take a message while it waits. A thread that has not started in its wait (an overloaded
// machine, no threads left, or a start that never comes) is not waited for again: bounded-reads.ts
// refuses the reads meant for it at once, and tries a fresh one once it has been given as long again.
import { hardLinkBelow, leadsOnto, type Op, perform, resolveTarget } from "./disk-walks.ts";
import type { Mount } from "./mounts.ts";

// the buffer: [request's state, answer's state, request's length, answer's length, bytes' length,
// started, the network mount its path leads onto (its index in the request's `onto`, plus one; 0:
// none), how many of the path's own names led there], then the request or the answer (JSON), then
// the bytes. The worker waits on the buffer, not for messages: a read is two wake-ups, no message to copy.
export const HEADER = 32;
export const ANSWER_ROOM = 65536; // a resolved path may be as long as the path asked about
/** hey's worker code; `gate` (tests): a function, as JS, called with each request before it is read (one that blocks stands for a hung mount). */
export const workerSource = (gate = "() => {}") => `const fs = require("node:fs");
const gate = ${gate};
const perform = ${perform.toString()};
const walks = { path: require("node:path"), real: ${resolveTarget.toString()}, links: ${hardLinkBelow.toString()} };
const leadsOnto = ${leadsOnto.toString()};
self.onmessage = (e) => {
  const sab = e.data;
  const ctl = new Int32Array(sab, 0, 8);
  Atomics.store(ctl, 5, 1);
  Atomics.notify(ctl, 5);
  for (;;) {
    Atomics.wait(ctl, 0, 0);
    Atomics.store(ctl, 0, 0);
    const req = JSON.parse(new TextDecoder().decode(new Uint8Array(sab, ${HEADER}, ctl[2]).slice()));
    // said before the read that may hang there: hey then waits a network mount's time, not a local disk's
    const onto = req.onto ? leadsOnto(fs, req.path, req.onto) : undefined;
    if (onto) { ctl[7] = onto.names; Atomics.store(ctl, 6, onto.point + 1); }
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
 * A worker and its buffer (one stuck in a read may still write its own); `made`: when; `cold`:
 * when its wait for its start ran out, if it did; `late`: the first thread of the process that had
 * not started when waited for (its reads run on hey's thread until it starts); `op`, `since`: the
 * read it is stuck in, and when it began; `mount`: the network or FUSE mount that read's path is on,
 * and `via`: the path, as written, whose link led there (`/p/data` of `/p/data/a`), when one did.
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
};

export const control = (r: Reader) => new Int32Array(r.shared, 0, 8);

/** A new worker running `code` (hey's own: workerSource()) with a buffer of at least `room` bytes, or why none could be made. */
export function freshReader(room: number, code = workerSource()): Reader | string {
  try {
    const shared = new SharedArrayBuffer(Math.max(room, HEADER + ANSWER_ROOM + (1 << 20)));
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: "application/javascript" })));
    (worker as Worker & { unref?: () => void }).unref?.();
    worker.postMessage(shared);
    return { worker, shared, made: Date.now(), started: false };
  } catch (e) {
    return (e as Error).message;
  }
}

/** Whether `r` has started, waiting for it at most `ms` (0: only looking). */
export const startedIn = (r: Reader, ms: number): boolean =>
  Atomics.load(control(r), 5) !== 0 || (ms > 0 && Atomics.wait(control(r), 5, 0, ms) !== "timed-out") || Atomics.load(control(r), 5) !== 0;
