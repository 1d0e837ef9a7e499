// The saved copy of a long output is written, its secrets hidden, before the result returns (x125):
// the file the result names is whole, no raw spill file stays, a save that fails leaves no cut file,
// and hey leaving in the middle of a save removes what it had written.
import { afterAll, expect, test } from "bun:test";
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Captured } from "../../src/tools/capture.ts";
import { commandResult, outputFiles } from "../../src/tools/command-result.ts";
import { createBashTool } from "../../src/tools/bash.ts";
import { keptAtExit, OUTPUTS_MAX_BYTES, removedAtExit } from "../../src/tools/outputs.ts";
import { shell } from "../helpers/bash-tool.ts";
import { tempDir } from "../helpers/e2e.ts";
import { until } from "../helpers/wait.ts";

const dir = tempDir("hey-saved-whole-");
afterAll(() => dir.remove());
const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const savedAt = (output: string) => output.match(/\[full output: (\S+)\]/)?.[1];

/** A stdout of ~3 MB spilled to its file, its secret on its last line, as capture.ts leaves it. */
function spilledRun(spill: string) {
  const text = `${Array.from({ length: 400_000 }, (_, i) => `line ${i}`).join("\n")}\nTOKEN=${SECRET}\n`;
  writeFileSync(spill, text);
  const head = text.slice(0, 65_536);
  const tail = text.slice(-65_536);
  const stdout: Captured = { head, tail, hidden: { lines: 1, bytes: text.length - head.length - tail.length }, bytes: text.length, foreign: 0, spill };
  const stderr: Captured = { head: "", tail: "", hidden: { lines: 0, bytes: 0 }, bytes: 0, foreign: 0 };
  return { stdout, stderr, exitCode: 0, ended: "exit" as const };
}

function options(outputDir: string, hide: (text: string) => string) {
  const files = outputFiles(outputDir);
  return { filter: "none", raw: false, outputDir, hide, files, notes: [], shell, env: undefined, cwd: dir.path, signal: new AbortController().signal };
}

test("the file the result names is whole, its secret hidden, and no raw spill file is left", async () => {
  const outputDir = join(dir.path, "whole");
  const o = options(outputDir, (text) => text.replaceAll(SECRET, "[redacted]"));
  const path = savedAt(await commandResult(spilledRun(o.files.spill("stdout")()), "make", 0, o))!;
  const saved = readFileSync(path, "utf8"); // at once: old code was still writing it
  expect(saved).toEndWith("line 399999\nTOKEN=[redacted]\n\n[exit code 0]\n");
  expect(saved).not.toContain(SECRET);
  expect(readdirSync(outputDir)).toEqual([path.split("/").at(-1)!]);
});

test("a save that fails halfway leaves no cut file and the result says it could not be saved", async () => {
  const outputDir = join(dir.path, "late");
  let pieces = 0;
  const hide = (text: string) => {
    if (++pieces === 2) throw new Error("ENOSPC: no space left on device, write");
    return text.replaceAll(SECRET, "[redacted]");
  };
  const o = options(outputDir, hide);
  const result = await commandResult(spilledRun(o.files.spill("stdout")()), "make", 0, o);
  expect(savedAt(result)).toBeUndefined(); // old code: the result named a file cut at 1 MB
  expect(result).toContain("[could not save the full output: ENOSPC");
  expect(readdirSync(outputDir)).toEqual([]);
});

test("hey leaving in the middle of a save or a call (a second Ctrl-C) leaves neither the raw spill nor a cut copy", async () => {
  const outputDir = join(dir.path, "exit");
  mkdirSync(outputDir);
  const script = join(dir.path, "exit-midway.ts");
  const src = (file: string) => JSON.stringify(join(import.meta.dir, file));
  writeFileSync(
    script,
    `import { commandResult, outputFiles } from ${src("../../src/tools/command-result.ts")};
import { shell } from ${src("../helpers/bash-tool.ts")};
const [outputDir, secret] = process.argv.slice(2);
const text = Array.from({ length: 400_000 }, (_, i) => "line " + i).join("\\n") + "\\nTOKEN=" + secret + "\\n";
const files = outputFiles(outputDir);
const spill = files.spill("stdout")();
await Bun.write(spill, text);
if (process.argv[4] === "running") process.exit(130); // while the command still runs: its stream spilled, no save yet
const head = text.slice(0, 65536), tail = text.slice(-65536);
const stdout = { head, tail, hidden: { lines: 1, bytes: text.length - head.length - tail.length }, bytes: text.length, foreign: 0, spill };
const stderr = { head: "", tail: "", hidden: { lines: 0, bytes: 0 }, bytes: 0, foreign: 0 };
let pieces = 0;
const hide = (t) => { if (++pieces === 2) process.exit(130); return t.replaceAll(secret, "[redacted]"); };
const result = await commandResult({ stdout, stderr, exitCode: 0, ended: "exit" }, "make", 0,
  { filter: "none", raw: false, outputDir, hide, files, notes: [], shell, env: undefined, cwd: outputDir, signal: new AbortController().signal });
await Bun.sleep(2000); // old code saved after the result: hey leaves while it does
process.exit(0);
`,
  );
  const proc = Bun.spawn([process.execPath, script, outputDir, SECRET, "saving"], { stdout: "ignore", stderr: "pipe" });
  expect(await proc.exited).toBe(130);
  expect(readdirSync(outputDir)).toEqual([]); // old code: <id>.stdout with the key, <id>.log cut at 1 MB
  const running = Bun.spawn([process.execPath, script, outputDir, SECRET, "running"], { stdout: "ignore", stderr: "pipe" });
  expect(await running.exited).toBe(130);
  expect(readdirSync(outputDir)).toEqual([]); // old code: <id>.stdout with the key
});

test("an output saved again is the newest: near the ceiling the next save deletes an older one, not it", async () => {
  const out = join(dir.path, "reuse", "session");
  mkdirSync(out, { recursive: true });
  const bash = createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: out });
  const ctx = { signal: new AbortController().signal, cwd: dir.path };
  // another call's output, still being written (never deleted meanwhile), near the ceiling: sparse
  const writing = removedAtExit(join(out, "j1.log"));
  const big = openSync(writing, "w");
  ftruncateSync(big, OUTPUTS_MAX_BYTES - 60_000);
  closeSync(big);
  const first = savedAt((await bash.run({ command: "seq 1 5000" }, ctx)).output as string)!;
  const older = savedAt((await bash.run({ command: "seq 10 5009" }, ctx)).output as string)!; // older than the reuse below
  const again = savedAt((await bash.run({ command: "seq 1 5000 | cat" }, ctx)).output as string)!;
  expect(again).toBe(first);
  const other = savedAt((await bash.run({ command: "seq 3 5002" }, ctx)).output as string)!;
  await until(() => !existsSync(older), "the oldest output deleted under the ceiling");
  expect(existsSync(again)).toBe(true); // old code: the file the newest-but-one result names was the one deleted
  expect(existsSync(other)).toBe(true);
  keptAtExit(writing);
});
