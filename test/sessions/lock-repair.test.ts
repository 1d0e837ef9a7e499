// One writer per session, and damaged headers (issue 13 row 14): a live lock refuses a second
// writer, a stale one is taken over; a damaged header is listed from what is left of it or
// reported, and repaired when the session is resumed.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { newId, textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { lockedByOther, lockSession, SessionLockedError, unlockSession } from "../../src/sessions/lock.ts";
import { findSession, listSessions, pruneSessions, scanSessions, unreadableNote } from "../../src/sessions/listing.ts";
import { loadSession, resumeSession } from "../../src/sessions/reader.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { HEY_STOPPED } from "../../src/kernel/turns.ts";
import { until } from "../helpers/wait.ts";

/** A question a resume found without an answer is followed by this marker (sessions/open-ends.ts). */
const UNANSWERED = `[interrupted: ${HEY_STOPPED}]`;

const root = mkdtempSync(join(tmpdir(), "hey-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dir = () => mkdtempSync(join(root, `d${n++}-`));

/** This boot's id, as locks record it where the system tells it (Linux). */
const bootId = existsSync("/proc/sys/kernel/random/boot_id") ? readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() : undefined;

/** This process's PID namespace (the inode of /proc/self/ns/pid), as locks record it on Linux. */
const pidNamespace = bootId ? /\d+/.exec(readlinkSync("/proc/self/ns/pid"))![0] : undefined;

/** When process `pid` started (field 22 of Linux's /proc/PID/stat), as locks record it. */
function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
}

/** The lock holds this process's pid, the host, the boot's id, when this process started and its PID namespace. */
function expectOurs(lock: string) {
  expect(readFileSync(lock, "utf8")).toBe(`${process.pid} ${hostname()}${bootId ? ` ${bootId} ${startTime(process.pid)} ${pidNamespace}` : ""}\n`);
}

/** A live process that is not this one, for a lock held by "another hey". */
function otherProcess() {
  const p = Bun.spawn(["sleep", "30"]);
  return { pid: p.pid, stop: () => p.kill() };
}

describe("the lock", () => {
  test("a second writer is refused while the first one lives; its lock names its pid", () => {
    const path = join(dir(), "s.jsonl");
    const other = otherProcess();
    try {
      writeFileSync(`${path}.lock`, `${other.pid} ${hostname()}\n`);
      expect(() => lockSession(path)).toThrow(SessionLockedError);
      expect(() => lockSession(path)).toThrow(
        `session s is in use by another hey (pid ${other.pid}); wait for it to finish or start a new session — if no other hey is running, delete ${path}.lock`,
      );
      expect(lockedByOther(path)).toBe(true);
    } finally {
      other.stop();
    }
  });

  test("a stale lock (its process is gone) or a torn one is taken over", async () => {
    for (const text of ["999999999 " + hostname() + "\n", "", "12"]) {
      const path = join(dir(), "s.jsonl");
      const gone = Bun.spawn(["true"]);
      await gone.exited;
      writeFileSync(`${path}.lock`, text === "12" ? `${gone.pid} ${hostname()}\n` : text);
      expect(lockedByOther(path)).toBe(false);
      lockSession(path);
      expectOurs(`${path}.lock`);
      unlockSession(path);
      expect(existsSync(`${path}.lock`)).toBe(false);
    }
  });

  test("a lock made before this machine last started (a crash, then a reboot) is stale, though its pid is some live process's now", () => {
    const path = join(dir(), "s.jsonl");
    const other = otherProcess(); // the process that has the dead hey's pid after the reboot
    try {
      writeFileSync(`${path}.lock`, `${other.pid} ${hostname()} ${bootId ?? "x"}\n`);
      expect(lockedByOther(path)).toBe(true); // made in this boot: its process lives
      writeFileSync(`${path}.lock`, `${other.pid} ${hostname()} 5f1c9b2e-0000-4000-8000-000000000000\n`);
      // where the system tells no boot id (not Linux), such a lock is respected: better refused than interleaved
      expect(lockedByOther(path)).toBe(bootId === undefined);
      if (bootId === undefined) return;
      lockSession(path);
      expectOurs(`${path}.lock`);
      unlockSession(path);
    } finally {
      other.stop();
    }
  });

  test("a lock whose pid another process has now (a container restarted, pids reused) is stale; the hey that made it still holds it", () => {
    if (bootId === undefined) return; // no start times to tell them apart: such a lock is respected, as above
    const path = join(dir(), "s.jsonl");
    const other = otherProcess();
    try {
      const started = startTime(other.pid);
      writeFileSync(`${path}.lock`, `${other.pid} ${hostname()} ${bootId} ${started}\n`);
      expect(lockedByOther(path)).toBe(true); // the process that made it
      writeFileSync(`${path}.lock`, `${other.pid} ${hostname()} ${bootId} ${Number(started) - 1}\n`);
      expect(lockedByOther(path)).toBe(false); // made by a process that started before this one
      lockSession(path);
      expectOurs(`${path}.lock`);
      unlockSession(path);
    } finally {
      other.stop();
    }
  });

  test("a lock its holder here takes again is not a second writer, another holder here is one; another host's is respected", () => {
    const path = join(dir(), "s.jsonl");
    const writer = {};
    lockSession(path, writer);
    lockSession(path, writer);
    expect(lockedByOther(path)).toBe(false);
    expect(() => lockSession(path, {})).toThrow(`session s is in use by another writer in this process (pid ${process.pid})`);
    unlockSession(path); // not the writer's: its lock stays
    expect(existsSync(`${path}.lock`)).toBe(true);
    unlockSession(path, writer);
    writeFileSync(`${path}.lock`, `${process.pid} build-box-7\n`);
    expect(() => lockSession(path)).toThrow(`(pid ${process.pid} on build-box-7)`);
  });

  test("the writer takes the lock when it opens the file and gives it up on close", () => {
    const d = dir();
    const w = createSessionWriter({
      dir: d,
      id: "s1",
      cwd: "/",
      version: "1",
      warn: (m) => {
        throw new Error(m);
      },
    });
    w.emit({ type: "message", message: userMessage("hi") });
    expect(readFileSync(join(d, "s1.jsonl.lock"), "utf8")).toStartWith(`${process.pid} `);
    w.close();
    expect(existsSync(join(d, "s1.jsonl.lock"))).toBe(false);
  });

  test("a link as the lock file is never written through", () => {
    const path = join(dir(), "s.jsonl");
    const target = join(root, `target-${n++}`);
    symlinkSync(target, `${path}.lock`);
    lockSession(path); // a dangling link holds no pid: stale, replaced by a real lock
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(`${path}.lock`).isFile()).toBe(true);
    unlockSession(path);
  });
});

describe("damaged headers", () => {
  const header = (id: string, cwd: string) => toLine({ type: "header", id, cwd, created: "2026-01-02T03:04:05.000Z", version: "0.1.0" });
  const message = (m: Message) => toLine({ type: "message", message: m });
  const first = userMessage("fix the parser");
  const answer: Message = { id: newId(), role: "assistant", content: [{ type: "text", text: "Fixed." }] };

  test("listed from what is left of the header; resuming rewrites it in place", () => {
    const d = dir();
    const path = join(d, "abc.jsonl");
    const good = header("abc", "/work/app");
    const damaged = good.replace('"type":"header"', '"type":"he\u0000der"'); // one byte flipped
    writeFileSync(path, damaged + message(first) + message(answer));
    expect(() => loadSession(path)).toThrow("is not a hey session");
    const { sessions, unreadable } = scanSessions(d);
    expect(unreadable).toEqual([]);
    expect(sessions).toEqual([expect.objectContaining({ id: "abc", cwd: "/work/app", firstPrompt: "fix the parser", damaged: true })]);

    const resumed = resumeSession(path, "/elsewhere");
    expect(resumed.warnings[0]).toBe(`${path}: the session's header was damaged; repaired (directory /work/app)`);
    expect(resumed.messages).toEqual([first, answer]);
    const text = readFileSync(path, "utf8");
    expect(text.length).toBe((damaged + message(first) + message(answer)).length); // in place: nothing moved
    expect(JSON.parse(text.split("\n")[0]!)).toMatchObject({ type: "header", id: "abc", cwd: "/work/app" });
    expect(loadSession(path).warnings).toEqual([]);
    unlockSession(path);
  });

  test("a header with no directory left is reported, and --resume repairs it with the current one", () => {
    const d = dir();
    const path = join(d, "xyz.jsonl");
    writeFileSync(path, '{"type":"hea\n' + message(first) + message(answer)); // torn: shorter than any header
    const { sessions, unreadable } = scanSessions(d);
    expect(sessions).toEqual([]);
    expect(unreadable).toEqual([{ id: "xyz", path, modified: expect.any(Number) }]);
    expect(unreadableNote(unreadable)).toBe(
      `a session file has a damaged header and cannot be listed: ${path}; \`hey --resume ID\` opens one in this directory and repairs it`,
    );
    expect(findSession(d, "xy").path).toBe(path);

    const resumed = resumeSession(path, "/work/here");
    expect(resumed.header).toMatchObject({ id: "xyz", cwd: "/work/here", version: "unknown" });
    expect(resumed.messages).toEqual([first, answer]);
    expect(scanSessions(d).sessions.map((s) => s.cwd)).toEqual(["/work/here"]);
    unlockSession(path);
  });

  test("a missing header (the file starts with an entry) gets one in front; other JSONL is not touched", () => {
    const d = dir();
    const path = join(d, "m.jsonl");
    writeFileSync(path, message(first) + message(answer));
    expect(resumeSession(path, "/w").messages).toEqual([first, answer]);
    unlockSession(path);
    const foreign = join(d, "other.jsonl");
    writeFileSync(foreign, '{"event":"click"}\n{"event":"scroll"}\n');
    expect(() => resumeSession(foreign, "/w")).toThrow("is not a hey session");
    expect(readFileSync(foreign, "utf8")).toBe('{"event":"click"}\n{"event":"scroll"}\n');
    expect(existsSync(`${foreign}.lock`)).toBe(false);
  });

  test("a session file that is a link is refused by name", () => {
    const d = dir();
    writeFileSync(join(d, "real"), header("lnk", "/w"));
    symlinkSync(join(d, "real"), join(d, "lnk.jsonl"));
    expect(() => findSession(d, "lnk")).toThrow("lnk.jsonl is a symbolic link; hey does not follow links for its own files");
    expect(() => loadSession(join(d, "lnk.jsonl"))).toThrow("symbolic link");
  });
});

describe("leftovers of a hey killed mid-copy", () => {
  /** What a session file holds: its header, then the user's prompt. */
  const sessionText = (id: string, prompt: string) =>
    toLine({ type: "header", id, cwd: "/here", created: "2026-01-01T00:00:00.000Z", version: "1" }) + toLine({ type: "message", message: userMessage(prompt) });

  test("a header repair's copy whose hey is gone is removed when the directory is listed or pruned; one a live hey is making stays", async () => {
    const d = dir();
    const dead = Bun.spawn(["true"]);
    await dead.exited; // its pid names no process now
    const sleeper = Bun.spawn(["sleep", "30"]);
    const other = { pid: sleeper.pid };
    try {
      const big = Buffer.alloc(64 * 1024, "x");
      const name = (id: string, pid: number) => join(d, `${id}.jsonl.repair-${pid}`);
      for (const id of ["a", "c", "d", "e"]) writeFileSync(join(d, `${id}.jsonl`), sessionText(id, `prompt ${id}`));
      writeFileSync(name("a", dead.pid), big); // killed: no lock left that names it
      writeFileSync(name("c", other.pid), big); // a live process, but it holds no lock: its pid is reused
      writeFileSync(name("d", other.pid), big); // a live hey that holds the session is copying it
      writeFileSync(join(d, "d.jsonl.lock"), `${other.pid} ${hostname()}${bootId ? ` ${bootId}` : ""}\n`);
      writeFileSync(name("e", other.pid), big); // its lock is from before the last boot
      writeFileSync(join(d, "e.jsonl.lock"), `${other.pid} ${hostname()} not-this-boot\n`);
      writeFileSync(join(d, "notes.jsonl.repair-x"), "not hey's name"); // not one of hey's: left alone
      scanSessions(d);
      const left = () =>
        readdirSync(d)
          .filter((f) => f.includes(".jsonl.repair"))
          .sort();
      expect(left()).toEqual([`d.jsonl.repair-${other.pid}`, ...(bootId ? [] : [`e.jsonl.repair-${other.pid}`]), "notes.jsonl.repair-x"]);
      sleeper.kill();
      await sleeper.exited; // that hey is killed: its lock, left behind, is stale
      pruneSessions(d, { cwd: undefined, keep: 10 });
      expect(left()).toEqual(["notes.jsonl.repair-x"]);
      expect(
        listSessions(d)
          .map((s) => s.firstPrompt)
          .sort(),
      ).toEqual(["prompt a", "prompt c", "prompt d", "prompt e"]); // the sessions as they were
    } finally {
      sleeper.kill();
    }
  });

  test("a stale lock set aside by a hey killed before it removed it is removed when the directory is listed", async () => {
    const d = dir();
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    writeFileSync(join(d, "s.jsonl"), sessionText("s", "kept"));
    writeFileSync(join(d, `s.jsonl.lock.stale-${dead.pid}`), "999999999\n");
    expect(listSessions(d).map((s) => s.firstPrompt)).toEqual(["kept"]);
    expect(readdirSync(d)).toEqual(["s.jsonl"]);
  });

  test("a lock written but not linked in place by a hey killed between the two is removed when listed; a running hey's is left", async () => {
    const d = dir();
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    writeFileSync(join(d, "s.jsonl"), sessionText("s", "kept"));
    writeFileSync(join(d, `s.jsonl.lock.new-${dead.pid}`), `${dead.pid} host\n`);
    writeFileSync(join(d, `s.jsonl.lock.new-${process.pid}`), `${process.pid} host\n`); // being made, by a hey that runs
    expect(listSessions(d).map((s) => s.firstPrompt)).toEqual(["kept"]);
    expect(readdirSync(d).sort()).toEqual(["s.jsonl", `s.jsonl.lock.new-${process.pid}`]);
  });

  test("a write-back's copy whose hey is gone becomes the session again (its file was deleted): nothing lost; one linked already just goes", async () => {
    const d = dir();
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const copy = (id: string) => join(d, `${id}.jsonl.restore-${dead.pid}`);
    writeFileSync(copy("gone"), `${sessionText("gone", "the only copy")}{"type":"message","mess`); // killed mid-copy
    writeFileSync(join(d, "linked.jsonl"), sessionText("linked", "whole"));
    linkSync(join(d, "linked.jsonl"), copy("linked")); // killed after the link, before the copy's name went
    writeFileSync(join(d, "taken.jsonl"), sessionText("taken", "another file took the name"));
    writeFileSync(copy("taken"), sessionText("taken", "the conversation written back"));
    const listed = listSessions(d);
    expect(readdirSync(d).filter((f) => f.includes(".restore-"))).toEqual([]);
    expect(listed.map((s) => s.firstPrompt).sort()).toEqual(["another file took the name", "the conversation written back", "the only copy", "whole"]);
    const back = listed.find((s) => s.firstPrompt === "the conversation written back")!;
    expect(back.id).not.toBe("taken"); // a new id: the file with its name is left as it is
    expect(loadSession(join(d, "gone.jsonl")).messages.map((m) => textOf(m))).toEqual(["the only copy", UNANSWERED]);
  });
});

test("a lock whose hey is a zombie (killed with kill -9, not yet reaped: in a container whose first process reaps nothing, never) is stale", async () => {
  if (bootId === undefined) return; // no /proc to tell a zombie by: such a lock is respected
  const d = dir();
  const path = join(d, "s.jsonl");
  // a child that no one reaps: its parent becomes a sleep (exec replaces the shell), and only then
  // (the `go` file) does the child exit — had it exited before the exec, the shell could reap it
  const go = join(d, "go");
  const parent = Bun.spawn(["sh", "-c", `(while [ ! -e ${go} ]; do sleep 0.01; done) & echo $! > ${join(d, "pid")}; exec sleep 30`]);
  try {
    await until(() => existsSync(join(d, "pid")) && readFileSync(join(d, "pid"), "utf8").endsWith("\n"), "the child's pid");
    await until(() => readFileSync(`/proc/${parent.pid}/comm`, "utf8").trim() === "sleep", "the shell to become the sleep");
    writeFileSync(go, "");
    const zombie = Number(readFileSync(join(d, "pid"), "utf8").trim());
    await until(() => /^Z/.test(readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1] ?? ""), "the child to be a zombie");
    writeFileSync(`${path}.lock`, `${zombie} ${hostname()} ${bootId}\n`);
    expect(lockedByOther(path)).toBe(false);
  } finally {
    parent.kill();
  }
});
