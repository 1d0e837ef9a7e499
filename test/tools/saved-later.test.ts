// The saved copy of a long output has its secrets hidden after the result is back (x119: hiding
// them in 45 MB held every such call ~1.2 s): the model's result does not wait for it, and a tool
// call that names the file (or hey's exit) waits until it is whole.
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "../../src/kernel/tool.ts";
import type { Captured } from "../../src/tools/capture.ts";
import { commandResult, outputFiles } from "../../src/tools/command-result.ts";
import { afterSaves, savesDone } from "../../src/tools/saves-pending.ts";
import { shell } from "../helpers/bash-tool.ts";
import { tempDir } from "../helpers/e2e.ts";

const dir = tempDir("hey-saved-later-");
afterAll(() => dir.remove());
const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

/** A stdout of ~3 MB spilled to a file, its secret on its last line, as capture.ts leaves it. */
function spilledRun(name: string) {
  const text = `${name}\n${Array.from({ length: 400_000 }, (_, i) => `line ${i}`).join("\n")}\nTOKEN=${SECRET}\n`;
  const spill = join(dir.path, `${name}.spill`);
  writeFileSync(spill, text);
  const head = text.slice(0, 65_536);
  const tail = text.slice(-65_536);
  const stdout: Captured = { head, tail, hidden: { lines: 1, bytes: text.length - head.length - tail.length }, bytes: text.length, foreign: 0, spill };
  const stderr: Captured = { head: "", tail: "", hidden: { lines: 0, bytes: 0 }, bytes: 0, foreign: 0 };
  return { stdout, stderr, exitCode: 0, ended: "exit" as const };
}

test("the result comes back before the saved copy's secrets are hidden; a tool call naming the file reads it whole, hidden", async () => {
  let pieces = 0;
  const hide = (text: string) => (pieces++, text.replaceAll(SECRET, "[redacted]"));
  const outputDir = join(dir.path, "out");
  const opts = {
    filter: "none",
    raw: false,
    outputDir,
    hide,
    files: outputFiles(outputDir),
    notes: [],
    shell,
    env: undefined,
    cwd: dir.path,
    signal: new AbortController().signal,
  };
  const result = await commandResult(spilledRun("a"), "make", 0, opts);
  const path = result.match(/\[full output: (\S+)\]/)![1]!;
  expect(pieces).toBe(0); // old code: every 1 MB piece hidden before the result
  const ctx = { signal: new AbortController().signal, cwd: dir.path };
  const other: Tool = { name: "edit", description: "", parameters: {}, run: async () => ({ output: "edited" }) };
  expect((await afterSaves(other).run({ path: "src/app.ts" }, ctx)).output).toBe("edited");
  expect(pieces).toBe(0); // a call that names no full output does not wait
  const read: Tool = { name: "read", description: "", parameters: {}, run: async (args) => ({ output: readFileSync(String(args.path), "utf8") }) };
  const saved = (await afterSaves(read).run({ path }, ctx)).output as string;
  expect(pieces).toBeGreaterThan(1);
  expect(saved).toEndWith("line 399999\nTOKEN=[redacted]\n\n[exit code 0]\n");
  expect(saved).not.toContain(SECRET);
  expect(saved.startsWith("a\nline 0\nline 1\n")).toBe(true);
});

test("savesDone waits for every copy still being written", async () => {
  const hide = (text: string) => text.replaceAll(SECRET, "[redacted]");
  const outputDir = join(dir.path, "out2");
  const results = await Promise.all(
    ["b", "c"].map((name) =>
      commandResult(spilledRun(name), "make", 0, {
        filter: "none",
        raw: false,
        outputDir,
        hide,
        files: outputFiles(outputDir),
        notes: [],
        shell,
        env: undefined,
        cwd: dir.path,
        signal: new AbortController().signal,
      }),
    ),
  );
  await savesDone();
  for (const r of results) expect(readFileSync(r.match(/\[full output: (\S+)\]/)![1]!, "utf8")).toEndWith("TOKEN=[redacted]\n\n[exit code 0]\n");
});
