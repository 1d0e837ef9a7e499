// A session file deleted or replaced while hey writes it (sessions/vanished.ts): at the next turn
// boundary the session is written back where `hey -c` and `--resume` find it, said once.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { newId, userMessage, type Message } from "../../src/kernel/ir.ts";
import { listSessions } from "../../src/sessions/listing.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { HEY_STOPPED } from "../../src/kernel/turns.ts";

/** A question a resume found without an answer is followed by this marker (sessions/open-ends.ts). */
const UNANSWERED = `[interrupted: ${HEY_STOPPED}]`;

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const answer = (text: string): Message => ({ id: newId(), role: "assistant", content: [{ type: "text", text }] });

/** A writer that has written one exchange, and the warnings it gave. */
function started() {
  const dir = mkdtempSync(join(tmpdir(), "hey-vanished-"));
  temps.push(dir);
  const warnings: string[] = [];
  const w = createSessionWriter({ dir, id: newId(), cwd: "/work/app", version: "1.2.3", warn: (m) => warnings.push(m) });
  w.emit({ type: "turn_start", turn: 1 });
  w.emit({ type: "message", message: userMessage("fix the build") });
  w.emit({ type: "message", message: answer("on it") });
  return { dir, w, warnings };
}

/** The next turn: a message written, then the turn boundary. */
function nextTurn(w: ReturnType<typeof started>["w"], text: string) {
  w.emit({ type: "message", message: userMessage(text) });
  w.emit({ type: "turn_start", turn: 2 });
}

const texts = (path: string) => loadSession(path).messages.map((m) => (m.content[0] as { text: string }).text);

test("deleted while hey writes it: the whole session comes back at its path, said once, and later entries follow", () => {
  const { w, warnings } = started();
  const path = w.path;
  unlinkSync(path);
  nextTurn(w, "and the tests");
  expect(texts(path)).toEqual(["fix the build", "on it", "and the tests", UNANSWERED]); // read before its answer came
  w.emit({ type: "message", message: answer("done") });
  w.close();
  expect(texts(path)).toEqual(["fix the build", "on it", "and the tests", "done"]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(
    new RegExp(`^${path} was deleted while hey was writing it; hey wrote the session back \\([\\d.]+ [KB ]*B\\) and goes on saving it there$`),
  );
  expect(existsSync(`${path}.lock`)).toBe(false);
});

test("the sessions directory removed whole: it is made again with the session in it", () => {
  const { dir, w, warnings } = started();
  rmSync(dir, { recursive: true });
  nextTurn(w, "and the tests");
  expect(existsSync(`${w.path}.lock`)).toBe(true); // gone with the directory: made again, so a second hey is still refused
  w.close();
  expect(texts(w.path)).toEqual(["fix the build", "on it", "and the tests", UNANSWERED]);
  expect(warnings).toHaveLength(1);
});

test("replaced by another file: that file is left alone, the conversation goes on under a new id that --resume finds", () => {
  const { dir, w, warnings } = started();
  const path = w.path;
  const other = `${readFileSync(path, "utf8").split("\n")[0]}\n`; // a backup restored over it: its header alone
  writeFileSync(join(dir, "backup"), other);
  renameSync(join(dir, "backup"), path);
  nextTurn(w, "and the tests");
  w.emit({ type: "message", message: answer("done") });
  w.close();
  expect(readFileSync(path, "utf8")).toBe(other);
  expect(w.path).not.toBe(path);
  const id = w.path.slice(dir.length + 1, -".jsonl".length);
  expect(texts(w.path)).toEqual(["fix the build", "on it", "and the tests", "done"]);
  expect(loadSession(w.path).header).toMatchObject({ id, cwd: "/work/app" });
  expect(
    listSessions(dir)
      .map((s) => s.id)
      .sort(),
  ).toEqual([id, path.slice(dir.length + 1, -".jsonl".length)].sort());
  expect(warnings).toEqual([
    `${path} was replaced by another file while hey was writing it (that file is left as it is); this conversation goes on as session ${id}, ${w.path} — \`hey --resume ${id}\` continues it`,
  ]);
  expect(readdirSync(dir).filter((f) => f.endsWith(".lock"))).toEqual([]);
});

test("its lock deleted by hand: made again at the turn's end, so a second hey is refused again", () => {
  const { w, warnings } = started();
  unlinkSync(`${w.path}.lock`);
  nextTurn(w, "and the tests");
  expect(existsSync(`${w.path}.lock`)).toBe(true);
  w.close();
  expect(existsSync(`${w.path}.lock`)).toBe(false);
  expect(warnings).toEqual([]);
});

test("its lock replaced by another live hey's (deleted by hand, then taken): this one stops writing and says who has it", () => {
  const { w, warnings } = started();
  const other = Bun.spawn(["sleep", "30"]); // alive, and not this process
  try {
    writeFileSync(`${w.path}.lock`, `${other.pid} ${hostname()}\n`);
    nextTurn(w, "and the tests");
    w.emit({ type: "message", message: answer("more") });
    expect(readFileSync(w.path, "utf8")).not.toContain("more");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`is in use by another hey (pid ${other.pid})`);
    w.close();
    expect(readFileSync(`${w.path}.lock`, "utf8")).toBe(`${other.pid} ${hostname()}\n`); // the other's lock stays
  } finally {
    other.kill();
  }
});
