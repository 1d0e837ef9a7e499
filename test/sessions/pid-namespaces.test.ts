// Two heys in separate PID namespaces (containers, `unshare -p` sandboxes) that share a HOME and a
// hostname, each maybe pid 1: a pid in the other's lock means nothing here, so the lock is held,
// never judged stale (fs/file-lock.ts); and a writer whose session got lines from another writer
// after its answer's partial lines never cuts them off (sessions/writer.ts).
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { newId, userMessage } from "../../src/kernel/ir.ts";
import { LOCK_STALE_MS } from "../../src/fs/file-lock.ts";
import { lockSession, refreshLocks, unlockSession } from "../../src/sessions/lock.ts";
import { everyOneOpen } from "../../src/sessions/open-session.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";

const root = mkdtempSync(join(tmpdir(), "hey-pid-ns-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const linux = (() => {
  try {
    return {
      boot: readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(),
      ns: /\d+/.exec(readlinkSync("/proc/self/ns/pid"))![0],
      start: readFileSync(`/proc/${process.pid}/stat`, "latin1").split(") ")[1]!.split(" ")[19]!,
    };
  } catch {
    return undefined;
  }
})();

test("a lock made in another PID namespace is held, even with this hey's own pid and start time: refused as busy, left in place", () => {
  if (!linux) return; // no PID namespaces outside Linux
  const path = join(root, "a.jsonl");
  const theirs = `${process.pid} ${hostname()} ${linux.boot} ${linux.start} ${Number(linux.ns) + 1}\n`;
  writeFileSync(`${path}.lock`, theirs);
  expect(() => lockSession(path)).toThrow(/in use by another hey \(pid \d+ in another container or sandbox/);
  expect(readFileSync(`${path}.lock`, "utf8")).toBe(theirs);
});

test("a lock from another PID namespace left untouched past LOCK_STALE_MS is a hey gone with its container: taken over", () => {
  if (!linux) return;
  const path = join(root, "gone.jsonl");
  writeFileSync(`${path}.lock`, `1 ${hostname()} ${linux.boot} 5 ${Number(linux.ns) + 1}\n`);
  const then = new Date(Date.now() - LOCK_STALE_MS - 5000);
  utimesSync(`${path}.lock`, then, then);
  lockSession(path);
  expect(readFileSync(`${path}.lock`, "utf8")).toStartWith(`${process.pid} `);
  unlockSession(path);
});

test("a hey keeps the time of the session locks it holds moving, so a hey in another namespace sees them live", () => {
  const path = join(root, "held.jsonl");
  lockSession(path);
  const then = new Date(Date.now() - LOCK_STALE_MS - 5000);
  utimesSync(`${path}.lock`, then, then);
  refreshLocks(); // what its timer does every LOCK_REFRESH_MS
  expect(Date.now() - statSync(`${path}.lock`).mtimeMs).toBeLessThan(LOCK_STALE_MS);
  unlockSession(path);
});

test("this hey's lock says its PID namespace, and a lock of its own namespace whose process is gone is still taken over", () => {
  if (!linux) return;
  const path = join(root, "b.jsonl");
  writeFileSync(`${path}.lock`, `999999999 ${hostname()} ${linux.boot} 1 ${linux.ns}\n`);
  lockSession(path);
  expect(readFileSync(`${path}.lock`, "utf8")).toBe(`${process.pid} ${hostname()} ${linux.boot} ${linux.start} ${linux.ns}\n`);
  unlockSession(path);
});

test("an answer's partial lines are not cut off once another writer appended after them: that writer's lines stay", () => {
  const dir = join(root, "cut");
  const w = createSessionWriter({ dir, id: newId(), cwd: "/p", version: "1", warn: () => {} });
  w.emit({ type: "message", message: userMessage("job A") });
  w.emit({ type: "text_delta", text: "PARTIAL ANSWER" });
  const other = `${JSON.stringify({ type: "message", message: userMessage("job B") })}\n`;
  appendFileSync(w.path, other); // a hey that took the session meanwhile
  w.emit({ type: "message", message: { id: newId(), role: "assistant", content: [{ type: "text", text: "PARTIAL ANSWER rest" }] } });
  w.close();
  const text = readFileSync(w.path, "utf8");
  expect(text).toContain(other);
  expect(text).toContain("PARTIAL ANSWER rest");
});

test("`hey -c` refused by a hey in another container names the lock to delete should that hey be gone (none here can check it)", () => {
  const said = everyOneOpen(["s1"], ["pid 1 in another container or sandbox"], false, "/h/sessions");
  expect(said).toBe(
    "the one session of this directory, s1, is open in another hey (pid 1 in another container or sandbox); `hey` without -c starts a new session, or wait for one to finish — if that hey no longer runs, delete /h/sessions/s1.jsonl.lock",
  );
  expect(everyOneOpen(["s1"], ["pid 7"], false, "/h/sessions")).not.toContain("delete"); // checked alive here
});
