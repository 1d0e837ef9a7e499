// grep over files with lines of megabytes (a minified bundle, a one-line JSON fixture): what the
// model reads is the line cut around the match, the same from ripgrep as from the built-in walker,
// and ripgrep is never asked to print such a line (its --json listed every match of it: gigabytes).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { callTool } from "../helpers/call-tool.ts";
import { findRg, NO_RG } from "../helpers/find-rg.ts";

let root: string;
let ctx: ToolContext;
let rgTool: ReturnType<typeof createGrepTool> | undefined;
const builtin = createGrepTool({ rg: null });
/** Bytes ripgrep printed in all its runs since the last call (grep runs it more than once, some at the same time). */
const printed = () => {
  const log = join(root, "..", `${root.split("/").pop()}-rg.out`);
  const sum = readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map(Number)
    .reduce((a, b) => a + b, 0);
  writeFileSync(log, "");
  return sum;
};

const HUGE = `{${'"a":1,'.repeat(500_000)}"end":"needle"}\n`; // 3 MB on one line, a match of `"` every 3 characters
const PAGE = `<p>${"x".repeat(10_000)}</p>\nneedle\n${"y".repeat(10_000)} needle ${"z".repeat(10_000)}\n`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-long-"));
  writeFileSync(join(root, "huge.json"), HUGE);
  writeFileSync(join(root, "page.html"), PAGE);
  ctx = { cwd: root, signal: new AbortController().signal };
  const rg = await findRg();
  if (!rg) return;
  // A wrapper counts the bytes each ripgrep run printed, to show how much that was.
  const wrapper = join(root, "..", `${root.split("/").pop()}-rg.sh`);
  const out = join(root, "..", `${root.split("/").pop()}-rg.out`);
  writeFileSync(out, "");
  writeFileSync(wrapper, `#!/bin/sh\n'${rg}' "$@" > '${out}'.$$\ncode=$?\nwc -c < '${out}'.$$ >> '${out}'\ncat '${out}'.$$\nrm -f '${out}'.$$\nexit $code\n`);
  chmodSync(wrapper, 0o755);
  rgTool = createGrepTool({ rg: wrapper });
});

afterAll(() => {
  for (const end of ["-rg.sh", "-rg.out"]) rmSync(join(root, "..", `${root.split("/").pop()}${end}`), { force: true });
  rmSync(root, { recursive: true, force: true });
});

test("a 3 MB line with a million matches: one result line, cut at 300 characters, and ripgrep prints a few bytes", async () => {
  if (!rgTool) throw new Error(NO_RG);
  const result = await callTool(rgTool, { pattern: '"', path: "huge.json" }, ctx);
  expect(result).toEqual({ output: `huge.json:1: ${HUGE.slice(0, 300)}…` });
  expect(printed()).toBeLessThan(1000);
  expect(result).toEqual(await callTool(builtin, { pattern: '"', path: "huge.json" }, ctx));
});

test("a match far into a long line, with long lines around it: each cut, the match's around it", async () => {
  if (!rgTool) throw new Error(NO_RG);
  const args = { pattern: "needle", context: 1 };
  const result = await callTool(rgTool, args, ctx);
  const lines = result.output.split("\n");
  expect(lines.map((l) => l.slice(0, 24))).toEqual(['huge.json:1: …:1,"a":1,"', "page.html-1- <p>xxxxxxxx", "page.html:2: needle", "page.html:3: …yyyyyyyyyy"]);
  expect(lines[0]).toEndWith('"a":1,"end":"needle"}');
  expect(lines[3]).toContain("y needle z");
  expect(lines.every((l) => l.length < 320)).toBe(true);
  expect(printed()).toBeLessThan(1000);
  expect(result).toEqual(await callTool(builtin, args, ctx));
});

test("a one-line file of 60 MB with the match at its end: cut around the match, and the search holds a window of the line, not all of it", async () => {
  const rg = await findRg();
  if (!rg) throw new Error(NO_RG);
  const dir = mkdtempSync(join(tmpdir(), "hey-grep-one-line-"));
  try {
    writeFileSync(join(dir, "big.txt"), `${"a".repeat(60_000_000)}needle${"b".repeat(1000)}`);
    // in a process of its own, whose peak RSS (VmHWM: the kernel's high-water mark) is this search's
    const script = `
      const { createGrepTool } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/grep.ts"))});
      const { callTool } = await import(${JSON.stringify(join(import.meta.dir, "../helpers/call-tool.ts"))});
      const ctx = { cwd: ${JSON.stringify(dir)}, signal: new AbortController().signal };
      const { output } = await callTool(createGrepTool({ rg: ${JSON.stringify(rg)} }), { pattern: "needle" }, ctx);
      const status = await Bun.file("/proc/self/status").text().catch(() => ""); // without /proc: the process's own count, which may start at its parent's
      const peak = Number(/VmHWM:\\s+(\\d+) kB/.exec(status)?.[1] ?? process.resourceUsage().maxRSS) * 1024;
      console.log(JSON.stringify({ output, peak }));`;
    const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: dir });
    expect(run.stderr.toString()).toBe("");
    const { output, peak } = JSON.parse(run.stdout.toString()) as { output: string; peak: number };
    console.log(`peak RSS of the search: ${Math.round(peak / 1048576)} MB`);
    expect(output).toBe(`big.txt:1: …${"a".repeat(100)}needle${"b".repeat(194)}…`);
    expect(peak).toBeLessThan(200 * 1024 * 1024); // 361 MB before: the line read whole, and again for every chunk of it
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a CRLF line end split between two chunks of the read is still a line end: `$` matches before it", async () => {
  const line = "x".repeat(256 * 1024 - 1); // its CR is the chunk's last byte, its LF the next one's first
  writeFileSync(join(root, "crlf-seam.txt"), `${line}\r\ny\r\n`);
  try {
    for (const tool of [builtin, ...(rgTool ? [rgTool] : [])])
      expect((await callTool(tool, { pattern: "x$|^y$", path: "crlf-seam.txt" }, ctx)).output).toBe(`crlf-seam.txt:1: …${"x".repeat(300)}\ncrlf-seam.txt:2: y`);
  } finally {
    rmSync(join(root, "crlf-seam.txt"));
  }
});
