// The files a session wrote (sessions/open-ends.ts writtenPaths) decide which broken skill files a
// resumed run hands the model to fix. An edit of the user's own skill that was refused (at the
// prompt, by a rule, in plan mode), failed or never finished wrote nothing: the file is still the
// user's, and every `hey -c` used to tell the model "fix them" for it.
import { expect, test } from "bun:test";
import type { Message, ToolCall } from "../../src/kernel/ir.ts";
import { skillStartNote } from "../../src/prompt/start-note.ts";
import { writtenPaths } from "../../src/sessions/open-ends.ts";

const SKILL = "/home/ana/.config/hey/skills/notes/SKILL.md";
const own = ["/home/ana/.config/hey/skills"];
const problems = [{ level: "warning" as const, message: `${SKILL}:3: broken YAML frontmatter: Unexpected token; left out` }];

function session(name: string, result: { text: string; isError?: boolean } | undefined): Message[] {
  const call: ToolCall = { id: "c1", name, arguments: JSON.stringify({ path: SKILL, old_string: "a", new_string: "b", content: "x" }) };
  const asked: Message[] = [
    { id: "u1", role: "user", content: [{ type: "text", text: "tidy my notes skill" }] },
    { id: "a1", role: "assistant", content: [], toolCalls: [call] },
  ];
  if (!result) return asked;
  return [...asked, { id: "r1", role: "tool", toolCallId: "c1", toolName: name, isError: result.isError, content: [{ type: "text", text: result.text }] }];
}

test.each([
  ["an edit refused at the prompt", "edit", { text: "the user refused this edit", isError: true }],
  ["an edit blocked by a rule", "edit", { text: 'blocked by permission rules: deny "edit(~/.config/**)"', isError: true }],
  ["an edit that failed", "edit", { text: "old_string not found in the file", isError: true }],
  ["a write_file refused in plan mode", "write_file", { text: "plan mode: write_file is not run", isError: true }],
  ["an edit cut off before its result", "edit", undefined],
])("%s wrote nothing: the user's skill is not handed to the model", (_name, tool, result) => {
  expect(writtenPaths(session(tool, result))).toEqual([]);
  expect(skillStartNote(problems, own, writtenPaths(session(tool, result)), "/")).toBeUndefined();
});

test.each([
  ["an edit", "edit", "edited /home/ana/.config/hey/skills/notes/SKILL.md"],
  ["a write_file", "write_file", "created /home/ana/.config/hey/skills/notes/SKILL.md (3 lines, 40 bytes)"],
])("%s that succeeded is the session's: the model is told to fix what it broke", (_name, tool, text) => {
  expect(writtenPaths(session(tool, { text }))).toEqual([SKILL]);
  expect(skillStartNote(problems, own, writtenPaths(session(tool, { text })), "/")).toContain("fix them");
});
