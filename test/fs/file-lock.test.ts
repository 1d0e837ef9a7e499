// The lock hey's processes take around a shared record's read-modify-write (fs/file-lock.ts): one
// left by a hey that was killed is taken over, one a live hey keeps is waited for, then refused
// with a message naming the file and that hey, and this process's own updates take turns.
import { afterEach, beforeEach, expect, spyOn, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, symlinkSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { readApprovals, updateApprovals } from "../../src/config/approval-store.ts";
import { withConfigs } from "../../src/config/approvals.ts";
import { FileLockedError, withFileLock } from "../../src/fs/file-lock.ts";
import { OwnFileError } from "../../src/fs/own-files.ts";
import { tempDir } from "../helpers/e2e.ts";
import { until } from "../helpers/wait.ts";

let dir: ReturnType<typeof tempDir>;
let file: string;
const spawned: { kill(signal?: number | NodeJS.Signals): void }[] = [];
beforeEach(() => {
  dir = tempDir("hey-file-lock-");
  file = join(dir.path, "record.json");
});
afterEach(() => {
  for (const p of spawned.splice(0)) p.kill("SIGKILL");
  dir.remove();
});

/** A live process other than this one, to hold a lock. */
function liveProcess(): number {
  const p = Bun.spawn(["sleep", "60"], { stdout: "ignore", stderr: "ignore" });
  spawned.push(p);
  return p.pid;
}

const append = (text: string) => withFileLock(file, async () => writeFileSync(file, (existsSync(file) ? readFileSync(file, "utf8") : "") + text));

test.each([
  ["a dead process's", "999999999\n"],
  ["a dead process's, on this host", `999999999 ${hostname()}\n`],
  ["one torn by a crash while it was made", ""],
])("a lock left behind (%s) is taken over, and removed once the update is done", async (_, text) => {
  writeFileSync(`${file}.lock`, text);
  await append("x");
  expect(readFileSync(file, "utf8")).toBe("x");
  expect(readdirSync(dir.path)).toEqual(["record.json"]);
});

test("a lock left by a hey killed with kill -9 in the middle of an update is taken over", async () => {
  const script = `import { withFileLock } from ${JSON.stringify(join(import.meta.dir, "../../src/fs/file-lock.ts"))};
    await withFileLock(${JSON.stringify(file)}, () => new Promise(() => setInterval(() => {}, 1000)));`;
  const holder = Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "ignore" });
  spawned.push(holder);
  await until(() => existsSync(`${file}.lock`), "the holder's lock");
  expect(readFileSync(`${file}.lock`, "utf8").split(" ")[0]).toBe(String(holder.pid));
  holder.kill("SIGKILL");
  await holder.exited;
  await append("after");
  expect(readFileSync(file, "utf8")).toBe("after");
  expect(existsSync(`${file}.lock`)).toBe(false);
});

test("a lock a live hey keeps past the wait: refused, naming the file, the hey's pid and the lock to delete; nothing run, the lock left", async () => {
  const pid = liveProcess();
  writeFileSync(`${file}.lock`, `${pid} ${hostname()}\n`);
  let ran = false;
  const err = await withFileLock(file, async () => (ran = true), { waitMs: 50 }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FileLockedError);
  expect((err as Error).message).toBe(
    `${file} is being written by another hey (pid ${pid}) that has not finished in 1 s; try again once it has — if no other hey is running, delete ${file}.lock`,
  );
  expect(ran).toBe(false);
  expect(readFileSync(`${file}.lock`, "utf8")).toBe(`${pid} ${hostname()}\n`);
});

test("a lock whose hey finishes while this one waits: the update runs then", async () => {
  const holder = Bun.spawn(["sleep", "60"], { stdout: "ignore", stderr: "ignore" });
  spawned.push(holder);
  writeFileSync(`${file}.lock`, `${holder.pid} ${hostname()}\n`);
  const waiting = append("later");
  await Bun.sleep(30); // waiting now, whatever it costs: the update cannot run before the holder ends
  expect(existsSync(file)).toBe(false);
  holder.kill("SIGKILL");
  await waiting;
  expect(readFileSync(file, "utf8")).toBe("later");
});

test("approvals: a record another hey keeps locked is not written, and the error says which hey", async () => {
  const record = join(dir.path, "approvals.json");
  await updateApprovals(record, (a) => withConfigs(a, { "/a.toml": { mcp: {} } }));
  const pid = liveProcess();
  writeFileSync(`${record}.lock`, `${pid}\n`);
  // the wait is over at once: the clock jumps past it after the first look at the lock
  let now = Date.now();
  const clock = spyOn(Date, "now").mockImplementation(() => (now += 60_000));
  try {
    const err = await updateApprovals(record, (a) => withConfigs(a, { "/b.toml": { mcp: {} } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileLockedError);
    expect((err as Error).message).toStartWith(`${record} is being written by another hey (pid ${pid}) that has not finished in 5 s;`);
  } finally {
    clock.mockRestore();
  }
  expect(Object.keys(readApprovals(record)!.configs)).toEqual(["/a.toml"]);
});

test("updates of one file made at once in this process take turns: none is lost, and each sees the one before", async () => {
  await Promise.all(Array.from({ length: 20 }, (_, i) => append(`${i},`)));
  expect(
    readFileSync(file, "utf8")
      .split(",")
      .filter(Boolean)
      .map(Number)
      .sort((a, b) => a - b),
  ).toEqual(Array.from({ length: 20 }, (_, i) => i));
});

test("an update that throws: the error comes through and the lock is gone", async () => {
  await expect(withFileLock(file, async () => Promise.reject(new Error("disk full")))).rejects.toThrow("disk full");
  expect(existsSync(`${file}.lock`)).toBe(false);
  await append("next");
  expect(readFileSync(file, "utf8")).toBe("next");
});

test("a lock in a directory that is a link is refused, never made through it", async () => {
  mkdirSync(join(dir.path, "real"));
  symlinkSync(join(dir.path, "real"), join(dir.path, "linked"));
  await expect(withFileLock(join(dir.path, "linked", "task.md"), async () => {})).rejects.toThrow(OwnFileError);
  expect(readdirSync(join(dir.path, "real"))).toEqual([]);
});

test("a missing directory is made for the lock (the record's first write makes it too)", async () => {
  file = join(dir.path, "new", "state", "record.json");
  await withFileLock(file, async () => writeFileSync(file, "x"), { private: true });
  expect(readdirSync(join(dir.path, "new", "state"))).toEqual(["record.json"]);
});

test("a file system without hard links (FAT, some network mounts): the lock is made in place, and works", async () => {
  const fs = await import("node:fs");
  const noLinks = spyOn(fs, "linkSync").mockImplementation(() => {
    throw Object.assign(new Error("operation not supported"), { code: "ENOTSUP" });
  });
  try {
    await Promise.all([append("a"), append("b")]);
    const pid = liveProcess();
    writeFileSync(`${file}.lock`, `${pid}\n`);
    await expect(withFileLock(file, async () => {}, { waitMs: 20 })).rejects.toThrow(FileLockedError);
  } finally {
    noLinks.mockRestore();
  }
  expect(readFileSync(file, "utf8").split("").sort()).toEqual(["a", "b"]);
  expect(readdirSync(dir.path).sort()).toEqual(["record.json", "record.json.lock"]);
});
