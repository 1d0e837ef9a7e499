// A read's deadline is the clock's: a wait that returns before its time (a wake the thread did not
// ask for) must not spend the deadline. In the suite under load, checks failed in ~20 ms saying a
// path "did not answer in 60 s": the waits were counted as whole slices, not timed.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { boundedLstat, setWorkerSource, workerSource } from "../../src/fs/bounded-reads.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-early-wake-");
afterAll(() => {
  setWorkerSource(undefined);
  tmp.remove();
});

test("a read that answers within its deadline is taken, however often the wait for it wakes early", () => {
  const file = join(tmp.path, "notes.txt");
  writeFileSync(file, "notes\n");
  // the thread answers after 400 ms, within a 1.5 s deadline (no mount table: every path gets that deadline)
  setWorkerSource(workerSource(`(req) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400); }`), 1500, join(tmp.path, "no-mountinfo"));
  boundedLstat(tmp.path); // the thread started and working
  const real = Atomics.wait;
  let early = 0;
  // the first waits of the read wake at once, as a wait woken early does
  Atomics.wait = ((a: Int32Array, i: number, v: number, t?: number) =>
    t !== undefined && early++ < 6 ? "timed-out" : real(a, i, v, t)) as typeof Atomics.wait;
  try {
    expect(boundedLstat(file)).toMatchObject({ kind: "file", size: 6 });
  } finally {
    Atomics.wait = real;
  }
  expect(early).toBeGreaterThan(0);
});
