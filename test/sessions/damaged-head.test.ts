// A session whose header the full disk cut (src/sessions/damaged-head.ts): said as what it is —
// the file, its first line cut short, most often by a full disk — never "not a hey session"; when
// lines after it are readable but the disk takes no repair, the session is still resumed.
import { afterEach, expect, spyOn, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId, textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import { TORN_END, toLine } from "../../src/sessions/format.ts";
import { cutHeader } from "../../src/sessions/damaged-head.ts";
import { findSession, pruneSessions, scanSessions, unreadableNote } from "../../src/sessions/listing.ts";
import * as lock from "../../src/sessions/lock.ts";
import { loadSession, resumeSession } from "../../src/sessions/reader.ts";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});
function session(text: string): { dir: string; id: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), "hey-damaged-head-"));
  temps.push(dir);
  const id = newId();
  const path = join(dir, `${id}.jsonl`);
  writeFileSync(path, text);
  return { dir, id, path };
}
const header = (id: string) => toLine({ type: "header", id, cwd: "/home/u/p", created: "2026-12-01T10:00:00.000Z", version: "1" });
const CUT =
  "its first line, the session header, is cut short — hey stopped while writing it, most often because the disk was full — and nothing was saved after it";

test("a header cut short with nothing after it: resume and --resume say so and to delete it, not “not a hey session”", () => {
  for (const cutAt of [12, 40, 70]) {
    const { dir, id, path } = session(header("x").slice(0, cutAt).replace('"x"', `"${newId()}"`));
    const expected = `${path}: ${CUT}, so there is no conversation in it to resume; delete it`;
    expect(() => resumeSession(path, "/home/u/p")).toThrow(expected);
    expect(() => loadSession(path)).toThrow(expected);
    expect(() => findSession(dir, id)).toThrow(expected);
    expect(existsSync(`${path}.lock`)).toBe(false);
    // `-c`, --sessions and /resume name it among the files they cannot show, and prune deletes it
    const { sessions, unreadable } = scanSessions(dir);
    expect(sessions).toEqual([]);
    expect(unreadableNote(unreadable)).toBe(
      `a session file holds only a header cut short — hey stopped while writing it, most often because the disk was full — so there is no conversation to resume: ${path}; delete it`,
    );
    expect(pruneSessions(dir, { cwd: undefined }).lost).toEqual([id]);
    expect(existsSync(path)).toBe(false);
  }
});

test("a cut header with readable lines after it, on a disk that takes no lock or repair: resumed from those lines, said why the header stays, the file untouched", () => {
  const first = userMessage("remember 42");
  const answer: Message = { id: newId(), role: "assistant", content: [{ type: "text", text: "noted" }] };
  const lines = [first, answer].map((message) => toLine({ type: "message", message })).join("");
  const { id, path } = session(`${header("x").replace('"x"', '"y"').slice(0, 45)}${TORN_END}\n${lines}`);
  const before = readFileSync(path, "utf8");
  const full = spyOn(lock, "lockSession").mockImplementation(() => {
    throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  });
  let loaded: ReturnType<typeof resumeSession>;
  try {
    loaded = resumeSession(path, "/home/u/p");
  } finally {
    full.mockRestore();
  }
  expect(loaded.messages.map(textOf)).toEqual(["remember 42", "noted"]);
  expect(loaded.header.cwd).toBe("/home/u/p");
  expect(loaded.warnings[0]).toBe(
    `${path}: the session's header is cut short (most often by a full disk) and cannot be repaired now: its disk is full (ENOSPC); free some space — what was saved before stays; resumed from the lines after it, as it is — \`hey --resume ${id}\` repairs it once the disk takes writes`,
  );
  expect(readFileSync(path, "utf8")).toBe(before);
});

test("cutHeader: the start of a header, cut anywhere or marked as cut; not a whole header, another entry or other text", () => {
  const whole = header("x").trimEnd();
  for (const at of [1, 5, 16, 30, whole.length - 1]) expect(cutHeader(whole.slice(0, at))).toBe(true);
  expect(cutHeader(whole.slice(0, 30) + TORN_END)).toBe(true);
  expect(cutHeader(whole.slice(0, 30) + "\0\0\0")).toBe(true);
  expect(cutHeader(whole)).toBe(false);
  expect(cutHeader('{"type":"message","message":{"id":"a"')).toBe(false);
  expect(cutHeader("hello")).toBe(false);
  expect(cutHeader('{"type":"header","id":"x"}}')).toBe(false);
});
