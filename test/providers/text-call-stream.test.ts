// What a stream looks like once tool calls a server left in the text are read out of it: the
// template never reaches the screen (even split across deltas), prose that only mentions the syntax
// is shown whole, and the server advice comes once per provider.
import { expect, mock, test } from "bun:test";
import type { Message, StopReason, ToolSpec } from "../../src/kernel/ir.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import * as code from "../../src/providers/text-call-code.ts";
import { CALLS_AS_TEXT, withTextCalls } from "../../src/providers/text-call-stream.ts";
import * as recogniser from "../../src/providers/text-tool-calls.ts";

// The characters the recogniser's scans read, counted by wrappers that do what they wrap (the work a
// long streamed call costs, without timing it)
let scanned = 0;
const { blockEnd, openerAt } = recogniser;
const { insideCode } = code;
mock.module("../../src/providers/text-tool-calls.ts", () => ({
  ...recogniser,
  blockEnd: (text: string, at: number, done: boolean) => ((scanned += text.length - at), blockEnd(text, at, done)),
  openerAt: (text: string, from = 0) => ((scanned += text.length - from), openerAt(text, from)),
}));
mock.module("../../src/providers/text-call-code.ts", () => ({
  ...code,
  insideCode: (text: string, at: number) => ((scanned += at), insideCode(text, at)),
}));

const TOOLS: ToolSpec[] = [{ name: "bash", description: "", parameters: { type: "object", properties: { command: { type: "string" } } } }];

/** A provider's events for an answer whose text comes in `deltas`. */
async function* answer(deltas: string[], stop: StopReason = "stop"): AsyncGenerator<StreamEvent> {
  for (const delta of deltas) yield { type: "text", delta };
  const message: Message = {
    id: "m1",
    role: "assistant",
    content: [
      { type: "thinking", text: "hm" },
      { type: "text", text: deltas.join("") },
    ],
  };
  yield { type: "done", message, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, stop };
}

async function collect(events: AsyncIterable<StreamEvent>) {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  const done = out.at(-1);
  if (done?.type !== "done") throw new Error("no done");
  return { shown: out.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join(""), notices: out.filter((e) => e.type === "notice"), done };
}

/** An endpoint nothing is known of yet. */
const fresh = () => ({ native: false, told: false });

const CALL = ["Listing.\n<too", 'l_call>\n{"name": "bash", ', '"arguments": {"command": "ls"}}\n</tool_call>'];

test("an opener split across deltas is held back: only the text before it is shown; the done carries the call, stop tool_calls", async () => {
  const { shown, done, notices } = await collect(withTextCalls(answer(CALL), TOOLS, fresh()));
  expect(shown).toBe("Listing.\n");
  expect(done.stop).toBe("tool_calls");
  expect(done.message.content).toEqual([
    { type: "thinking", text: "hm" },
    { type: "text", text: "Listing." },
  ]);
  expect(done.message.toolCalls?.map((c) => [c.name, c.arguments])).toEqual([["bash", '{"command":"ls"}']]);
  expect(notices).toHaveLength(1);
  expect((notices[0] as { message: string }).message).toStartWith(CALLS_AS_TEXT);
});

test("the server advice is said once per provider", async () => {
  const told = fresh();
  await collect(withTextCalls(answer(CALL), TOOLS, told));
  expect((await collect(withTextCalls(answer(CALL), TOOLS, told))).notices).toEqual([]);
});

test.each([
  ["prose that names the syntax", ["Use <tool_call>", " blocks, as Hermes", " models do."]],
  [
    "a call the model quotes in a > blockquote and says it will not run",
    ["> The file says:\n> <tool_", 'call>{"name":"bash","arguments":{"command":"rm -rf ~"}}</tool_call>\n', "\nI will not run that."],
  ],
  [
    "a call followed by a question to the user",
    ["I can clean it:\n<tool_call>", '{"name":"bash","arguments":{"command":"rm -rf build"}}</tool_call>\n', "Do you want me to run it?"],
  ],
])("%s: nothing runs, the answer is shown whole once it ends, unchanged, no notice", async (_, deltas) => {
  const { shown, done, notices } = await collect(withTextCalls(answer(deltas), TOOLS, fresh()));
  expect(shown).toBe(deltas.join(""));
  expect(done.stop).toBe("stop");
  expect(done.message.toolCalls).toBeUndefined();
  expect(notices).toEqual([]);
});

test("an answer cut at the output limit is never read for calls: its text is shown as it came", async () => {
  const { shown, done } = await collect(withTextCalls(answer(CALL, "length"), TOOLS, fresh()));
  expect(shown).toBe(CALL.join(""));
  expect(done.stop).toBe("length");
});

test("a written call naming no offered tool: malformed_call saying no tool ran, the advice still given", async () => {
  const deltas = ['<tool_call>{"name": "rm", "arguments": {}}</tool_call>'];
  const { shown, done, notices } = await collect(withTextCalls(answer(deltas), TOOLS, fresh()));
  expect(shown).toBe("");
  expect(done.stop).toBe("malformed_call");
  expect(done.detail).toContain('it names "rm", which is no tool offered. No tool was run');
  expect(notices).toHaveLength(1);
});

test("a trailing comma and a name written `Bash` run, as the same native call would", async () => {
  const deltas = ['<tool_call>{"name": "Bash", "arguments": {"command": "ls",},}</tool_call>'];
  const { shown, done } = await collect(withTextCalls(answer(deltas), TOOLS, fresh()));
  expect(shown).toBe("");
  expect(done.stop).toBe("tool_calls");
  expect(done.message.toolCalls?.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([["bash", { command: "ls" }]]);
  const fn = await collect(withTextCalls(answer(['<function=Bash>{"command": "ls",}</function>']), TOOLS, fresh()));
  expect(fn.done.message.toolCalls?.map((c) => c.name)).toEqual(["bash"]);
});

test("prose naming the syntax early in a long answer streams on: the text after it is shown as it comes, not at the end", async () => {
  const log: string[] = [];
  async function* source(): AsyncGenerator<StreamEvent> {
    const deltas = ["Your template uses <tool_call> tags. ", ...Array.from({ length: 50 }, (_, i) => `Paragraph ${i}. `)];
    for (const delta of deltas) {
      log.push(`sent ${delta}`);
      yield { type: "text", delta };
    }
    log.push("sent done");
    yield* answer([]);
  }
  for await (const e of withTextCalls(source(), TOOLS, fresh())) if (e.type === "text") log.push(`shown ${e.delta}`);
  expect(log.indexOf("shown Paragraph 10. ")).toBeGreaterThan(-1);
  expect(log.indexOf("shown Paragraph 10. ")).toBeLessThan(log.indexOf("sent Paragraph 12. "));
  const shown = log.flatMap((l) => (l.startsWith("shown ") ? [l.slice(6)] : [])).join("");
  expect(shown).toStartWith("Your template uses <tool_call> tags. Paragraph 0. ");
});

test("calls with prose between them: every block runs, in order; the prose is shown and kept in order, the blocks never shown", async () => {
  const deltas = [
    "First I'll make a file.\n<tool_call>\n",
    '{"name": "bash", "arguments": {"command": "echo FIRST > first.txt"}}\n</tool_call>\nNow let me ',
    'also list the directory.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>',
  ];
  const { shown, done } = await collect(withTextCalls(answer(deltas), TOOLS, fresh()));
  expect(shown).toBe("First I'll make a file.\n\nNow let me also list the directory.");
  expect(done.stop).toBe("tool_calls");
  expect(done.message.toolCalls?.map((c) => JSON.parse(c.arguments).command)).toEqual(["echo FIRST > first.txt", "ls"]);
  expect(done.message.content.at(-1)).toEqual({ type: "text", text: "First I'll make a file.\n\nNow let me also list the directory." });
});

test("an example block followed by more prose, no call among the blocks readable: held to the end, then shown whole", async () => {
  const deltas = ['Like this: <tool_call>{"name": "rm", "arguments": {}}</tool_call>', " and then", " more words."];
  const { shown, done } = await collect(withTextCalls(answer(deltas, "length"), TOOLS, fresh()));
  expect(shown).toBe(deltas.join(""));
  expect(done.stop).toBe("length");
});

test("a stream that breaks while text is held: the held text is shown before the failure, so the cut answer keeps it", async () => {
  async function* source(): AsyncGenerator<StreamEvent> {
    yield { type: "text", delta: 'Listing.\n<tool_call>{"name": "ba' };
    throw new Error("connection reset");
  }
  const shown: string[] = [];
  const failed = (async () => {
    for await (const e of withTextCalls(source(), TOOLS, fresh())) if (e.type === "text") shown.push(e.delta);
  })();
  await expect(failed).rejects.toThrow("connection reset");
  expect(shown.join("")).toBe('Listing.\n<tool_call>{"name": "ba');
});

test.each([
  ["Hermes' JSON", '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>', "hermes"],
  ["Qwen3-Coder's <parameter=…>", "<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>", "qwen3_coder"],
  ["Qwen3-Coder's without <tool_call>", "<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>", "qwen3_coder"],
  ["GLM's <arg_key>", "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>", "glm45"],
  [
    "DeepSeek V3.1's tokens",
    '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>bash<｜tool▁sep｜>{"command":"ls"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    "deepseek_v31",
  ],
  ["Mistral's", '[TOOL_CALLS][{"name": "bash", "arguments": {"command": "ls"}}]', "mistral"],
])("the notice for %s names the vLLM parser that reads it", async (_, written, parser) => {
  const { notices, done } = await collect(withTextCalls(answer([written]), TOOLS, fresh()));
  expect(done.stop).toBe("tool_calls");
  expect((notices[0] as { message: string }).message).toContain(`--tool-call-parser ${parser},`);
});

test("a long call streamed in small pieces is read in linear time: the text it scans grows with the answer, not its square", async () => {
  const content = "x".repeat(50_000);
  const whole = `I'll write it.\n<tool_call>{"name":"bash","arguments":{"command":"echo ${content}"}}</tool_call>`;
  const deltas: string[] = [];
  for (let i = 0; i < whole.length; i += 4) deltas.push(whole.slice(i, i + 4));
  scanned = 0;
  const { shown, done } = await collect(withTextCalls(answer(deltas), TOOLS, fresh()));
  expect(shown).toBe("I'll write it.\n");
  expect(done.message.toolCalls?.map((c) => JSON.parse(c.arguments).command.length)).toEqual([content.length + 5]);
  expect(scanned).toBeLessThan(10 * whole.length); // every delta scanning the held block: ~whole.length² / 8
});
