// A long command's output where no full-output file can be made (the cache directory unwritable, or
// a file in its way): the model is told the true line count, not that of the ends hey kept in
// memory, and the user is told once a run, by a `hey:` notice, that full outputs cannot be saved, and why.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { capture } from "../../src/tools/capture.ts";
import { commandResult, outputFiles } from "../../src/tools/command-result.ts";
import { fileBashTool, shell } from "../helpers/bash-tool.ts";
import { seq } from "../helpers/seq-stream.ts";

const { dir, tool, ctx } = fileBashTool("hey-unsaved-output-");

test("seq 1 200000 with no place for its full output: 200000 lines counted, the loss said once to the user, naming the file in the way", async () => {
  writeFileSync(join(dir, "cache"), ""); // a file where the cache directory should be
  const outputDir = join(dir, "cache", "hey", "outputs", "session");
  const notices: string[] = [];
  const bash = tool({ outputDir, notice: (line) => notices.push(line) });
  for (const run of [1, 2]) {
    const r = await bash.run({ command: "seq 1 200000" }, ctx());
    expect(r.output).toStartWith("[output filtered: 199975 of 200000 lines dropped;"); // the first 5 and last 20 kept
    expect(r.output).toContain("\n5\n… 199975 lines omitted …\n199981\n"); // what the model is shown of the gap counts it whole
    expect(r.output).toContain("200000\n[exit code 0]");
    expect(r.output).toMatch(/\n\[could not save the full output: .+\]$/);
    expect(notices.length).toBe(1); // once a run, not at each call (run ${run})
  }
  expect(notices[0]).toBe(
    `hey: the full output of a long command cannot be saved: ${join(dir, "cache")} is a file, not a directory, so hey cannot keep ${outputDir}; move the file away (hey makes the directory again); the model gets only its first and last lines`,
  );
}, 60_000);

// after the test above: the once-a-run notice is module state, and this run would use it up
test("seq 1 500000 kept in memory only, as the model reads it: whole lines and the marker, no piece of a line and no empty line beside it", async () => {
  const noPlace = () => {
    throw Object.assign(new Error("EACCES: permission denied, mkdir '/home/ci/.cache'"), { code: "EACCES" });
  };
  const stdout = capture(seq(500_000), noPlace);
  await stdout.done;
  const empty = capture(new ReadableStream({ start: (c) => c.close() }), undefined);
  await empty.done;
  const run = { stdout: await stdout.finish(), stderr: await empty.finish(), exitCode: 0, ended: "exit" as const };
  const output = await commandResult(run, "seq 1 500000", 0, {
    filter: "builtin",
    raw: false,
    outputDir: join(dir, "outputs"),
    shell,
    env: undefined,
    cwd: dir,
    signal: new AbortController().signal,
    files: outputFiles(join(dir, "outputs")),
    notes: [],
  });
  const lines = output.split("\n");
  const marker = lines.findIndex((l) => l.includes("could not be kept (EACCES"));
  expect(marker).toBeGreaterThan(0);
  expect(lines[marker - 1]).toMatch(/^\d+$|omitted/); // a whole number line or the filter's own marker, not ""
  expect(lines[marker + 1]).toMatch(/^\d+$|omitted/);
  const numbers = lines.filter((l) => /^\d+$/.test(l)).map(Number);
  for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBeGreaterThan(numbers[i - 1]!); // in order: no cut piece (`1277` after `12773`)
});
