// What the summarizer reads of the work it compresses (context/summary-transcript.ts): a long text
// keeps its start and its end, where an interrupted answer's marker and a pasted log's question are;
// the room goes to the user's messages first, then the assistant's text and thinking, then tool output.
import { expect, test } from "bun:test";
import { summaryTranscript } from "../../src/context/summary-transcript.ts";
import type { Message } from "../../src/kernel/ir.ts";

const text = (id: string, role: "user" | "assistant", body: string): Message => ({ id, role, content: [{ type: "text", text: body }] });

test("a long answer cut short keeps its end for the summarizer: the model is told it was unfinished", () => {
  const answer = `${"Line of the big answer. ".repeat(2500)}\n\n[interrupted: hey stopped in the middle of this answer]`;
  const transcript = summaryTranscript([text("u1", "user", "write it all"), text("a1", "assistant", answer)], 8_000);
  expect(transcript).toContain("[assistant] Line of the big answer.");
  expect(transcript).toContain("more characters)…");
  expect(transcript).toEndWith("[interrupted: hey stopped in the middle of this answer]");
  expect(transcript.length).toBeLessThanOrEqual(8_000);
});

test("a pasted log with its question at the end keeps the question", () => {
  const paste = `${"2026-12-06 ERROR something failed\n".repeat(3000)}why does the build fail?`;
  expect(summaryTranscript([text("u1", "user", paste)], 50_000)).toEndWith("why does the build fail?");
});

const spec = `Here is the spec. ${"Requirement: keep the output stable and documented. ".repeat(60)}IMPORTANT: never edit src/mod9.ts, it is generated. ${"Requirement: stay compatible with callers. ".repeat(60)}`;
const read = (n: number, chars: number): Message[] => [
  {
    id: `a${n}`,
    role: "assistant",
    content: [{ type: "text", text: "Reading." }],
    toolCalls: [{ id: `c${n}`, name: "read_file", arguments: `{"path":"f${n}.ts"}` }],
  },
  {
    id: `r${n}`,
    role: "tool",
    toolCallId: `c${n}`,
    toolName: "read_file",
    content: [{ type: "text", text: `start of f${n} ${"x".repeat(chars)} end of f${n}` }],
  },
];

test("a long pasted spec reaches the summarizer whole, its constraint in the middle too, while tool output is cut to make room", () => {
  const stretch = [text("u1", "user", spec), ...Array.from({ length: 20 }, (_, n) => read(n, 3_000)).flat()];
  const transcript = summaryTranscript(stretch, 30_000);
  expect(transcript).toContain("IMPORTANT: never edit src/mod9.ts, it is generated.");
  expect(transcript).toContain(spec);
  expect(transcript).toContain("start of f0");
  expect(transcript).toContain("end of f19");
  expect(transcript).toContain("more characters)…");
  expect(transcript.length).toBeLessThanOrEqual(30_000);
});

test("with room to spare the user's long message is whole, while tool output keeps only its start and end: a summary request is paid uncached", () => {
  const paste = `Context for the task: ${"the parser must accept trailing commas in nested arrays; ".repeat(300)}and never touch vendor/.`;
  const stretch = [text("u1", "user", paste), ...read(1, 6_000), text("a2", "assistant", "Found it: keyOf ignores the locale.")];
  const transcript = summaryTranscript(stretch, 90_000);
  expect(transcript).toContain(paste);
  expect(transcript).toContain("start of f1");
  expect(transcript).toContain("end of f1");
  expect(transcript).not.toContain("x".repeat(2_000));
  expect(transcript).toContain("Found it: keyOf ignores the locale.");
  expect(transcript.length).toBeLessThan(paste.length + 3_000);
});

test("the assistant's thinking is shown to the summarizer, where its reasons are", () => {
  const thought: Message = {
    id: "a1",
    role: "assistant",
    content: [
      { type: "thinking", text: "mod3 breaks case 3 because the counter starts at 1" },
      { type: "text", text: "Fixing." },
    ],
  };
  expect(summaryTranscript([text("u1", "user", "fix it"), thought], 10_000)).toContain("[thinking] mod3 breaks case 3 because the counter starts at 1");
});

test("the assistant's text keeps more than tool output when the room is short", () => {
  const reasoning = `My finding: ${"the cache key ignores the locale, ".repeat(40)}so fix keyOf.`;
  const stretch = [text("u1", "user", "why is it slow?"), text("a0", "assistant", reasoning), ...Array.from({ length: 10 }, (_, n) => read(n, 4_000)).flat()];
  const transcript = summaryTranscript(stretch, 12_000);
  expect(transcript).toContain(reasoning);
  expect(transcript).toContain("end of f9");
  expect(transcript.length).toBeLessThanOrEqual(12_000);
});
