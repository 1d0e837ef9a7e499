// Tool calls and results as people read them (issue 14): the call in the words of a shell or an
// editor, a short status, a capped diff.
import { expect, test } from "bun:test";
import { capDiff, commandRest, DIFF_SHOWN_LINES, resultStatus, toolLine, writeDiff, fitStatus } from "../../src/ui/tool-lines.ts";
import { timeoutNotes, VIM_STOPPED } from "../../src/tools/no-terminal.ts";

test.each([
  ["bash", { command: "git status" }, "$ git status"],
  ["bash", { command: "cd src &&\n  make" }, "$ cd src && …"],
  ["read_file", { path: "src/cli.ts" }, "read src/cli.ts"],
  ["read_file", { path: "src/cli.ts", offset: 1, limit: 200 }, "read src/cli.ts:1-200"],
  ["read_file", { path: "a.ts", offset: 50 }, "read a.ts:50-"],
  ["edit", { path: "src/cli.ts", old_string: "a", new_string: "b" }, "edit src/cli.ts"],
  ["edit", { path: "x.ts", old_string: "a", new_string: "b", replace_all: true }, "edit x.ts (every match)"],
  ["write_file", { path: "notes.md", content: "a\n".repeat(12) }, "write notes.md (12 lines)"],
  ["write_file", { path: "one.txt", content: "x" }, "write one.txt (1 line)"],
  ["grep", { pattern: "TODO", path: "src/" }, 'grep "TODO" src/'],
  ["grep", { pattern: "a b", glob: "*.ts" }, 'grep "a b" (*.ts)'],
  // the regex as the model wrote it (x128: `add\(` was shown "add\\(", a regex matching a backslash)
  ["grep", { pattern: "add\\(", path: "src/" }, 'grep "add\\(" src/'],
  ["grep", { pattern: 'say "hi"\\.' }, 'grep "say \\"hi\\"\\."'],
  ["github_search", { query: "open bugs", limit: 5 }, 'github_search query="open bugs" limit=5'],
  ["mcp_tool", { path: "a/b.txt", deep: { x: 1 } }, 'mcp_tool path=a/b.txt deep={"x":1}'],
])("%s %p → %s", (name, args, line) => {
  expect(toolLine(name, JSON.stringify(args))).toBe(line);
});

test("an MCP tool names its server, so a server's read_file never passes for hey's own", () => {
  expect(toolLine("read_file", JSON.stringify({ path: "hello.txt" }), "fs")).toBe("read_file (fs) hello.txt");
  expect(toolLine("read_file", JSON.stringify({ path: "hello.txt" }))).toBe("read hello.txt");
  expect(toolLine("search", JSON.stringify({ q: "x", n: 3 }), "web")).toBe("search (web) q=x n=3");
});

test("arguments that are not JSON are shown as they came, on one line", () => {
  expect(toolLine("bash", '{"command": "ls')).toBe('bash {"command": "ls');
});

test.each([
  ["bash ok", "bash", true, "a\nb\n[exit code 0]", "✓ 2 lines of output"],
  ["bash ok, blank lines among its output", "bash", true, "a\n\n\n\nb\n[exit code 0]", "✓ 5 lines of output"],
  [
    "bash filtered ok",
    "bash",
    true,
    "[output filtered: 4975 of 5000 lines dropped; …]\n1\n2\n… 4975 lines omitted …\n5000\n[exit code 0]\n[full output: /tmp/x.log]",
    "✓ 5000 lines of output, 3 shown to the model",
  ],
  [
    "bash cut (--raw)",
    "bash",
    true,
    "1\n2\n… 996 lines (4000 bytes) omitted …\n999\n1000\n[exit code 0]\n[full output: /tmp/x.log]",
    "✓ 1000 lines of output, 4 shown to the model",
  ],
  ["bash silent", "bash", true, "(no output)\n[exit code 0]", "✓ no output"],
  [
    "bash ok, Latin-1 output",
    "bash",
    true,
    "café\n[exit code 0]\n[1 byte is not UTF-8, shown as Windows-1252 (Latin-1) characters; the full output keeps the bytes]\n[full output: /tmp/x.log]",
    "✓ 1 line of output",
  ],
  [
    "bash exit 1, stderr first",
    "bash",
    false,
    "partial\n[stderr]\nls: cannot access 'nope': No such file\nmore\n[exit code 1]",
    "✗ exit 1: ls: cannot access 'nope': No such file",
  ],
  ["bash exit 2, stdout only", "bash", false, "FAIL src/a.test.ts\n[exit code 2]", "✗ exit 2: FAIL src/a.test.ts"],
  [
    "bash filtered",
    "bash",
    false,
    "[output filtered: 9 of 10 lines dropped; …]\n[stderr]\nerror: boom\n[exit code 1]\n[full output: /tmp/x.log]",
    "✗ exit 1: error: boom",
  ],
  ["bash timeout", "bash", false, "(no output)\n[exit code 124]\n[timed out after 2 s; the process group was killed]", "✗ timed out after 2 s"],
  [
    "bash timeout of a command that does not end by itself (its advice is a line of its own)",
    "bash",
    false,
    `started\n[exit code 124]\n${timeoutNotes("tail -f app.log", "2").join("\n")}`,
    "✗ timed out after 2 s: started",
  ],
  ["bash stopped as it started vim", "bash", false, `x\n[exit code 143]\n${VIM_STOPPED.join("\n")}`, "✗ stopped: x"],
  ["bash interrupted", "bash", false, "x\n[exit code 130]\n[interrupted by user; the process group was killed]", "✗ stopped: x"], // the turn's own line says why, once
  ["bash terminated", "bash", false, "(no output)\n[exit code 143]\n[terminated (SIGTERM); the process group was killed]", "✗ stopped"],
  ["a batch's bash the interrupt kept from running", "bash", false, "not run: interrupted by user before it started", "✗ not run"],
  ["a batch's read_file a SIGTERM kept from running", "read_file", false, "not run: terminated (SIGTERM) before it started", "✗ not run"],
  ["an MCP call a signal cut short", "mcp__db__query", false, "terminated (SIGTERM)", "✗ stopped"],
  ["read_file", "read_file", true, "1\ta\n2\tb\n3\tc", "✓ 3 lines"],
  ["read_file partial", "read_file", true, "1\ta\n2\tb\n… 98 more lines; use offset=3", "✓ 2 lines (98 more)"],
  ["read_file all but one", "read_file", true, "1\ta\n2\tb\n… 1 more line; use offset=3", "✓ 2 lines (1 more)"],
  [
    "read_file of a large file, lines after not counted",
    "read_file",
    true,
    "1\ta\n2\tb\n… more lines follow in this 192.0 MB file (read_file counts lines only in files up to 64 MB); use offset=3",
    "✓ 2 lines (more follow)",
  ],
  [
    "read_file unchanged since an earlier read",
    "read_file",
    true,
    "[unchanged: a.ts lines 1-500 (all 500) are the same bytes as your earlier read_file result of lines 1-500 above (call c5); not sent again]",
    "✓ lines 1-500 unchanged: not sent again",
  ],
  ["grep", "grep", true, "a.ts:1: TODO x\na.ts:9: TODO y\nb.ts:3: TODO z", "✓ 3 matches in 2 files"],
  ["grep capped", "grep", true, "a.ts:1: x\n… 41 more matches not shown (42 in all); narrow …", "✓ 42 matches"],
  [
    "grep capped, matches in files not shown",
    "grep",
    true,
    "a.csv:1: x\na.csv:2: y\n… 32542 more matches not shown (32544 in all, in 218 files); left out: …",
    "✓ 32544 matches in 218 files (1 shown)",
  ],
  ["grep none", "grep", true, 'no matches for "x" in .', "✓ no matches"],
  [
    "grep none but binary files",
    "grep",
    true,
    'no matches for "x" in . but in 3 binary files, not shown: a.bin, b.png, c',
    "✓ no matches but in 3 binary files",
  ],
  [
    "grep a binary file named",
    "grep",
    true,
    'binary file a.bin matches "x": 2 lines (cut at line breaks and NUL bytes), not shown',
    "✓ binary file: 2 lines match",
  ],
  ["edit", "edit", true, "edited a.ts: 1 replacement\n@@ -1,1 +1,1 @@\n-a\n+b", "✓ 1 replacement"],
  ["an error", "edit", false, "old_string not found in a.ts\nmore", "✗ old_string not found in a.ts …"],
  ["generic", "mcp_x", true, "fine", "✓ fine"],
])("%s → %s", (_label, name, ok, output, shown) => {
  const s = resultStatus(name, ok, output);
  expect(`${s.ok ? "✓" : "✗"} ${s.text}`).toBe(shown);
});

test("a write over a file too big to diff says what it replaced, not a diff against nothing", () => {
  const big = { bytes: 9_227_468, lines: 200_000, maxBytes: 512 * 1024 };
  const s = resultStatus("write_file", true, "overwrote big.ts (1 line, 21 bytes)", '{"path":"big.ts","content":"export const v1 = 1;\\n"}', big);
  expect(s).toMatchObject({ ok: true, text: "overwrote", diff: ["replaced 8.8 MB, 200,000 lines, with 1 line (no diff: the old file is over 512 KB)"] });
  const huge = resultStatus("write_file", true, "overwrote", '{"path":"x","content":""}', { bytes: 100 * 1024 * 1024, maxBytes: 512 * 1024 });
  expect(huge.diff).toEqual(["replaced 100 MB, with 0 lines (no diff: the old file is over 512 KB)"]);
});

test("an edit's diff comes from the tool's result; a write's is made from the file before and the content", () => {
  expect(resultStatus("edit", true, "edited a.ts: 1 replacement\n@@ -1,2 +1,2 @@\n-a\n+b\n c").diff).toEqual(["@@ -1,2 +1,2 @@", "-a", "+b", " c"]);
  const args = JSON.stringify({ path: "n.md", content: "one\nTWO\nthree\n" });
  expect(resultStatus("write_file", true, "overwrote n.md (3 lines, 14 bytes)", args, "one\ntwo\nthree\n")).toEqual({
    ok: true,
    text: "overwrote",
    diff: ["@@ -1,3 +1,3 @@", " one", "-two", "+TWO", " three"],
    preview: [],
  });
  expect(resultStatus("write_file", true, "created n.md (1 lines, 2 bytes)", JSON.stringify({ path: "n.md", content: "hi\n" })).diff).toEqual([
    "@@ -1,0 +1,1 @@",
    "+hi",
  ]);
});

test("diffs are capped with '… N more lines', counting what the tool already left out", () => {
  const long = writeDiff("", Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n"));
  expect(long).toHaveLength(DIFF_SHOWN_LINES + 1);
  expect(long.at(-1)).toBe(`… ${101 - DIFF_SHOWN_LINES} more lines`);
  expect(capDiff(["-a", "+b", "… 7 more diff lines"])).toEqual(["-a", "+b", "… 7 more lines"]);
  expect(capDiff(["-a", "+b", "… 1 more diff line"])).toEqual(["-a", "+b", "… 1 more line"]);
});

test("an allow list's refusal shows the entry to add on a line of its own, which a status cut to the terminal's width cannot lose", () => {
  const reason =
    'blocked by permission rules: `CI=1 npm test` matches no allow entry in ~/.config/hey/config.toml: add "bash: CI=1 npm test *" there, as `bash: npm *` does not allow the assignment `CI=1` (allowed: bash: npm *)';
  const status = resultStatus("bash", false, reason);
  expect(status.text).toBe(
    "blocked by permission rules: `CI=1 npm test` matches no allow entry, as `bash: npm *` does not allow the assignment `CI=1` (allowed: bash: npm *)",
  );
  expect(status.preview).toEqual(['add "bash: CI=1 npm test *" to ~/.config/hey/config.toml']);
  // x56: an entry holding ", " came split in two, and the line of its own was lost
  const comma = resultStatus(
    "bash",
    false,
    `blocked by permission rules: \`npm test > "out, 1.log"\` matches no allow entry in ~/x.toml: add ${JSON.stringify('bash: npm test * > "out, 1.log"')} there (allowed: bash: npm test *)`,
  );
  expect(comma.preview).toEqual([`add ${JSON.stringify('bash: npm test * > "out, 1.log"')} to ~/x.toml`]);
  const tool = resultStatus(
    "write_file",
    false,
    'blocked by permission rules: tool `write_file` matches no allow entry in /p/.hey/config.toml: add "write_file" there (allowed: read_file)',
  );
  expect(tool).toMatchObject({
    text: "blocked by permission rules: tool `write_file` matches no allow entry (allowed: read_file)",
    preview: ['add "write_file" to /p/.hey/config.toml'],
  });
});

test("a bash result shows the last lines the command printed; a failure its error lines first", () => {
  const out = Array.from({ length: 40 }, (_, i) => `test ${i} ok`).join("\n") + "\n[exit code 0]";
  expect(resultStatus("bash", true, out).preview).toEqual(["test 35 ok", "test 36 ok", "test 37 ok", "test 38 ok", "test 39 ok"]);
  const failed = "[stdout]\ncompiling a\ncompiling b\ncompiling c\n[stderr]\nerror: b.ts:3: missing ;\nerror: aborting\n[exit code 1]";
  const status = resultStatus("bash", false, failed);
  expect(status.text).toBe("exit 1: error: b.ts:3: missing ;");
  // the status's line is not repeated under it
  expect(status.preview).toEqual(["error: aborting", "compiling a", "compiling b", "compiling c"]);
  // a refusal (or any failure with one line) shows that line once, in the status
  const refused = resultStatus("bash", false, "blocked by permission rules: `npm pub` matches deny entry `bash: npm publish *`");
  // in the rules' words, as a refused file tool says it (it read "failed: blocked by …", as if the command had run)
  expect(refused.text).toBe("blocked by permission rules: `npm pub` matches deny entry `bash: npm publish *`");
  expect(refused.preview).toEqual([]);
  // a command that ran and printed the rules' words is not shown as refused: it ran
  const ran = resultStatus("bash", false, "blocked by permission rules: nothing ran\nremoved 3 files\n[exit code 1]");
  expect(ran.text).toBe("exit 1: blocked by permission rules: nothing ran");
  const oneError = resultStatus("bash", false, "[stderr]\nerror: src refspec main does not match any\n[exit code 1]");
  expect(oneError).toMatchObject({ text: "exit 1: error: src refspec main does not match any", preview: [] });
  // a test runner that reports on stdout: its error lines first, then how the output ended
  const stdoutOnly = [
    "✖ add (1.4ms)",
    "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    "  -1 !== 5",
    "      at TestContext.<anonymous> (file:///p/calc.test.js:5:26)",
    "✔ mul (0.1ms)",
    "ℹ tests 2",
    "ℹ pass 1",
    "ℹ fail 1",
    "ℹ duration_ms 101.6",
    "[exit code 1]",
  ].join("\n");
  const runner = resultStatus("bash", false, stdoutOnly);
  expect(runner.text).toBe("exit 1: ✖ add (1.4ms)");
  expect(runner.preview).toEqual([
    "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    "      at TestContext.<anonymous> (file:///p/calc.test.js:5:26)",
    "ℹ fail 1",
    "ℹ pass 1",
    "ℹ duration_ms 101.6",
  ]);
  expect(resultStatus("bash", true, "[exit code 0]").preview).toEqual([]);
  expect(resultStatus("read_file", true, "1\tx").preview).toEqual([]);
});

test("a multi-line command: the call line shows its first line, the rest follows, at most 10 lines in all", () => {
  const args = (command: string) => JSON.stringify({ command });
  expect(commandRest("bash", args("git status"))).toEqual([]);
  expect(commandRest("bash", args("for f in a b; do\n  echo $f\ndone"))).toEqual(["  echo $f", "done"]);
  const long = Array.from({ length: 14 }, (_, i) => `echo ${i}`).join("\n");
  expect(commandRest("bash", args(long))).toEqual([...Array.from({ length: 9 }, (_, i) => `echo ${i + 1}`), "… 4 more lines"]);
  expect(commandRest("read_file", JSON.stringify({ path: "a\nb" }))).toEqual([]);
});

const columns = (t: string) => [...t].length;
test.each([
  ["fits: as it is", "read src/calc.py", "2 lines", 60, "read src/calc.py: 2 lines"],
  [
    "too long: the label (the call line again) is cut, the outcome kept",
    "$ echo this is the output line; echo this is an error line >&2; exit 3",
    "exit 3: this is an error line",
    56,
    "$ echo this is the outpu…: exit 3: this is an error line",
  ],
  [
    "a long outcome: the label keeps 12 columns, then the outcome is cut",
    "$ make test",
    "exit 2: " + "x".repeat(60),
    40,
    "$ make test: exit 2: xxxxxxxxxxxxxxxxxx…",
  ],
  ["no label (one call): the text cut", "", "exit 3: " + "e".repeat(60), 20, "exit 3: eeeeeeeeeee…"],
  ["no width known: whole", "$ a very long command indeed", "exit 3: failed", 0, "$ a very long command indeed: exit 3: failed"],
])("fitStatus, %s", (_, label, text, room, shown) => {
  const fitted = fitStatus(label, text, room, columns);
  expect(fitted).toBe(shown);
  if (room > 0) expect(columns(fitted)).toBeLessThanOrEqual(room);
});

test("a path with a newline or an escape character stays on the call's one line, written as grep writes such a name", () => {
  expect(toolLine("read_file", JSON.stringify({ path: "odd/new\nline.txt" }))).toBe("read odd/new\\nline.txt");
  expect(toolLine("edit", JSON.stringify({ path: "odd/\x1b[2Jx.txt", old_string: "a", new_string: "b" }))).toBe("edit odd/\\x1B[2Jx.txt");
  expect(toolLine("grep", JSON.stringify({ pattern: "p", path: "a\tb" }))).toBe('grep "p" a\\tb');
});

test("arguments with a slip of one meaning show as the call ran with them: a stray }, an empty {} before them, single quotes", () => {
  expect(toolLine("write_file", `${JSON.stringify({ path: "g.txt", content: "a\nb\n" })}}`)).toBe("write g.txt (2 lines)");
  expect(toolLine("read_file", '{}{"path":"a.txt"}')).toBe("read a.txt");
  expect(toolLine("bash", "{'command': 'ls'}")).toBe("$ ls");
  expect(toolLine("read_file", '{"path":"a.txt"}}garbage')).toBe('read_file {"path":"a.txt"}}garbage');
});
