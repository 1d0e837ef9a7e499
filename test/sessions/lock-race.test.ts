// Two heys that take over the same stale lock at once (two `hey -c` started together after a
// crash): one of them must be refused, never both made the session's writer (lock.ts).
import { afterAll, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { lockSession, SessionLockedError, unlockSession } from "../../src/sessions/lock.ts";

const root = fs.mkdtempSync(join(tmpdir(), "hey-lock-race-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("a stale lock another hey replaced with its own right after this one judged it stale is left to that hey: this one is refused", () => {
  const path = join(root, "s.jsonl");
  const lock = `${path}.lock`;
  fs.writeFileSync(lock, "999999999\n"); // a crashed hey's: no such process
  const other = Bun.spawn(["sleep", "60"], { stdout: "ignore", stderr: "ignore" }); // the other hey, alive
  const real = fs.readFileSync;
  let raced = false;
  const spy = spyOn(fs, "readFileSync").mockImplementation(((file: fs.PathOrFileDescriptor, options?: unknown) => {
    const text = real(file, options as BufferEncoding);
    if (file === lock && !raced) {
      raced = true; // what this hey read was stale; the other hey takes the lock over before this one acts on it
      fs.unlinkSync(lock);
      fs.writeFileSync(lock, `${other.pid} ${hostname()}\n`);
    }
    return text;
  }) as typeof fs.readFileSync);
  try {
    expect(() => lockSession(path)).toThrow(SessionLockedError);
  } finally {
    spy.mockRestore();
    other.kill();
    unlockSession(path);
  }
  expect(raced).toBe(true);
  expect(fs.readFileSync(lock, "utf8")).toBe(`${other.pid} ${hostname()}\n`); // the other's lock stays
  expect(fs.readdirSync(root).filter((f) => f !== "s.jsonl.lock")).toEqual([]); // nothing set aside is left
});

test("a stale lock nobody else wants is taken over", () => {
  const path = join(root, "t.jsonl");
  fs.writeFileSync(`${path}.lock`, "999999999\n");
  lockSession(path);
  expect(fs.readFileSync(`${path}.lock`, "utf8").split(" ")[0]).toBe(String(process.pid));
  unlockSession(path);
  expect(fs.existsSync(`${path}.lock`)).toBe(false);
});
