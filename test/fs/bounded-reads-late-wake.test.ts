// A wake is not an answer: the thread stores its answer, then wakes hey; on a loaded machine the
// wake can come late, after hey has seen the answer by its state and asked the next read. That late
// wake used to be taken as the next read's answer: with none there, the check refused at once,
// saying the path "did not answer in 60 s" (seen in CI in a test that took 2 ms).
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { boundedLstat, setWorkerSource, workerSource } from "../../src/fs/bounded-reads.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-late-wake-");
afterAll(() => {
  setWorkerSource(undefined);
  tmp.remove();
});

test("a read asked while the thread's wake for the read before is still on its way waits for its own answer", () => {
  const first = join(tmp.path, "first.txt");
  const second = join(tmp.path, "second.txt");
  writeFileSync(first, "1\n");
  writeFileSync(second, "22\n");
  // the thread wakes hey 700 ms after storing each answer: hey, looking every 500 ms whether the thread is
  // still there, sees the first answer by its state and asks the second read before that wake arrives;
  // each read then takes the thread 200 ms, so no answer is there when that wake comes
  const late = workerSource("() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200)").replace(
    "Atomics.store(ctl, 1, 1);\n    Atomics.notify(ctl, 1);",
    "Atomics.store(ctl, 1, 1);\n    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700);\n    Atomics.notify(ctl, 1);",
  );
  expect(late).toContain("0, 700);");
  setWorkerSource(late, 10_000, join(tmp.path, "no-mountinfo"));
  boundedLstat(tmp.path); // the thread started: its late wake for this read is what the next one meets
  expect(boundedLstat(first)).toMatchObject({ kind: "file", size: 2 });
  expect(boundedLstat(second)).toMatchObject({ kind: "file", size: 3 });
});

test("a late wake for a read the thread has answered does not make it answer that read again in place of the next", () => {
  const first = join(tmp.path, "one.txt");
  const second = join(tmp.path, "three.txt");
  writeFileSync(first, "1\n");
  writeFileSync(second, "333\n");
  // each read takes the thread 300 ms
  setWorkerSource(workerSource("() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300)"), 10_000, join(tmp.path, "no-mountinfo"));
  boundedLstat(tmp.path); // the thread started and waiting for requests
  const notify = Atomics.notify;
  const wait = Atomics.wait;
  let armed = true;
  // hey's wake for the first read comes twice, the second time after the thread has answered it (as a
  // wake delayed on a loaded machine does), and hey asks the next read after the thread woke again
  Atomics.notify = ((a: Int32Array, i: number, n?: number) => {
    const woken = notify(a, i, n);
    if (i === 0 && armed) {
      armed = false;
      while (Atomics.load(a, 1) === 0) wait(a, 1, 0, 50);
      notify(a, 0);
      wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
    return woken;
  }) as typeof Atomics.notify;
  try {
    expect(boundedLstat(first)).toMatchObject({ kind: "file", size: 2 });
    expect(armed).toBe(false);
  } finally {
    Atomics.notify = notify;
  }
  expect(boundedLstat(second)).toMatchObject({ kind: "file", size: 4 });
});
