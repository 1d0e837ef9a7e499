// The built-in filter skips long stretches of lines no signal can be in (line-splitter.ts): its
// text must be what reading every line gives. Reference: the same output pushed one line a piece,
// where nothing can be skipped; compared on generated logs with signals at every distance from a
// stretch, and on real text (hey's own sources, which say error, expect and fail everywhere).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { filterStreams, isSignal } from "../../src/tools/bash-filter.ts";
import { HINTS } from "../../src/tools/line-splitter.ts";

/** A small seeded generator: the same logs every run. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const SIGNAL_LINES = [
  "FAIL src/cart.test.ts",
  "  ● Cart › adds an item",
  "    expect(received).toBe(expected) // Object.is equality",
  "    Expected: 3",
  "    Received: 2",
  "      at Object.<anonymous> (src/cart.test.ts:12:5)",
  "      at node_modules/jest/run.js:3:1",
  "src/app.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  "error[E0308]: mismatched types",
  "  --> src/main.rs:4:9",
  '  File "app.py", line 3, in <module>',
  "E       AssertionError: assert 1 == 2",
  "not ok 3 - handles errors",
  "ok 4 - passes",
  "  ✓ handles errors (3 ms)",
  "  1) Cart",
  "  1 failing",
  "  40 passing (2s)",
  "Tests: 1 failed, 29 passed, 30 total",
  "Test Suites: 1 failed, 2 passed",
  "Ran 12 tests in 0.3s",
  "=== 1 failed, 3 passed in 0.12s ===",
  "FAILED (failures=1)",
  "BUILD FAILED",
  "OK",
  "npm WARN deprecated inflight@1.0.6: This module is not supported",
  "npm ERR! code ELIFECYCLE",
  "warning: unused variable `x`",
  "  console.log",
  "    hello",
  "      at log (src/a.ts:3:5)",
  "--- PASS: TestAdd (0.00s)",
  "panic: runtime error: index out of range",
  "\x1b[31merror\x1b[0m: build broke",
  "er\x1b[0mror split by a colour",
  "downloading 10%\rdownloading 50%\rdownloading 100% failed",
  "progress 1/3\rprogress 3/3",
  "test result: FAILED. 3 passed; 1 failed",
];
const BORING = ["compiling module {n}", "{n}", "  step {n} of 900 done", "", "row {n}: alpha beta gamma", "GET /index.html 200 {n}ms"];

function generatedLog(seed: number): string {
  const next = random(seed);
  const lines: string[] = [];
  const stretches = 3 + Math.floor(next() * 12);
  for (let s = 0; s < stretches; s++) {
    // stretches of every length around the margins (8), the tail (20) and much longer
    const length = [0, 1, 3, 7, 8, 9, 16, 20, 27, 28, 29, 40, 100, 2000][Math.floor(next() * 14)]!;
    for (let i = 0; i < length; i++)
      lines.push(BORING[Math.floor(next() * BORING.length)]!.replace("{n}", String(Math.floor(next() * 10 ** (1 + Math.floor(next() * 6))))));
    const signals = Math.floor(next() * 4);
    for (let i = 0; i < signals; i++) lines.push(SIGNAL_LINES[Math.floor(next() * SIGNAL_LINES.length)]!);
    if (next() < 0.1) lines.push(`${"x".repeat(5000)} error past the part read`);
  }
  return lines.join("\n") + (next() < 0.5 ? "\n" : "");
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

const lineByLine = (text: string) => text.split(/(?<=\n)/);

async function compare(stdout: string, stderr = "") {
  const want = await filterStreams({ stdout: lineByLine(stdout), stderr: lineByLine(stderr), exitCode: 1 });
  for (const size of [65_536, 4096, 997]) expect(await filterStreams({ stdout: pieces(stdout, size), stderr: pieces(stderr, size), exitCode: 1 })).toBe(want);
}

test("filtering generated logs in big pieces gives what reading them line by line gives", async () => {
  for (let seed = 1; seed <= 150; seed++) await compare(generatedLog(seed), seed % 3 === 0 ? generatedLog(seed + 1000) : "");
});

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
const realText = [...sources(join(import.meta.dir, "../../src")), ...sources(join(import.meta.dir, ".."))].map((f) => readFileSync(f, "utf8")).join("\n");

test("filtering real text in big pieces gives what reading it line by line gives", async () => {
  await compare(realText);
  await compare(readFileSync(join(import.meta.dir, "../../README.md"), "utf8"), realText.slice(0, 200_000));
});

test("every line the filter takes as a signal holds a hint the splitter searches for", () => {
  const hinted = (line: string) => HINTS.some((re) => new RegExp(re.source, re.flags.replace("g", "")).test(`\n${line}\n`));
  const lines = [...SIGNAL_LINES, ...realText.split("\n"), ...generatedLog(7).split("\n")];
  const missed = lines.filter((line) => (isSignal(line) || /^\s*console\./.test(line)) && !hinted(line));
  expect(missed).toEqual([]);
});
