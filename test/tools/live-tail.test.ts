// A running command's last lines for the terminal (src/tools/live-tail.ts): as a terminal would
// leave them, and only while the command runs; the model's result is not changed by them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBashTool } from "../../src/tools/bash.ts";
import { lastLines, liveTail } from "../../src/tools/live-tail.ts";
import { chooseShell } from "../../src/tools/shell.ts";
import { until } from "../helpers/wait.ts";

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-live-tail-")));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test.each([
  ["the last n lines, blank ones at the end left out", "a\nb\nc\nd\n\n\n", 2, false, ["c", "d"]],
  ["colours dropped, a window title too", "\x1b[1;32mok\x1b[0m 3 passed\n\x1b]0;title\x07next\n", 5, false, ["ok 3 passed", "next"]],
  ["a progress bar in its last state; CRLF is a plain end of line", "50%\r75%\r100%\nwin\r\n", 5, false, ["100%", "win"]],
  ["tabs as spaces, other controls kept for the terminal to show", "a\tb\x07\n", 5, false, ["a  b\x07"]],
  ["a first line cut off at its start left out", "tail of a long line\nwhole\n", 5, true, ["whole"]],
  ["a line still being written is shown", "done\nhalf", 5, false, ["done", "half"]],
  ["tput sgr0's charset selection dropped, as in the result", "\x1b[31mred\x1b(B\x1b[m ok\n", 5, false, ["red ok"]],
  ["a progress bar cut off at its start shows its last redraw", "ing [##   ] 20%\rDownloading [###  ] 30%", 5, true, ["Downloading [###  ] 30%"]],
  [
    "a spinner redrawn from the first column (readline.cursorTo, ora)",
    "\x1b[1G\x1b[0K⠋ installing\x1b[1G\x1b[0K⠙ installing\x1b[G\x1b[2K⠹ linking",
    5,
    false,
    ["⠹ linking"],
  ],
  ["... and one ended by CRLF", "ing 20%\rDownloading 30%\r\nnext", 5, true, ["Downloading 30%", "next"]],
])("lastLines: %s", (_what, text, n, partial, want) => {
  expect(lastLines(text, n, partial)).toEqual(want);
});

test("a character split between chunks shows once whole, and a byte that is not UTF-8 as in the result (café), never as �", async () => {
  const shown: string[][] = [];
  const tail = liveTail((lines) => shown.push(lines), 5);
  try {
    const zhong = new TextEncoder().encode("中"); // 3 bytes
    tail.take(Uint8Array.from([...new TextEncoder().encode("进度 "), ...zhong.subarray(0, 2)]));
    await until(() => shown.length === 1, "the first line");
    tail.take(Uint8Array.from([...zhong.subarray(2), 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a])); // then `caf\xe9` in Latin-1
    await until(() => shown.length === 2, "the rest");
    expect(shown).toEqual([["进度"], ["进度 中", "café"]]);
  } finally {
    tail.stop();
  }
});

test("only the end of a long output is kept, and what is shown changes only when the output did", async () => {
  const shown: string[][] = [];
  const tail = liveTail((lines) => shown.push(lines), 5);
  const encode = (t: string) => new TextEncoder().encode(t);
  tail.take(encode(Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join("\n") + "\n"));
  await until(() => shown.length === 1, "the first lines");
  expect(shown[0]).toEqual(["line 99995", "line 99996", "line 99997", "line 99998", "line 99999"]);
  for (let i = 0; i < 3000; i++) tail.take(encode(`more ${i}\n`)); // small chunks past the kept size
  await until(() => shown.length === 2, "the new lines");
  tail.stop();
  expect(shown[1]).toEqual(["more 2995", "more 2996", "more 2997", "more 2998", "more 2999"]);
});

test("a progress bar redrawn past the kept bytes stays on show", async () => {
  const shown: string[][] = [];
  const tail = liveTail((lines) => shown.push(lines), 5);
  const bar = (i: number) => `\rDownloading [${"#".repeat(i % 50).padEnd(50)}] ${i}%`; // curl, pip, npm: one line, redrawn
  for (let i = 0; i < 200; i++) tail.take(new TextEncoder().encode(bar(i)));
  await until(() => shown.length === 1, "the bar");
  tail.stop();
  expect(shown[0]).toEqual([bar(199).slice(1)]);
});

test("the bash tool reports a running command's last lines while it runs; its result is as before", async () => {
  const shell = chooseShell({ platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined });
  const tool = createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(dir, ".out") });
  const shown: string[][] = [];
  const command = "echo start; echo oops >&2; while [ ! -e go ]; do sleep 0.02; done; echo end";
  const result = tool.run({ command }, { signal: new AbortController().signal, cwd: dir, output: (lines) => shown.push(lines) });
  // the two pipes are read side by side: either may come first
  await until(() => shown.some((l) => [...l].sort().join() === "oops,start"), "the first lines, stdout and stderr alike");
  writeFileSync(join(dir, "go"), "");
  expect(await result).toEqual({ output: "start\nend\n[stderr]\noops\n[exit code 0]" });
});
