// The REPL history files (ui/history-store.ts): what a start reads back of what was sent.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { appendHistory, HISTORY_READ_BYTES, loadHistories } from "../../src/ui/history-store.ts";
import { tempDir } from "../helpers/e2e.ts";

const dir = tempDir("hey-history-");
afterAll(() => dir.remove());

test("a line sent with a paste bigger than a start reads leaves the history before it: ↑ still has the earlier lines", () => {
  const project = join(dir.path, "project");
  const global = join(dir.path, "global");
  for (const file of [project, global]) {
    appendHistory(file, "run the tests");
    appendHistory(file, "fix the failing one");
  }
  const log = "x".repeat(HISTORY_READ_BYTES + 1000); // a pasted build log (a paste goes whole to the history)
  for (const file of [project, global]) appendHistory(file, `why does this fail?\n${log}`);
  // before: the start read the end of the log alone, cut, and dropped it: no history at all
  expect(loadHistories(project, global)).toEqual(["run the tests", "fix the failing one"]);
});

test("a big paste a start can read back is kept whole", () => {
  const project = join(dir.path, "p2");
  const paste = `look:\n${"y".repeat(200 * 1024)}`;
  appendHistory(project, "before");
  appendHistory(project, paste);
  expect(loadHistories(project, join(dir.path, "none"))).toEqual(["before", paste]);
});
