// A long command's output where no full-output file can be made (the cache directory unwritable, or
// a file in its way): the model is told the true line count, not that of the ends hey kept in
// memory, and the user is told once a run, by a `hey:` notice, that full outputs cannot be saved, and why.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileBashTool } from "../helpers/bash-tool.ts";

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
