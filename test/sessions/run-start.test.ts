// Where `hey -c` starts loading a session over 1 MB: where the last run's requests began their history (each usage line
// says it), so its first request goes on from theirs — a live run's from the first message — as far as MAX_WINDOWS windows
// reach; past that, at the stride's boundary as before.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId, userMessage, type Message } from "../../src/kernel/ir.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { LOOK_BACK_MOST, MAX_WINDOWS, WINDOW_STRIDE } from "../../src/sessions/window-stride.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";

const root = mkdtempSync(join(tmpdir(), "hey-run-start-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const counts = { input_tokens: 1, output_tokens: 2, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 };
let calls = 0;
/** a read of a file of `lines` lines (22 bytes each): its call and its result */
const read = (lines: number): Message[] => {
  const id = `call_${calls++}`;
  const text = "line of the file read\n".repeat(lines);
  return [
    { id: newId(), role: "assistant", content: [], toolCalls: [{ id, name: "read_file", arguments: '{"path":"a.ts"}' }] },
    { id: newId(), role: "tool", toolCallId: id, toolName: "read_file", isError: false, content: [{ type: "text", text }] },
  ];
};

/**
 * A session as runs write it: each run's exchanges, a usage line after each answer naming the message its history began
 * with after the first prompt, as the agent's requests record it: `first`, a live run's first answer; `resumed`, the
 * first message a resume of the file loaded at the run's start; an index; `none`, a hey before that wrote none. Each read
 * is of 40 lines (~1 KB), the first `big` of 720 (~16 KB).
 */
function session(runs: { reads: number; big?: number; from: "first" | "resumed" | "none" | number }[]): {
  path: string;
  messages: Message[];
  resumedAt?: string;
} {
  const w = createSessionWriter({
    dir: mkdtempSync(join(root, "s-")),
    id: newId(),
    cwd: "/p",
    version: "9.9.9",
    warn: (m) => {
      throw new Error(m);
    },
  });
  const messages: Message[] = [];
  let resumedAt: string | undefined;
  for (const run of runs) {
    const from = run.from === "resumed" ? loadSession(w.path).messages[1]!.id : typeof run.from === "number" ? messages[run.from]!.id : undefined;
    if (run.from === "resumed") resumedAt = from;
    w.model("openai", "m");
    const prompt = userMessage(messages.length === 0 ? "read the files" : "go on");
    messages.push(prompt);
    w.emit({ type: "message", message: prompt });
    for (let i = 0; i < run.reads; i++)
      for (const m of read(i < (run.big ?? 0) ? 720 : 40)) {
        messages.push(m);
        w.emit({ type: "message", message: m });
        const history_from = run.from === "first" ? messages[1]!.id : from;
        if (m.role === "assistant") w.emit({ type: "usage", ...counts, rebuilt: false, ...(history_from ? { history_from } : {}) });
      }
  }
  w.close();
  return { path: w.path, messages, ...(resumedAt ? { resumedAt } : {}) };
}

test("hey -c after one live run over 1 MB loads it from its first answer, as every request of the run sent it", () => {
  const { path, messages } = session([{ reads: 450, big: 120, from: "first" }]); // 901 messages, ~2.4 MB
  expect(statSync(path).size).toBeGreaterThan(2 * WINDOW_STRIDE);
  const loaded = loadSession(path);
  // before: from the 512 KB boundary before the 500th message from the end, ~200 messages in: the cache held none of it
  expect(loaded.messages.map((m) => m.id)).toEqual(messages.map((m) => m.id));
  expect(loaded.cache?.upTo).toBe(1); // the replay goes over the run's requests from its first (made with the prompt alone)
});

test("a live run of more than LOOK_BACK_MOST messages: the stride's start, its replay's cost bounded (one miss of the cache)", () => {
  const { path, messages } = session([{ reads: 500, big: 100, from: "first" }]); // 1,001 messages, ~2.2 MB
  const loaded = loadSession(path);
  expect(loaded.messages.length).toBeLessThan(messages.length);
  expect(loaded.messages.length).toBeLessThanOrEqual(LOOK_BACK_MOST);
  expect(loaded.messages[1]!.id).not.toBe(messages[1]!.id);
});

test("a session a hey before history_from wrote starts at the stride's boundary, as it did", () => {
  const { path, messages } = session([{ reads: 500, big: 100, from: "none" }]);
  const loaded = loadSession(path);
  expect(loaded.messages.length).toBeLessThan(messages.length);
  expect(loaded.messages.length).toBeGreaterThan(500);
});

test("a resumed run's history began at its window: the next hey -c starts exactly there, not at a boundary the file grew past", () => {
  // the second run was resumed at message 401 (not on a boundary) and its requests said so
  const at = 401;
  const { path, messages } = session([
    { reads: 450, big: 100, from: "first" },
    { reads: 200, from: at }, // 1,301 messages: 900 from there, within LOOK_BACK_MOST
  ]);
  const loaded = loadSession(path);
  expect(loaded.messages[0]!.id).toBe(messages[0]!.id); // the first prompt, always
  expect(loaded.messages.slice(1).map((m) => m.id)).toEqual(messages.slice(at).map((m) => m.id));
});

test("a live run whose first message lies more than MAX_WINDOWS strides before the end: the stride's start, as before", () => {
  const { path, messages } = session([{ reads: 400, big: 250, from: "first" }]); // ~4.3 MB: its first answer lies ~4.3 MB before the end
  const loaded = loadSession(path);
  expect(loaded.messages.length).toBeGreaterThan(500);
  expect(loaded.messages[1]!.id).not.toBe(messages[1]!.id); // its replay would go over 400 requests of up to 4 MB each
});

test("a history longer than MAX_WINDOWS windows: the stride's start, where the run resumed there begins and the next hey -c starts again", () => {
  const { path, messages } = session([{ reads: 1000, from: "first" }]); // 2,001 messages, ~1.3 MB
  const loaded = loadSession(path);
  expect(loaded.messages.length).toBeLessThanOrEqual(MAX_WINDOWS * 500 + 1);
  expect(loaded.messages.length).toBeGreaterThan(500);
  expect(loaded.messages[1]!.id).not.toBe(messages[1]!.id); // the stride's start
  // the run resumed there records its first message loaded: the next hey -c, after more work, starts there again
  const again = session([
    { reads: 1000, from: "first" },
    { reads: 100, from: "resumed" },
  ]);
  const next = loadSession(again.path);
  expect(again.resumedAt).toBeDefined();
  expect(next.messages[1]!.id).toBe(again.resumedAt!);
});
