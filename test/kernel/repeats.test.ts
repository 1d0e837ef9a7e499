// Repeated identical tool calls (a "doom loop"), counted by the pure functions of kernel/repeats.ts
// and handled by the loop: the model is told from the third identical call on, and the run stops
// at the fifth instead of spending the rest of --max-turns.
import { describe, expect, test } from "bun:test";
import { runLoop } from "../../src/kernel/loop.ts";
import { textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { callSteps, repeatCount, repeatNote, REPEAT_NOTE_AT, REPEAT_STOP_AT, stepOf, trailingRepeats } from "../../src/kernel/repeats.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps } from "../helpers/loop-deps.ts";

const step = (args: string, output = "hi", isError = false) => stepOf({ name: "bash", arguments: args }, output, isError);
const cat = '{"command":"cat a.txt"}';

describe("counting", () => {
  test("the same tool, arguments and result in a row count; spacing of the JSON does not matter", () => {
    expect(repeatCount([], step(cat))).toBe(1);
    expect(repeatCount([step(cat), step('{ "command" : "cat a.txt" }')], step(cat))).toBe(3);
  });

  test("another result, other arguments, an error instead of output, or a hole (a call not done yet) end the row", () => {
    expect(repeatCount([step(cat), step(cat, "changed"), step(cat)], step(cat))).toBe(2);
    expect(repeatCount([step(cat), step('{"command":"ls"}'), step(cat)], step(cat))).toBe(2);
    expect(repeatCount([step(cat), step(cat, "hi", true)], step(cat))).toBe(1);
    expect(repeatCount([step(cat), undefined, step(cat)], step(cat))).toBe(2);
  });

  test("a result that carries the note is the same result as one without it", () => {
    expect(repeatCount([step(cat, `hi${repeatNote(3)}`)], step(cat))).toBe(2);
  });

  test("callSteps: the calls since the latest user message or answer, each with its result; trailingRepeats counts the end", () => {
    const call = (id: string): Message => ({ id: `a${id}`, role: "assistant", content: [], toolCalls: [{ id, name: "bash", arguments: cat }] });
    const result = (id: string): Message => ({ id: `r${id}`, role: "tool", toolCallId: id, toolName: "bash", content: [{ type: "text", text: "hi" }] });
    const answer: Message = { id: "x", role: "assistant", content: [{ type: "text", text: "done" }] };
    const history = [userMessage("go"), call("1"), result("1"), answer, call("2"), result("2"), call("3"), result("3"), call("4")];
    expect(callSteps(history)).toHaveLength(2); // the answer ends the row before it; call 4 has no result yet
    expect(trailingRepeats(callSteps(history))).toBe(2);
    expect(trailingRepeats(callSteps([...history, userMessage("again")]))).toBe(0);
  });
});

describe("the loop", () => {
  const echo: Tool = { name: "bash", description: "runs", parameters: { type: "object", properties: {} }, run: async () => ({ output: "hi" }) };

  test(`the same call with the same result: told from the ${REPEAT_NOTE_AT}rd time on, stopped at the ${REPEAT_STOP_AT}th (before: all 20 turns ran)`, async () => {
    const provider = fakeProvider(Array.from({ length: 20 }, () => ({ toolCalls: [{ name: "bash", arguments: { command: "cat a.txt" } }] })));
    const deps = loopDeps(provider, { tools: [echo] });
    const messages = [userMessage("show a.txt")];
    const result = await runLoop(messages, deps);
    expect(result).toMatchObject({ stop: "error", turns: REPEAT_STOP_AT, error: { kind: "repeated_calls" } });
    expect(result.error!.message).toContain(`same call ${REPEAT_STOP_AT} times in a row`);
    const results = messages.filter((m) => m.role === "tool").map(textOf);
    expect(results.slice(0, 2)).toEqual(["hi", "hi"]);
    expect(results[2]).toBe(`hi${repeatNote(3)}`);
    expect(provider.requests).toHaveLength(REPEAT_STOP_AT);
    // the third request's last result tells the model; what the user sees of the call is what it printed
    const sent = provider.requests[REPEAT_NOTE_AT]!.messages.at(-1)!;
    expect(textOf(sent)).toContain("you have made this exact call 3 times in a row");
    expect(deps.output.of("tool_result").every((e) => e.output === "hi")).toBe(true);
    expect(deps.output.of("notice").map((e) => e.message)).toEqual([expect.stringContaining("same bash call 3 times in a row")]);
  });

  test("a call whose result changes each time is no repetition: it runs as often as the model asks", async () => {
    let n = 0;
    const counter: Tool = { ...echo, run: async () => ({ output: `run ${++n}` }) };
    const script = [...Array.from({ length: 7 }, () => ({ toolCalls: [{ name: "bash", arguments: { command: "date" } }] })), { text: "Done." }];
    const deps = loopDeps(fakeProvider(script), { tools: [counter] });
    const result = await runLoop([userMessage("go")], deps);
    expect(result).toMatchObject({ stop: "end", turns: 8 });
  });
});
