// The same full output is saved once a run (x119: a 2.4 MB `cat` saved again on each of 100 calls):
// a call printing what an earlier one printed names the earlier file.
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { fileBashTool } from "../helpers/bash-tool.ts";

const { out, tool, ctx } = fileBashTool("hey-saved-once-");
const savedAt = (output: string) => output.match(/\[full output: (\S+)\]/)?.[1];

test("a call whose output an earlier call already saved names that file; another output gets its own", async () => {
  const bash = tool();
  const first = await bash.run({ command: "seq 1 3000" }, ctx());
  const again = await bash.run({ command: "seq 1 3000" }, ctx());
  const other = await bash.run({ command: "seq 2 3001" }, ctx());
  const failed = await bash.run({ command: "seq 1 3000; exit 3" }, ctx()); // the exit code is part of it
  expect(savedAt(first.output as string)).toBeDefined();
  expect(savedAt(again.output as string)).toBe(savedAt(first.output as string));
  expect(new Set([first, other, failed].map((r) => savedAt(r.output as string))).size).toBe(3);
  expect(readdirSync(out).filter((f) => f.endsWith(".log"))).toHaveLength(3);
});
