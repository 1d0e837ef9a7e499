// grep against a real tree: .gitignore handling, always-skipped and binary files, output format,
// and the same text from ripgrep and from the built-in walker.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { globOf } from "../../src/tools/grep-args.ts";
import { callTool } from "../helpers/call-tool.ts";
import { findRg, NO_RG } from "../helpers/find-rg.ts";
import { testNeeding } from "../helpers/tools.ts";

let root: string;
let ctx: ToolContext;

const TREE: Record<string, string> = {
  ".git/HEAD": "needle in .git\n",
  ".gitignore": "*.log\nbuild/\n/dist\n!keep.log\nsecret*.txt\n",
  "a.ts": "const x = 1;\n// needle one\nconst y = 2;\nconst z = 3;\nlet needle = 'two';\n",
  "a-b.ts": "needle in a-b\n",
  "a/b.ts": "needle in a/b\n",
  "b.js": "function f() {\n  return needle;\n}\n",
  "keep.log": "needle kept by negation\n",
  "debug.log": "needle ignored\n",
  "secret1.txt": "needle ignored\n",
  "build/out.js": "needle ignored (build/)\n",
  "dist/x.js": "needle ignored (/dist)\n",
  "sub/dist/y.js": "needle not ignored: /dist is anchored\n",
  "sub/.gitignore": "*.gen.ts\n!important.gen.ts\n",
  "sub/c.gen.ts": "needle ignored by sub/.gitignore\n",
  "sub/important.gen.ts": "needle re-included\n",
  "sub/deep/d.ts": "NEEDLE upper\nneedle lower\n",
  "sub/node_modules/x.js": "needle in nested node_modules\n",
  "node_modules/pkg/index.js": "needle in node_modules\n",
  "vendor/.git": "gitdir: ../.git/modules/vendor\n",
  "vendor/v.log": "needle: the root .gitignore stops at a nested repository\n",
  ".hidden/h.ts": "needle in a hidden dir\n",
  ".env.example": "NEEDLE=1\n",
  "crlf.txt": "needle\r\nfoo needle\r\nbar\r\n",
  "bom.txt": "\uFEFFneedle after a BOM\n",
  "unicode/ünï.txt": "naïve needle ✓\n",
  "empty.txt": "",
  "long.txt": "x".repeat(400) + " needle\n",
  "app.min.js": "var a=0;".repeat(2000) + "function zebraFind(){}" + "var b=1;".repeat(2000) + "\n",
  "many.txt": Array.from({ length: 150 }, (_, i) => `needle ${i + 1}`).join("\n") + "\n",
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-"));
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, "bin.dat"), Buffer.from("needle\0binary\n"));
  // Windows PowerShell 5's `>` writes UTF-16 with a byte-order mark
  writeFileSync(join(root, "ps-out.txt"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("build ok\r\nneedle in UTF-16\r\n", "utf16le")]));
  writeFileSync(join(root, "late-binary.txt"), "needle early\n" + "y".repeat(200_000) + "\n\0needle late\n");
  symlinkSync(join(root, "a.ts"), join(root, "link.ts"));
  ctx = { cwd: root, signal: new AbortController().signal };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const builtin = createGrepTool({ rg: null });
const grep = async (args: Record<string, unknown>, tool = builtin) => callTool(tool, args, ctx);
const paths = (output: string) => [
  ...new Set(
    output
      .split("\n")
      .map((l) => l.match(/^(.+?)[:-]\d+[:-] /)?.[1])
      .filter(Boolean),
  ),
];

describe("grep (built-in walker)", () => {
  test("respects .gitignore (nested, negation, anchored, dir-only), skips .git, node_modules, binaries and symlinks", async () => {
    const { output, isError } = await grep({ pattern: "needle", max_results: 1000 });
    expect(isError).toBeUndefined();
    expect(paths(output)).toEqual([
      ".hidden/h.ts",
      "a/b.ts",
      "a-b.ts",
      "a.ts",
      "b.js",
      "bom.txt",
      "crlf.txt",
      "keep.log",
      "long.txt",
      "many.txt",
      "ps-out.txt",
      "sub/deep/d.ts",
      "sub/dist/y.js",
      "sub/important.gen.ts",
      "unicode/ünï.txt",
      "vendor/v.log",
    ]);
  });

  test("a UTF-16 file (with its byte-order mark) is searched as text, and `^` matches a first line after a byte-order mark", async () => {
    expect(await grep({ pattern: "^needle (after|in UTF)" })).toEqual({ output: "bom.txt:1: needle after a BOM\nps-out.txt:2: needle in UTF-16" });
    expect(await grep({ pattern: "needle", path: "ps-out.txt" })).toEqual({ output: "ps-out.txt:2: needle in UTF-16" });
  });

  test("formats matches as path:line: text, sorted by path then line, CR removed, long lines cut", async () => {
    const { output } = await grep({ pattern: "needle", glob: "*.{ts,txt}", max_results: 14 });
    expect(output.split("\n").slice(0, 15)).toEqual([
      ".hidden/h.ts:1: needle in a hidden dir",
      "a/b.ts:1: needle in a/b",
      "a-b.ts:1: needle in a-b",
      "a.ts:2: // needle one",
      "a.ts:5: let needle = 'two';",
      "bom.txt:1: needle after a BOM",
      "crlf.txt:1: needle",
      "crlf.txt:2: foo needle",
      `long.txt:1: …${"x".repeat(293)} needle`,
      "many.txt:1: needle 1",
      "ps-out.txt:2: needle in UTF-16",
      "sub/deep/d.ts:2: needle lower",
      "sub/important.gen.ts:1: needle re-included",
      "unicode/ünï.txt:1: naïve needle ✓",
      "… 149 more matches not shown (163 in all, in 12 files); left out: many.txt 149; narrow with path, glob or a more specific pattern, or raise max_results",
    ]);
  });

  test("a match far into a long line (minified code) is shown with the text around it", async () => {
    const { output } = await grep({ pattern: "zebra\\w+", path: "app.min.js" });
    // 300 characters, a third of them before the match
    const line = "var a=0;".repeat(2000) + "function zebraFind(){}" + "var b=1;".repeat(2000);
    const at = line.indexOf("zebra");
    expect(output).toBe(`app.min.js:1: …${line.slice(at - 100, at + 200)}…`);
    expect(output).toContain("function zebraFind(){}var b=1;");
  });

  test("context lines use path-line- text", async () => {
    const { output } = await grep({ pattern: "needle", path: "a.ts", context: 1 });
    expect(output).toBe(
      ["a.ts-1- const x = 1;", "a.ts:2: // needle one", "a.ts-3- const y = 2;", "a.ts-4- const z = 3;", "a.ts:5: let needle = 'two';"].join("\n"),
    );
  });

  test("max_results caps the shown matches and says how many more there are", async () => {
    const { output } = await grep({ pattern: "needle \\d+", path: "many.txt", max_results: 3 });
    expect(output).toBe(
      "many.txt:1: needle 1\nmany.txt:2: needle 2\nmany.txt:3: needle 3\n" +
        "… 147 more matches not shown (150 in all); narrow with path, glob or a more specific pattern, or raise max_results",
    );
    const def = await grep({ pattern: "needle \\d+" });
    expect(def.output.split("\n").filter((l) => l.startsWith("many.txt:"))).toHaveLength(100);
    expect(def.output).toContain("… 50 more matches not shown (150 in all)");
    expect((await grep({ pattern: "needle \\d+", path: "many.txt", max_results: 149 })).output).toEndWith(
      "… 1 more match not shown (150 in all); narrow with path, glob or a more specific pattern, or raise max_results",
    );
  });

  test("ignore_case, anchors and CRLF", async () => {
    expect((await grep({ pattern: "^needle", path: "sub/deep", ignore_case: true })).output).toBe(
      "sub/deep/d.ts:1: NEEDLE upper\nsub/deep/d.ts:2: needle lower",
    );
    expect((await grep({ pattern: "needle$", path: "crlf.txt" })).output).toBe("crlf.txt:1: needle\ncrlf.txt:2: foo needle");
  });

  test("another agent's argument names: include is glob, -i is ignore_case; one grep does not take is an error naming it", async () => {
    expect(paths((await grep({ pattern: "needle", include: "*.js" })).output)).toEqual(["b.js", "sub/dist/y.js"]);
    expect((await grep({ pattern: "^needle upper", "-i": true, path: "sub" })).output).toBe("sub/deep/d.ts:1: NEEDLE upper");
    expect(await grep({ pattern: "needle", output_mode: "files_with_matches" })).toEqual({
      output: "grep: unknown argument `output_mode`; grep takes pattern, path, glob, ignore_case, context, max_results",
      isError: true,
    });
  });

  test("glob filters by file name, or by path when it has a slash", async () => {
    expect(paths((await grep({ pattern: "needle", glob: "*.js" })).output)).toEqual(["b.js", "sub/dist/y.js"]);
    expect(paths((await grep({ pattern: "needle", glob: "sub/**/*.ts" })).output)).toEqual(["sub/deep/d.ts", "sub/important.gen.ts"]);
  });

  test("a Windows glob with backslashes is the same glob; on POSIX a backslash stays an escape", () => {
    expect(globOf("src\\**\\*.ts", "\\")).toBe("src/**/*.ts");
    expect(globOf(".\\sub\\*.ts", "\\")).toBe("sub/*.ts");
    expect(globOf("./sub/*.ts", "\\")).toBe("sub/*.ts");
    expect(globOf("a\\*b", "/")).toBe("a\\*b");
  });

  test("a file path searches that file, even when it is ignored; the description tells the model so", async () => {
    expect(builtin.description).toContain("skips binary, .git, node_modules and .gitignored files unless path names them");
    expect((await grep({ pattern: "needle", path: "debug.log" })).output).toBe("debug.log:1: needle ignored");
    expect((await grep({ pattern: "needle", path: "build" })).output).toBe("build/out.js:1: needle ignored (build/)");
    expect((await grep({ pattern: "needle", path: "node_modules" })).output).toBe("node_modules/pkg/index.js:1: needle in node_modules");
  });

  test("no match, bad arguments and missing paths", async () => {
    // the directories the search left out, where a library's code or a build's output would be, those below too
    const left = "[ignored, not searched: build/, dist/, node_modules/, sub/node_modules/; name one as path to search it]";
    expect(await grep({ pattern: "zzz_nothing" })).toEqual({ output: `no matches for "zzz_nothing" in .\n${left}` });
    expect(await grep({ pattern: "zzz_nothing", path: "sub" })).toEqual({
      output: 'no matches for "zzz_nothing" in sub\n[ignored, not searched: sub/node_modules/; name one as path to search it]',
    });
    expect(await grep({ pattern: "zzz_nothing", path: "a" })).toEqual({ output: 'no matches for "zzz_nothing" in a' });
    expect(await grep({ pattern: "(" })).toMatchObject({ isError: true, output: expect.stringContaining('invalid regex "("') });
    expect(await grep({ pattern: "x", path: "nope" })).toEqual({ output: "path not found: nope", isError: true });
    expect(await grep({ pattern: "needle", path: "bin.dat" })).toEqual({
      output: 'binary file bin.dat matches "needle": 1 line (cut at line breaks and NUL bytes), not shown',
    });
    expect(await grep({})).toMatchObject({ isError: true, output: expect.stringContaining("`pattern`") });
    expect(await grep({ pattern: "x", context: "lots" })).toMatchObject({ isError: true, output: expect.stringContaining("`context`") });
    expect(await grep({ pattern: "x", glob: "{a" })).toMatchObject({ isError: true, output: expect.stringContaining("invalid glob") });
  });

  test("the no-match answer quotes the regex as it was written: a backslash is not doubled (x128)", async () => {
    expect((await grep({ pattern: "needle\\(", path: "a.ts" })).output).toBe('no matches for "needle\\(" in a.ts');
  });

  test("a pattern spanning lines cannot match, and the no-match answer says why", async () => {
    const why = "; grep matches one line at a time, so a pattern with \\n never matches: search for one of its lines";
    expect(await grep({ pattern: "const x = 1;\\n// needle", path: "a.ts" })).toEqual({ output: `no matches for "const x = 1;\\n// needle" in a.ts${why}` });
    expect(await grep({ pattern: "x = 1;\n//" })).toEqual({ output: `no matches for "x = 1;\\n//" in .${why}` });
    expect((await grep({ pattern: "zzz[^\\n]*" })).output).toStartWith('no matches for "zzz[^\\n]*" in .\n[ignored, not searched: ');
  });

  test("numbers sent as strings are accepted", async () => {
    expect((await grep({ pattern: "needle", path: "a.ts", context: "0", max_results: "1" })).output).toStartWith("a.ts:2: // needle one\n… 1 more");
  });
});

describe("grep: ripgrep and the built-in walker give the same text", () => {
  let rgTool: ReturnType<typeof createGrepTool>;
  let log: string;
  const rgRuns = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);

  beforeAll(async () => {
    const rg = await findRg();
    if (!rg) return;
    // A wrapper records each run's exit status, to prove ripgrep (not the fallback) answered.
    log = join(root, "..", `${root.split("/").pop()}-rg.log`);
    const wrapper = join(root, "..", `${root.split("/").pop()}-rg.sh`);
    writeFileSync(log, "");
    writeFileSync(
      wrapper,
      `#!/bin/sh\n'${rg}' "$@"\ncode=$?\ncase " $* " in *" --pcre2 "*) echo "$code --pcre2" ;; *) echo $code ;; esac >> '${log}'\nexit $code\n`,
    );
    chmodSync(wrapper, 0o755);
    rgTool = createGrepTool({ rg: wrapper });
  });
  afterAll(() => {
    if (log) rmSync(log, { force: true });
    if (log) rmSync(log.replace(/\.log$/, ".sh"), { force: true });
  });

  const queries: [string, Record<string, unknown>][] = [
    ["whole tree", { pattern: "needle", max_results: 1000 }],
    ["default cap", { pattern: "needle" }],
    ["context", { pattern: "needle", context: 2, max_results: 40 }],
    ["ignore_case", { pattern: "NEEDLE", ignore_case: true, max_results: 1000 }],
    ["anchors and CRLF", { pattern: "^(foo )?needle$" }],
    ["classes", { pattern: "needle \\d{2,3}\\b", max_results: 5 }],
    ["file-name glob", { pattern: "needle", glob: "*.{ts,js}" }],
    ["path glob", { pattern: "needle", glob: "sub/**/*.ts" }],
    ["sub directory", { pattern: "needle", path: "sub" }],
    ["ignored directory given as path", { pattern: "needle", path: "build" }],
    ["single file", { pattern: "needle \\d+", path: "many.txt", context: 1, max_results: 4 }],
    ["unicode", { pattern: "naïve|✓" }],
    ["a byte-order mark and UTF-16", { pattern: "^needle (after|in UTF)" }],
    ["a match far into a long line", { pattern: "zebra", context: 1 }],
    ["no match", { pattern: "zzz_nothing" }],
  ];

  test.each(queries)("%s", async (_name, args) => {
    if (!rgTool) throw new Error(NO_RG);
    const before = rgRuns().length;
    const viaRg = await grep(args, rgTool);
    // ripgrep answered: every run found matches or none, no run failed and left it to the built-in walker
    const runs = rgRuns().slice(before);
    expect(runs[0]).toBe(args.pattern === "zzz_nothing" ? "1" : "0");
    expect(runs.filter((code) => code !== "0" && code !== "1")).toEqual([]);
    expect(viaRg).toEqual(await grep(args));
  });

  test("a pattern ripgrep's own engine rejects (look-behind) runs with ripgrep's PCRE2, not the built-in walker", async () => {
    if (!rgTool) throw new Error(NO_RG);
    const before = rgRuns().length;
    const args = { pattern: "(?<=foo )needle" };
    const viaRg = await grep(args, rgTool);
    // rejected (2), then run with --pcre2, which answered (0); `--pcre2-version` (0) is asked once per process
    expect(rgRuns().slice(before)[0]).toBe("2");
    expect(rgRuns().slice(before)).toContain("0 --pcre2");
    expect(viaRg).toEqual({ output: "crlf.txt:2: foo needle" });
    expect(viaRg).toEqual(await grep(args));
  });
});

// A directory or file the user may not read is named in the result, not passed over as "no
// matches". Root reads everything, so as root the search runs as nobody (setpriv).
const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
testNeeding(asUser.slice(0, 1))("what could not be read is named, by ripgrep and the built-in walker alike", async () => {
  const rg = await findRg();
  if (!rg) throw new Error(NO_RG);
  const tree = mkdtempSync(join(tmpdir(), "hey-grep-unreadable-"));
  try {
    for (const [path, text] of Object.entries({ "src/a.ts": "needle\n", "db-data/base/1": "needle\n", "secret.txt": "needle\n" })) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      chmodSync(dirname(join(tree, path)), 0o755); // readable by whoever searches, whatever the umask: only the two below are not
      writeFileSync(join(tree, path), text);
      chmodSync(join(tree, path), 0o644);
    }
    chmodSync(join(tree, "db-data"), 0o000); // not 700: a user who is not root runs the search as the owner, who could read that
    chmodSync(join(tree, "secret.txt"), 0o000);
    chmodSync(tree, 0o755);
    const script = `
      const { createGrepTool } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/grep.ts"))});
      const { callTool } = await import(${JSON.stringify(join(import.meta.dir, "../helpers/call-tool.ts"))});
      const ctx = { cwd: ${JSON.stringify(tree)}, signal: new AbortController().signal };
      const out = [];
      for (const rg of [null, ${JSON.stringify(rg)}])
        for (const args of [{ pattern: "needle" }, { pattern: "nothing" }, { pattern: "needle", path: "db-data" }])
          out.push((await callTool(createGrepTool({ rg }), args, ctx)).output);
      console.log(JSON.stringify(out));`;
    const run = Bun.spawnSync([...asUser, process.execPath, "-e", script], { cwd: tree, env: { ...process.env, HOME: tree } });
    expect(run.stderr.toString()).toBe("");
    const note = "[not searched, could not be read: db-data (permission denied), secret.txt (permission denied)]";
    const each = [
      `src/a.ts:1: needle\n${note}`,
      `no matches for "nothing" in .\n${note}`,
      'no matches for "needle" in db-data\n[not searched, could not be read: db-data (permission denied)]',
    ];
    expect(JSON.parse(run.stdout.toString())).toEqual([...each, ...each]);
  } finally {
    chmodSync(join(tree, "db-data"), 0o755);
    rmSync(tree, { recursive: true, force: true });
  }
});

test("a warning ripgrep gives on stderr (a bad .gitignore glob) does not make grep search again without it", async () => {
  const tree = mkdtempSync(join(tmpdir(), "hey-grep-warned-"));
  try {
    // a stand-in for ripgrep: one match in a file where the built-in walker finds none, and a warning;
    // it answers grep's count (`--count`), its look for NUL bytes (none) and its read of the lines
    writeFileSync(join(tree, "only-rg.txt"), "no match here\n");
    const rg = join(tree, "rg.sh");
    const answers = [
      `*" --count "*) printf 'only-rg.txt\\0001\\n' ;;`,
      `*" --files-with-matches "*) exit 1 ;;`,
      `*) printf 'only-rg.txt\\000%s\\n' '1:needle' ;;`,
    ];
    writeFileSync(rg, `#!/bin/sh\ncase " $* " in\n${answers.join("\n")}\nesac\necho 'rg: ./.gitignore: line 1: error parsing glob' >&2\nexit 0\n`);
    chmodSync(rg, 0o755);
    const result = await callTool(createGrepTool({ rg }), { pattern: "needle" }, { cwd: tree, signal: new AbortController().signal });
    expect(result.output).toBe("only-rg.txt:1: needle");
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});

test("a file whose name holds a newline is named as the built-in walker names it, its lines not given to another file", async () => {
  const rg = await findRg();
  if (!rg) throw new Error(NO_RG);
  const tree = mkdtempSync(join(tmpdir(), "hey-grep-newline-"));
  try {
    writeFileSync(join(tree, "nl\nname.txt"), "a\nneedle\nb\n");
    writeFileSync(join(tree, "name.txt"), "needle\n");
    const here = { cwd: tree, signal: new AbortController().signal };
    const args = { pattern: "needle", context: 1 };
    const withRg = await callTool(createGrepTool({ rg }), args, here);
    expect(withRg).toEqual(await callTool(createGrepTool({ rg: null }), args, here));
    expect(withRg.output).toContain("name.txt:1: needle");
    expect(withRg.output).toContain("needle\n");
    expect(withRg.output.match(/name\.txt:1: needle/g)).toHaveLength(1);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});
