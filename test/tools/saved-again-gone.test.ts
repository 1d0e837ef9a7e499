// An output the same as one saved earlier this run names the earlier file; when that file goes in
// the moment after it was found (another hey's clean-up, `/sessions prune`), the output is saved
// anew, not reported as "could not save" with a notice that blames a folder that works (x129 #4).
import { expect, mock, test } from "bun:test";
import * as promises from "node:fs/promises";
import { existsSync, rmSync } from "node:fs";

const real = { ...promises };
/** run just before the next utimes: a file deleted between the existence check and the refresh of its time */
let beforeUtimes: ((path: string) => void) | undefined;
mock.module("node:fs/promises", () => ({
  ...real,
  utimes: (path: string, atime: Date, mtime: Date) => {
    beforeUtimes?.(path);
    beforeUtimes = undefined;
    return real.utimes(path, atime, mtime);
  },
}));
const { fileBashTool } = await import("../helpers/bash-tool.ts");

const { tool, ctx } = fileBashTool("hey-saved-again-gone-");
const savedAt = (output: string) => output.match(/\[full output: (\S+)\]/)?.[1];

test("the earlier file of the same output, deleted just after it was found, is saved anew", async () => {
  const bash = tool();
  const first = savedAt((await bash.run({ command: "seq 1 3000" }, ctx())).output as string);
  expect(first).toBeDefined();
  beforeUtimes = (path) => rmSync(path, { force: true });
  const again = (await bash.run({ command: "seq 1 3000" }, ctx())).output as string;
  expect(again).not.toContain("could not save"); // old code: "[could not save the full output: ENOENT …]"
  const second = savedAt(again);
  expect(second).toBeDefined();
  expect(second).not.toBe(first);
  expect(existsSync(second!)).toBe(true);
  expect(await Bun.file(second!).text()).toStartWith("1\n2\n3\n");
});
