// edit in a minified file: one line of megabytes with millions of matches gets its answer (every
// match is not a fresh scan of the line), and an interrupted edit stops and leaves the file as it was.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool } from "../../src/tools/edit.ts";
import { callTool } from "../helpers/call-tool.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-edit-long-");
const MINIFIED = "var a=1;".repeat(2_500_000); // 20 MB on one line

test("a 20 MB one-line file with 1.25 million matches: the count and the one line they are on, then replace_all's short diff", async () => {
  writeFileSync(join(project.path, "min.js"), MINIFIED);
  const edit = (args: Record<string, unknown>) => callTool(createEditTool(), args, { cwd: project.path, signal: new AbortController().signal });
  expect(await edit({ path: "min.js", old_string: "var a=1;var a=1;", new_string: "x" })).toEqual({
    output: "old_string matches 1250000 times in min.js (all on line 1); include more surrounding lines to pick one, or set replace_all to change every one",
    isError: true,
  });
  const result = await edit({ path: "min.js", old_string: "var a=1;var a=1;", new_string: "x\n", replace_all: true });
  expect(result.output.split("\n").slice(0, 2)).toEqual(["edited min.js: 1250000 replacements", "@@ -1,1 +1,1250000 @@"]);
  expect(readFileSync(join(project.path, "min.js"), "utf8")).toBe("x\n".repeat(1_250_000));
}, 60_000);

test("an edit the user interrupts (Esc, Ctrl-C, SIGTERM) stops and leaves the file as it was", async () => {
  writeFileSync(join(project.path, "min.js"), MINIFIED.slice(0, 80_000));
  const stop = new AbortController();
  stop.abort();
  const result = await createEditTool().run(
    { path: "min.js", old_string: "var a=1;", new_string: "let a=1;", replace_all: true },
    { cwd: project.path, signal: stop.signal },
  );
  expect(result).toEqual({ output: "edit interrupted: min.js not changed", isError: true });
  expect(readFileSync(join(project.path, "min.js"), "utf8")).toBe(MINIFIED.slice(0, 80_000));
});
