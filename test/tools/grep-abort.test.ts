// Esc during a grep of a big repository stops it at once. ripgrep prints 100,000 matching files
// in about a second and hey read that output to its end before the abort counted: a minute at
// max_results 1000, with the REPL frozen. A stand-in for ripgrep here prints a big tree's matches
// a burst at a time and notes when it has printed them all; it ignores SIGTERM, as output already
// on its way does, so only a search that stops reading at the abort returns before that note.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGrepTool } from "../../src/tools/grep.ts";
import { callTool } from "../helpers/call-tool.ts";
import { until } from "../helpers/wait.ts";

let dir: string;
let fakeRg: string;
const marks = { pid: "", started: "", finished: "" };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hey-grep-abort-"));
  for (const name of Object.keys(marks) as (keyof typeof marks)[]) marks[name] = join(dir, name);
  const script = join(dir, "fake-rg.ts");
  // 100 bursts of 1,000 matching files each; a short pause between bursts stands for the walk
  writeFileSync(
    script,
    `import { writeFileSync } from "node:fs";
if (process.argv.includes("--pcre2-version")) process.exit(0);
process.on("SIGTERM", () => {});
writeFileSync(${JSON.stringify(marks.pid)}, String(process.pid));
writeFileSync(${JSON.stringify(marks.started)}, "");
for (let burst = 0; burst < 100; burst++) {
  let text = "";
  for (let i = 0; i < 1000; i++) text += \`packages/pkg\${burst}/file\${i}.ts\\0\${1}:// TODO fixme\\n\`;
  await Bun.write(Bun.stdout, text);
  await Bun.sleep(5);
}
writeFileSync(${JSON.stringify(marks.finished)}, "");
`,
  );
  fakeRg = join(dir, "rg");
  writeFileSync(fakeRg, `#!/bin/sh\nexec '${process.execPath}' '${script}' "$@"\n`);
  chmodSync(fakeRg, 0o755);
});

/** Ends the stand-in (it ignores SIGTERM) and forgets its notes. */
async function endFake() {
  if (!existsSync(marks.pid)) return;
  const pid = Number(readFileSync(marks.pid, "utf8"));
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(pid, "SIGKILL");
  await until(() => !alive(), "the stand-in for ripgrep to end");
  for (const path of Object.values(marks)) rmSync(path, { force: true });
}
afterEach(endFake);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("an abort while ripgrep prints 100,000 matching files ends the search before ripgrep's output does", async () => {
  const stop = new AbortController();
  const result = callTool(createGrepTool({ rg: fakeRg }), { pattern: "TODO", max_results: 1000 }, { cwd: dir, signal: stop.signal });
  await until(() => existsSync(marks.started), "the search to start");
  stop.abort();
  expect(await result).toEqual({ output: "grep interrupted", isError: true });
  expect(existsSync(marks.finished)).toBe(false);
});

test("an abort while the search is still starting never leaves ripgrep to run to its end", async () => {
  const stop = new AbortController();
  const tool = createGrepTool({ rg: fakeRg });
  // aborted at once, while the tool waits on its first look at the disk, before ripgrep starts
  const result = tool.run({ pattern: "TODO", max_results: 10 }, { cwd: dir, signal: stop.signal });
  stop.abort();
  expect(await result).toEqual({ output: "grep interrupted", isError: true });
  expect(existsSync(marks.finished)).toBe(false);
});
