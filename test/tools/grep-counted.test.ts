// A common word in a big repository: grep says how many lines match in how many files, and shows
// a hundred, without reading every matching line from ripgrep (4 million of them took hey 3–5 times
// ripgrep's own time). The work is shown by what ripgrep printed, never by a clock.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool, ToolContext } from "../../src/kernel/tool.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { callTool } from "../helpers/call-tool.ts";
import { findRg, NO_RG } from "../helpers/find-rg.ts";

let root: string;
let log: string;
let rgTool: Tool | undefined;
let ctx: ToolContext;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-counted-"));
  const tree = join(root, "tree");
  mkdirSync(join(tree, "src"), { recursive: true });
  mkdirSync(join(tree, "data"));
  // a dump of 30,000 matching lines, 200 source files with 3 each, and a binary file that matches
  writeFileSync(join(tree, "data/dump.sql"), Array.from({ length: 30_000 }, (_, i) => `insert into t values (${i}, 'handler row');`).join("\n") + "\n");
  for (let i = 0; i < 200; i++) writeFileSync(join(tree, `src/m${String(i).padStart(3, "0")}.ts`), "handler();\nx();\nhandler();\nhandler();\n");
  writeFileSync(join(tree, "data/blob.bin"), Buffer.concat([Buffer.from("handler\n"), Buffer.from([0, 1, 2]), Buffer.from("handler\n")]));
  ctx = { cwd: tree, signal: new AbortController().signal };
  const rg = await findRg();
  if (!rg) return;
  // a wrapper adds up the bytes each ripgrep run printed
  log = join(root, "printed.log");
  writeFileSync(log, "");
  const wrapper = join(root, "rg.sh");
  writeFileSync(
    wrapper,
    `#!/bin/sh\n'${rg}' "$@" > '${root}/out'.$$\ncode=$?\nwc -c < '${root}/out'.$$ >> '${log}'\ncat '${root}/out'.$$\nrm -f '${root}/out'.$$\nexit $code\n`,
  );
  chmodSync(wrapper, 0o755);
  rgTool = createGrepTool({ rg: wrapper });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

test("grep counts 30,600 matching lines in 201 files, names the binary one, and reads from ripgrep only what it shows", async () => {
  if (!rgTool) throw new Error(NO_RG);
  const lines = (await callTool(rgTool, { pattern: "handler" }, ctx)).output.split("\n");
  expect(lines.filter((l) => /^(src|data)\/.*:\d+: /.test(l))).toHaveLength(100);
  expect(lines.slice(-2)).toEqual([
    "… 30500 more matches not shown (30600 in all, in 201 files); left out: data/dump.sql 29999, src/m099.ts 3, src/m100.ts 3 and 198 more files; narrow with path, glob or a more specific pattern, or raise max_results",
    "[1 binary file also matches: data/blob.bin; not shown]",
  ]);
  // the dump's 30,000 lines alone are over 1.3 MB of ripgrep's output
  const printed = readFileSync(log, "utf8").split("\n").filter(Boolean).map(Number);
  expect(printed.reduce((a, b) => a + b, 0)).toBeLessThan(64 * 1024);
});
