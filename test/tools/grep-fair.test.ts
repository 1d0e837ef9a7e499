// grep's shown matches when there are more than the cap: shared fairly across the files, so one
// big file early in path order (a committed lockfile) cannot hide the few matches in source files.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { fairShares } from "../../src/tools/grep-results.ts";
import { callTool } from "../helpers/call-tool.ts";
import { bothGreps } from "../helpers/find-rg.ts";

let root: string;
let ctx: ToolContext;
const tools = await bothGreps();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-fair-"));
  const entries = Array.from({ length: 500 }, (_, i) => `    "node_modules/needle-${i}": {},`);
  writeFileSync(join(root, "package-lock.json"), `{\n  "packages": {\n${entries.join("\n")}\n  }\n}\n`);
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src/a.ts"), "import x from 'x';\nconst needle = 1;\n");
  mkdirSync(join(root, "shared"));
  writeFileSync(join(root, "shared/x.ts"), "export const needle = 2;\n");
  ctx = { cwd: root, signal: new AbortController().signal };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(tools)("grep (%s)", (_name, tool) => {
  test("a lockfile with 500 matches early in path order leaves room for the matches in source files", async () => {
    const lines = (await callTool(tool, { pattern: "needle" }, ctx)).output.split("\n");
    expect(lines.filter((l) => l.startsWith("package-lock.json:"))).toHaveLength(98);
    expect(lines.slice(-3)).toEqual([
      "shared/x.ts:1: export const needle = 2;",
      "src/a.ts:2: const needle = 1;",
      "… 402 more matches not shown (502 in all, in 3 files); left out: package-lock.json 402; narrow with path, glob or a more specific pattern, or raise max_results",
    ]);
  });

  test("with context, each file's shown matches keep their context lines, which stop before a match not shown", async () => {
    const { output } = await callTool(tool, { pattern: "needle", context: 1, max_results: 4 }, ctx);
    expect(output.split("\n")).toEqual([
      'package-lock.json-2-   "packages": {',
      'package-lock.json:3:     "node_modules/needle-0": {},',
      'package-lock.json:4:     "node_modules/needle-1": {},',
      "shared/x.ts:1: export const needle = 2;",
      "src/a.ts-1- import x from 'x';",
      "src/a.ts:2: const needle = 1;",
      "… 498 more matches not shown (502 in all, in 3 files); left out: package-lock.json 498; narrow with path, glob or a more specific pattern, or raise max_results",
    ]);
  });
});

test.each([
  ["one big file first, two small", [500, 1, 1], 100, [98, 1, 1]],
  ["the same number each, and one more for the first files with more", [50, 50, 50], 100, [34, 33, 33]],
  ["files with fewer than their share give the rest to the others", [3, 1000, 2], 10, [3, 5, 2]],
  ["more files than the cap: one each for the first in path order", [5, 5, 5, 5], 2, [1, 1, 0, 0]],
  ["fewer matches than the cap: all of them", [2, 3], 100, [2, 3]],
])("fairShares: %s", (_, counts, cap, shares) => {
  expect(fairShares(counts, cap)).toEqual(shares);
});
