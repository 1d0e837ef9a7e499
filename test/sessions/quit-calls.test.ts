// A quit while a turn's calls run (the user's second Ctrl-C while one ignores its cancel) writes
// their results before hey exits (sessions/quit-calls.ts): the user stopped them, or they never
// started — not left for the resume to close as if hey had crashed (NO_RESULT).
import { expect, test } from "bun:test";
import type { Message } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { INTERRUPTED } from "../../src/kernel/tool.ts";
import { NO_RESULT } from "../../src/kernel/tool-calls.ts";
import { quitting } from "../../src/sessions/quit-calls.ts";
import { unwrittenSession } from "../../src/sessions/unwritten.ts";

const calls: Message = {
  id: "a1",
  role: "assistant",
  content: [],
  toolCalls: [
    { id: "c1", name: "read_file", arguments: "{}" },
    { id: "c2", name: "bash", arguments: "{}" },
    { id: "c3", name: "bash", arguments: "{}" },
  ],
};
const result = (id: string): Message => ({ id: `r-${id}`, role: "tool", toolCallId: id, toolName: "bash", content: [{ type: "text", text: "done" }] });

/** the writer's events, and the text of each tool result it was given */
function written() {
  const events: AgentEvent[] = [];
  const writer = quitting({ ...unwrittenSession("/s.jsonl"), emit: (e) => void events.push(e) });
  const results = () =>
    events.flatMap((e) => (e.type === "message" && e.message.role === "tool" ? [[e.message.toolCallId, (e.message.content[0] as { text: string }).text]] : []));
  return { writer, results };
}

test("the calls still running when the user quits: the one that started is said stopped by the user, the one that had not is said never run", () => {
  const { writer, results } = written();
  writer.emit({ type: "message", message: { id: "u1", role: "user", content: [{ type: "text", text: "go" }] } });
  writer.emit({ type: "message", message: calls });
  writer.emit({ type: "tool_start", id: "c1" });
  writer.emit({ type: "message", message: result("c1") });
  writer.emit({ type: "tool_start", id: "c2" });
  writer.quit(INTERRUPTED);
  expect(results()).toEqual([
    ["c1", "done"],
    [
      "c2",
      "interrupted by user: the user stopped this call before it finished, and hey quit while it ran; it may have done part of its work. Do not run it again unless the user asks",
    ],
    ["c3", "not run: interrupted by user before it started"],
  ]);
  expect(results().map(([, text]) => text)).not.toContain(NO_RESULT);
  writer.quit(INTERRUPTED); // a second quit adds nothing
  expect(results()).toHaveLength(3);
});

test("a quit between turns, every call answered: nothing is written", () => {
  const { writer, results } = written();
  writer.emit({ type: "message", message: calls });
  for (const id of ["c1", "c2", "c3"]) writer.emit({ type: "message", message: result(id) });
  writer.quit(INTERRUPTED);
  expect(results()).toHaveLength(3);
});
