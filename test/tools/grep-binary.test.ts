// grep and binary files (a NUL byte): left out of the shown lines as ripgrep leaves them, but named
// when they match, as `git grep` says `Binary file nul.txt matches`, so "no matches" is never said of
// a string three files hold; a binary file named in `path` is answered, not refused. Both searches.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { callTool } from "../helpers/call-tool.ts";
import { bothGreps } from "../helpers/find-rg.ts";

let root: string;
let ctx: ToolContext;
const tools = await bothGreps();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-binary-"));
  writeFileSync(join(root, "nul.txt"), "header\nvalue\0x\nTOKEN line\n");
  writeFileSync(join(root, "img.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, ...Buffer.from("TOKEN")]));
  writeFileSync(join(root, "blob.bin"), Buffer.concat([Buffer.alloc(3000), Buffer.from("TOKEN and TOKEN\nTOKEN")]));
  writeFileSync(join(root, "readme.txt"), "nothing to find\n");
  mkdirSync(join(root, "logs"));
  // a log with a stray NUL past the first chunks: its lines before it are not shown either
  writeFileSync(join(root, "logs/late.log"), `TOKEN first\n${"a".repeat(99).concat("\n").repeat(4000)}\0\nTOKEN after\n`);
  mkdirSync(join(root, "many"));
  for (let i = 1; i <= 7; i++) writeFileSync(join(root, `many/${i}.bin`), "\0 MANY\n");
  writeFileSync(join(root, "many/text.txt"), "MANY in text\n");
  // the word across the end of the first 256 KB read: found however the file is read
  mkdirSync(join(root, "edge"));
  writeFileSync(join(root, "edge/edge.bin"), Buffer.concat([Buffer.alloc(256 * 1024 - 2), Buffer.from("TOKEN")]));
  ctx = { cwd: root, signal: new AbortController().signal };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(tools)("grep (%s)", (_name, tool) => {
  const grep = (args: Record<string, unknown>) => callTool(tool, args, ctx);

  test("matches only in binary files: not 'no matches' alone, the files are named", async () => {
    expect(await grep({ pattern: "TOKEN" })).toEqual({
      output: 'no matches for "TOKEN" in . but in 5 binary files, not shown: blob.bin, edge/edge.bin, img.png, logs/late.log, nul.txt',
    });
    expect(await grep({ pattern: "TOKEN", glob: "*.txt" })).toEqual({
      output: 'no matches for "TOKEN" in . (glob *.txt) but in 1 binary file, not shown: nul.txt',
    });
    expect(await grep({ pattern: "nowhere" })).toEqual({ output: 'no matches for "nowhere" in .' });
    for (const pattern of ["TOKEN", "TOK[E]N$"])
      expect(await grep({ pattern, path: "edge" })).toEqual({
        output: `no matches for ${JSON.stringify(pattern)} in edge but in 1 binary file, not shown: edge/edge.bin`,
      });
  });

  test("binary files that match besides text ones get a line of their own, at most five named", async () => {
    expect(await grep({ pattern: "MANY", path: "many" })).toEqual({
      output: "many/text.txt:1: MANY in text\n[7 binary files also match: many/1.bin, many/2.bin, many/3.bin, many/4.bin, many/5.bin and 2 more; not shown]",
    });
  });

  test("a binary file named in path: whether it matches and on how many lines, not refused", async () => {
    expect(await grep({ pattern: "TOKEN", path: "blob.bin" })).toEqual({
      output: 'binary file blob.bin matches "TOKEN": 2 lines (cut at line breaks and NUL bytes), not shown',
    });
    expect(await grep({ pattern: "TOKEN", path: "nul.txt" })).toEqual({
      output: 'binary file nul.txt matches "TOKEN": 1 line (cut at line breaks and NUL bytes), not shown',
    });
    expect(await grep({ pattern: "nowhere", path: "img.png" })).toEqual({ output: 'no matches for "nowhere" in img.png (a binary file)' });
  });
});
