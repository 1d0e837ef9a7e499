// What the summarizer reads of the work it compresses (context/summary-transcript.ts): a long text
// keeps its start and its end, where an interrupted answer's marker and a pasted log's question are.
import { expect, test } from "bun:test";
import { summaryTranscript } from "../../src/context/summary-transcript.ts";
import type { Message } from "../../src/kernel/ir.ts";

const text = (id: string, role: "user" | "assistant", body: string): Message => ({ id, role, content: [{ type: "text", text: body }] });

test("a long answer cut short keeps its end for the summarizer: the model is told it was unfinished", () => {
  const answer = `${"Line of the big answer. ".repeat(2500)}\n\n[interrupted: hey stopped in the middle of this answer]`;
  const transcript = summaryTranscript([text("u1", "user", "write it all"), text("a1", "assistant", answer)], 100_000);
  expect(transcript).toContain("[assistant] Line of the big answer.");
  expect(transcript).toContain("more characters)…");
  expect(transcript).toEndWith("[interrupted: hey stopped in the middle of this answer]");
  expect(transcript.length).toBeLessThan(10_000);
});

test("a pasted log with its question at the end keeps the question", () => {
  const paste = `${"2026-12-06 ERROR something failed\n".repeat(3000)}why does the build fail?`;
  expect(summaryTranscript([text("u1", "user", paste)], 100_000)).toEndWith("why does the build fail?");
});
