// What a `!COMMAND` adds to the next message (ui/shell-command.ts shellNote): the command, its
// output cut as a bash result is, how it ended, with the secrets hey knows hidden.
import { expect, test } from "bun:test";
import { MAX_RESULT_LINES } from "../../src/tools/bash.ts";
import { ending, shellNote } from "../../src/ui/shell-command.ts";

const same = (t: string) => t;
const intro = "The user ran a command in their shell (with `!`) before writing this message:";

test("the command, its output and its exit code", () => {
  expect(shellNote("git status", { code: 0, output: "On branch main\r\nnothing to commit\n\n", lost: 0 }, same)).toBe(
    `${intro}\n$ git status\nOn branch main\nnothing to commit\n[exit 0]`,
  );
  expect(shellNote("true", { code: 0, output: "", lost: 0 }, same)).toBe(`${intro}\n$ true\n(no output)\n[exit 0]`);
  expect(ending({ code: undefined, signal: "SIGINT" })).toBe("killed by SIGINT");
});

test("long output is cut to its head and tail as a bash result is; what was not kept is said", () => {
  const output = Array.from({ length: MAX_RESULT_LINES + 500 }, (_, i) => `line ${i}`).join("\n");
  const note = shellNote("seq", { code: 0, output, lost: 1234 }, same);
  expect(note).toContain("line 0\n");
  expect(note).toContain(`line ${MAX_RESULT_LINES + 499}`);
  expect(note).toMatch(/… \d+ lines \(.*\) omitted …/);
  expect(note).toContain("… 1234 more bytes not kept …");
  expect(note.split("\n").length).toBeLessThan(MAX_RESULT_LINES + 10);
});

test("the secrets hey knows are hidden, the command's too", () => {
  const hide = (t: string) => t.replaceAll("sk-secret", "[redacted]");
  expect(shellNote("echo $KEY", { code: 0, output: "sk-secret\n", lost: 0 }, hide)).toBe(`${intro}\n$ echo $KEY\n[redacted]\n[exit 0]`);
});
