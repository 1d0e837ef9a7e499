// A call the model repeats in one reply runs once; the copy is answered "same call as the 1st in
// this reply: not run again; its result is above". The dedup pass used to take that copy for the
// later identical call and prune the first call's output, the only real one: once the turn left the
// protected tail, the file was gone from every request and the two results pointed at each other.
import { expect, test } from "bun:test";
import { buildContext } from "../../src/context/view.ts";
import { DUPLICATE_NOTE } from "../../src/context/passes.ts";
import { runToolCalls } from "../../src/kernel/tool-calls.ts";
import { textOf, type Message, type ToolCall } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { sameCallResult } from "../../src/kernel/repeats.ts";
import { testPolicy } from "../helpers/settings.ts";

const FILE = Array.from({ length: 30 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join("\n");

const readFile: Tool = {
  name: "read_file",
  description: "",
  parameters: { type: "object", properties: { path: { type: "string" } } },
  readOnly: () => true,
  run: async (args) => ({ output: args.path === "app.ts" ? FILE : `contents of ${String(args.path)}` }),
};

/** One reply of `calls` and the results hey's own tool pipeline gives them. */
async function reply(n: number, calls: ToolCall[]): Promise<Message[]> {
  const results = await runToolCalls(calls, {
    tools: [readFile],
    output: { emit: () => {} },
    permission: () => undefined,
    signal: new AbortController().signal,
    cwd: "/",
    parallel: true,
  });
  return [{ id: `a${n}`, role: "assistant", content: [], toolCalls: calls }, ...results];
}

const read = (id: string, path: string): ToolCall => ({ id, name: "read_file", arguments: JSON.stringify({ path }) });
const resultOf = (messages: readonly Message[], callId: string) => messages.find((m) => m.role === "tool" && m.toolCallId === callId);

async function history(later: ToolCall[][]): Promise<Message[]> {
  const out: Message[] = [{ id: "u1", role: "user", content: [{ type: "text", text: "what does app.ts export?" }] }];
  out.push(...(await reply(1, [read("c1", "app.ts"), read("c2", "app.ts")])));
  for (const [i, calls] of later.entries()) out.push(...(await reply(i + 2, calls)));
  return out;
}

test("a copy in one reply never prunes its first call's output, however many turns come after", async () => {
  const messages = await history([1, 2, 3, 4, 5, 6].map((n) => [read(`d${n}`, `other${n}.ts`)]));
  expect(textOf(resultOf(messages, "c2")!)).toBe(sameCallResult(0));
  const view = buildContext({ history: messages, summaries: [], fixedTokens: 0, tokensPerChar: 0.25, policy: testPolicy() });
  expect(textOf(resultOf(view.messages, "c1")!)).toStartWith(FILE);
  expect(view.messages.some((m) => textOf(m).includes(DUPLICATE_NOTE))).toBe(false);
  expect(view.stats.deduped).toBe(0);
});

test("a later turn's identical call still prunes the first: its own output, the file, is below", async () => {
  const messages = await history([[read("d2", "b.ts")], [read("d3", "c.ts")], [read("c9", "app.ts")], [read("d5", "d.ts")], [read("d6", "e.ts")]]);
  const view = buildContext({ history: messages, summaries: [], fixedTokens: 0, tokensPerChar: 0.25, policy: testPolicy() });
  expect(textOf(resultOf(view.messages, "c1")!)).toStartWith(DUPLICATE_NOTE);
  expect(textOf(resultOf(view.messages, "c2")!)).toStartWith(sameCallResult(0)); // too short to prune; the file is in c9's below
  expect(textOf(resultOf(view.messages, "c9")!)).toStartWith(FILE);
});
