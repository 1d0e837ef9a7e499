// `/sessions prune`: like `/sessions`, it acts on this directory's sessions; `all` reaches every
// directory's. The answer says which and how many; a pruned session's bash outputs go with it.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Agent } from "../../src/agent.ts";
import { places } from "../../src/fs/places.ts";
import { newId, userMessage } from "../../src/kernel/ir.ts";
import { listSessions } from "../../src/sessions/listing.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { runCommand, type CommandContext } from "../../src/ui/commands.ts";
import { tempDir } from "../helpers/e2e.ts";

let root: ReturnType<typeof tempDir>;
let here: string;
let ctx: CommandContext;
const sessions = () => join(root.path, "state", "hey", "sessions");
const outputs = (id: string) => join(root.path, "cache", "hey", "outputs", id);

beforeEach(() => {
  root = tempDir("hey-prune-cmd-");
  here = join(root.path, "here");
  mkdirSync(here);
  const env = { XDG_STATE_HOME: join(root.path, "state"), XDG_CACHE_HOME: join(root.path, "cache") };
  ctx = { ...base, here: places(env, join(root.path, "home"), here, process.platform) };
});
afterEach(() => root.remove());

/** A saved session started in `cwd`, last used `ageDays` ago, with a bash output folder. */
function session(cwd: string, ageDays: number): string {
  const id = newId();
  const w = createSessionWriter({ dir: sessions(), id, cwd, version: "1.2.3", warn: () => {} });
  w.emit({ type: "message", message: userMessage("hi") });
  w.close();
  const t = (Date.now() - ageDays * 86_400_000) / 1000;
  utimesSync(w.path, t, t);
  mkdirSync(outputs(id), { recursive: true });
  return id;
}

const base = {
  agent: {} as Agent,
  signal: new AbortController().signal,
  terminal: undefined,
  providers: () => [],
  switchModel: async () => {},
  reload: async () => ({ ok: true, changes: [], errors: [], warnings: [] }),
  mcpStatus: async () => "",
  redact: (text: string) => text,
} as Omit<CommandContext, "here">;
const ids = () =>
  listSessions(sessions())
    .map((s) => s.id)
    .sort();

test("prune acts on this directory's sessions only, and says so; their outputs go with them", async () => {
  const mine = [session(here, 40), session(here, 50)];
  const fresh = session(here, 1);
  const theirs = session("/elsewhere", 40);
  expect(await runCommand("/sessions prune 30d", ctx)).toEqual({ text: "deleted 2 sessions of this directory older than 30 days", ok: true });
  expect(ids()).toEqual([fresh, theirs].sort());
  expect(mine.map((id) => existsSync(outputs(id)))).toEqual([false, false]);
  expect(existsSync(outputs(theirs))).toBe(true);
  expect((await runCommand("/sessions prune keep 1", ctx)).text).toBe("no sessions of this directory beyond the newest 1 to delete");
});

test("`all` reaches every directory's sessions", async () => {
  const mine = session(here, 40);
  const theirs = session("/elsewhere", 2);
  const newest = session("/elsewhere", 0);
  expect((await runCommand("/sessions prune all keep 1", ctx)).text).toBe("deleted 2 sessions of every directory beyond the newest 1");
  expect(ids()).toEqual([newest]);
  expect([mine, theirs].map((id) => existsSync(outputs(id)))).toEqual([false, false]);
  expect((await runCommand("/sessions prune all 1d", ctx)).text).toBe("no sessions of any directory older than 1 day to delete");
});

test("the session this hey is writing survives `prune 0d`, and the answer says it was kept", async () => {
  const earlier = session(here, 1 / 86_400); // a second ago: "older than 0 days" is last used before now
  const id = newId();
  const w = createSessionWriter({ dir: sessions(), id, cwd: here, version: "1.2.3", warn: () => {} });
  w.emit({ type: "message", message: userMessage("now") });
  const t = (Date.now() - 1000) / 1000; // last written a second ago: old enough for "older than 0 days"
  utimesSync(w.path, t, t);
  try {
    expect((await runCommand("/sessions prune 0d", ctx)).text).toBe(
      "deleted 1 session of this directory older than 0 days; kept 1 session a running hey is using (this one, or another)",
    );
    expect(ids()).toEqual([id]);
    expect(ids()).not.toContain(earlier);
  } finally {
    w.close();
  }
});

test("prune deletes the session files a crash left empty or NUL bytes only (they hold nothing), and says so; not one a live hey is about to write", async () => {
  const kept = session(here, 1);
  mkdirSync(sessions(), { recursive: true });
  const empty = join(sessions(), "0empty.jsonl");
  const nul = join(sessions(), "0nul.jsonl");
  const writing = join(sessions(), "0writing.jsonl");
  writeFileSync(empty, "");
  writeFileSync(nul, Buffer.alloc(300));
  writeFileSync(writing, "");
  writeFileSync(`${writing}.lock`, `${process.ppid} ${hostname()}\n`); // a live process holds it: its header is on the way
  expect((await runCommand("/sessions prune 30d", ctx)).text).toBe(
    "no sessions of this directory older than 30 days to delete; deleted 2 lost session files (empty or NUL bytes only: nothing to resume)",
  );
  expect([existsSync(empty), existsSync(nul), existsSync(writing)]).toEqual([false, false, true]);
  expect(ids()).toEqual([kept]);
});

test.each([
  "/sessions prune",
  "/sessions prune all",
  "/sessions prune 30",
  "/sessions prune keep",
  "/sessions prune all all 30d",
  "/sessions prune 30d all",
  "/sessions prune keep 2 3",
  "/sessions all prune 30d",
])("%p is refused, naming the forms", async (line) => {
  const r = await runCommand(line, ctx);
  expect(r.ok).toBe(false);
  expect(r.text).toBe(
    "hey: use /sessions [all], /sessions prune [all] 30d (delete those older than 30 days) or /sessions prune [all] keep 20 (all but the newest 20); without all, only this directory's sessions",
  );
});

test("`prune all keep 0` asks at the prompt (y/N) before it deletes every session; one-shot, or with no one to ask, it is refused", async () => {
  const all = [session(here, 3), session("/elsewhere", 2)].sort();
  const refusal = {
    ok: false,
    text: "hey: /sessions prune all keep 0 deletes every session of every directory: it asks first, at the interactive prompt (start hey at a terminal and type it there)",
  };
  expect(await runCommand("/sessions prune all keep 0", { ...ctx, oneShot: true })).toEqual(refusal);
  expect(await runCommand("/sessions prune all keep 0", ctx)).toEqual(refusal); // an agent's command: no question
  const asked: string[] = [];
  for (const answer of ["", "n", undefined]) {
    const said = await runCommand("/sessions prune all keep 0", { ...ctx, ask: async (q) => (asked.push(q), answer) });
    expect(said).toEqual({ ok: true, text: "nothing deleted" });
  }
  expect(ids()).toEqual(all);
  expect(asked[0]).toBe("delete every session of every directory (2)? (y/N) ");
  expect((await runCommand("/sessions prune all keep 0", { ...ctx, ask: async () => "y" })).text).toBe(
    "deleted 2 sessions of every directory beyond the newest 0",
  );
  expect(ids()).toEqual([]);
  session(here, 1);
  expect((await runCommand("/sessions prune keep 0", { ...ctx, oneShot: true })).text).toBe("deleted 1 session of this directory beyond the newest 0"); // this directory's only: as before
});
