// A file another program holds open on Windows (x79 #4): the rename over it is tried again a few
// times with growing waits, and when it is still refused the reader is told which file, why, that
// nothing was lost and what to do, never a temporary file's name. Elsewhere nothing changes.
import { expect, test } from "bun:test";
import { BUSY_RENAME_WAITS_MS, FileInUseError, renameRetrying } from "../../src/fs/busy-rename.ts";

const FILE = "C:\\work\\proj\\src\\held.txt";
const errno = (code: string) =>
  Object.assign(new Error(`${code}: operation not permitted, rename 'C:\\work\\proj\\src\\.held.txt.32.50ecff7c.tmp' -> '${FILE}'`), { code });

/** A rename refused with `code` its first `refusals` times, then done; it counts its tries. */
function refusedRename(refusals: number, code = "EPERM") {
  const state = { tries: 0, done: false };
  const rename = () => {
    state.tries++;
    if (state.tries <= refusals) throw errno(code);
    state.done = true;
  };
  return { state, rename };
}

/** A sleep that records what it was asked to wait and returns at once. */
function recordedSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

test.each(["EPERM", "EACCES", "EBUSY"])("on Windows a rename refused with %s three times is done on the fourth try, the waits growing", async (code) => {
  const { state, rename } = refusedRename(3, code);
  const { waits, sleep } = recordedSleep();
  await renameRetrying(rename, FILE, "win32", sleep);
  expect(state).toEqual({ tries: 4, done: true });
  expect(waits).toEqual([10, 20, 40]);
});

test("on Windows a rename refused at every try says which file, why, that nothing was lost and what to do", async () => {
  const { state, rename } = refusedRename(Number.POSITIVE_INFINITY);
  const { waits, sleep } = recordedSleep();
  const error = await renameRetrying(rename, FILE, "win32", sleep).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FileInUseError);
  const { message } = error as FileInUseError;
  expect(message).toStartWith(`${FILE} is not changed`);
  expect(message).toContain("another program has it open");
  expect(message).toContain("Nothing was lost");
  expect(message).toContain("Close it in that program");
  expect(message).not.toContain(".tmp");
  expect((error as FileInUseError).code).toBe("EPERM");
  expect(state.tries).toBe(BUSY_RENAME_WAITS_MS.length + 1);
  // bounded: the model is not kept waiting long on a file that stays open
  const waited = waits.reduce((a, b) => a + b, 0);
  expect(waited).toBeGreaterThanOrEqual(1000);
  expect(waited).toBeLessThanOrEqual(2000);
  expect(waits).toEqual([...waits].sort((a, b) => a - b));
});

test.each(["linux", "darwin"])("on %s a refused rename fails at once with its own error, as before", async (platform) => {
  const { state, rename } = refusedRename(1);
  const { waits, sleep } = recordedSleep();
  const error = await renameRetrying(rename, "/work/proj/held.txt", platform, sleep).catch((e: unknown) => e);
  expect(error).not.toBeInstanceOf(FileInUseError);
  expect((error as Error).message).toStartWith("EPERM: operation not permitted, rename");
  expect(state).toEqual({ tries: 1, done: false });
  expect(waits).toEqual([]);
});

test("on Windows other failures are not tried again: a full disk, or the file changed since it was read", async () => {
  const { sleep, waits } = recordedSleep();
  const full = await renameRetrying(() => Promise.reject(errno("ENOSPC")), FILE, "win32", sleep).catch((e: unknown) => e);
  expect((full as Error).message).toStartWith("ENOSPC");
  // the check before each try (writeFileAtomic's `unchanged`) throws an error without a code: kept as it is
  let tries = 0;
  const changed = await renameRetrying(
    () => {
      tries++;
      if (tries === 1) throw errno("EPERM");
      throw new Error("it changed while it was being written");
    },
    FILE,
    "win32",
    sleep,
  ).catch((e: unknown) => e);
  expect((changed as Error).message).toBe("it changed while it was being written");
  expect(tries).toBe(2);
  expect(waits).toEqual([10]);
});

test("an async rename is awaited at each try", async () => {
  let tries = 0;
  const { sleep } = recordedSleep();
  await renameRetrying(
    async () => {
      tries++;
      if (tries < 3) throw errno("EBUSY");
    },
    FILE,
    "win32",
    sleep,
  );
  expect(tries).toBe(3);
});
