// Which prompt a hand-off is filed under (kernel/hand-off.ts handOffTask).
import { expect, test } from "bun:test";
import { malformedCallNote } from "../../src/kernel/loop.ts";
import { handOffTask, MAX_RUN_TOKENS_PROMPT, MAX_TURNS_PROMPT, PLAIN_HAND_OFF_PROMPT } from "../../src/kernel/hand-off.ts";
import { textOf, userMessage, type Message } from "../../src/kernel/ir.ts";

const said = (text: string): Message => ({ id: text, role: "assistant", content: [{ type: "text", text }] });

test("the user's last prompt, never the request for the hand-off, nor the session's first prompt", () => {
  const messages = [userMessage("what is 2+2"), said("4"), userMessage("refactor the parser"), said(""), userMessage(MAX_TURNS_PROMPT), said("")];
  expect(textOf(handOffTask(messages)!)).toBe("refactor the parser");
  messages.push(userMessage(PLAIN_HAND_OFF_PROMPT));
  expect(textOf(handOffTask(messages)!)).toBe("refactor the parser");
  expect(textOf(handOffTask([userMessage("explore"), userMessage(MAX_RUN_TOKENS_PROMPT)])!)).toBe("explore");
  expect(handOffTask([userMessage(MAX_TURNS_PROMPT)])).toBeUndefined();
});

test("hey's note on a tool call it could not parse is no task: the hand-off is filed under the user's prompt", () => {
  const messages = [
    userMessage("fix the failing test in src/math.ts"),
    userMessage(malformedCallNote("its call is no JSON object")),
    userMessage(MAX_TURNS_PROMPT),
  ];
  expect(textOf(handOffTask(messages)!)).toBe("fix the failing test in src/math.ts");
});
