// What a `!COMMAND` adds to the next message (ui/shell-command.ts shellNote): the command, its
// output cut as a bash result is, how it ended, with the secrets hey knows hidden.
import { expect, test } from "bun:test";
import { MAX_RESULT_LINES } from "../../src/tools/bash.ts";
import { ending, shellNote } from "../../src/ui/shell-command.ts";

const same = (t: string) => t;
const intro = "The user ran a command in their shell (with `!`) before writing this message:";
const SCREEN_LEFT_OUT = "(a full-screen program's screen: not given)";

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

// what `!vim x.txt` printed, then `:wq` (captured from vim 9 with TERM=xterm-256color, the screen's rows shortened)
const vim =
  "Vim: Warning: Output is not to a terminal\n\x1b[?1049h\x1b[22;0;0t\x1b[>4;2m\x1b[?1h\x1b=\x1b[?2004h\x1b[1;24r\x1b[?12h\x1b[?12l" +
  '\x1b[22;2t\x1b[22;1t\x1b[27m\x1b[23m\x1b[29m\x1b[m\x1b[H\x1b[2J\x1b[?25l\x1b[24;1H"x.txt" [New File]\x1b[2;1H\x1b[94m~    \x1b[3;1H~    ' +
  "\x1bP+q436f\x1b\\\x1b[1;1H\x1b[?25h\x1b[mhello\x08\x1b[?25h\x1b[24;1H\x1b[K\x1b[24;1H:wq\n\x1b[?2004l\x1b[>4;m" +
  '"x.txt" [New File] 1 line, 6 bytes written\n\x1b[23;2t\x1b[23;1t\n\x1b[?2004l\x1b[?1l\x1b>\x1b[?1049l\x1b[23;0;0t\x1b[?25h\x1b[>4;m';

test("a full-screen program's screen is left out of the note, said in a few words; what it printed around it is kept", () => {
  const note = shellNote("vim x.txt; echo done", { code: 0, output: `${vim}done\n`, lost: 0 }, same);
  expect(note).toBe(`${intro}\n$ vim x.txt; echo done\nVim: Warning: Output is not to a terminal\n${SCREEN_LEFT_OUT}\ndone\n[exit 0]`);
  expect(note).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
});

test("colours, titles, links and other escapes are removed; a progress line is its last state; a backspace takes back", () => {
  const output =
    "\x1b]0;title\x07\x1b[1;32m✓\x1b[0m passed \x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\\n" +
    "\x1b7\x1b(Bsaved\x1b8 \x1b=keypad\x1b>\n" +
    "10%\r50%\r100% done\n" +
    "N\bNA\bAM\bME\bE _\bx\x07\x00\n";
  expect(shellNote("make", { code: 0, output, lost: 0 }, same)).toBe(`${intro}\n$ make\n✓ passed link\nsaved keypad\n100% done\nNAME x\n[exit 0]`);
});

test("output that is mostly cursor moves and colours, drawn without the alternate screen, is said to be a screen", () => {
  const rows = Array.from({ length: 60 }, (_, i) => `\x1b[${i + 1};1H\x1b[94m~\x1b[0m\x1b[K`).join("");
  expect(shellNote("top -n1", { code: 0, output: rows, lost: 0 }, same)).toBe(`${intro}\n$ top -n1\n${SCREEN_LEFT_OUT}\n[exit 0]`);
});
