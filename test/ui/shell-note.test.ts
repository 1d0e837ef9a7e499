// What a `!COMMAND` adds to the next message (ui/shell-command.ts shellNote): the command, its
// output as a bash result gives it (filtered, cut to head and tail, the full output saved and
// named), how it ended, with the secrets hey knows hidden.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_RESULT_BYTES, MAX_RESULT_LINES } from "../../src/tools/bash.ts";
import { capture } from "../../src/tools/capture.ts";
import { outputFiles } from "../../src/tools/command-result.ts";
import { ending, runShellCommand, type ShellRun, shellNote } from "../../src/ui/shell-command.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const dir = eachTempDir("hey-shell-note-");
const sh = { program: "sh", name: "sh", args: (command: string) => ["-c", command] };
const intro = "The user ran a command in their shell (with `!`) before writing this message:";
const SCREEN_LEFT_OUT = "(a full-screen program's screen: not given)";

type Keeping = { raw?: boolean; filter?: string; redact?: (text: string) => string };

/** The note for a run that printed `output` (held in memory, as output under 1 MB is). */
async function noteOf(
  command: string,
  output: string | Uint8Array,
  ended: Pick<ShellRun, "code" | "signal"> = { code: 0 },
  keeping: Keeping = {},
): Promise<string> {
  const captured = capture(new Response(output).body!, undefined);
  await captured.done;
  return note(command, { ...ended, output: await captured.finish() }, outputFiles(join(dir.path, "out")), keeping);
}

const note = (command: string, run: ShellRun, files: ReturnType<typeof outputFiles>, keeping: Keeping = {}) =>
  shellNote(command, run, {
    filter: keeping.filter ?? "builtin",
    raw: keeping.raw ?? false,
    outputDir: join(dir.path, "out"),
    shell: sh,
    env: process.env,
    cwd: dir.path,
    signal: new AbortController().signal,
    files,
    redact: keeping.redact ?? ((t) => t),
  });

/** `command` run as `!` runs it, and its note. */
async function ranNote(command: string, keeping: Keeping = {}): Promise<string> {
  const files = outputFiles(join(dir.path, "out"));
  const run = await runShellCommand(command, {
    shell: sh,
    env: process.env,
    cwd: dir.path,
    signal: new AbortController().signal,
    show: () => {},
    spill: files.spill,
  });
  return note(command, run, files, keeping);
}

const fullOutput = (note: string) => readFileSync(note.match(/\[full output: (.+)\]$/)![1]!, "utf8");

test("the command, its output and its exit code", async () => {
  expect(await noteOf("git status", "On branch main\r\nnothing to commit\n")).toBe(`${intro}\n$ git status\nOn branch main\nnothing to commit\n[exit code 0]`);
  expect(await noteOf("true", "")).toBe(`${intro}\n$ true\n(no output)\n[exit code 0]`);
  expect(await noteOf("sleep 60", "", { code: undefined, signal: "SIGINT" })).toBe(`${intro}\n$ sleep 60\n(no output)\n[exit code 130]\n[killed by SIGINT]`);
  expect(ending({ code: undefined, signal: "SIGINT" })).toBe("killed by SIGINT");
});

// the user's noisy_test.sh: 40,000 passing tests, then the one failure and the summary
const NOISY =
  'i=0; while [ $i -lt 40000 ]; do echo "PASS tests/unit/module_$i.test.ts (12 ms)"; i=$((i+1)); done; ' +
  "echo 'FAIL tests/unit/parser.test.ts'; echo 'Expected: 42, Received: 41 at src/parser.ts:88'; echo 'Tests: 1 failed, 40000 passed'; exit 1";

test("output past 1 MB: the failure and summary at its end reach the model, filtered as a bash result is; all of it is saved in the file the note names", async () => {
  const note = await ranNote(NOISY);
  expect(note).toContain("FAIL tests/unit/parser.test.ts\nExpected: 42, Received: 41 at src/parser.ts:88\nTests: 1 failed, 40000 passed");
  expect(note).toContain("[output filtered: ");
  expect(note).toMatch(/\[exit code 1\]\n\[full output: [^\n]+\]$/);
  expect(note.length).toBeLessThan(5000);
  const full = fullOutput(note);
  expect(full).toContain("PASS tests/unit/module_23799.test.ts (12 ms)\n");
  expect(full).toEndWith("Tests: 1 failed, 40000 passed\n\n[exit code 1]\n");
});

test("output past 1 MB, raw: its real tail, cut as a bash result is", async () => {
  const note = await ranNote("seq 1 200000", { raw: true });
  expect(note).toStartWith(`${intro}\n$ seq 1 200000\n1\n2\n`);
  expect(note).toMatch(/\n199999\n200000\n\[exit code 0\]\n\[full output: [^\n]+\]$/);
  expect(note).toMatch(/… \d+ lines \(\d+ bytes\) omitted …/);
  expect(Buffer.byteLength(note)).toBeLessThan(MAX_RESULT_BYTES + 1000);
  expect(fullOutput(note).split("\n")).toHaveLength(200_000 + 3);
});

test("long output under 1 MB is filtered as a bash result is (unless raw or bash_filter none), the full output named", async () => {
  const output = `${Array.from({ length: 3000 }, (_, i) => `PASS tests/unit/module_${i}.test.ts (12 ms)`).join("\n")}\nFAIL tests/unit/parser.test.ts\nTests: 1 failed, 3000 passed\n`;
  const filtered = await noteOf("./noisy_test.sh", output, { code: 1 });
  expect(filtered).toContain("[output filtered: ");
  expect(filtered).toContain("FAIL tests/unit/parser.test.ts\nTests: 1 failed, 3000 passed\n[exit code 1]");
  expect(fullOutput(filtered)).toBe(`${output}\n[exit code 1]\n`);
  for (const keeping of [{ raw: true }, { filter: "none" }]) {
    const whole = await noteOf("./noisy_test.sh", output, { code: 1 }, keeping);
    expect(whole).not.toContain("[output filtered");
    expect(whole).toContain("PASS tests/unit/module_100.test.ts");
  }
});

test("long output is cut to its head and tail as a bash result is", async () => {
  const output = Array.from({ length: MAX_RESULT_LINES + 500 }, (_, i) => `line ${i}`).join("\n");
  const note = await noteOf("seq", output, { code: 0 }, { raw: true });
  expect(note).toContain("line 0\n");
  expect(note).toContain(`line ${MAX_RESULT_LINES + 499}`);
  expect(note).toMatch(/… \d+ lines \(.*\) omitted …/);
  expect(note.split("\n").length).toBeLessThan(MAX_RESULT_LINES + 10);
});

test("the secrets hey knows are hidden, the command's too", async () => {
  const hide = (t: string) => t.replaceAll("sk-secret", "[redacted]");
  expect(await noteOf("echo $KEY", "sk-secret\n", { code: 0 }, { redact: hide })).toBe(`${intro}\n$ echo $KEY\n[redacted]\n[exit code 0]`);
});

// what `!vim x.txt` printed, then `:wq` (captured from vim 9 with TERM=xterm-256color, the screen's rows shortened)
const vim =
  "Vim: Warning: Output is not to a terminal\n\x1b[?1049h\x1b[22;0;0t\x1b[>4;2m\x1b[?1h\x1b=\x1b[?2004h\x1b[1;24r\x1b[?12h\x1b[?12l" +
  '\x1b[22;2t\x1b[22;1t\x1b[27m\x1b[23m\x1b[29m\x1b[m\x1b[H\x1b[2J\x1b[?25l\x1b[24;1H"x.txt" [New File]\x1b[2;1H\x1b[94m~    \x1b[3;1H~    ' +
  "\x1bP+q436f\x1b\\\x1b[1;1H\x1b[?25h\x1b[mhello\x08\x1b[?25h\x1b[24;1H\x1b[K\x1b[24;1H:wq\n\x1b[?2004l\x1b[>4;m" +
  '"x.txt" [New File] 1 line, 6 bytes written\n\x1b[23;2t\x1b[23;1t\n\x1b[?2004l\x1b[?1l\x1b>\x1b[?1049l\x1b[23;0;0t\x1b[?25h\x1b[>4;m';

test("a full-screen program's screen is left out of the note, said in a few words; what it printed around it is kept", async () => {
  const note = await noteOf("vim x.txt; echo done", `${vim}done\n`);
  expect(note).toBe(`${intro}\n$ vim x.txt; echo done\nVim: Warning: Output is not to a terminal\n${SCREEN_LEFT_OUT}\ndone\n[exit code 0]`);
  expect(note).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
});

test("colours, titles, links and other escapes are removed; a progress line is its last state; a backspace takes back", async () => {
  const output =
    "\x1b]0;title\x07\x1b[1;32m✓\x1b[0m passed \x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\\n" +
    "\x1b7\x1b(Bsaved\x1b8 \x1b=keypad\x1b>\n" +
    "10%\r50%\r100% done\n" +
    "N\bNA\bAM\bME\bE _\bx\x07\x01\n";
  expect(await noteOf("make", output)).toBe(`${intro}\n$ make\n✓ passed link\nsaved keypad\n100% done\nNAME x\n[exit code 0]`);
  // binary data is named, not shown, as in a bash result
  const png = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "latin1"), Buffer.from(Array.from({ length: 200 }, (_, i) => (i * 37) % 256))]);
  expect(await noteOf("cat logo.png", png)).toMatch(
    /^.+\n\$ cat logo\.png\n\[binary output: 216 bytes, not shown; [^\n]+\]\n\[exit code 0\]\n\[full output: .+\]$/,
  );
});

test("output that is mostly cursor moves and colours, drawn without the alternate screen, is said to be a screen", async () => {
  const rows = Array.from({ length: 60 }, (_, i) => `\x1b[${i + 1};1H\x1b[94m~\x1b[0m\x1b[K`).join("");
  expect(await noteOf("top -n1", rows)).toBe(`${intro}\n$ top -n1\n${SCREEN_LEFT_OUT}\n[exit code 0]`);
});
