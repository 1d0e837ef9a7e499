// Where the cached summary's ask (context/summary-cached.ts summaryAsk) says the part to summarize
// ends. The ask rides inside the last message sent, so that message is never named as the end (x102:
// "through the user's message starting «read b.txt»", the very message holding the ask), and alike
// messages are counted among those before it (x102: "the 23rd of 25 alike", the 25th holding the ask).
import { expect, test } from "bun:test";
import { summaryAsk } from "../../src/context/summary-cached.ts";
import type { Message } from "../../src/kernel/ir.ts";

const user = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const reply = (id: string, text: string): Message => ({ id, role: "assistant", content: [{ type: "text", text }] });
const rangeOf = (sent: Message[], from: number, to: number) => ({ fromId: sent[from]!.id, toId: sent[to]!.id, messages: sent.slice(from, to + 1) });

test("a range that runs to the message holding the ask ends 'up to this note', not at that message, and no kept messages are promised after it", () => {
  const sent: Message[] = [
    user("u1", "read a.txt"),
    { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.txt"}' }] },
    { id: "r1", role: "tool", toolCallId: "c1", content: [{ type: "text", text: "lines" }] },
    reply("a2", "a.txt has 250 lines"),
    user("u2", "read b.txt"),
  ];
  const ask = summaryAsk(sent, rangeOf(sent, 1, 4));
  expect(ask).toContain('from your turn calling read_file {"path":"a.txt"} to the end, up to this note: your summary replaces that part.');
  expect(ask).not.toContain("«read b.txt»");
  expect(ask).not.toContain("messages after it stay");
});

test("of 25 alike prompts, the 25th holding the ask, the range's end at the 23rd is the 2nd-last of the 24 before it", () => {
  const sent: Message[] = [];
  for (let i = 1; i <= 25; i++) sent.push(user(`u${i}`, "say 3000"), reply(`a${i}`, `Answer ${i}: ${"x".repeat(80)}`));
  sent.pop(); // the last request ends with the 25th prompt, which carries the ask
  const ask = summaryAsk(sent, rangeOf(sent, 0, 44)); // through the 23rd reply's prompt
  expect(ask).toContain(
    "through the user's message starting «say 3000» (the 2nd-last of 24 alike): your summary replaces that part, and the messages after it stay",
  );
  expect(ask).toContain("from the user's message starting «say 3000» (the 1st of 24 alike)");
});
