// Whether `.hey/task.md` is a resumed session's own when what `hey -c` loads does not show it (r2 #1): the agent's call that
// wrote it inside a summary's range or before the window, or a request that sent it (its usage line's task_note).
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId, userMessage, type Message } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { conversationNote, noteTakenIn } from "../../src/sessions/note-taken.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";

const root = mkdtempSync(join(tmpdir(), "hey-note-taken-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const counts = { input_tokens: 1, output_tokens: 2, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 };
let calls = 0;
/** the agent's call with `args` and its result */
const call = (name: string, args: unknown, result = "ok"): Message[] => {
  const id = `call_${calls++}`;
  return [
    { id: newId(), role: "assistant", content: [], toolCalls: [{ id, name, arguments: JSON.stringify(args) }] },
    { id: newId(), role: "tool", toolCallId: id, toolName: name, isError: false, content: [{ type: "text", text: result }] },
  ];
};
const reads = (n: number) => Array.from({ length: n }, () => call("read_file", { path: "a.ts" }, "line of the file read\n".repeat(20))).flat();

/** A session of `messages`, a usage line after each answer (with `notes[i]` as the i-th one's task_note), summaries of `summarized` ranges. */
function session(messages: Message[], opts: { notes?: Record<number, string>; summarized?: [number, number][] } = {}): string {
  const w = createSessionWriter({
    dir: mkdtempSync(join(root, "s-")),
    id: newId(),
    cwd: "/p",
    version: "9.9.9",
    warn: (m) => {
      throw new Error(m);
    },
  });
  w.model("openai", "m");
  let answer = 0;
  for (const [i, m] of messages.entries()) {
    w.emit({ type: "message", message: m });
    if (m.role === "assistant") {
      const note = opts.notes?.[answer++];
      w.emit({ type: "usage", ...counts, rebuilt: false, ...(note === undefined ? {} : { task_note: note }) });
    }
    for (const [from, to] of opts.summarized ?? [])
      if (to === i)
        w.emit({
          type: "compaction",
          kind: "summary",
          from_id: messages[from]!.id,
          to_id: m.id,
          summary: "SUMMARY: files were read.",
        } as unknown as AgentEvent);
  }
  w.close();
  return w.path;
}
const taken = (path: string) => noteTakenIn(path, statSync(path).size);

test("the agent's write of the note inside a summary's range: the session's own, though the loaded messages do not show it", () => {
  const messages = [userMessage("port the CLI"), ...call("write_file", { path: ".hey/task.md", content: "GOAL" }), ...reads(10)];
  const path = session(messages, { summarized: [[1, 12]] });
  const loaded = loadSession(path);
  expect(loaded.messages.some((m) => m.toolCalls?.some((c) => c.arguments.includes("task.md")))).toBe(false); // the summary took it
  expect(taken(path)).toBe(true);
  const windows = session([userMessage("go"), ...call("bash", { command: "type .hey\\task.md" }), ...reads(3)]);
  expect(taken(windows)).toBe(true);
});

test("a request that sent the note says so; one that took none, a mention in a text or a result, or another task.md does not", () => {
  const plain = [userMessage("read .hey/task.md later"), ...call("bash", { command: "ls .hey" }, ".hey/task.md\nconfig.toml"), ...reads(3)];
  expect(taken(session(plain))).toBe(false);
  expect(taken(session(plain, { notes: { 2: "GOAL: port the CLI" } }))).toBe(true);
  expect(taken(session(plain, { notes: { 2: "" } }))).toBe(false); // it took none (the file was gone)
  expect(taken(session([userMessage("x"), ...call("read_file", { path: "notes/task.md" }), ...reads(2)]))).toBe(false);
  expect(noteTakenIn(join(root, "no-such.jsonl"), 100)).toBe(false);
});

test("a resumed run's task note: the file as it is now when the session's lines make it its own; another conversation's, or none, is left out", () => {
  const project = mkdtempSync(join(root, "p-"));
  const messages = [userMessage("port the CLI"), ...call("write_file", { path: ".hey/task.md", content: "GOAL" }), ...reads(10)];
  const path = session(messages, { summarized: [[1, 12]] });
  const loaded = loadSession(path);
  const noteOf = conversationNote(project, loaded);
  expect(noteOf(loaded.messages)).toBeUndefined(); // no file: nothing to send
  mkdirSync(join(project, ".hey"));
  writeFileSync(join(project, ".hey", "task.md"), "GOAL: port the CLI, edited by hand\n");
  expect(noteOf(loaded.messages)).toBe("GOAL: port the CLI, edited by hand");
  const other = loadSession(session([userMessage("fix the tests"), ...reads(5)]));
  expect(conversationNote(project, other)(other.messages)).toBeUndefined(); // another task's note
  expect(conversationNote(project, undefined)(other.messages)).toBeUndefined(); // a new session
});
