// `hey -c` when another hey takes the newest free session at the same moment (sessions/open-session.ts):
// the session that looked free when listed is locked by then, so -c goes on to the next one, says
// which it continues only once it holds it, and fails only when every session is open elsewhere.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { places } from "../../src/fs/places.ts";
import { openSession } from "../../src/sessions/open-session.ts";
import { lockSession, SessionLockedError, unlockSession } from "../../src/sessions/lock.ts";
import { writeSession } from "../e2e/repl-helpers.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "hey-open-session-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("-c goes on past a session another hey locked after the listing, and says which it continues only once held", async () => {
  const state = join(root, "state");
  const here = places({ XDG_STATE_HOME: state }, join(root, "home"), root, "linux");
  const at = (id: string) => join(here.sessionsDir, `${id}.jsonl`);
  const older = writeSession(state, root, "the older question", "ok");
  const newer = writeSession(state, root, "the newer question", "ok");
  utimesSync(at(older), 1_000, 1_000);
  utimesSync(at(newer), 2_000, 2_000);
  // what a second hey started at the same moment does between this one's listing and its lock: here, in this
  // process, a lock the listing does not count as another hey's and the lock then refuses
  lockSession(at(newer));
  const said: string[] = [];
  try {
    const loaded = await openSession(here, undefined, true, false, (line) => said.push(line));
    expect(loaded?.path).toBe(at(older));
    expect(said.join("\n")).toContain(`continuing ${older}, the latest one that is not: “the older question”`);
    // every session taken: refused, as before, with the newest one's lock
    await expect(openSession(here, undefined, true, false, () => {})).rejects.toBeInstanceOf(SessionLockedError);
  } finally {
    unlockSession(at(newer));
    unlockSession(at(older));
  }
});

test("-c when every session here is open in another live hey: says so, how many and by which, and that hey without -c starts a new one, never to delete a lock", async () => {
  const state = join(root, "state-all");
  const here = places({ XDG_STATE_HOME: state }, join(root, "home"), root, "linux");
  const at = (id: string) => join(here.sessionsDir, `${id}.jsonl`);
  const ids = [writeSession(state, root, "session A", "ok"), writeSession(state, root, "session B", "ok")];
  // two other heys, alive: a lock holding only a live pid is theirs
  const others = ids.map(() => Bun.spawn(["sleep", "60"]));
  try {
    for (const [i, id] of ids.entries()) writeFileSync(`${at(id)}.lock`, `${others[i]!.pid}\n`);
    const refused = await openSession(here, undefined, true, false, () => {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SessionLockedError);
    const message = (refused as Error).message;
    expect(message).toStartWith("every session of this directory (2 of 2) is open in another hey (pid ");
    for (const other of others) expect(message).toContain(`pid ${other.pid}`);
    expect(message).toContain("`hey` without -c starts a new session");
    expect(message).not.toContain("delete");
  } finally {
    for (const other of others) other.kill();
    await Promise.all(others.map((o) => o.exited));
  }
});
