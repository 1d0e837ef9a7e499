// An external bash filter that cannot run, or fails, as the user and the model meet it: one that
// cannot run is said to the user once a run with where it is set, never to the model, then the
// built-in filter on every command; one that fails otherwise stands aside for that command only.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unrunnableFilter } from "../../src/config/filter-name.ts";
import { filterCannotRun, filterLine, watchFilter } from "../../src/tools/filter-watch.ts";
import { fileBashTool } from "../helpers/bash-tool.ts";

const bash = fileBashTool("hey-filter-watch-");
const noisy = "for i in $(seq 1 300); do echo \"collecting line $i\"; done; echo 'FAILED tests/x.py::test_y - assert 1 == 2'";

test("a filter that cannot run (exit 127) is said to the user once, not to the model, and is not run again: the built-in filter takes over", async () => {
  const said: string[] = [];
  const runs = join(bash.dir, "filter-runs");
  const filter = `echo ran >> ${runs}; echo 'sh: 1: rtk: not found' >&2; exit 127`;
  const watch = watchFilter(filter, "/home/u/.config/hey/config.toml:4", (l) => said.push(l));
  const tool = bash.tool({ filter, watch });
  const first = await tool.run({ command: noisy }, bash.ctx());
  const second = await tool.run({ command: noisy }, bash.ctx());
  expect(said).toEqual([
    `hey: /home/u/.config/hey/config.toml:4: [tools] bash_filter ${JSON.stringify(filter)} cannot be run (exit code 127: sh: 1: rtk: not found); bash output goes through the built-in filter for the rest of this run`,
  ]);
  for (const r of [first, second]) {
    expect(r.output).toStartWith("[output filtered: ");
    expect(r.output).toContain("FAILED tests/x.py::test_y");
    expect(r.output).not.toContain("external filter");
    expect(r.output).not.toContain("bash_filter");
  }
  expect(readFileSync(runs, "utf8")).toBe("ran\n"); // the second command did not try it
});

test("grep -v keeps filtering after a command that prints nothing and after one whose every line it removes", async () => {
  const said: string[] = [];
  const filter = "grep -v '^npm WARN'";
  const tool = bash.tool({ filter, watch: watchFilter(filter, "HEY_BASH_FILTER", (l) => said.push(l)) });
  expect((await tool.run({ command: `mkdir -p ${join(bash.dir, "made")}` }, bash.ctx())).output).toBe("(no output)\n[exit code 0]");
  const warnings = (await tool.run({ command: "echo 'npm WARN old'; echo 'npm WARN older'" }, bash.ctx())).output;
  expect(warnings).toStartWith("[output filtered by `grep -v '^npm WARN'`]\n\n[exit code 0]");
  const mixed = (await tool.run({ command: "echo 'npm WARN deprecated'; echo real line" }, bash.ctx())).output;
  expect(mixed).toStartWith("[output filtered by `grep -v '^npm WARN'`]\nreal line\n[exit code 0]");
  expect(said).toEqual([]);
});

test("a filter that fails between successes falls back for that command only; the user hears of it once, at its third failure", async () => {
  const said: string[] = [];
  const runs = join(bash.dir, "odd-runs");
  // fails on output holding "odd", filters the rest
  const filter = `echo ran >> ${runs}; input=$(cat); case "$input" in *odd*) echo 'odd input' >&2; exit 2;; esac; echo "kept: $input"`;
  const tool = bash.tool({ filter, watch: watchFilter(filter, "HEY_BASH_FILTER", (l) => said.push(l)) });
  const odd = await tool.run({ command: "echo odd" }, bash.ctx());
  expect(odd.output).toBe("odd\n[exit code 0]"); // the built-in filter's, for this one
  expect((await tool.run({ command: "echo fine" }, bash.ctx())).output).toStartWith(`[output filtered by \`${filter}\`]\nkept: fine\n`);
  expect(said).toEqual([]);
  await tool.run({ command: "echo odd" }, bash.ctx());
  await tool.run({ command: "echo fine" }, bash.ctx());
  await tool.run({ command: "echo odd" }, bash.ctx());
  expect(said).toEqual([
    `hey: HEY_BASH_FILTER ${JSON.stringify(filter)} failed 3 times in this run (last: exit code 2: odd input); each time that command's output went through the built-in filter, and the filter stays on`,
  ]);
  expect((await tool.run({ command: "echo fine" }, bash.ctx())).output).toStartWith(`[output filtered by \`${filter}\`]\nkept: fine\n`);
  expect(readFileSync(runs, "utf8").split("\n").filter(Boolean)).toHaveLength(6);
});

test("a filter that fails on 3 commands in a row, whatever its exit code, is switched off and said once", async () => {
  const said: string[] = [];
  const runs = join(bash.dir, "bad-option-runs");
  const filter = `echo ran >> ${runs}; echo "grep: invalid option -- 'y'" >&2; exit 2`;
  const tool = bash.tool({ filter, watch: watchFilter(filter, "HEY_BASH_FILTER", (l) => said.push(l)) });
  for (let i = 0; i < 5; i++) expect((await tool.run({ command: noisy }, bash.ctx())).output).toContain("FAILED tests/x.py::test_y");
  expect(said).toEqual([
    `hey: HEY_BASH_FILTER ${JSON.stringify(filter)} failed on 3 commands in a row (last: exit code 2: grep: invalid option -- 'y'); bash output goes through the built-in filter for the rest of this run`,
  ]);
  expect(readFileSync(runs, "utf8")).toBe("ran\nran\nran\n"); // the 4th and 5th commands did not try it
});

test("a filter the shell cannot parse is switched off at its first command", async () => {
  const said: string[] = [];
  const filter = "grep -v 'WARN";
  const tool = bash.tool({ filter, watch: watchFilter(filter, "HEY_BASH_FILTER", (l) => said.push(l)) });
  expect((await tool.run({ command: noisy }, bash.ctx())).output).toContain("FAILED tests/x.py::test_y");
  expect(said).toHaveLength(1);
  expect(said[0]).toStartWith(`hey: HEY_BASH_FILTER ${JSON.stringify(filter)} cannot be run (exit code 2: `);
  expect(said[0]).toEndWith("; bash output goes through the built-in filter for the rest of this run");
});

test.each([
  [127, undefined, true],
  [126, undefined, true],
  [1, undefined, false],
  [2, undefined, false],
  [undefined, undefined, false], // killed
  ["timeout", undefined, true], // waiting on a terminal: as long again on every command
  [9009, undefined, true], // cmd.exe: not installed
  [undefined, "ENOENT: no such file or directory, posix_spawn '/bin/nosh'", true],
  [undefined, "EAGAIN: resource temporarily unavailable, posix_spawn", false],
  [undefined, "EMFILE: too many open files", false],
])("filterCannotRun(%p, %p) is %p", (code, spawnError, cannot) => {
  expect(filterCannotRun(code as number | "timeout" | undefined, spawnError)).toBe(cannot);
});

test.each([
  [2, "sh: 1: Syntax error: Unterminated quoted string", true],
  [2, "/usr/bin/sh: 1: Syntax error: Unterminated quoted string", true],
  [2, "bash: -c: line 1: unexpected EOF while looking for matching `''", true],
  [1, "'rtk' is not recognized as an internal or external command,\r\noperable program or batch file.", true],
  [1, "rtk : The term 'rtk' is not recognized as the name of a cmdlet, function, script file, or operable program.", true],
  [1, "+ FullyQualifiedErrorId : CommandNotFoundException", true],
  [2, "grep: warning: stray \\ before -", false], // the filter's own words: one odd input
  [1, "jq: error (at <stdin>:1): Cannot index string", false],
])("filterCannotRun(%p) with stderr %p is %p", (code, stderr, cannot) => {
  expect(filterCannotRun(code, undefined, stderr)).toBe(cannot);
});

test("five lines the built-in filter leaves as they are read as they are after a filter that cannot run: no note, no full-output file", async () => {
  const said: string[] = [];
  const outputDir = join(bash.dir, "five-lines");
  const tool = bash.tool({ filter: "exit 127", notice: (l) => said.push(l), outputDir }); // an embedder's tool: its own watch, told through notice
  const r = await tool.run({ command: "seq 1 5" }, bash.ctx());
  expect(r.output).toBe("1\n2\n3\n4\n5\n[exit code 0]");
  expect(existsSync(outputDir) ? readdirSync(outputDir) : []).toEqual([]);
  expect(said).toEqual([
    'hey: [tools] bash_filter "exit 127" cannot be run (exit code 127); bash output goes through the built-in filter for the rest of this run',
  ]);
});

test("a filter found missing at start is never run and nothing more is said", async () => {
  const said: string[] = [];
  const runs = join(bash.dir, "missing-runs");
  const tool = bash.tool({ filter: `echo ran >> ${runs}`, watch: watchFilter("x", "HEY_BASH_FILTER", (l) => said.push(l), true) });
  expect((await tool.run({ command: "seq 1 3" }, bash.ctx())).output).toBe("1\n2\n3\n[exit code 0]");
  expect(existsSync(runs)).toBe(false);
  expect(said).toEqual([]);
});

const never = () => "not on PATH";
const always = () => undefined;
test.each([
  [
    "bogusfilter",
    "HEY_BASH_FILTER",
    never,
    'HEY_BASH_FILTER "bogusfilter" cannot be run (bogusfilter: not on PATH); bash output goes through the built-in filter instead',
  ],
  [
    "rtk-filter --compact",
    "/h/.config/hey/config.toml:7",
    never,
    '/h/.config/hey/config.toml:7: [tools] bash_filter "rtk-filter --compact" cannot be run (rtk-filter: not on PATH); bash output goes through the built-in filter instead',
  ],
  ["rtk", "HEY_BASH_FILTER", always, undefined],
  ["builtin", "HEY_BASH_FILTER", never, undefined],
  ["none", undefined, never, undefined],
  ["exec rtk", undefined, never, undefined], // the shell's own word: found at its first failure
  ["LANG=C rtk", undefined, never, undefined],
  ["~/bin/f", undefined, never, undefined],
  ["$HOME/bin/f", undefined, never, undefined],
  ["'my filter'", undefined, never, undefined],
])("unrunnableFilter(%p, %p)", (filter, source, why, line) => {
  expect(unrunnableFilter(filter, source, "linux", why)).toBe(line);
});

test("on Windows the filter is not checked at start: the shell may be PowerShell, whose commands are not on PATH", () => {
  expect(unrunnableFilter("Select-String x", undefined, "win32", never)).toBeUndefined();
});

test("hey doctor's line: `!` with the start's line when it cannot be run, else where it is set; none for the built-in filter", () => {
  const line = unrunnableFilter("bogus", "HEY_BASH_FILTER", "linux", never)!;
  expect(filterLine("bogus", "HEY_BASH_FILTER", ["other", line])).toBe(`! bash filter: ${line}`);
  expect(filterLine("rtk", "/c.toml:3", [])).toBe('bash filter: /c.toml:3: [tools] bash_filter "rtk"');
  expect(filterLine("builtin", undefined, [])).toBeUndefined();
});
