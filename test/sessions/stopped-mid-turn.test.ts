// What a hey stopped mid-turn (kill -9, a power cut) leaves, and how its resume closes it: the
// question of an answer whose words were showing is on disk, a question left without an answer is
// marked so the next message goes on its own, and the user hears which calls had no result.
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId, textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import { NO_RESULT } from "../../src/kernel/tool-calls.ts";
import { HEY_STOPPED, HEY_STOPPED_MIDWAY } from "../../src/kernel/turns.ts";
import { SUMMARY_ID } from "../../src/context/passes.ts";
import { closeOpenEnds, interruptedNotes, interruptedWrites, lostResult } from "../../src/sessions/open-ends.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => dirs[dirs.push(mkdtempSync(join(tmpdir(), "hey-stopped-"))) - 1]!;
const UNANSWERED = `[interrupted: ${HEY_STOPPED}]`;
const said = (text: string): Message => ({ id: newId(), role: "assistant", content: [{ type: "text", text }] });
const calls = (...made: [string, Record<string, unknown>][]): Message => ({
  id: newId(),
  role: "assistant",
  content: [],
  toolCalls: made.map(([name, args], i) => ({ id: `c${i + 1}`, name, arguments: JSON.stringify(args) })),
});
const result = (callId: string, text: string): Message => ({
  id: newId(),
  role: "tool",
  toolCallId: callId,
  toolName: "bash",
  content: [{ type: "text", text }],
});

const MIDWAY = `[interrupted: ${HEY_STOPPED_MIDWAY}]`;
const partialLines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.startsWith('{"type":"partial"'));

test("a first answer's words on the screen write the held question and themselves: a kill keeps both, resumed as an unfinished answer; its message takes them off", () => {
  const dir = tempDir();
  const w = createSessionWriter({ dir, id: newId(), cwd: "/p", version: "1", warn: () => {}, untilAnswer: true });
  w.model("ollama", "qwen3");
  w.emit({ type: "message", message: userMessage("tell me a long story") });
  w.emit({ type: "text_delta", text: " \n" });
  expect(existsSync(w.path)).toBe(false); // nothing worth keeping yet
  w.emit({ type: "text_delta", text: "Once" });
  // a kill -9 here: no close, no final message
  const loaded = loadSession(w.path);
  expect(loaded.messages.map(textOf)).toEqual(["tell me a long story", ` \nOnce\n\n${MIDWAY}`]);
  expect(loaded.appended.map(textOf)).toEqual([` \nOnce\n\n${MIDWAY}`]);
  expect(interruptedNotes(loaded.messages, loaded.appended)).toEqual([
    "the last answer was cut short (hey stopped while it streamed); what had come is kept, marked unfinished for the model",
  ]);
  w.emit({ type: "text_delta", text: " upon a time." });
  w.emit({ type: "message", message: said("Once upon a time.") }); // not killed: the answer is whole
  w.close();
  expect(partialLines(w.path)).toEqual([]); // taken off: the file holds the answer once
  expect(loadSession(w.path).messages.map(textOf)).toEqual(["tell me a long story", "Once upon a time."]);
});

test("the model's thinking on the screen writes the held question too: a kill while it thinks keeps the question, resumed unanswered", () => {
  const dir = tempDir();
  const w = createSessionWriter({ dir, id: newId(), cwd: "/p", version: "1", warn: () => {}, untilAnswer: true });
  w.model("deepseek", "deepseek-reasoner");
  w.emit({ type: "message", message: userMessage("a deep question") });
  w.emit({ type: "thinking_delta", text: "Let me think about this" });
  // a kill -9 here, after minutes of visible thinking
  expect(loadSession(w.path).messages.map(textOf)).toEqual(["a deep question", UNANSWERED]);
});

test("a resumed session's question is written with the first words too (hey --resume ID, ask, kill)", () => {
  const dir = tempDir();
  const id = newId();
  const first = createSessionWriter({ dir, id, cwd: "/p", version: "1", warn: () => {} });
  first.emit({ type: "message", message: userMessage("q1") });
  first.emit({ type: "message", message: said("a1") });
  first.close();
  const loaded = loadSession(join(dir, `${id}.jsonl`));
  const again = createSessionWriter({ dir, id, cwd: "/p", version: "1", warn: () => {}, untilAnswer: true, existing: loaded });
  again.emit({ type: "message", message: userMessage("q2") });
  expect(loadSession(again.path).messages.map(textOf)).toEqual(["q1", "a1"]); // held: no answer yet
  again.emit({ type: "text_delta", text: "w0 " });
  expect(loadSession(again.path).messages.map(textOf)).toEqual(["q1", "a1", "q2", `w0\n\n${MIDWAY}`]);
  again.close();
});

test("a later question killed before its first word is resumed marked unanswered: the next message is not merged into it", () => {
  const dir = tempDir();
  const w = createSessionWriter({ dir, id: newId(), cwd: "/p", version: "1", warn: () => {}, untilAnswer: true });
  for (const message of [userMessage("q1"), said("a1"), userMessage("slow fresh second")]) w.emit({ type: "message", message });
  const loaded = loadSession(w.path);
  expect(loaded.messages.map(textOf)).toEqual(["q1", "a1", "slow fresh second", UNANSWERED]);
  expect(interruptedNotes(loaded.messages, loaded.appended)).toEqual([
    "the last message had no answer (hey stopped before it answered); the model is told so, and the next message goes on its own",
  ]);
  w.close();
});

test("partial lines another line followed are passed over; only those after the last message count, joined in order", () => {
  const dir = tempDir();
  const w = createSessionWriter({ dir, id: newId(), cwd: "/p", version: "1", warn: () => {} });
  w.emit({ type: "message", message: userMessage("q") });
  w.close();
  const line = (id: string, text: string) => `${JSON.stringify({ type: "partial", id, text })}\n`;
  appendFileSync(w.path, line("p1", "an old half answer"));
  appendFileSync(w.path, JSON.stringify({ type: "message", message: said("the whole answer") }) + "\n");
  appendFileSync(w.path, JSON.stringify({ type: "message", message: userMessage("q2") }) + "\n");
  appendFileSync(w.path, line("p2", "w0 w1 ") + line("p2", "w2 w3"));
  const loaded = loadSession(w.path);
  expect(loaded.warnings).toEqual([]);
  expect(loaded.messages.map(textOf)).toEqual(["q", "the whole answer", "q2", `w0 w1 w2 w3\n\n${MIDWAY}`]);
});

test("closeOpenEnds: only a last question gets the marker; an answer, a result or a summary at the end does not", () => {
  const q = userMessage("q");
  const ids = () => `m${newId()}`;
  expect(closeOpenEnds([q], ids).messages.map(textOf)).toEqual(["q", UNANSWERED]);
  expect(closeOpenEnds([q, said("a")], ids).appended).toEqual([]);
  const summary: Message = { id: `${SUMMARY_ID}x`, role: "user", content: [{ type: "text", text: "summary" }] };
  expect(closeOpenEnds([q, said("a"), summary], ids).appended).toEqual([]);
  const open = closeOpenEnds([q, calls(["bash", { command: "ls" }])], ids);
  expect(open.appended.map((m) => [m.role, textOf(m)])).toEqual([["tool", NO_RESULT]]); // a call's result is the marker
});

test("the resume's line names the calls left without a result, and a killed write's path is found for its temporary copy", () => {
  const turn = calls(
    ["bash", { command: "sleep 0.5; echo AAA > a.txt; echo first-done" }],
    ["bash", { command: "sleep 30; echo never and a command that goes on far too long to quote whole" }],
    ["write_file", { path: "target.txt", content: "x".repeat(100) }],
    ["edit", { path: "src/b.ts", old: "a", new: "b" }],
  );
  const loaded = closeOpenEnds([userMessage("go"), turn, result("c1", "first-done")], () => newId());
  expect(interruptedNotes(loaded.messages, loaded.appended)).toEqual([
    "3 tool calls of the last turn were interrupted (hey stopped before they finished): bash `sleep 30; echo never and a command that…`, write_file `target.txt`, edit `src/b.ts`; the model is told so",
  ]);
  expect(interruptedWrites(loaded.messages, loaded.appended)).toEqual(["target.txt", "src/b.ts"]);
  const one = closeOpenEnds([userMessage("go"), calls(["grep", { pattern: "x" }])], () => newId());
  expect(interruptedNotes(one.messages, one.appended)).toEqual([
    "1 tool call of the last turn was interrupted (hey stopped before it finished): grep; the model is told so",
  ]);
});

test("a summary over a turn whose calls finished out of order ends at its last saved result (the history keeps the file's order), and stands for its range on resume", () => {
  for (const order of ["call order", "finish order"]) {
    const dir = tempDir();
    const w = createSessionWriter({ dir, id: newId(), cwd: "/p", version: "1", warn: () => {} });
    w.model("openai", "gpt");
    const first = userMessage("first");
    const earlier = calls(["bash", { command: "ls" }]);
    const parallel = calls(["bash", { command: "echo a" }], ["bash", { command: "echo b" }]);
    const [r1, r2] = [result("c1", "a"), result("c2", "b")];
    const saved = order === "call order" ? [r1, r2] : [r2, r1]; // c2 finished first
    for (const m of [first, earlier, result("c1", "listed"), parallel, ...saved]) w.emit({ type: "message", message: m });
    // the summary's range ends at the turn's last result as the history holds it: the last saved (kernel/tool-calls.ts)
    w.emit({ type: "compaction", kind: "summary", from_id: earlier.id, to_id: saved.at(-1)!.id, summary: "SUM", tokens_before: 1, tokens_after: 1 });
    for (const m of [said("done"), userMessage("next"), said("ok")]) w.emit({ type: "message", message: m });
    w.close();
    const loaded = loadSession(w.path, { window: 4 });
    expect(loaded.messages.map((m) => (m.id.startsWith(SUMMARY_ID) ? "SUM" : textOf(m)))).toEqual(["first", "SUM", "done", "next", "ok"]);
  }
});

/** A session: `go`, a bash call and its result, its answer, then a later question and answer (x117's turn five messages back). */
function finishedCall(): string {
  const dir = tempDir();
  const w = createSessionWriter({ dir, id: newId(), cwd: "/p", version: "1", warn: () => {} });
  const later = [said("done"), userMessage("q2"), said("a2")];
  for (const message of [userMessage("go"), calls(["bash", { command: "git push" }]), result("c1", "pushed"), ...later]) w.emit({ type: "message", message });
  w.close();
  return w.path;
}

test("a finished call whose saved result line is damaged is closed as a result lost from that line, which may have run, not as one hey stopped in", () => {
  const path = finishedCall();
  const lines = readFileSync(path, "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes('"toolCallId":"c1"'));
  lines[at] = `X${lines[at]}`; // a stray byte: the line is no JSON now
  writeFileSync(path, lines.join("\n"));
  const loaded = loadSession(path);
  expect(loaded.warnings).toEqual([expect.stringContaining(`skipped line ${at + 1}: not valid JSON`)]);
  const closedWith = loaded.messages.find((m) => m.role === "tool" && m.toolCallId === "c1");
  expect(textOf(closedWith!)).toBe(lostResult(`line ${at + 1}`));
  expect(textOf(closedWith!)).toContain("it may have run");
  expect(textOf(closedWith!)).not.toContain(NO_RESULT);
  expect(interruptedNotes(loaded.messages, loaded.appended)).toEqual([
    `the result of 1 tool call was lost (session line ${at + 1} damaged): bash \`git push\`; it may have run, and the model is told so`,
  ]);
});

test("a call left without a result in a turn a later question followed is not said to be of the last turn", () => {
  const path = finishedCall();
  writeFileSync(
    path,
    readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => !l.includes('"toolCallId":"c1"'))
      .join("\n"),
  ); // its line gone, no trace
  const loaded = loadSession(path);
  expect(interruptedNotes(loaded.messages, loaded.appended)).toEqual([
    "1 tool call was interrupted (hey stopped before it finished): bash `git push`; the model is told so",
  ]);
});
