// In a REPL the latest user message parts the work before it from the work since (it is pinned:
// never summarized). Over the budget, one summary request covers both stretches: the work before
// the message is replaced by a line pointing past it, the summary stands after it. Before, a
// summary replaced only the heavier stretch, and a second summary request (and a second rewrite of
// the cached prefix) followed a turn or two later for the other.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "../../src/agent.ts";
import { SUMMARIZED_BELOW } from "../../src/context/view.ts";
import { newId, textOf } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { agentSettings } from "../../src/runtime.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { usageReport } from "../../src/ui/usage-report.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { isSummaryRequest } from "../helpers/summary-requests.ts";

const dir = tempDir("hey-summary-split-");
afterEach(() => dir.remove());

const reads = (from: number, n: number): Turn[] => Array.from({ length: n }, (_, i) => ({ toolCalls: [{ name: "read_big", arguments: { n: from + i } }] }));

/** Two user messages, each followed by reads of a ~2 KB file, with a 2,500-token budget: the requests made, the summary requests, the session file. */
async function session(first: number, second: number) {
  const work = fakeProvider([...reads(1, first), { text: "parser done" }, ...reads(first + 1, second), { text: "lexer done" }]);
  const requests: ModelRequest[] = [];
  const summaries: ModelRequest[] = [];
  const provider: Provider = {
    protocol: "openai",
    model: "fake-model",
    async *stream(request, signal): AsyncGenerator<StreamEvent> {
      if (!isSummaryRequest(request)) return yield* (requests.push({ ...request, messages: [...request.messages] }), work.stream(request, signal));
      summaries.push(request);
      const message = { id: `s${summaries.length}`, role: "assistant" as const, content: [{ type: "text" as const, text: `SUMMARY ${summaries.length}` }] };
      yield { type: "done", message, usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, stop: "stop" };
    },
  };
  const settings = defaultSettingsForTest();
  settings.agent.budgetTokens = 2500;
  const readBig = {
    name: "read_big",
    description: "reads",
    parameters: {},
    run: async (args: Record<string, unknown>) => ({ output: `file ${args.n}: ${"lorem ipsum dolor ".repeat(120)}` }),
  };
  const output = recordingOutput();
  const writer = createSessionWriter({ dir: join(dir.path, "sessions"), id: newId(), cwd: "/", version: "1", warn: () => {} });
  const agent = createAgent({
    settings: agentSettings(settings),
    provider,
    tools: () => [readBig],
    output: { emit: (e) => (output.emit(e), writer.emit(e)) },
    cwd: "/",
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
  });
  await agent.send("fix the parser", new AbortController().signal);
  await agent.send("now the lexer", new AbortController().signal);
  writer.close();
  return { requests, summaries, output, session: writer.path, agent };
}

test("one summary request covers the work before the latest user message and the work since (before: two, two requests apart)", async () => {
  const { requests, summaries, session: path, agent } = await session(2, 6);
  expect(summaries).toHaveLength(1);
  expect(usageReport(agent)).toMatch(/ · 1 summary$/m); // one summary, though it stands in two places
  const asked = summaries[0]!.messages.map(textOf).join("\n");
  for (const part of ["file 1:", "file 2:", "now the lexer", "file 3:"]) expect(asked).toContain(part); // both stretches and the message between
  // asked after the conversation as last sent: from the first stretch's start through the second's end, the result the ask is in
  expect(summaries[0]!.note).toContain('from your turn calling read_big {"n":1} to the end, up to this note:');
  const after = requests.findIndex((r) => r.messages.some((m) => m.id.startsWith("summary-")));
  // the work before the message points past it; the summary stands after it, where the work went on
  expect(requests[after]!.messages.slice(0, 4).map(textOf)).toEqual([
    "fix the parser",
    `[summary of earlier work]\n${SUMMARIZED_BELOW}`,
    "now the lexer",
    "[summary of earlier work]\nSUMMARY 1",
  ]);
  for (const r of requests.slice(after)) expect(r.messages.map(textOf).join("\n")).not.toMatch(/file [1-4]:/);
  // `hey -c` goes on from the same context: the session keeps both parts of the summary
  const resumed = loadSession(path);
  expect(resumed.messages.slice(0, 4).map(textOf)).toEqual(requests[after]!.messages.slice(0, 4).map(textOf));
});

test("hey -c after a crash between the summary's two lines sends the work before the message whole, not a pointer to a summary that is not there", async () => {
  const { session: path } = await session(2, 6);
  const text = readFileSync(path, "utf8");
  const pointer = text.indexOf('"summary":"(summarized below');
  expect(pointer).toBeGreaterThan(0);
  const next = text.indexOf("\n", pointer) + 1; // the summary's own line starts here
  for (const cut of [next, next + 40]) {
    // the process stopped after the pointer's line, or in the middle of the summary's (a full disk, a power cut)
    writeFileSync(path, text.slice(0, cut));
    const resumed = loadSession(path).messages.map(textOf).join("\n");
    expect(resumed).not.toContain(SUMMARIZED_BELOW);
    for (const part of ["file 1:", "file 2:", "now the lexer"]) expect(resumed).toContain(part);
  }
  writeFileSync(path, text); // whole, both lines stand
  expect(loadSession(path).messages.map(textOf)).toContain(`[summary of earlier work]\n${SUMMARIZED_BELOW}`);
});
