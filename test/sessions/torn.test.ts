// Torn lines are said once (torn.ts): one an older hey ended with a bare newline is recorded as
// said by the run that says it; one longer than hey loads is skipped as torn, not loaded as a message.
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId, userMessage, type Message } from "../../src/kernel/ir.ts";
import { formatSize, TORN_END } from "../../src/sessions/format.ts";
import { MAX_LINE_BYTES } from "../../src/sessions/lines.ts";
import { loadSession, resumeSession } from "../../src/sessions/reader.ts";
import { cutShort } from "../../src/sessions/torn.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";

const root = mkdtempSync(join(tmpdir(), "hey-torn-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const textOf = (m: Message) => (m.content[0]?.type === "text" ? m.content[0].text : "");
const answer = (text: string): Message => ({ id: newId(), role: "assistant", content: [{ type: "text", text }] });

/** A session of one exchange; `then` is appended to its file as an older hey or a crash left it. */
function session(then: string): { path: string; id: string; dir: string } {
  const dir = mkdtempSync(join(root, "s-"));
  const id = newId();
  const w = createSessionWriter({ dir, id, cwd: "/here", version: "1", warn: () => {} });
  w.emit({ type: "message", message: userMessage("one") });
  w.emit({ type: "message", message: answer("first answer") });
  w.close();
  const path = join(dir, `${id}.jsonl`);
  appendFileSync(path, then);
  return { path, id, dir };
}

/** `hey -c`: resume, then a run that writes an exchange; its warnings. */
function resumeAndRun(s: { path: string; id: string; dir: string }, prompt: string): string[] {
  const loaded = resumeSession(s.path, "/here");
  const w = createSessionWriter({ dir: s.dir, id: s.id, cwd: "/here", version: "1", warn: () => {}, untilAnswer: true, existing: loaded });
  w.emit({ type: "message", message: userMessage(prompt) });
  w.emit({ type: "message", message: answer(`${prompt} answer`) });
  w.close();
  return loaded.warnings;
}

const TORN = '{"type":"message","message":{"id":"x","role":"assistant","content":[{"type":"text","text":"half';

describe("a torn line an older hey ended with a bare newline", () => {
  test("is said by the first resume, recorded, and passed over without a word after", () => {
    const s = session(`${TORN}\n`);
    expect(resumeAndRun(s, "two")).toEqual([`${s.path}: skipped a torn line (line 4): hey stopped while writing it`]);
    expect(resumeAndRun(s, "three")).toEqual([]);
    expect(loadSession(s.path).warnings).toEqual([]);
    expect(loadSession(s.path).messages.map(textOf)).toEqual(["one", "first answer", "two", "two answer", "three", "three answer"]);
    expect(readFileSync(s.path, "utf8").split("\n")[3]).toBe(TORN); // its bytes as they were
  });

  test("a run that never writes (no answer) records nothing: the next resume says it again", () => {
    const s = session(`${TORN}\n`);
    resumeSession(s.path, "/here");
    const w = createSessionWriter({ dir: s.dir, id: s.id, cwd: "/here", version: "1", warn: () => {}, untilAnswer: true, existing: true });
    w.close();
    expect(loadSession(s.path).warnings).toHaveLength(1);
  });

  test("a line damaged otherwise, and a second torn line with other bytes, are still said", () => {
    const s = session(`${TORN}\n`);
    resumeAndRun(s, "two");
    appendFileSync(s.path, `{"type":"message", garbage\n${TORN}X\n`);
    const warnings = resumeAndRun(s, "three");
    expect(warnings).toEqual([
      `${s.path}: skipped line 8: not valid JSON, cut short or damaged (hey stopped while writing it, or it was edited); the lines after it are loaded`,
      `${s.path}: skipped a torn line (line 9): hey stopped while writing it`,
    ]);
    expect(resumeAndRun(s, "four")).toHaveLength(1); // only the damaged one, every time
  });
});

describe("a tail of NUL bytes over several lines (a power cut before the blocks reached the disk)", () => {
  /** A session of three exchanges whose bytes from line `from` on are NULs, its size kept. */
  function nulFrom(from: number, keep = 0): { path: string; id: string; dir: string; nul: number } {
    const s = session("");
    for (const n of ["two", "three"])
      appendFileSync(s.path, [userMessage(n), answer(`${n} answer`)].map((m) => `${JSON.stringify({ type: "message", message: m })}\n`).join(""));
    const bytes = readFileSync(s.path);
    const start =
      bytes
        .toString("latin1")
        .split("\n")
        .slice(0, from - 1)
        .join("\n").length +
      1 +
      keep;
    bytes.fill(0, start);
    writeFileSync(s.path, bytes);
    return { ...s, nul: bytes.length - start };
  }

  test("is said as NUL bytes with their size and the line after which what was written is lost, not as one torn line", () => {
    const s = nulFrom(4);
    const loaded = loadSession(s.path);
    expect(loaded.warnings).toEqual([
      `${s.path}: the last ${formatSize(s.nul)} of the file are NUL bytes (the machine crashed or lost power before they reached the disk): what hey wrote after line 3 is lost, likely your last exchanges; ask them again`,
    ]);
    expect(loaded.messages.map(textOf)).toEqual(["one", "first answer"]);
    expect(resumeAndRun(s, "again")).toHaveLength(1);
    expect(loadSession(s.path).warnings).toEqual([]); // said once: the writer marked it
  });

  test("one that begins inside a line (the start of an entry, then NULs) is said the same", () => {
    const s = nulFrom(4, 12);
    expect(loadSession(s.path).warnings).toEqual([expect.stringContaining(`the last ${formatSize(s.nul)} of the file are NUL bytes`)]);
  });

  test.each([
    ["one stray NUL", "\0"],
    ["a few", "\0".repeat(8)],
  ])("%s after a whole last line is skipped as the torn line it is, not said as a power loss: every message loads", (_what, nuls) => {
    const s = session(nuls);
    const loaded = loadSession(s.path);
    expect(loaded.warnings).toEqual([`${s.path}: skipped a torn last line (line 4): hey stopped while writing it`]);
    expect(loaded.messages.map(textOf)).toEqual(["one", "first answer"]);
  });

  test("a few NULs that cut into an entry are said, counting the NULs only", () => {
    const s = session(`${TORN}${"\0".repeat(3)}`);
    expect(loadSession(s.path).warnings).toEqual([
      `${s.path}: the last 3 B of the file are NUL bytes (the machine crashed or lost power before they reached the disk): what hey wrote after line 3 is lost, likely your last exchanges; ask them again`,
    ]);
  });

  test("a line cut mid-write with no NULs is still a torn last line", () => {
    const s = session(TORN);
    expect(loadSession(s.path).warnings).toEqual([`${s.path}: skipped a torn last line (line 4): hey stopped while writing it`]);
  });
});

test("a whole entry of a kind a newer hey writes that lost only its newline is ended with one, not marked as torn: that hey still reads it", () => {
  const entry = '{"type":"rewind","id":"0mxa4zzzz0000aaaaaa","to":"x"}';
  const s = session(entry);
  resumeAndRun(s, "two");
  expect(readFileSync(s.path, "utf8").split("\n")[3]).toBe(entry);
});

describe("a torn last line longer than hey loads", () => {
  const big = `{"type":"message","message":{"id":"big","role":"assistant","content":[{"type":"text","text":"${"y".repeat(MAX_LINE_BYTES + 1024)}`;

  test("is skipped as torn, not loaded as a message the file keeps whole; marked by the writer, and said once", () => {
    const s = session(big);
    const warnings = resumeAndRun(s, "two");
    expect(warnings).toEqual([`${s.path}: skipped a torn last line (line 4): hey stopped while writing it`]);
    const after = loadSession(s.path);
    expect(after.warnings).toEqual([]);
    expect(after.messages.map(textOf)).toEqual(["one", "first answer", "two", "two answer"]);
    const text = readFileSync(s.path, "utf8");
    expect(text.indexOf(`${"y".repeat(10)}${TORN_END}\n`)).toBeGreaterThan(0); // its bytes kept, marked
  });

  test("that ends in NULs says their number, not the whole line's size", () => {
    for (const nuls of [100, 6000]) {
      const s = session(`${big}${"\0".repeat(nuls)}`);
      const seen = Math.min(nuls, 4096); // of a line too long to load, the tail hey reads
      expect(loadSession(s.path).warnings).toEqual([expect.stringContaining(`: the last ${formatSize(seen)} of the file are NUL bytes`)]);
    }
  });

  test("a whole entry that lost only its newline is still loaded as its start", () => {
    const s = session(`${big}"}]}}`);
    const warnings = resumeAndRun(s, "two");
    expect(warnings).toEqual([expect.stringContaining("a message over 8.0 MB loaded as its start only")]);
    expect(loadSession(s.path).messages.map((m) => m.id)).toContain("big");
  });
});

test.each([
  ['{"type":"message","message":{"id":"x","role":"assis', true],
  ['{"type":"message","message":{"id":"x","n":12', true],
  ['{"type":"message","message":{"id":"x","n":tr', true],
  ['{"type":"message","message":{"text":"a\\u00', true],
  ['{"type":"message","message":{"id":"x"}', true],
  ['{"type":"message","message":[1,2,', true],
  ['{"type":"message", garbage', false],
  ['{"type":"message","message":{"id":"x"}}', false],
  ['{"type":"message"}}', false],
  ['{"type":"message","message":[1,]', false],
  ['{"type":"message","message":{"id" "x"', false],
  ['{"type":"message","message":"a\\q', false],
  ["", false],
])("cutShort(%p) is %p", (text, cut) => {
  expect(cutShort(text)).toBe(cut);
});
