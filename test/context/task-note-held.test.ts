// `.hey/task.md` after a compaction (held-note.ts): the note's text is taken where the prefix is rebuilt
// anyway and held until the next such request, so the agent's updates of the file — every few turns, as
// the system prompt asks — no longer rewrite the top of every request (x4 #1: each re-billed the whole
// conversation); `hey -c` sends the held text again, as its session recorded it, whatever the file says now.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "../../src/agent.ts";
import { TASK_NOTE_ID } from "../../src/context/budget.ts";
import { readTaskNote } from "../../src/context/task-note.ts";
import { newId, textOf, type Message } from "../../src/kernel/ir.ts";
import { fanOut } from "../../src/kernel/output.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { agentSettings } from "../../src/runtime.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { resumedParts } from "../../src/sessions/resumed.ts";
import { conversationNote } from "../../src/sessions/note-taken.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { isSummaryRequest } from "../helpers/summary-requests.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir.path, ".hey"));
  writeFileSync(join(dir.path, ".hey", "task.md"), "# Task\nfix the parser\n\n## Done\n");
});
afterEach(() => dir.remove());

const note = () => join(dir.path, ".hey", "task.md");
const readBig = {
  name: "read_big",
  description: "reads",
  parameters: {},
  run: async (a: Record<string, unknown>) => ({ output: `file ${a.n}: ${"lorem ipsum ".repeat(100)}` }),
};
// the agent keeping its note current, as write_file would: the whole note with one more step done
const writeNote = {
  name: "write_note",
  description: "writes .hey/task.md",
  parameters: {},
  run: async (a: Record<string, unknown>) => {
    writeFileSync(note(), String(a.content));
    return { output: "wrote .hey/task.md" };
  },
};
/** Turns reading a file, then writing the note with the step done, `n` times. */
const steps = (n: number, from = 1): Turn[] =>
  Array.from({ length: n }, (_, i) => [
    { toolCalls: [{ name: "read_big", arguments: { n: from + i } }] },
    { toolCalls: [{ name: "write_note", arguments: { path: ".hey/task.md", content: `# Task\nfix the parser\n\n## Done\n- STEP-${from + i}\n` } }] },
  ]).flat();

/** The agent, its work and summary requests in the order they were made (`log`: w or s, with the note's file then), and its session; `refuse`: summaries fail. */
function agent(
  script: Turn[],
  id: string,
  resumed?: ReturnType<typeof loadSession>,
  refuse = false,
  taskNote: (history: readonly Message[]) => string | undefined = () => readTaskNote(dir.path),
) {
  const work = fakeProvider(script);
  const log: { kind: "w" | "s"; request: ModelRequest; file?: string }[] = [];
  const provider: Provider = {
    protocol: "openai",
    model: "fake-model",
    async *stream(request, signal): AsyncGenerator<StreamEvent> {
      if (!isSummaryRequest(request)) {
        log.push({ kind: "w", request: { ...request, messages: structuredClone(request.messages) }, file: readFileSync(note(), "utf8") });
        return yield* work.stream(request, signal);
      }
      log.push({ kind: "s", request });
      if (refuse) throw new Error("no summaries today");
      const message: Message = { id: newId(), role: "assistant", content: [{ type: "text", text: "Read some files; notes kept." }] };
      yield { type: "done", message, usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, stop: "stop" };
    },
  };
  const session = createSessionWriter({ dir: dir.path, id, cwd: dir.path, version: "0", warn: () => {}, existing: resumed !== undefined });
  const settings = defaultSettingsForTest();
  settings.agent.budgetTokens = 2500;
  settings.agent.maxTurns = 100;
  const a = createAgent({
    settings: { ...agentSettings(settings), model: { provider: "fake", model: "fake-model" } },
    provider,
    tools: () => [readBig, writeNote],
    output: fanOut([recordingOutput(), session]),
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote,
    ...(resumed ? resumedParts(resumed, "fake", "fake-model") : {}),
  });
  return { agent: a, log, session };
}

const json = (ms: readonly Message[]) => ms.map((m) => JSON.stringify(m));
const noteIn = (r: ModelRequest) => textOf(r.messages.find((m) => m.id === TASK_NOTE_ID) ?? { content: [] });

test("an update of the task note after a summary keeps the request's prefix; the note is taken anew at the next summary", async () => {
  const run = agent([...steps(16), { text: "done" }], newId());
  await run.agent.send("fix the parser", new AbortController().signal);
  const log = run.log;
  expect(log.filter((e) => e.kind === "s").length).toBeGreaterThanOrEqual(2);
  let pairs = 0;
  for (let i = 1; i < log.length; i++) {
    const [before, after] = [log[i - 1]!, log[i]!];
    if (before.kind !== "w" || after.kind !== "w" || !noteIn(before.request)) continue; // a summary between them rebuilt the prefix
    // the note was written between the two requests (the call is in the tail), yet the later one repeats the earlier whole
    expect(json(after.request.messages).slice(0, before.request.messages.length)).toEqual(json(before.request.messages));
    expect(noteIn(after.request)).toBe(noteIn(before.request));
    pairs++;
  }
  expect(pairs).toBeGreaterThanOrEqual(4);
  // each summary takes the note as the file is then: after the second, a step the first one's note lacked
  const afterSummaries = log.filter((e, i) => e.kind === "w" && log[i - 1]?.kind === "s").map((e) => noteIn(e.request));
  expect(afterSummaries[0]).toContain("STEP-");
  expect(afterSummaries.at(-1)).not.toBe(afterSummaries[0]);
  const last = log.findLast((e) => e.kind === "w")!.request;
  expect(JSON.stringify(last.messages.slice(-4))).toContain("STEP-16"); // the latest update reaches the model in its own call
});

test("hey -c sends the note the last request held, not the file as it is now (a hand-off appended after the run)", async () => {
  const id = newId();
  const before = agent([...steps(9), { text: "done" }], id);
  before.session.model("fake", "fake-model");
  await before.agent.send("fix the parser", new AbortController().signal);
  before.session.close();
  const last = before.log.findLast((e) => e.kind === "w")!.request;
  expect(noteIn(last)).toContain("STEP-"); // a summary brought the note in
  appendFileSync(note(), "\n## Stopped at the turn limit\n\nRemaining: STEP-7\n");

  const after = agent([{ text: "ok" }], id, loadSession(join(dir.path, `${id}.jsonl`)));
  await after.agent.send("go on", new AbortController().signal);
  const first = after.log.find((e) => e.kind === "w")!.request;
  expect(json(first.messages).slice(0, last.messages.length)).toEqual(json(last.messages));
  expect(noteIn(first)).not.toContain("STEP-9"); // written after the summary: its write_note call in the conversation tells it
  expect(noteIn(first)).not.toContain("Stopped at");
});

test("with summaries failing, a request that leaves out more takes the note anew; every request shows the note's current text", async () => {
  const run = agent([...steps(16), { text: "done" }], newId(), undefined, true);
  await run.agent.send("fix the parser", new AbortController().signal);
  const work = run.log.filter((e) => e.kind === "w" && noteIn(e.request));
  const notes = new Set(work.map((e) => noteIn(e.request)));
  expect(notes.size).toBeGreaterThanOrEqual(2); // taken again at a later trim
  let kept = 0;
  for (const [i, e] of work.entries()) {
    const text = JSON.stringify(e.request.messages);
    // the file as it is at this request: in the note, or as the agent's latest write of it in the conversation
    expect(
      noteIn(e.request).endsWith(e.file!.trim()) || text.includes(JSON.stringify(JSON.stringify({ path: ".hey/task.md", content: e.file })).slice(1, -1)),
    ).toBe(true);
    const before = work[i - 1]?.request;
    if (before && json(e.request.messages).slice(0, before.messages.length).join() === json(before.messages).join()) kept++;
  }
  expect(kept).toBeGreaterThanOrEqual(4);
});

test("hey -c of an older hey's session (no task_note recorded) whose summary took the note's one write holds the file's note from its first request", async () => {
  const id = newId();
  const once = { toolCalls: [{ name: "write_note", arguments: { path: ".hey/task.md", content: "# Task\nfix the parser\n\n## Plan\n- ONE-WRITE\n" } }] };
  const reads = Array.from({ length: 14 }, (_, i): Turn => ({ toolCalls: [{ name: "read_big", arguments: { n: i } }] }));
  const before = agent([once, ...reads, { text: "done" }], id);
  before.session.model("fake", "fake-model");
  await before.agent.send("fix the parser", new AbortController().signal);
  before.session.close();
  const last = before.log.findLast((e) => e.kind === "w")!.request;
  expect(noteIn(last)).toContain("ONE-WRITE");
  expect(JSON.stringify(last.messages)).not.toContain("write_note"); // a summary took the write
  const file = join(dir.path, `${id}.jsonl`);
  writeFileSync(file, readFileSync(file, "utf8").replace(/,"task_note":"(?:[^"\\]|\\.)*"/g, "")); // as an older hey wrote it

  const resumed = loadSession(file);
  const after = agent([{ text: "ok" }], id, resumed, false, conversationNote(dir.path, resumed));
  await after.agent.send("go on", new AbortController().signal);
  const first = after.log.find((e) => e.kind === "w")!.request;
  expect(noteIn(first)).toContain("ONE-WRITE"); // before: none, the replay held nothing for a session that records nothing
  expect(json(first.messages).slice(0, last.messages.length - 1)).toEqual(json(last.messages.slice(0, -1))); // the prefix, the note in it
});
