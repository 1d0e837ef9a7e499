// x91 finding 3: a read_file re-read answered "not sent again" points at an earlier result. When a
// summary took that result, the live run sends the note as the result was; `hey -c` of the same
// session sent "no longer in the conversation" instead, because resume passes over the lines a
// summary replaced: the prompt cache broke right after the summary, and the model was told it had
// lost lines it was shown. Now resume loads the results its notes point at from those lines.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { createAgent } from "../../src/agent.ts";
import { GONE_NOTE } from "../../src/context/read-stubs.ts";
import { buildContext, type Summary } from "../../src/context/view.ts";
import { toLine } from "../../src/sessions/format.ts";
import { newId, textOf, type Message } from "../../src/kernel/ir.ts";
import { fanOut } from "../../src/kernel/output.ts";
import { agentSettings } from "../../src/runtime.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { pointedAtIn } from "../../src/sessions/pointed-at.ts";
import { resumedParts } from "../../src/sessions/resumed.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import type { SeenFiles } from "../../src/tools/seen-files.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest, testPolicy } from "../helpers/settings.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
  writeFileSync(`${dir.path}/a.ts`, Array.from({ length: 20 }, (_, i) => `export const v${i + 1} = ${i + 1}; // line ${i + 1} of a.ts`).join("\n") + "\n");
});
afterEach(() => dir.remove());

function agent(script: Turn[], sessionId: string, resumed?: ReturnType<typeof loadSession>) {
  const provider = fakeProvider(script);
  const session = createSessionWriter({ dir: dir.path, id: sessionId, cwd: dir.path, version: "0", warn: () => {}, existing: resumed !== undefined });
  const seen: SeenFiles = new Map();
  const a = createAgent({
    settings: agentSettings(defaultSettingsForTest()),
    provider,
    tools: () => [createReadFileTool({ seen })],
    seen,
    output: fanOut([recordingOutput(), session]),
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
    ...(resumed ? resumedParts(resumed, "fake", "fake-model") : {}),
  });
  return { agent: a, provider, session };
}

const resultOf = (messages: readonly Message[], callId: string) => textOf(messages.find((m) => m.toolCallId === callId)!);

test("after a summary took the earlier read, hey -c sends the re-read note as the live run did, byte for byte", async () => {
  const id = newId();
  const signal = new AbortController().signal;
  const before = agent(
    [
      { toolCalls: [{ name: "read_file", arguments: { path: "a.ts" }, id: "c1" }] },
      { text: "read it" },
      { toolCalls: [{ name: "read_file", arguments: { path: "a.ts", offset: 5 }, id: "c2" }] },
      { text: "the same" },
      { text: "SUMMARY: a.ts read whole; it exports v1 to v20." }, // /compact
      { text: "done" },
    ],
    id,
  );
  before.session.model("fake", "fake-model");
  await before.agent.send("read a.ts", signal);
  await before.agent.send("again from line 5", signal);
  expect(resultOf(before.provider.requests.at(-1)!.messages, "c2")).toStartWith("[unchanged: a.ts lines 5-20");
  expect(await before.agent.compact(undefined, signal)).toBe(true);
  await before.agent.send("next", signal);
  before.session.close();
  const last = before.provider.requests.at(-1)!.messages;
  expect(last.some((m) => m.toolCallId === "c1")).toBe(false); // the summary took the first read
  expect(resultOf(last, "c2")).toContain("export const v7 = 7; // line 7 of a.ts"); // and the note is sent as that read was

  const loaded = loadSession(`${dir.path}/${id}.jsonl`);
  expect(loaded.messages.some((m) => m.toolCallId === "c1")).toBe(false); // the range is still not loaded as messages
  const after = agent([{ text: "ok" }], id, loaded);
  await after.agent.send("and now?", signal);
  const first = after.provider.requests[0]!.messages;
  expect(resultOf(first, "c2")).not.toBe(GONE_NOTE);
  const same = (m: Message | undefined) => JSON.stringify(m);
  expect(first.slice(0, last.length).map(same)).toEqual(last.map(same));
});

const read = (id: string, text: string): Message[] => [
  { id: `a-${id}`, role: "assistant", content: [], toolCalls: [{ id, name: "read_file", arguments: '{"path":"a.ts"}' }] },
  { id: `r-${id}`, role: "tool", toolCallId: id, toolName: "read_file", isError: false, content: [{ type: "text", text }] },
];
const said = (id: string, text: string, role: "user" | "assistant" = "assistant"): Message => ({ id, role, content: [{ type: "text", text }] });
const FILE = " 1\texport const v1 = 1;\n 2\texport const v2 = 2;";
const NOTE = "[unchanged: a.ts lines 1-2 (all 2) are the same bytes as your earlier read_file result of lines 1-2 above (call c1); not sent again]";

test.each([
  ["in the middle of the summary's range", false],
  ["at the end of the summary's range", true],
])("the view of a resumed session is the live one's when the result a note points at is %s", (_where, last) => {
  const history = [
    said("u1", "read a.ts", "user"),
    said("a0", "looking"),
    ...read("c1", FILE),
    ...(last ? [] : [said("a1", "read it"), said("u2", "and then?", "user"), said("a2", "nothing more")]),
    said("u3", "again", "user"),
    ...read("c2", NOTE),
    said("a3", "the same"),
  ];
  const summary: Summary = { fromId: "a0", toId: last ? "r-c1" : "a2", text: "a.ts read" };
  const path = `${dir.path}/s.jsonl`;
  const lines = [toLine({ type: "header", id: "s", cwd: dir.path, created: new Date(0).toISOString(), version: "0" })];
  for (const m of history) lines.push(toLine({ type: "message", message: m }));
  lines.push(toLine({ type: "compaction", id: "k", from_id: summary.fromId, to_id: summary.toId, summary: summary.text }));
  writeFileSync(path, lines.join(""));
  const view = (messages: readonly Message[], summaries: Summary[]) =>
    buildContext({ history: messages, summaries, policy: testPolicy({ compressTool: false }), fixedTokens: 100, tokensPerChar: 0.25 }).messages;

  const live = view(history, [summary]);
  expect(textOf(live.find((m) => m.toolCallId === "c2")!)).toBe(FILE);
  const loaded = loadSession(path);
  expect(loaded.messages.some((m) => m.toolCallId === "c1")).toBe(false);
  expect(view(loaded.messages, loaded.summaries)).toEqual(live);
});

test("only what a note points at and the messages lack is taken, once, in the pool's order", () => {
  const note = (id: string, target: string): Message => ({
    id: `r-${id}`,
    role: "tool",
    toolCallId: id,
    toolName: "read_file",
    content: [
      {
        type: "text",
        text: `[unchanged: a.ts lines 1-2 (all 2) are the same bytes as your earlier read_file result of lines 1-2 above (call ${target}); not sent again]`,
      },
    ],
  });
  const result = (id: string): Message => ({
    id: `r-${id}`,
    role: "tool",
    toolCallId: id,
    toolName: "read_file",
    content: [{ type: "text", text: `lines of ${id}` }],
  });
  const messages = [note("n1", "c1"), note("n2", "c1"), note("n3", "c3"), result("c3"), note("n4", "c4")];
  expect(pointedAtIn(messages, [result("c9"), result("c1"), result("c1"), result("c3")]).map((m) => m.toolCallId)).toEqual(["c1"]);
});

test("a call id that comes back after hey -c does not turn a note into the later call's lines: it stays the earlier read's", () => {
  const B_FILE = " 1\texport const w1 = 1;\n 2\texport const w2 = 2;";
  const history = [
    said("u1", "read a.ts", "user"),
    said("a0", "looking"),
    ...read("c1", FILE),
    said("a1", "read it"),
    said("u3", "again", "user"),
    ...read("c2", NOTE),
    said("a3", "the same"),
  ];
  // the later call gets id c1 again: the range that held c1 is not in a resumed run's memory (a server whose ids are not random)
  const later: Message[] = [
    said("u4", "now b.ts", "user"),
    { id: "a-c1-b", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"b.ts"}' }] },
    { id: "r-c1-b", role: "tool", toolCallId: "c1", toolName: "read_file", isError: false, content: [{ type: "text", text: B_FILE }] },
    said("a4", "read b"),
  ];
  const summary: Summary = { fromId: "a0", toId: "a1", text: "a.ts read" };
  const path = `${dir.path}/s.jsonl`;
  const lines = [toLine({ type: "header", id: "s", cwd: dir.path, created: new Date(0).toISOString(), version: "0" })];
  for (const m of history) lines.push(toLine({ type: "message", message: m }));
  lines.push(toLine({ type: "compaction", id: "k", from_id: summary.fromId, to_id: summary.toId, summary: summary.text }));
  for (const m of later) lines.push(toLine({ type: "message", message: m }));
  writeFileSync(path, lines.join(""));
  const loaded = loadSession(path);
  const view = buildContext({
    history: loaded.messages,
    summaries: loaded.summaries,
    policy: testPolicy({ compressTool: false }),
    fixedTokens: 100,
    tokensPerChar: 0.25,
  }).messages;
  expect(textOf(view.find((m) => m.id === "r-c2")!)).toBe(FILE); // a.ts's lines, as the live run sent them
  expect(textOf(view.find((m) => m.id === "r-c1-b")!)).toBe(B_FILE);
});
