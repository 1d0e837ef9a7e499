// The session writer, listing, lookup and pruning (SPEC §19), against real temp directories.
import { afterEach, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { newId, textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { formatSessionList, TORN_END, type SessionInfo } from "../../src/sessions/format.ts";
import { findSession, listSessions, pruneSessions } from "../../src/sessions/listing.ts";
import { sessionsHere } from "../../src/sessions/scope.ts";
import { lockSession, unlockSession } from "../../src/sessions/lock.ts";
import { appendEndedJobs } from "../../src/sessions/ended-jobs.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { HEY_STOPPED } from "../../src/kernel/turns.ts";
import { cutToWidth } from "../../src/ui/wrap.ts";

/** A question a resume found without an answer is followed by this marker (sessions/open-ends.ts). */
const UNANSWERED = `[interrupted: ${HEY_STOPPED}]`;

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hey-sessions-"));
  temps.push(dir);
  return dir;
}

const usage = {
  type: "usage" as const,
  input_tokens: 10,
  output_tokens: 5,
  cache_read_tokens: 2,
  cache_write_tokens: 1,
  reasoning_tokens: 3,
  cache_hit_share: 0.2,
};
const assistant = (text: string): Message => ({ id: newId(), role: "assistant", content: [{ type: "text", text }] });
const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function writer(dir: string, id = newId(), warn: (m: string) => void = () => {}) {
  return createSessionWriter({ dir: join(dir, "sessions"), id, cwd: "/home/u/project", version: "1.2.3", warn });
}

/** A session written by the writer, its mtime set to `ageDays` ago. */
function session(dir: string, cwd: string, prompt: string, ageDays = 0): string {
  const id = newId();
  const w = createSessionWriter({ dir, id, cwd, version: "1.2.3", warn: () => {} });
  w.emit({ type: "message", message: userMessage(prompt) });
  w.close();
  const t = (Date.now() - ageDays * 86_400_000) / 1000;
  utimesSync(w.path, t, t);
  return id;
}

describe("writer", () => {
  test("creates nothing until the first message", () => {
    const dir = tempDir();
    const w = writer(dir);
    w.model("openai", "gpt-x");
    for (const e of [
      { type: "session", id: "s", provider: "p", model: "m", cwd: "/" },
      { type: "turn_start", turn: 1 },
      usage,
      { type: "done", stop_reason: "end", turns: 1, usage },
    ] as AgentEvent[])
      w.emit(e);
    w.sync();
    w.close();
    expect(existsSync(w.path)).toBe(false);
    expect(existsSync(join(dir, "sessions"))).toBe(false);
  });

  test("writes the header, the model, then one entry per message, usage and summary, each with an id", () => {
    const dir = tempDir();
    const id = newId();
    const w = writer(dir, id);
    w.model("anthropic", "claude-x");
    const user = userMessage("hello");
    const reply = assistant("hi");
    w.emit({ type: "turn_start", turn: 1 });
    w.emit({ type: "message", message: user });
    w.emit({ type: "text_delta", text: "hi" });
    w.emit({ type: "message", message: reply });
    w.emit(usage);
    const compaction = (kind: string) => ({ type: "compaction", kind, from_id: user.id, to_id: reply.id, summary: "they said hello" }) as unknown as AgentEvent;
    w.emit(compaction("summary"));
    w.emit(compaction("prune")); // only summaries are persisted
    w.model("anthropic", "claude-x"); // unchanged: no entry
    w.model("openai", "gpt-x");
    w.emit({ type: "done", stop_reason: "end", turns: 1, usage });
    w.close();

    expect(w.path).toBe(join(dir, "sessions", `${id}.jsonl`));
    const [header, ...entries] = lines(w.path);
    expect(header).toEqual({ type: "header", id, cwd: "/home/u/project", created: expect.any(String), version: "1.2.3" });
    expect(new Date(header!.created as string).toISOString()).toBe(header!.created as string);
    expect(entries.map((e) => e.type)).toEqual(["model", "message", "message", "usage", "compaction", "model"]);
    expect(entries[0]).toEqual({ type: "model", id: expect.any(String), provider: "anthropic", model: "claude-x" });
    expect(entries[1]).toEqual({ type: "message", message: user });
    expect(entries[3]).toEqual({
      type: "usage",
      id: expect.any(String),
      input_tokens: 10,
      output_tokens: 5,
      cache_read_tokens: 2,
      cache_write_tokens: 1,
      reasoning_tokens: 3,
    });
    expect(entries[4]).toEqual({ type: "compaction", id: expect.any(String), from_id: user.id, to_id: reply.id, summary: "they said hello" });
    const ids = entries.map((e) => (e.type === "message" ? (e.message as Message).id : e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((i) => typeof i === "string" && i.length > 0)).toBe(true);
  });

  test("each entry is in the file as soon as it is emitted", () => {
    const w = writer(tempDir());
    for (let i = 1; i <= 3; i++) {
      w.emit({ type: "message", message: userMessage(`m${i}`) });
      expect(lines(w.path)).toHaveLength(1 + i); // read while the writer is still open
    }
    w.emit(usage);
    expect(lines(w.path)).toHaveLength(5);
    w.close();
  });

  test("resuming appends to the existing file without a second header", () => {
    const dir = tempDir();
    const id = newId();
    const first = writer(dir, id);
    first.emit({ type: "message", message: userMessage("one") });
    first.close();
    appendFileSync(first.path, '{"type":"message","mess'); // a crash mid-write
    const again = writer(dir, id);
    again.emit({ type: "message", message: userMessage("two") });
    again.close();
    again.emit({ type: "message", message: userMessage("three") }); // after close: opens again
    again.close();
    const text = readFileSync(again.path, "utf8").split("\n");
    expect(text.filter((l) => l.includes('"type":"header"'))).toHaveLength(1);
    expect(text[2]).toBe(`{"type":"message","mess${TORN_END}`); // the torn line stays alone on its line, marked as known
    expect(text.filter((l) => l.includes('"role":"user"')).map((l) => JSON.parse(l).message.content[0].text)).toEqual(["one", "two", "three"]);
    expect(loadSession(again.path).warnings).toEqual([]); // said by the resume that found it, not by every one after
  });

  test("a last entry that lost only its newline is ended with one, unmarked: it is loaded, not taken for a torn line", () => {
    const dir = tempDir();
    const id = newId();
    const first = writer(dir, id);
    first.emit({ type: "message", message: userMessage("one") });
    first.close();
    const whole = readFileSync(first.path, "utf8");
    writeFileSync(first.path, whole.slice(0, -1)); // a crash between the entry and its newline
    const again = writer(dir, id);
    again.emit({ type: "message", message: userMessage("two") });
    again.close();
    expect(readFileSync(again.path, "utf8").startsWith(whole)).toBe(true);
    expect(loadSession(again.path).messages.map(textOf)).toEqual(["one", "two", UNANSWERED]);
  });

  test("files are private to the user", () => {
    const w = writer(tempDir());
    w.emit({ type: "message", message: userMessage("x") });
    w.close();
    expect(statSync(w.path).mode & 0o777).toBe(0o600);
  });

  test("nothing but the entry fields is written: secrets in other events never reach the file", () => {
    const secret = "sk-live-0123456789abcdef";
    const w = writer(tempDir());
    const events: AgentEvent[] = [
      { type: "session", id: "s", provider: "openai", model: `m ${secret}`, cwd: "/" },
      { type: "message", message: userMessage("hi") },
      { type: "retry", attempt: 1, delay_ms: 10, error: `401 from server, request headers {"authorization":"Bearer ${secret}"}` },
      { type: "error", kind: "auth", message: `x-api-key: ${secret}` },
      { type: "thinking_delta", text: secret }, // (an answer's words are saved, as its message is: stopped-mid-turn.test.ts)
      { type: "tool_call", id: "c", name: "bash", arguments: secret },
      { type: "tool_result", id: "c", name: "bash", ok: true, output: secret },
      { ...usage, api_key: secret } as AgentEvent,
      { type: "compaction", kind: "summary", from_id: "a", to_id: "b", summary: "s", headers: { authorization: secret } } as unknown as AgentEvent,
      { type: "done", stop_reason: "end", turns: 1, usage },
    ];
    for (const e of events) w.emit(e);
    w.close();
    const text = readFileSync(w.path, "utf8");
    expect(text).not.toContain(secret);
    expect(lines(w.path).map((e) => e.type)).toEqual(["header", "message", "usage", "compaction"]);
  });
});

test("the effort is kept with the model: an /effort change writes the model entry again, and a resume reads the latest effort with the window an earlier entry learned", () => {
  const dir = tempDir();
  const w = writer(dir);
  w.model("p", "m", "low");
  w.emit({ type: "message", message: userMessage("hi") });
  w.emit({ type: "message", message: assistant("hello") });
  w.emit({ type: "compaction", kind: "window", window: 8000 } as unknown as AgentEvent); // a context-length error taught the window
  w.emit({ type: "model", provider: "p", model: "m", effort: "high" }); // /effort high
  w.emit({ type: "model", provider: "p", model: "m", effort: "high" }); // the same again: no entry
  w.close();
  expect(
    lines(w.path)
      .filter((e) => e.type === "model")
      .map(({ id: _id, ...e }) => e),
  ).toEqual([
    { type: "model", provider: "p", model: "m", effort: "low" },
    { type: "model", provider: "p", model: "m", effort: "low", window: 8000 },
    { type: "model", provider: "p", model: "m", effort: "high" },
  ]);
  expect(loadSession(w.path).model).toEqual({ provider: "p", model: "m", window: 8000, effort: "high" });

  // back to the provider's default: the entry names no effort, and neither does the resume
  const again = writer(dir);
  again.model("p", "m", "high");
  again.emit({ type: "message", message: userMessage("hi") });
  again.emit({ type: "model", provider: "p", model: "m" });
  again.close();
  expect(loadSession(again.path).model).toEqual({ provider: "p", model: "m" });
});

describe("writer failures warn once and the conversation goes on", () => {
  const asRoot = process.getuid?.() === 0; // root writes into a 0555 directory anyway

  function expectQuietFailure(dir: string, id: string, reason: RegExp) {
    const warnings: string[] = [];
    const w = createSessionWriter({ dir, id, cwd: "/", version: "1", warn: (m) => warnings.push(m) });
    w.model("p", "m");
    expect(() => {
      for (let i = 0; i < 5; i++) {
        w.emit({ type: "turn_start", turn: i });
        w.emit({ type: "message", message: userMessage(`m${i}`) });
        w.emit(usage);
        w.emit({ type: "done", stop_reason: "end", turns: i, usage });
      }
      w.model("p", "other");
      w.sync();
      w.close();
    }).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(w.path);
    expect(warnings[0]).toMatch(reason);
  }

  test(asRoot ? "a session path that cannot be opened (a directory: running as root)" : "a read-only directory", () => {
    const dir = tempDir();
    const id = newId();
    if (asRoot) mkdirSync(join(dir, `${id}.jsonl`));
    else chmodSync(dir, 0o555);
    expectQuietFailure(dir, id, asRoot ? /EISDIR|directory/i : /EACCES|permission/i);
  });

  test("a session file that is a symbolic link is refused, never written through", () => {
    const dir = tempDir();
    const id = newId();
    const target = join(dir, "elsewhere");
    writeFileSync(target, "precious\n");
    symlinkSync(target, join(dir, `${id}.jsonl`));
    expectQuietFailure(dir, id, /symbolic link/);
    expect(readFileSync(target, "utf8")).toBe("precious\n");
  });
});

describe("listing", () => {
  test("newest first, with the header's fields, the first prompt on one line, size and path", () => {
    const dir = tempDir();
    const old = session(dir, "/a", "old one", 3);
    const long = "please   fix\nthe failing test in src/parser.ts and then " + "x".repeat(200);
    const recent = session(dir, "/b", long);
    writeFileSync(join(dir, "notes.txt"), "not a session");
    writeFileSync(join(dir, "broken.jsonl"), "{not json\n");
    mkdirSync(join(dir, "dir.jsonl"));

    const list = listSessions(dir);
    expect(list.map((s) => s.id)).toEqual([recent, old]);
    expect(list[0]).toMatchObject({ id: recent, cwd: "/b", path: join(dir, `${recent}.jsonl`), size: statSync(join(dir, `${recent}.jsonl`)).size });
    expect(list[0]!.firstPrompt.startsWith("please fix the failing test in src/parser.ts")).toBe(true);
    expect(list[0]!.firstPrompt.length).toBeLessThanOrEqual(80);
    expect(list[0]!.firstPrompt.endsWith("…")).toBe(true);
    expect(new Date(list[1]!.created).getTime()).toBeGreaterThan(0);
  });

  test("a first prompt bigger than the part of the file read is still shown", () => {
    const dir = tempDir();
    session(dir, "/a", `explain "this" ${"é".repeat(5000)}`);
    expect(listSessions(dir)[0]!.firstPrompt).toBe(`explain "this" ${"é".repeat(64)}…`);
  });

  /** The session `hey -c` continues in `cwd` (run.ts: the first of sessionsHere). */
  const latestSession = (dir: string, cwd: string) => sessionsHere(listSessions(dir), { cwd, root: cwd }, (d) => d).sessions[0];

  test("no directory yet: no sessions", () => {
    expect(listSessions(join(tempDir(), "missing"))).toEqual([]);
    expect(latestSession(join(tempDir(), "missing"), "/a")).toBeUndefined();
  });

  test("latest of a directory is the most recently used one started there", () => {
    const dir = tempDir();
    const a1 = session(dir, "/a", "first", 2);
    session(dir, "/b", "elsewhere", 0);
    const a2 = session(dir, "/a", "second", 1);
    expect(latestSession(dir, "/a")?.id).toBe(a2);
    utimesSync(join(dir, `${a1}.jsonl`), new Date(), new Date()); // resumed just now
    expect(latestSession(dir, "/a")?.id).toBe(a1);
    expect(latestSession(dir, "/c")).toBeUndefined();
  });
});

describe("findSession", () => {
  const dir = () => {
    const d = tempDir();
    for (const id of ["abc111", "abc222", "abd333", "abc"])
      writeFileSync(join(d, `${id}.jsonl`), JSON.stringify({ type: "header", id, cwd: "/", created: new Date().toISOString(), version: "1" }) + "\n");
    return d;
  };

  test.each([
    ["abc111", "abc111"],
    ["abc2", "abc222"],
    ["abd", "abd333"],
    ["abc", "abc"], // an exact id wins over being a prefix of others
    ["c222", "abc222"], // the end of an id
    ["d333", "abd333"],
  ])("%s finds %s", (query, id) => {
    expect(findSession(dir(), query).id).toBe(id);
  });

  test("an ambiguous prefix lists the candidates", () => {
    expect(() => findSession(dir(), "ab")).toThrow(
      '"ab" matches 4 sessions: abc, abc111 (abc1), abc222 (abc2), abd333 (abd3); give the short form in brackets, or more of the id',
    );
  });

  test("a prefix hundreds of sessions share names the first ten and counts the rest, rather than a screenful on one line", () => {
    const d = dir();
    for (let i = 0; i < 300; i++) {
      const id = `zq${String(i).padStart(4, "0")}`;
      writeFileSync(join(d, `${id}.jsonl`), JSON.stringify({ type: "header", id, cwd: "/", created: new Date().toISOString(), version: "1" }) + "\n");
    }
    let message = "";
    try {
      findSession(d, "zq", "/sessions");
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toStartWith('"zq" matches 300 sessions: zq0000 (q0000), zq0001 (q0001),');
    expect(message).toEndWith(", and 290 more (/sessions lists them); give the short form in brackets, or more of the id");
    expect(message.match(/zq\d{4}/g)).toHaveLength(10);
  });

  test("no match says so", () => {
    expect(() => findSession(dir(), "zz")).toThrow(/no session "zz"/);
    expect(() => findSession(dir(), "")).toThrow(/no session/);
  });
});

describe("pruneSessions", () => {
  test("by age", () => {
    const dir = tempDir();
    const old = session(dir, "/a", "old", 40);
    const older = session(dir, "/a", "older", 90);
    const fresh = session(dir, "/a", "fresh", 1);
    expect(pruneSessions(dir, { cwd: "/a", olderThanDays: 30 }).deleted.sort()).toEqual([old, older].sort());
    expect(listSessions(dir).map((s) => s.id)).toEqual([fresh]);
  });

  test("by count, keeping the newest", () => {
    const dir = tempDir();
    const ids = [3, 2, 1, 0].map((age) => session(dir, "/a", `s${age}`, age));
    expect(pruneSessions(dir, { cwd: "/a", keep: 2 }).deleted.sort()).toEqual(ids.slice(0, 2).sort());
    expect(listSessions(dir).map((s) => s.id)).toEqual([ids[3]!, ids[2]!]);
  });

  test("both, against a given now; nothing asked, nothing deleted", () => {
    const dir = tempDir();
    const ids = [10, 5, 0].map((age) => session(dir, "/a", `s${age}`, age));
    expect(pruneSessions(dir, { cwd: "/a" }).deleted).toEqual([]);
    expect(pruneSessions(dir, { cwd: "/a", olderThanDays: 7, keep: 3, now: Date.now() + 86_400_000 }).deleted).toEqual([ids[0]!]);
    expect(pruneSessions(dir, { cwd: "/a", olderThanDays: 100, keep: 1 }).deleted).toEqual([ids[1]!]);
  });

  test("only the given directory's sessions, counted among themselves; every directory's without one", () => {
    const dir = tempDir();
    const [here1, here2] = [50, 40].map((age) => session(dir, "/here", `h${age}`, age));
    const [there1, there2] = [60, 0].map((age) => session(dir, "/there", `t${age}`, age));
    expect(pruneSessions(dir, { cwd: "/here", keep: 1 }).deleted).toEqual([here1!]); // /there's newer session does not count
    expect(pruneSessions(dir, { cwd: "/here", olderThanDays: 30 }).deleted).toEqual([here2!]);
    expect(listSessions(dir).map((s) => s.id)).toEqual([there2!, there1!]);
    session(dir, "/here", "h45", 45);
    expect(pruneSessions(dir, { cwd: undefined, olderThanDays: 30 }).deleted).toHaveLength(2); // /here's and /there's
    expect(listSessions(dir).map((s) => s.id)).toEqual([there2!]);
  });

  test("the session this hey is writing survives `prune 0d`, of its directory or of every one", () => {
    const dir = tempDir();
    const other = session(dir, "/here", "earlier", 1);
    const id = newId();
    const w = createSessionWriter({ dir, id, cwd: "/here", version: "1.2.3", warn: () => {} });
    w.emit({ type: "message", message: userMessage("now") }); // creates the file, locked by this process
    try {
      expect(pruneSessions(dir, { cwd: "/here", olderThanDays: 0, now: Date.now() + 1000 })).toEqual({ deleted: [other], held: [id], lost: [] });
      expect(pruneSessions(dir, { cwd: undefined, keep: 0 })).toEqual({ deleted: [], held: [id], lost: [] });
      expect(listSessions(dir).map((s) => s.id)).toEqual([id]);
    } finally {
      w.close();
    }
  });
});

test("pruneSessions removes a deleted session's stale lock; a session a live hey holds (this one, or another) stays, lock and all", () => {
  const dir = tempDir();
  const [stale, mine, theirs] = ["stale", "mine", "theirs"].map((p) => session(dir, "/a", p, 40));
  const path = (id: string) => join(dir, `${id}.jsonl`);
  writeFileSync(`${path(stale!)}.lock`, `999999999 ${hostname()}\n`); // its hey was killed
  lockSession(path(mine!));
  const other = Bun.spawn(["sleep", "30"]);
  try {
    writeFileSync(`${path(theirs!)}.lock`, `${other.pid} ${hostname()}\n`);
    const pruned = pruneSessions(dir, { cwd: "/a", olderThanDays: 30 });
    expect([pruned.deleted, pruned.held.sort()]).toEqual([[stale!], [mine!, theirs!].sort()]);
    expect(readdirSync(dir).sort()).toEqual([`${mine}.jsonl`, `${mine}.jsonl.lock`, `${theirs}.jsonl`, `${theirs}.jsonl.lock`].sort());
  } finally {
    other.kill();
    unlockSession(path(mine!));
  }
});

describe("formatSessionList", () => {
  const info = (id: string, cwd: string, prompt: string, size: number, modified: number): SessionInfo => ({
    id,
    created: new Date(modified).toISOString(),
    modified,
    cwd,
    firstPrompt: prompt,
    size,
    path: `/s/${id}.jsonl`,
  });

  test("aligned columns, home as ~, and how to resume", () => {
    const t = new Date(2025, 2, 4, 9, 5).getTime(); // local time, like the listing
    const sessions = [info("id-one", "/home/u/src/hey", "fix the test", 2300, t), info("id-number-two", "/srv/x", "", 512, t - 86_400_000)];
    const out = formatSessionList(sessions, "/home/u");
    expect(out.split("\n").slice(0, 4)).toEqual([
      "ID             LAST USED           SIZE  DIRECTORY  FIRST PROMPT",
      "id-one         2025-03-04 09:05  2.2 KB  ~/src/hey  fix the test",
      "id-number-two  2025-03-03 09:05   512 B  /srv/x     (no prompt)",
      "",
    ]);
    expect(out).toContain("hey --resume ID");
    expect(out).toContain("hey -c");
    // a Windows home is shortened too
    expect(formatSessionList([info("id-one", "C:\\Users\\u\\src\\hey", "p", 1, t)], "C:\\Users\\u").split("\n")[1]).toContain("  ~\\src\\hey  ");
    const withShort = formatSessionList(
      sessions,
      "/home/u",
      undefined,
      new Map([
        ["id-one", "-one"],
        ["id-number-two", "id-n"],
      ]),
    );
    expect(withShort.split("\n").slice(0, 3)).toEqual([
      "ID             SHORT  LAST USED           SIZE  DIRECTORY  FIRST PROMPT",
      "id-one         -one   2025-03-04 09:05  2.2 KB  ~/src/hey  fix the test",
      "id-number-two  id-n   2025-03-03 09:05   512 B  /srv/x     (no prompt)",
    ]);
    expect(withShort).toContain("a unique start or end of the id is enough (SHORT shows the shortest)");
  });

  test("fitted to a terminal: one line a session, a first prompt that does not fit cut with …", () => {
    const t = new Date(2025, 2, 4, 9, 5).getTime();
    const long = 'Use the skill "greet" (/tmp/explore/repo/.hey/skills/greet/SKILL.md): say hello';
    const sessions = [info("id-one", "/home/u/src/hey", long, 2300, t), info("id-number-two", "/srv/x", "fix the test", 512, t)];
    const fit = (columns: number, width: (text: string) => number) => ({
      columns,
      width,
      cut: (text: string, room: number) => cutToWidth(text, room, width, true),
    });
    const rows = formatSessionList(
      sessions,
      "/home/u",
      undefined,
      undefined,
      fit(100, (text) => [...text].length),
    )
      .split("\n")
      .slice(0, 3);
    expect(rows).toEqual([
      "ID             LAST USED           SIZE  DIRECTORY  FIRST PROMPT",
      'id-one         2025-03-04 09:05  2.2 KB  ~/src/hey  Use the skill "greet" (/tmp/explore/repo/.hey/s…',
      "id-number-two  2025-03-04 09:05   512 B  /srv/x     fix the test",
    ]);
    expect(rows[1]).toHaveLength(100);
    // wide characters take two columns each
    const wide = formatSessionList(
      [info("id-one", "/srv/x", "修".repeat(40), 1, t)],
      undefined,
      undefined,
      undefined,
      fit(60, (text) => [...text].reduce((n, c) => n + (c === "修" ? 2 : 1), 0)),
    );
    expect(wide.split("\n")[1]).toBe(`id-one  2025-03-04 09:05   1 B  /srv/x     ${"修".repeat(8)}…`);
  });

  test("no sessions", () => {
    expect(formatSessionList([])).toBe("No sessions yet.\n");
  });
});

describe("a run that never got an answer leaves no session (untilAnswer)", () => {
  const held = (dir: string, id = newId()) =>
    createSessionWriter({ dir: join(dir, "sessions"), id, cwd: "/p", version: "1", warn: () => {}, untilAnswer: true });

  test("a user message alone creates nothing", () => {
    const w = held(tempDir());
    w.model("ollama", "qwen3");
    w.emit({ type: "message", message: userMessage("hi") });
    w.emit({ type: "error", kind: "network", message: "connection refused" });
    w.close();
    expect(existsSync(w.path)).toBe(false);
  });

  test.each(["[interrupted by the user]", "[interrupted: terminated (SIGTERM)]"])(
    "an answer cut before its first word (%p alone) is no answer: nothing is created",
    (marker) => {
      const w = held(tempDir());
      w.model("ollama", "qwen3");
      w.emit({ type: "message", message: userMessage("my long prompt") });
      w.emit({ type: "message", message: assistant(marker) });
      w.close();
      expect(existsSync(w.path)).toBe(false);
    },
  );

  test("a later answer writes the cut one with it, so the resumed conversation reads as it went", () => {
    const w = held(tempDir());
    w.emit({ type: "message", message: userMessage("delete the old tests") });
    w.emit({ type: "message", message: assistant("[interrupted by the user]") });
    w.emit({ type: "message", message: userMessage("what time is it") });
    w.emit({ type: "message", message: assistant("Noon.") });
    w.close();
    const texts = lines(w.path).flatMap((e) => (e.type === "message" ? [textOf(e.message as Message)] : []));
    expect(texts).toEqual(["delete the old tests", "[interrupted by the user]", "what time is it", "Noon."]);
  });

  test("an answer cut after its first words is an answer", () => {
    const w = held(tempDir());
    w.emit({ type: "message", message: userMessage("hi") });
    w.emit({ type: "message", message: assistant("Hello, I\n\n[interrupted: terminated (SIGTERM)]") });
    w.close();
    expect(existsSync(w.path)).toBe(true);
  });

  test("the first answer writes what came before it, in order", () => {
    const w = held(tempDir());
    w.model("ollama", "qwen3");
    const first = userMessage("first, interrupted");
    const second = userMessage("second");
    w.emit({ type: "message", message: first });
    w.emit({ type: "message", message: second });
    w.emit({ type: "message", message: assistant("answer") });
    w.emit({ type: "message", message: userMessage("third") });
    w.close();
    expect(lines(w.path).map((e) => (e.type === "message" ? textOf(e.message as Message) : e.type))).toEqual([
      "header",
      "model",
      "first, interrupted",
      "second",
      "answer",
      "third",
    ]);
  });
});

test("the jobs a run ended are read by the next resume while no message follows them; once the resumed run talks, they are not", () => {
  const dir = tempDir();
  const w = writer(dir);
  w.emit({ type: "message", message: userMessage("start the server") });
  w.emit({ type: "message", message: assistant("it is up on 8000") });
  w.close();
  appendEndedJobs(join(dir, "sessions"), loadSession(w.path).header.id, ["python3 -m http.server 8000"]); // as hey ends them, its writer closed
  expect(loadSession(w.path).endedJobs).toEqual(["python3 -m http.server 8000"]);
  expect(loadSession(w.path).messages.map(textOf)).toEqual(["start the server", "it is up on 8000"]);

  const next = createSessionWriter({ dir: join(dir, "sessions"), id: loadSession(w.path).header.id, cwd: "/p", version: "t", warn: () => {}, existing: true });
  next.emit({ type: "message", message: userMessage("is it up?") });
  next.close();
  expect(loadSession(w.path).endedJobs).toBeUndefined();
});
