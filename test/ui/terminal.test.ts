// What a person sees (SPEC §17): the answer alone on one stream, thinking dim, one line per tool
// call and result, retries announced, colors only where the stream is a terminal.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { createTerminalOutput } from "../../src/ui/terminal.ts";

function render(events: AgentEvent[], color = false, same = false) {
  const out: string[] = [];
  const err: string[] = [];
  const answer = { write: (t: string) => void out.push(t), color };
  const info = same ? answer : { write: (t: string) => void err.push(t), color };
  const terminal = createTerminalOutput(answer, info, { maxRetries: 5 });
  for (const e of events) terminal.emit(e);
  terminal.stopSpinner();
  return { out: out.join(""), err: err.join("") };
}

const usage = { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0 };
const run: AgentEvent[] = [
  { type: "turn_start", turn: 1 },
  { type: "thinking_delta", text: "Let me check" },
  { type: "thinking_delta", text: " the file." },
  { type: "text_delta", text: "Looking" },
  { type: "tool_call", id: "c1", name: "read_file", arguments: '{"path":"a.ts"}' },
  { type: "tool_result", id: "c1", name: "read_file", ok: true, output: "1\tconst a = 1;\n2\tconst b = 2;" },
  { type: "retry", attempt: 2, delay_ms: 4000, error: "rate limited (429): slow down" },
  { type: "turn_start", turn: 2 },
  { type: "text_delta", text: "Done." },
  { type: "done", stop_reason: "end", turns: 2, usage },
];

test("-p: stdout carries only the answer; everything else is on stderr, plain without a TTY", () => {
  const { out, err } = render(run);
  expect(out).toBe("Looking\nDone.\n");
  expect(err).toBe(
    "Let me check the file.\n" +
      '→ read_file {"path":"a.ts"}\n' +
      "✓ 1 const a = 1; 2 const b = 2;\n" +
      "retrying in 4 s (2/5): rate limited (429): slow down\n",
  );
});

test("REPL: one stream, thinking separated from the answer by a blank line", () => {
  const { out } = render(run, false, true);
  expect(out).toBe(
    "Let me check the file.\n\nLooking\n" + '→ read_file {"path":"a.ts"}\n' + "✓ 1 const a = 1; 2 const b = 2;\n" + "retrying in 4 s (2/5): rate limited (429): slow down\n" + "Done.\n",
  );
});

test("on a terminal thinking is dim, failures red, and a spinner runs until the first token", () => {
  const { out, err } = render([{ type: "turn_start", turn: 1 }, { type: "thinking_delta", text: "hmm" }, { type: "tool_call", id: "c", name: "bash", arguments: "{}" }, { type: "tool_result", id: "c", name: "bash", ok: false, output: "boom" }, { type: "text_delta", text: "x" }], true);
  expect(err).toContain("⠋ working…"); // the spinner's first frame
  expect(err).toContain("\x1b[2mhmm\x1b[0m");
  expect(err).toContain("\x1b[31m✗ \x1b[0mboom\n");
  expect(out).toBe("x");
});

test("long tool output is cut to one line", () => {
  const { err } = render([{ type: "tool_result", id: "c", name: "bash", ok: true, output: "y".repeat(500) }]);
  expect(err).toBe(`✓ ${"y".repeat(99)}…\n`);
});

test("an answer cut at the token limit and a max-turns stop are said", () => {
  expect(render([{ type: "text_delta", text: "The ans" }, { type: "done", stop_reason: "length", turns: 1, usage }]).err).toBe("the answer was cut off: the model reached its output token limit (raise max_tokens)\n");
});
