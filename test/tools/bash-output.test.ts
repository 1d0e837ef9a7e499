import { beforeAll, describe, expect, test } from "bun:test";
import { FILTER_MIN_LINES, filterOutput, HEAD_LINES, TAIL_LINES } from "../../src/tools/bash-filter.ts";
import { formatOutput, isVerbatimCommand, truncateHeadTail } from "../../src/tools/bash-output.ts";

const FAILURES = [
  { file: "src/parser.test.ts", name: "parser › parses nested arrays", expected: "[1, [2, 3]]", received: "[1, [2]]", line: 41 },
  { file: "src/auth.test.ts", name: "auth › rejects an expired token", expected: "401", received: "200", line: 88 },
  { file: "src/cache.test.ts", name: "cache › evicts the oldest entry", expected: '"b"', received: "undefined", line: 17 },
];

/** A jest-style run: 5,000 lines of passing tests and noise, 3 failures in the middle, a summary at the end. */
function noisyTestRun(): string {
  const lines = ["", "> app@1.0.0 test", "> jest --verbose", ""];
  let test = 0;
  let warned = false;
  const failAt = new Map([
    [1500, FAILURES[0]!],
    [2500, FAILURES[1]!],
    [3500, FAILURES[2]!],
  ]);
  while (lines.length < 4990) {
    const n = lines.length;
    const failure = [...failAt.entries()].find(([at]) => n >= at)?.[1];
    if (failure) {
      failAt.delete([...failAt.entries()].find(([, f]) => f === failure)![0]);
      lines.push(
        ` FAIL  ${failure.file}`,
        `  ✕ ${failure.name.split(" › ")[1]} (12 ms)`,
        "",
        `  ● ${failure.name}`,
        "",
        "    expect(received).toEqual(expected) // deep equality",
        "",
        `    Expected: ${failure.expected}`,
        `    Received: ${failure.received}`,
        "",
        `      ${failure.line - 1} |   test("${failure.name}", () => {`,
        `    > ${failure.line} |     expect(run()).toEqual(${failure.expected});`,
        "         |                   ^",
        `      ${failure.line + 1} |   });`,
        "",
        `      at Object.<anonymous> (${failure.file}:${failure.line}:19)`,
        "      at Promise.then.completed (node_modules/jest-circus/build/utils.js:298:28)",
        "      at new Promise (<anonymous>)",
        "      at callAsyncCircusFn (node_modules/jest-circus/build/utils.js:231:10)",
        "",
      );
      continue;
    }
    if (n % 100 === 0) lines.push(` PASS  src/module${n}.test.ts (${(n % 7) + 1}.${n % 10} s)`);
    else if (n % 250 === 1) lines.push("  console.warn", "    DeprecationWarning: Buffer() is deprecated due to security and usability issues.", "");
    else if (n >= 3000 && !warned && (warned = true))
      for (let k = 0; k < 40; k++) lines.push("(node:4242) Warning: Accessing non-existent property 'padLevels' of module exports inside circular dependency");
    else lines.push(`  ✓ module ${Math.floor(n / 100)} handles error case ${test++} gracefully (${n % 9} ms)`);
  }
  lines.push(
    "",
    "Summary of all failing tests",
    ...FAILURES.map((f) => ` FAIL  ${f.file}\n  ● ${f.name}`)
      .join("\n")
      .split("\n"),
    "",
    "Test Suites: 3 failed, 97 passed, 100 total",
    "Tests:       3 failed, 4997 passed, 5000 total",
    "Snapshots:   0 total",
    "Time:        48.221 s",
    "Ran all test suites.",
  );
  return lines.join("\n") + "\n";
}

describe("filterOutput", () => {
  const stderr = noisyTestRun();
  let result: { text: string; filtered: boolean };
  beforeAll(async () => {
    result = await filterOutput({ stdout: "", stderr, exitCode: 1, command: "npm test" });
  });

  test("the generated run is realistic in size", async () => {
    expect(stderr.split("\n").length).toBeGreaterThan(4990);
  });

  test("a noisy 5,000-line test run is cut to its failures and summary", async () => {
    expect(result.filtered).toBe(true);
    for (const f of FAILURES) {
      expect(result.text).toContain(`● ${f.name}`);
      expect(result.text).toContain(`Expected: ${f.expected}`);
      expect(result.text).toContain(`Received: ${f.received}`);
      expect(result.text).toContain(`(${f.file}:${f.line}:19)`);
    }
    expect(result.text).toContain("Tests:       3 failed, 4997 passed, 5000 total");
    expect(result.text).toContain("Test Suites: 3 failed, 97 passed, 100 total");
    expect(result.text).not.toContain("handles error case 17 gracefully");
    expect(result.text).not.toContain("node_modules/jest-circus");
  });

  test("says it was filtered and how many lines were dropped, and ends with the exit code", async () => {
    const total = stderr.split("\n").length - 1;
    const header = result.text.split("\n")[0]!;
    expect(header).toMatch(new RegExp(`^\\[output filtered: \\d+ of ${total} lines dropped`));
    expect(Number(header.match(/(\d+) of/)![1])).toBeGreaterThan(4800);
    expect(result.text.endsWith("[exit code 1]")).toBe(true);
    expect(result.text).toMatch(/… \d+ lines omitted …/);
  });

  test("keeps the first and the last lines as they are, none folded", async () => {
    const lines = stderr.replace(/\n$/, "").split("\n");
    expect(result.text).toStartWith(`${result.text.split("\n")[0]}\n[stderr]\n${lines.slice(0, HEAD_LINES).join("\n")}\n`);
    expect(result.text).toEndWith(`\n${lines.slice(-TAIL_LINES).join("\n")}\n[exit code 1]`);
  });

  test("collapses repeats with ×N", async () => {
    expect(result.text).toContain("Warning: Accessing non-existent property 'padLevels' of module exports inside circular dependency (×40)");
    expect(result.text).toMatch(/DeprecationWarning: Buffer\(\) is deprecated due to security and usability issues\. \(×\d+\)/);
    expect(result.text.match(/DeprecationWarning/g)).toHaveLength(1);
  });

  test("is small", async () => {
    expect(result.text.length).toBeLessThan(8 * 1024);
  });

  test("puts stderr first, then stdout, each with its last lines", async () => {
    const stdout = Array.from({ length: 300 }, (_, i) => `built chunk ${i}`).join("\n");
    const err = Array.from({ length: 300 }, (_, i) => `step ${i}`).join("\n") + "\nerror: link failed";
    const { text } = await filterOutput({ stdout, stderr: err, exitCode: 2, command: "make" });
    expect(text.indexOf("[stderr]")).toBeLessThan(text.indexOf("[stdout]"));
    expect(text.indexOf("error: link failed")).toBeLessThan(text.indexOf("[stdout]"));
    expect(text).toContain("built chunk 299");
  });

  test("lines that differ only in numbers are not folded away at the ends: `seq 1 100000`, an epoch loop, a CSV", async () => {
    const numbers = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
    const seq = await filterOutput({ stdout: numbers(100_000).join("\n") + "\n", stderr: "", exitCode: 0, command: "seq 1 100000" });
    const header = `[output filtered: 99975 of 100000 lines dropped; errors, failures, summaries, the first warnings, the first ${HEAD_LINES} and the last ${TAIL_LINES} lines kept]`;
    expect(seq.text).toBe([header, "1", "2", "3", "4", "5", "… 99975 lines omitted …", ...numbers(100_000).slice(-TAIL_LINES), "[exit code 0]"].join("\n"));

    const epochs = Array.from({ length: 150 }, (_, i) => `epoch ${i + 1} loss ${(1 - i / 1000).toFixed(3)}`);
    const train = await filterOutput({ stdout: epochs.join("\n"), stderr: "", exitCode: 0, command: "python train.py" });
    expect(train.text.split("\n").slice(1, -1)).toEqual([...epochs.slice(0, HEAD_LINES), "… 125 lines omitted …", ...epochs.slice(-TAIL_LINES)]);

    const rows = ["id,name,score", ...Array.from({ length: 300 }, (_, i) => `${i},user${i},${(i * 7) % 100}`)];
    const csv = await filterOutput({ stdout: rows.join("\n"), stderr: "", exitCode: 0, command: "cat scores.csv | cut -d, -f1-3" });
    expect(csv.text.split("\n").slice(1, -1)).toEqual([...rows.slice(0, HEAD_LINES), "… 276 lines omitted …", ...rows.slice(-TAIL_LINES)]);
  });

  test("exact repeats fold as ×N at the ends too (SPEC §13.1): 20 identical last lines cost one", async () => {
    const lines = [...Array(8).fill("Compiling..."), ...Array.from({ length: 200 }, (_, i) => `built ${i}`), ...Array(30).fill("waiting for the lock"), "done"];
    const { text } = await filterOutput({ stdout: lines.join("\n"), stderr: "", exitCode: 0, command: "cargo build" });
    expect(text.split("\n").slice(1)).toEqual(["Compiling... (×5)", "… 214 lines omitted …", "waiting for the lock (×19)", "done", "[exit code 0]"]);
  });

  test("in the middle, a run of near-identical shown lines keeps its first and last line; identical ones fold as ×N", async () => {
    // errors every 4 lines: the 3 similar lines between two errors are shown whole (a marker would save nothing)
    const middle = Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? `error: case ${i} failed` : `step ${i} ok`));
    const stdout = [...Array.from({ length: 200 }, (_, i) => `building ${i}`), ...middle, ...Array.from({ length: 200 }, (_, i) => `linking ${i}`)].join("\n");
    const { text } = await filterOutput({ stdout, stderr: "", exitCode: 1, command: "make" });
    expect(text).toContain(`\n${middle.slice(1).join("\n")}\n`);

    const progress = [
      ...Array.from({ length: 200 }, (_, i) => `fetch ${i}`),
      "error: mirror down",
      ...Array.from({ length: 6 }, (_, i) => `retrying in ${i + 1} s`),
      "error: mirror down, giving up",
      ...Array.from({ length: 200 }, (_, i) => `cleanup ${i}`),
    ];
    const folded = await filterOutput({ stdout: progress.join("\n"), stderr: "", exitCode: 1, command: "./fetch.sh" });
    // the 6 retries are all context of the two errors: first and last shown, the 4 between counted
    expect(folded.text).toContain("\nerror: mirror down\nretrying in 1 s\n… 4 similar lines omitted …\nretrying in 6 s\nerror: mirror down, giving up\n");
    const same = [
      ...Array.from({ length: 200 }, (_, i) => `fetch ${i}`),
      "error: disk full",
      ...Array(6).fill("waiting"),
      "error: disk still full",
      ...Array.from({ length: 200 }, (_, i) => `cleanup ${i}`),
    ];
    const repeated = await filterOutput({ stdout: same.join("\n"), stderr: "", exitCode: 1, command: "./fetch.sh" });
    expect(repeated.text).toContain("\nerror: disk full\nwaiting (×6)\nerror: disk still full\n");
  });

  test("caps long lines", async () => {
    const long = "error: " + "x".repeat(5000);
    const out = [...Array.from({ length: 200 }, (_, i) => `noise ${i}`), long].join("\n");
    const { text } = await filterOutput({ stdout: out, stderr: "", exitCode: 1, command: "build" });
    expect(text).toContain("… (+4707 chars)");
    expect(text.length).toBeLessThan(1500);
    const barely = [...Array.from({ length: 200 }, (_, i) => `noise ${i}`), "error: " + "x".repeat(294)].join("\n");
    expect((await filterOutput({ stdout: barely, stderr: "", exitCode: 1, command: "build" })).text).toContain("… (+1 char)");
  });

  test("short output is untouched", async () => {
    const out = { stdout: "error: one\nok\n", stderr: "warning: two\n", exitCode: 1, command: "make" };
    expect(await filterOutput(out)).toEqual({ text: "error: one\nok\n[stderr]\nwarning: two\n[exit code 1]", filtered: false });
    expect(formatOutput({ stdout: "", stderr: "", exitCode: 0, command: "true" })).toBe("(no output)\n[exit code 0]");
    // Windows programs end lines with CRLF: no \r stays before a line break or the marker
    expect(formatOutput({ stdout: "a\r\nb\r\n", stderr: "w\r\n", exitCode: 0, command: "dir" })).toBe("a\nb\n[stderr]\nw\n[exit code 0]");
  });

  test.each([
    ["colours (a forced --color, ls --color=always, tput)", "\x1b[1;31merror\x1b[0m: x\n\x1b[01;34mdir\x1b[0m\x1b(B\n", "error: x\ndir"],
    ["a progress bar redrawn with CR: its last state", "\r10%\r55%\r100%\ndone\n", "100%\ndone"],
    ["CRLF line ends", "one\r\ntwo\r\n", "one\ntwo"],
    ["a hyperlink (OSC 8)", "see \x1b]8;;https://x.dev\x07the docs\x1b]8;;\x07\n", "see the docs"],
  ])("short output is shown as a terminal shows it: %s", async (_name, stdout, shown) => {
    const out = { stdout, stderr: stdout, exitCode: 0, command: "npm run build" };
    expect((await filterOutput(out)).text).toBe(`${shown}\n[stderr]\n${shown}\n[exit code 0]`);
  });

  test("output just over the line limit with nothing to drop stays whole", async () => {
    const out = Array.from({ length: FILTER_MIN_LINES + 5 }, (_, i) => `error ${i}: thing ${i} broke`).join("\n");
    expect((await filterOutput({ stdout: out, stderr: "", exitCode: 1, command: "lint" })).filtered).toBe(false);
  });

  const diffLike = Array.from({ length: 3000 }, (_, i) => `+error line ${i} FAILED`).join("\n");
  test.each([
    ["git diff"],
    ["git status"],
    ["git log -p"],
    ["git show HEAD~2"],
    ["cd repo && git diff --stat"],
    ["GIT_PAGER=cat git --no-pager diff"],
    ["git -C ../other diff HEAD~1"],
    ["git -c color.ui=never log --oneline"],
    ["env LC_ALL=C git status --short"],
  ])("`%s` output is never filtered", async (command) => {
    const out = { stdout: diffLike, stderr: "", exitCode: 0, command };
    expect(await filterOutput(out)).toEqual({ text: formatOutput(out), filtered: false });
  });

  const pad = (n: number) => Array.from({ length: n }, (_, i) => `   Compiling dep-${i} v0.${i}.0 (building module ${i})`);
  test.each([
    ["tsc", ["src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'."]],
    ["cargo", ["error[E0308]: mismatched types", "  --> src/main.rs:4:18"]],
    ["pytest", ["FAILED tests/x.py::test_y - assert 1 == 2", "E       assert 1 == 2"]],
    ["go", ["--- FAIL: TestParse (0.00s)", "    parse_test.go:12: got 1, want 2"]],
    ["jest", ["  ● Parser › parses numbers"]],
    ["python", ["Traceback (most recent call last):", '  File "app.py", line 3, in <module>', "ValueError: bad value"]],
    ["npm", ["npm ERR! code ELIFECYCLE"]],
    ["rust panic", ["thread 'main' panicked at src/main.rs:2:5:"]],
    ["gcc", ["main.c:10:3: warning: implicit declaration of function 'foo'"]],
    ["bun test", ["(fail) math > adds [0.12ms]", " 1 fail"]],
  ])("%s keeps its error lines", async (_tool, errors) => {
    const stdout = [...pad(400), ...errors, ...pad(400)].join("\n");
    const { text, filtered } = await filterOutput({ stdout, stderr: "", exitCode: 1, command: "make test" });
    expect(filtered).toBe(true);
    for (const e of errors) expect(text).toContain(e);
    expect(text.length).toBeLessThan(4096);
  });

  test("a flood of distinct errors is capped", async () => {
    const stdout = Array.from({ length: 5000 }, (_, i) => `src/f${i}.ts(1,1): error TS1005: ';' expected.`).join("\n");
    const { text } = await filterOutput({ stdout, stderr: "", exitCode: 2, command: "tsc" });
    expect(text.split("\n").length).toBeLessThan(200);
    expect(text).toContain("src/f0.ts(1,1)");
    expect(text).toContain("src/f4999.ts(1,1)");
  });
});

describe("isVerbatimCommand", () => {
  test.each([
    ["git diff", true],
    ["cd x && git diff", true],
    ["git --no-pager log -5", true],
    ["/usr/bin/git show", true],
    ["npm test; git status", true],
    ["cat src/a.ts", true],
    ["sed -n 1,300p src/errors.ts", true],
    ["make 2>&1 | tail -50", true],
    ["npm test", false],
    ["git commit -m 'git diff'", false],
    ["echo 'git diff'", false],
    ["git add . && npm test", false],
    ["cargo build --release", false],
  ])("%s → %p", (command, expected) => {
    expect(isVerbatimCommand(command)).toBe(expected);
  });
});

describe("truncateHeadTail", () => {
  test("short text is untouched", async () => {
    expect(truncateHeadTail("a\nb\nc", 10, 100)).toEqual({ text: "a\nb\nc", truncated: false });
  });

  test("text within the budgets is not cut: a hidden middle of redraws says nothing, one of lines is said before the exit code", () => {
    const text = "Building 29999/30000\ndone\n[exit code 0]";
    expect(truncateHeadTail(text, 10, 1000, { lines: 0, bytes: 1_311_831 })).toEqual({ text, truncated: false });
    expect(truncateHeadTail(text, 10, 1000, { lines: 290, bytes: 3_896_940 })).toEqual({
      text: "Building 29999/30000\ndone\n… 290 lines (3896940 bytes) omitted …\n[exit code 0]",
      truncated: true,
    });
  });

  test("a cut that would leave out no more than its marker takes is not made: 2000 lines of output and the exit code all reach the model", () => {
    const text = [...Array.from({ length: 2000 }, (_, i) => String(i + 1)), "[exit code 0]"].join("\n");
    expect(truncateHeadTail(text, 2000, 50 * 1024)).toEqual({ text, truncated: false });
    // a middle lost before has its marker anyway: the line joins the lines it counts
    const r = truncateHeadTail(text, 2000, 50 * 1024, { lines: 90, bytes: 900 });
    expect(r.text.match(/omitted/g)).toHaveLength(1);
    expect(r.text).toContain("\n1000\n… 91 lines (");
    // 40 lines over the budget are worth a marker
    const longer = [...Array.from({ length: 2040 }, (_, i) => `line ${i + 1}`), "[exit code 0]"].join("\n");
    expect(truncateHeadTail(longer, 2000, 50 * 1024).text).toContain("\n… 41 lines (");
  });

  test("keeps the head and the tail by lines", async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n");
    const r = truncateHeadTail(text, 100, 1 << 20);
    expect(r.truncated).toBe(true);
    const lines = r.text.split("\n");
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe("line 0");
    expect(lines[49]).toBe("line 49");
    expect(lines[50]).toMatch(/^… 4900 lines \(\d+ bytes\) omitted …$/);
    expect(lines.at(-1)).toBe("line 4999");
  });

  test("keeps the head and the tail by bytes", async () => {
    const text = Array.from({ length: 100 }, (_, i) => `${i}:${"é".repeat(100)}`).join("\n");
    const r = truncateHeadTail(text, 1000, 2000);
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.text)).toBeLessThan(2100);
    expect(r.text.startsWith("0:é")).toBe(true);
    expect(r.text).toContain("\n99:é");
  });

  test("a single huge line keeps its start and end", async () => {
    const text = "a".repeat(10_000) + "b".repeat(10_000);
    const r = truncateHeadTail(text, 10, 1000);
    expect(r.text).toMatch(/^a{500}\n… 1 line \(19000 bytes\) omitted …\nb{500}$/);
  });

  test("never cuts a multi-byte character in half", async () => {
    const r = truncateHeadTail("日本語".repeat(1000), 10, 101);
    expect(r.text).not.toContain("\uFFFD");
    expect(r.text.startsWith("日本語")).toBe(true);
  });
});

test("stack frames under jest's console.log blocks do not crowd out the failure", async () => {
  const block = (i: number) => [`  console.log`, `    debug value ${i}`, ``, `      at Object.<anonymous> (test/noisy.test.mjs:${i}:11)`, ``];
  const lines = [
    ...Array.from({ length: 200 }, (_, i) => block(i + 1)).flat(),
    "  ● parser › parses nested arrays",
    "    Expected: [1, [2, 3]]",
    "    Received: [1, [2]]",
    "      at Object.<anonymous> (src/parser.test.ts:41:19)",
    ...Array.from({ length: 50 }, (_, i) => `  ✓ passes ${i}`),
    "Tests: 1 failed, 50 passed, 51 total",
  ];
  const { text, filtered } = await filterOutput({ stdout: lines.join("\n"), stderr: "", exitCode: 1, command: "npx jest" });
  expect(filtered).toBe(true);
  expect(text).toContain("(src/parser.test.ts:41:19)");
  expect(text).toContain("Received: [1, [2]]");
  expect(text).not.toContain("test/noisy.test.mjs:7:11");
});

describe("warnings never crowd out failures (SPEC §13.1)", () => {
  const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i));
  const names = ["glob", "inflight", "rimraf", "uuid", "request", "har-validator", "querystring", "sourcemap-codec"];

  test("160 npm WARN lines on stderr, then a mocha run with 3 failures: every failure with its position, and the counts, are shown; the warnings are counted", async () => {
    const stderr = lines(160, (i) => `npm WARN deprecated ${names[i % 8]}-${i}@${i % 9}.0.${i}: ${names[(i + 3) % 8]} is no longer supported`).join("\n");
    const failure = (n: number) => [
      `  ${n}) Cart`,
      `       totals case ${n}:`,
      "",
      `      AssertionError [ERR_ASSERTION]: ${n * 10} !== ${n * 10 + 5}`,
      "      + expected - actual",
      "",
      `      -${n * 10}`,
      `      +${n * 10 + 5}`,
      "",
      `      at Context.<anonymous> (test/cart.test.js:${n * 7}:14)`,
      "      at process.processImmediate (node:internal/timers:478:21)",
      "",
    ];
    const stdout = [
      "",
      "  Cart",
      ...lines(40, (i) => `    ✓ handles item ${i}`),
      "    1) totals",
      "    2) totals",
      "    3) totals",
      "",
      "  40 passing (45ms)",
      "  3 failing",
      "",
      ...failure(1),
      ...failure(2),
      ...failure(3),
    ].join("\n");
    const { text } = await filterOutput({ stdout, stderr, exitCode: 3, command: "sh fakenpm.sh" });
    for (const n of [1, 2, 3]) {
      expect(text).toContain(`AssertionError [ERR_ASSERTION]: ${n * 10} !== ${n * 10 + 5}`);
      expect(text).toContain(`(test/cart.test.js:${n * 7}:14)`);
      expect(text).toContain(`      +${n * 10 + 5}`);
    }
    expect(text).toContain("  40 passing (45ms)\n  3 failing");
    expect(text.match(/npm WARN/g)!.length).toBeLessThanOrEqual(15);
    expect(text.split("\n")[0]).toMatch(/^\[output filtered: \d+ of 244 lines dropped \(1[34]\d warnings among them\)/);
  });

  test("200 DeprecationWarning lines on stderr, then a pytest failure: FAILED, the E lines and the position are shown", async () => {
    const stderr = lines(
      200,
      (i) => `/usr/lib/python3/dist-packages/pkg${i % 13}/mod.py:${i + 10}: DeprecationWarning: pkg_resources is deprecated as an API`,
    ).join("\n");
    const stdout = [
      "============================= test session starts ==============================",
      "collected 30 items",
      "",
      "tests/test_mod.py ..............F...............                          [100%]",
      "",
      "=================================== FAILURES ===================================",
      "_________________________________ test_sum ____________________________________",
      "",
      "    def test_sum():",
      ">       assert add(2, 2) == 5",
      "E       assert 4 == 5",
      "E        +  where 4 = add(2, 2)",
      "",
      "tests/test_mod.py:42: AssertionError",
      "=========================== short test summary info ============================",
      "FAILED tests/test_mod.py::test_sum - assert 4 == 5",
      "========================= 1 failed, 29 passed in 0.12s =========================",
    ].join("\n");
    const { text } = await filterOutput({ stdout, stderr, exitCode: 1, command: "pytest" });
    for (const line of [
      "E       assert 4 == 5",
      "tests/test_mod.py:42: AssertionError",
      "FAILED tests/test_mod.py::test_sum - assert 4 == 5",
      "1 failed, 29 passed in 0.12s",
    ])
      expect(text).toContain(line);
    expect(text.match(/DeprecationWarning/g)!.length).toBeLessThanOrEqual(15);
  });

  test("the counts are kept past the budget: a flood of errors before them does not hide `N passed, M failed`", async () => {
    const stdout = [
      ...lines(400, (i) => `src/f${i}.ts(1,1): error TS1005: ';' expected.`),
      "Tests: 3 failed, 97 passed, 100 total",
      ...lines(30, (i) => `cleanup ${i}`),
    ].join("\n");
    const { text } = await filterOutput({ stdout, stderr: "", exitCode: 2, command: "make check" });
    expect(text).toContain("Tests: 3 failed, 97 passed, 100 total");
    expect(text.split("\n").length).toBeLessThan(200);
  });
});
