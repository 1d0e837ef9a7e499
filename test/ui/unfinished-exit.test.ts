// A process that ends with work still pending never passes for a success: Bun on Windows can let
// its event loop die mid-run (oven-sh/bun#39787), and `hey -p` then exited 0 with no answer. The
// guard main.ts installs turns such an exit into exit 1 with a line on stderr (and, for a JSON
// reader, its events on stdout); an exit hey chose is left alone. Shown here in a real Bun process
// whose last pending promise can never settle, which ends the same way the Windows bug does.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";

const dir = tempDir("hey-unfinished-");
afterAll(() => dir.remove());
const SIGNALS = join(import.meta.dir, "..", "..", "src", "ui", "signals.ts");

/** Runs `body` after the guard is installed; `json`: the guard also has lines for stdout. */
async function runScript(body: string, json = false) {
  const file = join(dir.path, `s${Math.random().toString(36).slice(2)}.ts`);
  const stdout = json ? ", (why) => JSON.stringify({ type: 'error', message: why }) + '\\n'" : "";
  writeFileSync(
    file,
    `import { guardUnfinishedExit } from ${JSON.stringify(SIGNALS)};\nconst ending = guardUnfinishedExit("the run was cut short"${stdout});\n${body}\n`,
  );
  const proc = Bun.spawn([process.execPath, file], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
  const [out, err, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  return { stdout: out, stderr: err, code };
}

const CUT_SHORT = 'async function run() {\n  console.log("started");\n  await new Promise(() => {});\n  console.log("answer");\n}\nvoid run();';

test("a process that ends while it still awaits something exits 1, saying so, not 0", async () => {
  expect(await runScript(CUT_SHORT)).toEqual({ stdout: "started\n", stderr: "hey: the run was cut short\n", code: 1 });
});

test("with lines for stdout (--output json), the reader gets them too", async () => {
  const r = await runScript(CUT_SHORT, true);
  expect(r.stdout).toBe('started\n{"type":"error","message":"the run was cut short"}\n');
  expect(r.code).toBe(1);
});

test("an exit hey chose keeps its code and says nothing more", async () => {
  const ok = await runScript('console.log("answer");\nending();\nprocess.exit(0);', true);
  expect(ok).toEqual({ stdout: "answer\n", stderr: "", code: 0 });
  const failed = await runScript("process.exit(3);");
  expect(failed).toEqual({ stdout: "", stderr: "", code: 3 });
});
