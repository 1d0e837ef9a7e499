// grep's limits in a big repository: a result never grows past GREP_MAX_CHARS however wide the
// context and long the lines, and says how to narrow; a file of any size is searched (the built-in
// search reads it a chunk at a time), never silently left out. Both searches, same text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { GREP_MAX_CHARS } from "../../src/tools/grep-args.ts";
import { callTool } from "../helpers/call-tool.ts";
import { bothGreps } from "../helpers/find-rg.ts";

let root: string;
let ctx: ToolContext;
const tools = await bothGreps();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-limits-"));
  // 3,000 rows of ~500 characters, every 21st an error row
  const rows = Array.from({ length: 3000 }, (_, i) => `${i},${i % 21 === 0 ? "ERR" : "OK"},${"v".repeat(480)}`);
  mkdirSync(join(root, "data"));
  writeFileSync(join(root, "data/big.csv"), rows.join("\n") + "\n");
  writeFileSync(join(root, "data/small.csv"), "1,ERR,x\n");
  // 53 MB, its one match on the last line: a SQL dump
  mkdirSync(join(root, "db"));
  const fd = openSync(join(root, "db/dump.sql"), "w");
  const chunk = Buffer.from("INSERT INTO t VALUES (1, 'row');\n".repeat(32_768)); // 1 MB
  for (let i = 0; i < 51; i++) writeSync(fd, chunk);
  writeSync(fd, "-- needle_bigdump\n");
  closeSync(fd);
  writeFileSync(join(root, "notes.txt"), "nothing here\n");
  ctx = { cwd: root, signal: new AbortController().signal };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(tools)("grep (%s)", (_name, tool) => {
  const grep = (args: Record<string, unknown>) => callTool(tool, args, ctx);

  test("wide context over long lines: the result stops at whole matches under the character cap and says how to narrow", async () => {
    const { output, isError } = await grep({ pattern: ",ERR,", path: "data", context: 10, max_results: 1000 });
    expect(isError).toBeUndefined();
    expect(output.length).toBeLessThanOrEqual(GREP_MAX_CHARS + 500);
    const lines = output.split("\n");
    const note = lines.at(-1)!;
    expect(note).toMatch(
      new RegExp(
        `^… (\\d+) more matches not shown \\(144 in all, in 2 files; the result stops at ${GREP_MAX_CHARS} characters\\); ` +
          "left out: data/big\\.csv \\d+, data/small\\.csv 1; narrow with path, glob, a smaller context or max_results, or a more specific pattern$",
      ),
    );
    // the last match shown comes with its context after it: the cut is between matches
    const shown = lines.slice(0, -1);
    const last = shown.findLastIndex((l) => /^data\/big\.csv:\d+: /.test(l));
    expect(shown.length - 1 - last).toBe(10);
    expect(shown.every((l) => /^data\/(big|small)\.csv[:-]\d+[:-] /.test(l))).toBe(true);
  });

  test("under the cap nothing changes: matches with their context, then the max_results note", async () => {
    const { output } = await grep({ pattern: ",ERR,", path: "data/small.csv", context: 1 });
    expect(output).toBe("data/small.csv:1: 1,ERR,x");
  });

  test("a file over 50 MB in the searched directory is searched, read a chunk at a time", async () => {
    for (const path of [undefined, "db", "db/dump.sql"])
      expect(await grep({ pattern: "needle_bigdump", ...(path ? { path } : {}) })).toEqual({ output: "db/dump.sql:1671169: -- needle_bigdump" });
  });
});
