// The notes hey puts before the user's words (kernel/user-notes.ts): a session listing's title and a
// resumed recap show what the user typed, never plan mode's note or the REPL's `/undo`, `!` and
// `/jobs stop` notes, as each of their writers words them.
import { describe, expect, test } from "bun:test";
import { userMessage, type Message } from "../../src/kernel/ir.ts";
import { heyNote, movedNote, moveNote, PLAN_OFF, PLAN_ON, typedText, userRanNote } from "../../src/kernel/user-notes.ts";
import { undoNote } from "../../src/ui/undo-report.ts";

/** The user's "hi" with `note` before it, as the REPL sends it. */
const said = (note: string): Message => ({ ...userMessage("hi"), content: [{ type: "text", text: note }, ...userMessage("hi").content] });

describe("typedText", () => {
  test("leaves out plan mode's notes", () => {
    expect(typedText(said(PLAN_ON))).toBe("hi");
    expect(typedText(said(PLAN_OFF))).toBe("hi");
  });

  test("leaves out the REPL's notes as their writers word them: /undo's, a ! command's, /jobs stop's", () => {
    const report = { restored: ["/p/notes.md"], removed: [], changed: [], skipped: [], ranBash: false, later: { turns: 0, ranBash: 0 }, older: false };
    const undo = undoNote(report, "/p");
    expect(undo).toStartWith("The user ran /undo before writing this message:");
    const shell = userRanNote("a command in their shell (with `!`)", "\n$ ls\na.txt");
    const jobs = heyNote("the user stopped a job your commands left running, with /jobs stop: `npm run dev &` (pid 42); it no longer runs");
    for (const note of [undo, shell, jobs]) expect(typedText(said(note))).toBe("hi");
  });

  test("keeps the user's own words that only look like a note", () => {
    expect(typedText({ content: [{ type: "text", text: "The user ran out of ideas" }] })).toBe("The user ran out of ideas");
    expect(typedText({ content: [{ type: "text", text: "[hey, look at this]" }] })).toBe("[hey, look at this]");
  });
});

describe("typedText and attachments", () => {
  test("the files and stdin attached after the words are no part of them: a session's title is what was typed", async () => {
    const { buildPrompt } = await import("../../src/prompt/mentions.ts");
    const prompt = buildPrompt("check @.env", [{ path: ".env", text: "SECRET=1\n" }], { text: "log line\n" });
    expect(typedText({ content: [{ type: "text", text: prompt }] })).toBe("check @.env");
    // a fence the user typed in their own words, with no blank line before it, stays
    expect(typedText({ content: [{ type: "text", text: "fix this:\n```\nx = 1\n```" }] })).toBe("fix this:\n```\nx = 1\n```");
    // only an attachment: kept, rather than no title
    const only = buildPrompt("", [{ path: "a.txt", text: "hi\n" }]);
    expect(typedText({ content: [{ type: "text", text: only }] })).toBe(only);
  });
});

describe("moveNote", () => {
  const noted = (dir: string): Message => ({ ...userMessage("go on"), content: [{ type: "text", text: movedNote(dir) }, ...userMessage("go on").content] });
  test.each([
    ["where the system prompt says: nothing", "/p", [userMessage("hi")], undefined],
    ["a subdirectory: the note", "/p/src", [userMessage("hi")], "/p/src"],
    ["there again, the history has it: nothing", "/p/src", [userMessage("hi"), noted("/p/src")], undefined],
    ["back where it began: the note", "/p", [userMessage("hi"), noted("/p/src")], "/p"],
    ["a directory with a parenthesis in its name", "/p/a (b)", [noted("/p/a (b)")], undefined],
  ] as const)("%s", (_, cwd, history, told) => {
    expect(moveNote(cwd, "/p", history)).toBe(told === undefined ? undefined : movedNote(told));
  });

  test("a listing's title leaves the note out", () => {
    expect(typedText({ ...userMessage("hi"), content: [{ type: "text", text: movedNote("/p/src") }, ...userMessage("hi").content] })).toBe("hi");
  });
});
