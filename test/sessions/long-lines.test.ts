// Session lines are read with a size limit (issue 13 row 4): a line over the limit is skipped
// over without being loaded and comes back as its first and last bytes; a message line becomes a
// placeholder with its id, role, the start of its text and its call ids.
import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId, userMessage, type Message } from "../../src/kernel/ir.ts";
import { oversizedEntry, toLine } from "../../src/sessions/format.ts";
import { linesBackward, linesForward } from "../../src/sessions/lines.ts";
import { loadSession } from "../../src/sessions/reader.ts";

const root = mkdtempSync(join(tmpdir(), "hey-lines-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const file = (text: string) => {
  const path = join(root, `f${n++}`);
  writeFileSync(path, text);
  return path;
};
const withFd = <T>(path: string, use: (fd: number) => T): T => {
  const fd = openSync(path, "r");
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
};

describe("lines over the limit", () => {
  const long = "L" + "x".repeat(998) + "Z"; // 1,000 bytes
  const text = `a\n${long}\nb\n${long}`;

  test("forward: skipped over, reported with their start, end and length", () => {
    const path = file(text);
    const lines = withFd(path, (fd) => [...linesForward(fd, text.length, 0, 100)]);
    expect(lines.map((l) => [l.text, l.oversized?.bytes, l.terminated])).toEqual([
      ["a", undefined, true],
      ["", 1000, true],
      ["b", undefined, true],
      ["", 1000, false],
    ]);
    expect(lines[1]!.oversized!.head).toStartWith("Lxxx");
    expect(lines[1]!.oversized!.tail).toEndWith("xxZ");
    expect(lines[1]!.end).toBe(2 + 1000);
  });

  test("backward: the same lines, last first, with their offsets", () => {
    const path = file(text);
    const lines = withFd(path, (fd) => [...linesBackward(fd, text.length, 100)]);
    const shown = lines.map((l) =>
      l.oversized ? [`${l.oversized.bytes} bytes`, l.offset, l.terminated] : [l.buf.toString("utf8", l.start, l.end), l.offset, l.terminated],
    );
    expect(shown).toEqual([
      ["1000 bytes", 1005, false],
      ["b", 1003, true],
      ["1000 bytes", 2, true],
      ["a", 0, true],
    ]);
    expect(lines[0]!.oversized!.head).toStartWith("Lxxx");
  });
});

describe("placeholders", () => {
  const line = (m: Message) => toLine({ type: "message", message: m });
  const cutOf = (text: string, head = 300) => ({ head: text.slice(0, head), tail: text.slice(-300), bytes: text.length });

  test("a user message keeps its id, role and the start of its text", () => {
    const m = userMessage(`summarize this log: ${"0123456789".repeat(1000)}`);
    const parsed = oversizedEntry(cutOf(line(m)));
    expect(parsed).toMatchObject({ ok: true, entry: { type: "message", message: { id: m.id, role: "user" } } });
    const block = (parsed as { entry: { message: Message } }).entry.message.content[0] as { type: string; text: string };
    expect(block.type).toBe("text");
    expect(block.text).toStartWith("summarize this log: 0123456789");
    expect(block.text).toEndWith("\n[… cut: this message is 9.9 KB, more than hey loads from a session; the session file keeps it whole]");
  });

  test("a message of screenshots over the cap says its images are not sent, so the model does not answer about pictures it cannot see", () => {
    const shots = userMessage([
      { type: "text", text: "compare @n1.png @n2.png" },
      { type: "image", mediaType: "image/png", data: "A".repeat(6000) },
      { type: "image", mediaType: "image/png", data: "B".repeat(6000) },
    ]);
    const parsed = oversizedEntry(cutOf(line(shots)));
    const block = (parsed as { entry: { message: Message } }).entry.message.content[0] as { type: string; text: string };
    expect(block.text).toStartWith("compare @n1.png @n2.png\n[… cut: this message is");
    expect(block.text).toEndWith("the session file keeps it whole; the images in it are not sent: attach them again (@FILE) to show them]");
  });

  test("a tool result keeps the call it answers; an assistant message its calls, without arguments", () => {
    const result: Message = {
      id: newId(),
      role: "tool",
      toolCallId: "call_9",
      toolName: "bash",
      isError: true,
      content: [{ type: "text", text: "y".repeat(5000) }],
    };
    expect(oversizedEntry(cutOf(line(result)))).toMatchObject({ ok: true, entry: { message: { toolCallId: "call_9", toolName: "bash", isError: true } } });
    const asks: Message = {
      id: newId(),
      role: "assistant",
      content: [{ type: "text", text: "writing" }],
      toolCalls: [{ id: "call_1", name: "write_file", arguments: JSON.stringify({ path: "a", content: "z".repeat(5000) }) }],
    };
    expect(oversizedEntry(cutOf(line(asks)))).toMatchObject({
      ok: true,
      entry: { message: { role: "assistant", toolCalls: [{ id: "call_1", name: "write_file", arguments: "{}" }] } },
    });
  });

  test("a long line that is not a message is skipped with a reason", () => {
    expect(oversizedEntry({ head: '{"type":"compaction","id":"x"', tail: "", bytes: 9e6 })).toEqual({
      ok: false,
      reason: "a line of 8.6 MB (more than hey loads) that is not a message",
    });
  });

  test("loadSession: a 20 MB first prompt is loaded as its start, the rest of the session whole", () => {
    const first = userMessage(`please read: ${"log line\n".repeat((20 * 1024 * 1024) / 9)}`);
    const answer: Message = { id: newId(), role: "assistant", content: [{ type: "text", text: "It is a log." }] };
    const path = join(root, "big.jsonl");
    writeFileSync(path, toLine({ type: "header", id: "big", cwd: "/", created: "x", version: "1" }) + line(first) + line(answer));
    const loaded = loadSession(path);
    expect(loaded.messages.map((m) => m.id)).toEqual([first.id, answer.id]);
    expect(JSON.stringify(loaded.messages[0]).length).toBeLessThan(3000);
    expect((loaded.messages[0]!.content[0] as { text: string }).text).toStartWith("please read: log line\nlog line\n");
    expect(loaded.warnings).toEqual([`${path}: a message over 8.0 MB loaded as its start only (the file keeps it whole)`]);
  });
});

describe("against split('\\n') on files whose lines cross every chunk boundary", () => {
  // lengths from 0 to ~600 KB around the 64 KB forward and 256 KB backward chunks
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lengths = Array.from(
    { length: 40 },
    () => [0, 1, 65535, 65536, 262143, 262144, 262145][Math.floor(random() * 7)]! + Math.floor(random() * (random() < 0.2 ? 600_000 : 3000)),
  );
  const lines = lengths.map((len, i) => String.fromCharCode(97 + (i % 26)).repeat(len));
  for (const ending of ["\n", ""]) {
    const text = lines.join("\n") + ending;
    const max = 200_000;
    const expected = (ending ? lines : lines).map((l) => (l.length > max ? `${l.length} bytes` : l));

    test(`ending ${JSON.stringify(ending)}: forward and backward agree with split, long lines reported`, () => {
      const path = file(text);
      const forward = withFd(path, (fd) => [...linesForward(fd, text.length, 0, max)]).map((l) => (l.oversized ? `${l.oversized.bytes} bytes` : l.text));
      expect(forward).toEqual(expected);
      const backward = withFd(path, (fd) => [...linesBackward(fd, text.length, max)]);
      expect(backward.map((l) => (l.oversized ? `${l.oversized.bytes} bytes` : l.buf.toString("utf8", l.start, l.end))).reverse()).toEqual(expected);
      let offset = 0;
      const offsets = lines.map((l) => ((offset += l.length + 1), offset - l.length - 1));
      expect(backward.map((l) => l.offset).reverse()).toEqual(offsets);
      expect(backward.map((l) => l.terminated)).toEqual(lines.map((_, i) => i > 0 || ending === "\n"));
    });
  }
});
