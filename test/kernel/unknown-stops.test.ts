// A reply that stopped for a reason no protocol lists (stop "other": Gemini's OTHER, a new
// stop_reason) is no finished answer: its text is shown and kept, its calls are not run, and the run
// ends with an error saying so, so a script running `hey -p` can tell it from a whole answer.
import { expect, test } from "bun:test";
import { runLoop, unknownStop } from "../../src/kernel/loop.ts";
import { textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps, sleepTool } from "../helpers/loop-deps.ts";

/** A tool that records each run. */
function recordingTool(name: string): Tool & { ran: number } {
  const tool = {
    ran: 0,
    name,
    description: "records its runs",
    parameters: { type: "object", properties: {} },
    run: async () => {
      tool.ran++;
      return { output: "ran" };
    },
  };
  return tool;
}

test("text, then a stop hey does not know: the text is shown and kept, and the run ends with an error naming the stop", async () => {
  const deps = loopDeps(fakeProvider([{ text: "Here is the first part of the ans", stop: "other", detail: '"OTHER"' }]));
  const messages = [userMessage("go")];
  const result = await runLoop(messages, deps);
  expect(result).toMatchObject({ stop: "error", turns: 1 });
  expect(deps.output.text()).toBe("Here is the first part of the ans");
  expect(deps.output.of("error")).toEqual([{ type: "error", kind: "unknown_stop", message: 'the model stopped for "OTHER"; its answer may be incomplete' }]);
  expect(messages.map((m) => [m.role, textOf(m)])).toEqual([
    ["user", "go"],
    ["assistant", "Here is the first part of the ans"],
  ]);
});

test("its tool calls are not run: each gets a result saying why (the history stays whole), and the error names them; after tools too", async () => {
  const bash = recordingTool("bash");
  const provider = fakeProvider([
    { toolCalls: [{ name: "t", arguments: {} }] },
    { text: "Now I write.", toolCalls: [{ name: "bash", arguments: { command: "echo ran >> ran.txt" }, id: "c2" }], stop: "other", detail: '"OTHER"' },
  ]);
  const deps = loopDeps(provider, { tools: [sleepTool("t", 1), bash] });
  const messages = [userMessage("go")];
  expect(await runLoop(messages, deps)).toMatchObject({ stop: "error", turns: 2 });
  expect(bash.ran).toBe(0);
  expect(deps.output.of("error")[0]).toEqual({
    type: "error",
    kind: "unknown_stop",
    message: 'the model stopped for "OTHER"; its answer may be incomplete, and its tool call (bash) was not run',
  });
  const result = messages.at(-1)!;
  expect(result).toMatchObject({ role: "tool", toolCallId: "c2", isError: true });
  expect(textOf(result)).toStartWith('not run: the reply that made this call stopped for "OTHER"');
});

const reply = (text: string, calls: string[] = [], thinking = ""): Message => ({
  id: "a",
  role: "assistant",
  content: [...(thinking ? [{ type: "thinking" as const, text: thinking }] : []), ...(text ? [{ type: "text" as const, text }] : [])],
  ...(calls.length ? { toolCalls: calls.map((name, i) => ({ id: `c${i}`, name, arguments: "{}" })) } : {}),
});

test.each([
  [undefined, reply(""), "the model's answer was empty: it stopped for a reason its provider did not name"],
  ['"OTHER"', reply(""), `the model's answer was empty: it stopped for "OTHER"`],
  ['"OTHER"', reply("", [], "Let me see."), 'the model answered with only reasoning: it stopped for "OTHER"'],
  ['"x"', reply("", ["a", "b", "a"]), 'the model stopped for "x"; its answer may be incomplete, and its 3 tool calls (a, b) were not run'],
  [undefined, reply("Half"), "the model stopped for a reason its provider did not name; its answer may be incomplete"],
] as const)("unknownStop(%p, %o) → %p", (detail, message, said) => {
  expect(unknownStop(detail, message)).toBe(said);
});
