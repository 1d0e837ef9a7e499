// A file whose name is not UTF-8 cannot be given back to ripgrep by name: grep reads its lines
// itself (grep-ripgrep.ts). That read stops on Esc, never waits on a FIFO put at that path, and
// counts the file by the matches it read, so the count and the lines shown agree.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readLines } from "../../src/tools/file-lines.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { callTool } from "../helpers/call-tool.ts";
import { findRg, NO_RG } from "../helpers/find-rg.ts";

let root: string;
let rg: string | undefined;
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "hey-grep-odd-reads-")));
  rg = await findRg();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `café.txt` spelled in Latin-1: a name that is not UTF-8. */
const oddName = (dir: string) => Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9]), Buffer.from(".txt")]);

/** A ripgrep that runs `after` (shell, with $f the odd name in $d) once its `--count` run is done. */
function wrapper(dir: string, after: string): string {
  if (!rg) throw new Error(NO_RG);
  const path = join(root, `rg-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(
    path,
    `#!/bin/sh\nd='${dir}'; f=$(printf 'caf\\351.txt')\ncase " $* " in\n*" --count "*) '${rg}' "$@"; code=$?; ${after}; exit $code ;;\nesac\nexec '${rg}' "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

test("a read of a file's lines stops once the search is interrupted (Esc)", async () => {
  writeFileSync(join(root, "log.txt"), "needle\n".repeat(100_000));
  const stop = new AbortController();
  stop.abort();
  let lines = 0;
  await readLines(join(root, "log.txt"), () => lines++, stop.signal);
  expect(lines).toBe(0);
});

test("a file with an odd name swapped for a FIFO after the count: grep answers, not waiting for a writer", async () => {
  const dir = join(root, "fifo");
  mkdirSync(dir);
  writeFileSync(oddName(dir), "needle\n");
  writeFileSync(join(dir, "plain.txt"), "needle\n");
  const tool = createGrepTool({ rg: wrapper(dir, `rm -f "$d/$f" && mkfifo "$d/$f"`) });
  const out = (await callTool(tool, { pattern: "needle" }, { cwd: dir, signal: new AbortController().signal })).output;
  expect(out).toContain("plain.txt:1: needle");
});

test("a file with an odd name is counted by the matches read from it, as its lines are shown", async () => {
  const dir = join(root, "count");
  mkdirSync(dir);
  writeFileSync(oddName(dir), "needle 1\n");
  // after the count (1 match) the file grows to 3 in place
  const tool = createGrepTool({ rg: wrapper(dir, `printf 'needle 2\\nneedle 3\\n' >> "$d/$f"`) });
  const out = (await callTool(tool, { pattern: "needle" }, { cwd: dir, signal: new AbortController().signal })).output;
  expect(out.split("\n").filter((l) => /:\d+: needle \d$/.test(l))).toHaveLength(3);
  expect(out).not.toContain("more matches not shown");
});
