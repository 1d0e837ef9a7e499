// A `[tools] bash_filter` (or HEY_BASH_FILTER) that cannot run, through dist/hey: the user is told
// once, naming where it is set, at start when its program is missing and by `hey doctor`; the model
// reads each command's output as the built-in filter leaves it, with no note and no full-output file.
// A filter that runs (grep -v) stays on whatever one command prints.
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;
const twoCalls: [string, unknown][] = [
  ["bash", { command: "seq 1 5" }],
  ["bash", { command: "seq 6 8" }],
];

test("HEY_BASH_FILTER naming a missing program: one line at start naming the variable, and the model reads plain output", async () => {
  scripted.userConfig("");
  scripted.calls = twoCalls;
  const run = await runHey(["-p", "count"], { cwd: project.path, env: { HOME: home.path, HEY_BASH_FILTER: "bogusfilter" } });
  expect(run.code).toBe(0);
  expect(run.stderr.split("\n").filter((l) => l.includes("bogusfilter"))).toEqual([
    'hey: HEY_BASH_FILTER "bogusfilter" cannot be run (bogusfilter: not on PATH); bash output goes through the built-in filter instead',
  ]);
  expect(scripted.results()).toEqual(["1\n2\n3\n4\n5\n[exit code 0]", "6\n7\n8\n[exit code 0]"]);
});

test("a configured filter that cannot run (exit 127): one line at its first failure naming FILE:LINE, then the built-in filter without a note", async () => {
  scripted.userConfig('[tools]\nbash_filter = "echo nope >&2; exit 127"\n');
  scripted.calls = twoCalls;
  const run = await runHey(["-p", "count"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const config = join(home.path, ".config", "hey", "config.toml");
  expect(`${run.stdout}\n${run.stderr}`.split("\n").filter((l) => l.includes("bash_filter"))).toEqual([
    `hey: ${config}:8: [tools] bash_filter "echo nope >&2; exit 127" cannot be run (exit code 127: nope); bash output goes through the built-in filter for the rest of this run`,
  ]);
  expect(scripted.results()).toEqual(["1\n2\n3\n4\n5\n[exit code 0]", "6\n7\n8\n[exit code 0]"]);
});

test("HEY_BASH_FILTER the shell cannot parse (an unclosed quote): one line at its first command, then the built-in filter", async () => {
  scripted.userConfig("");
  scripted.calls = twoCalls;
  const run = await runHey(["-p", "count"], { cwd: project.path, env: { HOME: home.path, HEY_BASH_FILTER: "grep -v 'WARN" } });
  expect(run.code).toBe(0);
  const said = `${run.stdout}\n${run.stderr}`.split("\n").filter((l) => l.includes("HEY_BASH_FILTER"));
  expect(said).toHaveLength(1);
  expect(said[0]).toStartWith(`hey: HEY_BASH_FILTER "grep -v 'WARN" cannot be run (exit code 2: `);
  expect(scripted.results()).toEqual(["1\n2\n3\n4\n5\n[exit code 0]", "6\n7\n8\n[exit code 0]"]);
});

test("a configured grep -v filter stays on after a command that prints nothing: nothing said, the next output filtered", async () => {
  scripted.userConfig(`[tools]\nbash_filter = "grep -v '^npm WARN'"\n`);
  scripted.calls = [
    ["bash", { command: "mkdir -p made" }],
    ["bash", { command: "echo 'npm WARN deprecated'; echo real line" }],
  ];
  const run = await runHey(["-p", "go"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  expect(`${run.stdout}\n${run.stderr}`).not.toContain("bash_filter");
  const [silent, warned] = scripted.results();
  expect(silent).toBe("(no output)\n[exit code 0]");
  expect(warned).toStartWith("[output filtered by `grep -v '^npm WARN'`]\nreal line\n[exit code 0]");
});

test("hey doctor says a filter that cannot be run once, as its `! bash filter:` line", async () => {
  // port 1 on loopback refuses: the probes fail fast, and the report is printed all the same
  const run = await runHey(["doctor", "--base-url", "http://127.0.0.1:1/v1", "-m", "m"], {
    cwd: project.path,
    env: { HOME: home.path, HEY_BASH_FILTER: "/nonexistent/filter -q" },
  });
  expect(`${run.stdout}\n${run.stderr}`.split("\n").filter((l) => l.includes("HEY_BASH_FILTER"))).toEqual([
    '! bash filter: HEY_BASH_FILTER "/nonexistent/filter -q" cannot be run (/nonexistent/filter: not found); bash output goes through the built-in filter instead',
  ]);
});
