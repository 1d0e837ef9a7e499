// hey's thread for disk reads can end by itself (an error its code did not catch, an exit): a check
// waiting for its answer waited the whole local-disk deadline (15 deadlines: 30 s in hey, and 15
// minutes under the tests' patient deadline, where a CI run stopped with no thread left), then kept
// refusing. A thread that ended is now seen within half a second, its read is asked of a fresh
// thread, and an error thrown while reading is that read's answer rather than the thread's end.
import { afterAll, afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { boundedLstat, setWorkerSource, stuckReads, workerSource } from "../../src/fs/bounded-reads.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-thread-ends-");
afterEach(() => setWorkerSource(undefined));
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const project = join(root, "project");
mkdirSync(project);
writeFileSync(join(project, "a.txt"), "a\n");
/** a mount table with no network mount: every path is on the local disk, whose reads wait longest */
const localTable = join(root, "mountinfo");
writeFileSync(localTable, "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n");
const DEADLINE = 2000; // a local read waits LOCAL_TIMES as long: 30 s

/** hey's worker whose thread exits at a read of a path holding `gone` — once if `once` names a file it takes, else every time */
const exitingAt = (once?: string) =>
  workerSource(
    `(req) => { if (!req.path.includes("gone")) return; ${once ? `try { fs.rmSync(${JSON.stringify(once)}); } catch { return; }` : ""} process.exit(3); }`,
  );

test("a thread that ends during a read is not waited for: the read is asked of a fresh thread, and a second end is said", () => {
  const taken = join(root, "exit-once");
  writeFileSync(taken, "");
  setWorkerSource(exitingAt(taken), DEADLINE, localTable);
  expect(boundedLstat(join(project, "a.txt")).kind).toBe("file"); // a thread has started and read
  // the first thread exits in this read; a fresh one answers it (the path does not exist: the system's own answer)
  expect(() => boundedLstat(join(project, "gone.txt"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  expect(existsSync(taken)).toBe(false);
  expect(stuckReads()).toBe(0); // an ended thread holds no read
  // every thread exits at it: the read fails naming why, not "did not answer in 30 s (a hung disk…)"
  setWorkerSource(exitingAt(), DEADLINE, localTable);
  expect(boundedLstat(join(project, "a.txt")).kind).toBe("file");
  expect(() => boundedLstat(join(project, "gone.txt"))).toThrow(`${project}/gone.txt was not read: hey's thread for reads ended before answering (it is gone)`);
  expect(stuckReads()).toBe(0);
  // and the next read has a fresh thread
  expect(boundedLstat(join(project, "a.txt")).kind).toBe("file");
});

test("an error thrown while reading is that read's answer: the thread goes on reading", () => {
  setWorkerSource(workerSource(`(req) => { if (req.path.includes("boom")) throw new Error("unexpected"); }`), DEADLINE, localTable);
  expect(() => boundedLstat(join(project, "boom.txt"))).toThrow("hey's thread for reads failed: unexpected");
  expect(boundedLstat(join(project, "a.txt")).kind).toBe("file");
  expect(stuckReads()).toBe(0);
});
