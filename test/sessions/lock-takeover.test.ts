// A hey stopped for a minute (Ctrl-Z, SIGSTOP, docker pause) may find, when it wakes, that another
// hey took its session's lock over as stale. It must not remove that lock when it closes or exits,
// nor refresh it, nor name itself as the holder: a third `hey -c` would then write beside the second.
import { afterAll, expect, setSystemTime, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { newId, userMessage } from "../../src/kernel/ir.ts";
import { holderOf, lockedByOther, lockSession, refreshLocks, unlockSession } from "../../src/sessions/lock.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";

const root = mkdtempSync(join(tmpdir(), "hey-takeover-"));
const other = Bun.spawn(["sleep", "60"]); // the live hey that took the lock over
afterAll(() => {
  other.kill();
  rmSync(root, { recursive: true, force: true });
});
const theirs = `${other.pid} ${hostname()}\n`;
let n = 0;
const session = () => join(mkdtempSync(join(root, `d${n++}-`)), "s.jsonl");

test("closing a session whose lock another hey took over leaves that hey's lock, and names it as the holder", () => {
  const path = session();
  lockSession(path);
  writeFileSync(`${path}.lock`, theirs); // taken over while this hey was stopped
  expect(holderOf(path)).toBe(`pid ${other.pid}`);
  expect(lockedByOther(path)).toBe(true);
  unlockSession(path);
  expect(readFileSync(`${path}.lock`, "utf8")).toBe(theirs);
});

test("the refresh leaves a taken-over lock's time alone, and still touches this hey's own", () => {
  const path = session();
  const mine = session();
  lockSession(path);
  lockSession(mine);
  writeFileSync(`${path}.lock`, theirs);
  const old = new Date(Date.now() - 120_000);
  utimesSync(`${path}.lock`, old, old);
  utimesSync(`${mine}.lock`, old, old);
  refreshLocks();
  expect(statSync(`${path}.lock`).mtimeMs).toBe(old.getTime());
  expect(statSync(`${mine}.lock`).mtimeMs).toBeGreaterThan(old.getTime());
  unlockSession(path);
  unlockSession(mine);
  expect(existsSync(`${mine}.lock`)).toBe(false);
});

test("a hey that exits holding a taken-over lock leaves it; its own locks go", async () => {
  const path = session();
  const mine = session();
  const lock = new URL("../../src/sessions/lock.ts", import.meta.url).pathname;
  const script = `import { lockSession } from ${JSON.stringify(lock)};
import { writeFileSync } from "node:fs";
lockSession(${JSON.stringify(path)});
lockSession(${JSON.stringify(mine)});
writeFileSync(${JSON.stringify(`${path}.lock`)}, ${JSON.stringify(theirs)});`;
  const child = Bun.spawn([process.execPath, "-e", script], { stderr: "pipe" });
  expect(await child.exited).toBe(0);
  expect(readFileSync(`${path}.lock`, "utf8")).toBe(theirs);
  expect(existsSync(`${mine}.lock`)).toBe(false);
});

test("woken after a minute stopped, with its lock taken over: the writer says who has the session before its next line, which is not written", () => {
  const dir = mkdtempSync(join(root, `w${n++}-`));
  const warnings: string[] = [];
  const w = createSessionWriter({ dir, id: newId(), cwd: "/work/app", version: "1.2.3", warn: (m) => warnings.push(m) });
  w.emit({ type: "turn_start", turn: 1 });
  w.emit({ type: "message", message: userMessage("fix the build") });
  writeFileSync(`${w.path}.lock`, theirs); // the other hey judged it stale while this one was stopped (Ctrl-Z)
  setSystemTime(new Date(Date.now() + 61_000)); // this hey wakes a minute later; the user types on, first thing
  try {
    w.emit({ type: "message", message: userMessage("and the tests") });
  } finally {
    setSystemTime();
  }
  expect(readFileSync(w.path, "utf8")).not.toContain("and the tests");
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(`is in use by another hey (pid ${other.pid})`);
  w.close();
  expect(readFileSync(`${w.path}.lock`, "utf8")).toBe(theirs);
});
