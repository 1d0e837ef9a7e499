// An external bash filter that cannot run, as the user and the model meet it: said to the user
// once a run with where it is set, never to the model, then the built-in filter on every command.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { filterLine, unrunnableFilter, watchFilter } from "../../src/tools/filter-watch.ts";
import { fileBashTool } from "../helpers/bash-tool.ts";

const bash = fileBashTool("hey-filter-watch-");
const noisy = "for i in $(seq 1 300); do echo \"collecting line $i\"; done; echo 'FAILED tests/x.py::test_y - assert 1 == 2'";

test("a filter that fails is said to the user once, not to the model, and is not run again: the built-in filter takes over", async () => {
  const said: string[] = [];
  const runs = join(bash.dir, "filter-runs");
  const filter = `echo ran >> ${runs}; echo broken >&2; exit 7`;
  const watch = watchFilter(filter, "/home/u/.config/hey/config.toml:4", (l) => said.push(l));
  const tool = bash.tool({ filter, watch });
  const first = await tool.run({ command: noisy }, bash.ctx());
  const second = await tool.run({ command: noisy }, bash.ctx());
  expect(said).toEqual([
    `hey: /home/u/.config/hey/config.toml:4: [tools] bash_filter ${JSON.stringify(filter)} failed (exit code 7: broken); bash output goes through the built-in filter for the rest of this run`,
  ]);
  for (const r of [first, second]) {
    expect(r.output).toStartWith("[output filtered: ");
    expect(r.output).toContain("FAILED tests/x.py::test_y");
    expect(r.output).not.toContain("external filter");
    expect(r.output).not.toContain("bash_filter");
  }
  expect(readFileSync(runs, "utf8")).toBe("ran\n"); // the second command did not try it
});

test("five lines the built-in filter leaves as they are read as they are after a failed filter: no note, no full-output file", async () => {
  const said: string[] = [];
  const outputDir = join(bash.dir, "five-lines");
  const tool = bash.tool({ filter: "exit 127", notice: (l) => said.push(l), outputDir }); // an embedder's tool: its own watch, told through notice
  const r = await tool.run({ command: "seq 1 5" }, bash.ctx());
  expect(r.output).toBe("1\n2\n3\n4\n5\n[exit code 0]");
  expect(existsSync(outputDir) ? readdirSync(outputDir) : []).toEqual([]);
  expect(said).toEqual(['hey: [tools] bash_filter "exit 127" failed (exit code 127); bash output goes through the built-in filter for the rest of this run']);
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
