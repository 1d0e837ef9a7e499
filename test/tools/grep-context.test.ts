// grep's `context` when one file's matches fall in groups apart: the groups stay one file's, with
// their context lines, the file counted once and its share of the shown matches its own; CRLF
// files too (ripgrep runs with --crlf) and names that look like ripgrep's separators. Both searches,
// same text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { callTool } from "../helpers/call-tool.ts";
import { bothGreps, findRg, NO_RG } from "../helpers/find-rg.ts";

let root: string;
let ctx: ToolContext;
const tools = await bothGreps();

/** 12 lines, `needle` on lines 2, 7 and 11: three groups apart with context 1. */
const groups = (eol: string) => Array.from({ length: 12 }, (_, i) => ([1, 6, 10].includes(i) ? `needle ${i + 1}` : `line ${i + 1}`)).join(eol) + eol;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-context-"));
  const tree: Record<string, string> = {
    "pair/a.txt": groups("\n"),
    "pair/b.txt": "needle\n".repeat(6),
    "crlf/win.txt": groups("\r\n"),
    // names ripgrep's plain output could be misread by: a separator, fields, a separator line inside
    "odd/--": groups("\n"),
    "odd/a:1:b-2-c.txt": groups("\r\n"),
    "odd/x\n--\ny.txt": groups("\n"),
  };
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  ctx = { cwd: root, signal: new AbortController().signal };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const shown = (file: string) => [
  `${file}-1- line 1`,
  `${file}:2: needle 2`,
  `${file}-3- line 3`,
  `${file}-6- line 6`,
  `${file}:7: needle 7`,
  `${file}-8- line 8`,
];

describe.each(tools)("grep (%s)", (_name, tool) => {
  test("a file's matches in groups apart keep their context lines, are counted as one file and share as one", async () => {
    const { output } = await callTool(tool, { pattern: "needle", context: 1, max_results: 4, path: "pair" }, ctx);
    expect(output.split("\n")).toEqual([
      ...shown("pair/a.txt"),
      "pair/b.txt:1: needle",
      "pair/b.txt:2: needle",
      "… 5 more matches not shown (9 in all, in 2 files); left out: pair/b.txt 4, pair/a.txt 1; narrow with path, glob or a more specific pattern, or raise max_results",
    ]);
  });

  test("the same in a CRLF file: no line is lost or taken for a file", async () => {
    const { output } = await callTool(tool, { pattern: "needle \\d+$", context: 1, path: "crlf" }, ctx);
    expect(output.split("\n")).toEqual([...shown("crlf/win.txt"), "crlf/win.txt-10- line 10", "crlf/win.txt:11: needle 11", "crlf/win.txt-12- line 12"]);
  });

  test("file names like `--`, with `:N:` and `-N-` in them, or a `--` line between line breaks", async () => {
    const { output } = await callTool(tool, { pattern: "needle", context: 1, max_results: 6, path: "odd" }, ctx);
    expect(output.split("\n")).toEqual([
      ...shown("odd/--"),
      ...shown("odd/a:1:b-2-c.txt"),
      ...shown("odd/x\\n--\\ny.txt"),
      "… 3 more matches not shown (9 in all, in 3 files); left out: odd/-- 1, odd/a:1:b-2-c.txt 1, odd/x\\n--\\ny.txt 1; narrow with path, glob or a more specific pattern, or raise max_results",
    ]);
  });
});

describe("grep with context: ripgrep and the built-in search give the same text", () => {
  let rgTool: ReturnType<typeof createGrepTool>;
  let log: string;
  const rgRuns = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);

  beforeAll(async () => {
    const rg = await findRg();
    if (!rg) return;
    // A wrapper records each run's exit status, to prove ripgrep (not the fallback) answered.
    log = `${root}-rg.log`;
    writeFileSync(log, "");
    writeFileSync(`${root}-rg.sh`, `#!/bin/sh\n'${rg}' "$@"\ncode=$?\necho $code >> '${log}'\nexit $code\n`);
    chmodSync(`${root}-rg.sh`, 0o755);
    rgTool = createGrepTool({ rg: `${root}-rg.sh` });
  });
  afterAll(() => {
    if (log) rmSync(log, { force: true });
    if (log) rmSync(`${root}-rg.sh`, { force: true });
  });

  test.each([1, 2, 3, 4])("context %d, with and without a cap", async (context) => {
    if (!rgTool) throw new Error(NO_RG);
    for (const args of [
      { pattern: "needle", context },
      { pattern: "needle", context, max_results: 5 },
      { pattern: "needle \\d+$", context, max_results: 8 },
      { pattern: "^line 1", context },
    ]) {
      const before = rgRuns().length;
      const viaRg = await callTool(rgTool, args, ctx);
      // ripgrep answered: no run failed and left the search to the built-in one
      expect(
        rgRuns()
          .slice(before)
          .filter((code) => code !== "0" && code !== "1"),
      ).toEqual([]);
      expect(rgRuns().length).toBeGreaterThan(before);
      expect(viaRg).toEqual(await callTool(tools[0]![1], args, ctx));
    }
  });
});

test("a ripgrep that rejects a flag (one older than 12) leaves the search to the built-in one", async () => {
  const fake = `${root}-old-rg.sh`;
  writeFileSync(fake, "#!/bin/sh\necho 'error: Found argument --no-context-separator which was not expected' >&2\nexit 2\n");
  chmodSync(fake, 0o755);
  try {
    const args = { pattern: "needle", context: 1, max_results: 4, path: "crlf" };
    expect((await callTool(createGrepTool({ rg: fake }), args, ctx)).output).toStartWith(shown("crlf/win.txt").join("\n"));
  } finally {
    rmSync(fake, { force: true });
  }
});
