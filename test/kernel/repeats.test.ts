// Repeated identical tool calls (a "doom loop"), counted by the pure functions of kernel/repeats.ts
// and handled by the loop: the model is told from the third turn in a row with the identical call
// on, and the run stops at the fifth instead of spending the rest of --max-turns; the same call
// twice in one reply counts once.
import { describe, expect, test } from "bun:test";
import { runLoop } from "../../src/kernel/loop.ts";
import { textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { callSteps, repeatCount, repeatNote, REPEAT_NOTE_AT, REPEAT_STOP_AT, sameCallResult, stepOf, trailingRepeats } from "../../src/kernel/repeats.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps } from "../helpers/loop-deps.ts";
import { bigParses } from "../helpers/json-parses.ts";

/** A step of its own turn unless `turn` says which. */
const step = (args: string, output = "hi", isError = false, turn: unknown = {}) => stepOf({ id: "c", name: "bash", arguments: args }, output, isError, turn);
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

  test("identical calls of one turn count once; a hole still ends the row", () => {
    const turn = {};
    expect(repeatCount([step(cat, "hi", false, turn), step(cat, "hi", false, turn)], step(cat, "hi", false, turn))).toBe(1);
    expect(repeatCount([step(cat), step(cat, "hi", false, turn)], step(cat, "hi", false, turn))).toBe(2);
    expect(repeatCount([step(cat), undefined, step(cat, "hi", false, turn)], step(cat, "hi", false, turn))).toBe(1);
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
    expect(callSteps([...history.slice(0, -1), call("5"), { ...result("5"), content: [{ type: "text", text: "changed" }] }])).toHaveLength(1);
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
    expect(result.error!.message).toContain(`same call ${REPEAT_STOP_AT} turns in a row`);
    const results = messages.filter((m) => m.role === "tool").map(textOf);
    expect(results.slice(0, 2)).toEqual(["hi", "hi"]);
    expect(results[2]).toBe(`hi${repeatNote(3)}`);
    expect(provider.requests).toHaveLength(REPEAT_STOP_AT);
    // the third request's last result tells the model; what the user sees of the call is what it printed
    const sent = provider.requests[REPEAT_NOTE_AT]!.messages.at(-1)!;
    expect(textOf(sent)).toContain("you have made this exact call in each of your last 3 turns");
    expect(deps.output.of("tool_result").every((e) => e.output === "hi")).toBe(true);
    expect(deps.output.of("notice").map((e) => e.message)).toEqual([expect.stringContaining("same bash call 3 turns in a row")]);
  });

  test("five identical calls in one reply are one turn's, run once: no note, no stop; the model goes on to its answer", async () => {
    const five = Array.from({ length: 5 }, () => ({ name: "bash", arguments: { command: "git status" } }));
    let runs = 0;
    const counted: Tool = { ...echo, run: async () => (runs++, { output: "hi" }) };
    const deps = loopDeps(fakeProvider([{ toolCalls: five }, { text: "Clean." }]), { tools: [counted] });
    const messages = [userMessage("status?")];
    const result = await runLoop(messages, deps);
    expect(result).toMatchObject({ stop: "end", turns: 2 });
    expect(runs).toBe(1);
    expect(messages.filter((m) => m.role === "tool").map(textOf)).toEqual(["hi", ...Array.from({ length: 4 }, () => sameCallResult(0))]);
    expect(deps.output.of("notice")).toEqual([]);
  });

  test("the same two calls in every reply: the note from the 3rd turn, the stop at the 5th turn, not at the 3rd", async () => {
    const two = Array.from({ length: 2 }, () => ({ name: "bash", arguments: { command: "git status" } }));
    const provider = fakeProvider(Array.from({ length: 20 }, () => ({ toolCalls: two })));
    const messages = [userMessage("status?")];
    const result = await runLoop(messages, loopDeps(provider, { tools: [echo] }));
    expect(result).toMatchObject({ stop: "error", turns: REPEAT_STOP_AT, error: { kind: "repeated_calls" } });
    // each reply's copy is not run (its result names the first) and does not break the row of turns
    const results = messages.filter((m) => m.role === "tool").map(textOf);
    const copy = sameCallResult(0);
    expect(results.slice(0, 4)).toEqual(["hi", copy, "hi", copy]);
    expect(results.slice(4, 6)).toEqual([`hi${repeatNote(3)}`, copy]);
    expect(results.slice(-2)).toEqual([`hi${repeatNote(5)}`, copy]);
  });

  test("the note tells the model how to wait for a change without making the same call each turn", () => {
    expect(repeatNote(3)).toContain("To wait for a change, make one call that waits until it happens");
  });

  test("a command that waits for time to pass (a poll: sleep, then look) is told as a repeat but never stopped: the wait may not be over", async () => {
    const poll = { name: "bash", arguments: { command: "sleep 1; cat status.txt" } };
    const script = [...Array.from({ length: 7 }, () => ({ toolCalls: [poll] })), { text: "The build is done." }];
    const messages = [userMessage("wait for the build")];
    const result = await runLoop(messages, loopDeps(fakeProvider(script), { tools: [echo] }));
    expect(result).toMatchObject({ stop: "end", turns: 8 });
    expect(
      messages
        .filter((m) => m.role === "tool")
        .map(textOf)
        .at(-1),
    ).toBe(`hi${repeatNote(7)}`);
  });

  test("only a command that waits is a poll: a failing `timeout 120 pytest` or a commit whose message says wait is stopped as any repeat", async () => {
    for (const command of ["timeout 120 pytest -x", 'git commit -m "wait for review"']) {
      const calls = Array.from({ length: 20 }, () => ({ toolCalls: [{ name: "bash", arguments: { command } }] }));
      const result = await runLoop([userMessage("go")], loopDeps(fakeProvider(calls), { tools: [echo] }));
      expect(result).toMatchObject({ stop: "error", turns: REPEAT_STOP_AT, error: { kind: "repeated_calls" } });
    }
    for (const command of ["cd web && sleep 2 && curl -s localhost:3000", "curl --retry 5 -s localhost:3000"]) {
      const script = [...Array.from({ length: 6 }, () => ({ toolCalls: [{ name: "bash", arguments: { command } }] })), { text: "Up." }];
      expect(await runLoop([userMessage("wait")], loopDeps(fakeProvider(script), { tools: [echo] }))).toMatchObject({ stop: "end", turns: 7 });
    }
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

describe("the work done", () => {
  test("callSteps reads back only as far as the calls at the end repeat: in a run of 200 different big calls, the last two (before: all 200, twice a turn)", () => {
    const messages: Message[] = [userMessage("go")];
    for (let i = 0; i < 200; i++) {
      const args = JSON.stringify({ path: `f${i}.txt`, content: "x".repeat(20_000) });
      messages.push({ id: `a${i}`, role: "assistant", content: [], toolCalls: [{ id: `c${i}`, name: "write_file", arguments: args }] });
      messages.push({ id: `t${i}`, role: "tool", toolCallId: `c${i}`, toolName: "write_file", content: [{ type: "text", text: "wrote" }] });
    }
    let steps: ReturnType<typeof callSteps> = [];
    expect(bigParses(20_000, () => void (steps = callSteps(messages)))).toBe(2);
    expect(steps.map((s) => s.args)).toEqual([JSON.stringify({ path: "f199.txt", content: "x".repeat(20_000) })]);
    expect(bigParses(20_000, () => callSteps(messages))).toBe(0); // the next look: each call was read once
  });
});
