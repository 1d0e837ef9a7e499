// x49 finding 2: a re-read of an unchanged file sent the whole file again, and every copy stayed in
// the context (and the cached prefix) until a summary. Now read_file answers with a one-line note
// naming the earlier result, while that result is still whole in what the model is sent.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "../../src/agent.ts";
import { textOf, type Message } from "../../src/kernel/ir.ts";
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { agentSettings } from "../../src/runtime.ts";
import type { SeenFiles } from "../../src/tools/seen-files.ts";
import { chooseShell } from "../../src/tools/shell.ts";
import { createTools } from "../../src/builtin-tools.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type ScriptedTurn, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("hey-reread-");
  writeFileSync(join(dir.path, "big.ts"), Array.from({ length: 500 }, (_, i) => `export const line${i + 1} = ${i + 1}; // some code here`).join("\n"));
});
afterEach(() => dir.remove());

const LINE_250 = "export const line250 = 250;";
const read = (args: Record<string, unknown>): ScriptedTurn => ({ toolCalls: [{ name: "read_file", arguments: { path: "big.ts", ...args } }] });
/** How many copies of line 250 a request sends. */
const copies = (req: ModelRequest) => req.messages.filter((m) => m.role === "tool" && textOf(m).includes(LINE_250)).length;
const lastResult = (req: ModelRequest) => textOf(req.messages.findLast((m: Message) => m.role === "tool")!);

function agentWith(script: Turn[]) {
  const provider = fakeProvider(script);
  const settings = defaultSettingsForTest();
  const seen: SeenFiles = new Map();
  const shell = chooseShell({ platform: process.platform, findOnPath: (n) => Bun.which(n) ?? undefined });
  const agent = createAgent({
    settings: agentSettings(settings),
    provider,
    tools: () => createTools(settings, { shell, raw: false, seen }),
    output: recordingOutput(),
    cwd: dir.path,
    seen,
    system: () => "test",
    permission: () => undefined,
    taskNote: () => undefined,
  });
  return { agent, provider };
}

test("reading the same file again, whole or a part of it, sends a note naming the earlier result, not the file", async () => {
  const { agent, provider } = agentWith([read({}), read({}), read({ offset: 240, limit: 20 }), read({}), { text: "done" }]);
  await agent.send("look at big.ts", new AbortController().signal);
  const [, second, third, fourth, last] = provider.requests;
  expect(copies(second!)).toBe(1);
  const callId = second!.messages.findLast((m) => m.role === "tool")!.toolCallId!;
  expect(lastResult(third!)).toMatch(
    new RegExp(
      `^\\[unchanged: big\\.ts lines 1-500 \\(all 500\\) are the same bytes as your earlier read_file result of lines 1-500 above \\(call ${callId}\\)`,
    ),
  );
  expect(lastResult(fourth!)).toContain("big.ts lines 240-259 of 500 are the same bytes");
  // dedup does not prune the earlier result for the identical calls after it: the lines are sent once, and are there
  for (const req of [third!, fourth!, last!]) expect(copies(req)).toBe(1);
});

test("a range the earlier read did not cover is read in full", async () => {
  const { agent, provider } = agentWith([read({ limit: 100 }), read({ offset: 50, limit: 100 }), { text: "done" }]);
  await agent.send("look at big.ts", new AbortController().signal);
  expect(lastResult(provider.requests[2]!)).toStartWith(" 50\texport const line50 = 50;");
});

test("a changed file is read in full", async () => {
  const { agent, provider } = agentWith([
    read({}),
    () => {
      writeFileSync(join(dir.path, "big.ts"), "changed\n");
      return read({});
    },
    { text: "done" },
  ]);
  await agent.send("look at big.ts", new AbortController().signal);
  expect(lastResult(provider.requests[2]!)).toStartWith("1\tchanged");
});

test("after a summary took the earlier result, a note sent before it carries the file, and a read sends the file again", async () => {
  const { agent, provider } = agentWith([read({}), read({}), { text: "read it" }, { text: "summary: read big.ts" }, read({}), { text: "done" }]);
  agent.settings.context.budgetTokens = 10_000; // the turns kept verbatim (a share of it) leave the reads to the summary
  await agent.send("look at big.ts", new AbortController().signal);
  expect(await agent.compact(undefined, new AbortController().signal)).toBe(true);
  await agent.send("again", new AbortController().signal);
  const [afterSummary, last] = provider.requests.slice(-2);
  // the summary took the first read; the note of the second, which pointed at it, is sent as that result was
  expect(afterSummary!.messages.some((m) => textOf(m).startsWith("[summary of earlier work]"))).toBe(true);
  expect(copies(afterSummary!)).toBe(1);
  expect(afterSummary!.messages.some((m) => textOf(m).includes("[unchanged:"))).toBe(false);
  // and a read after the summary sends the file: no note points at a result the model no longer has whole
  expect(lastResult(last!)).toContain(LINE_250);
  expect(lastResult(last!)).not.toContain("[unchanged:");
});
