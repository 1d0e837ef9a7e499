// Ollama's default context (4,096 tokens on most machines) against hey's first request: a piped
// diff with `hey "review this"`. Through dist/hey against test/helpers/ollama-server.ts, which cuts
// as Ollama does: a model already loaded is asked before the first request, and the request is
// never sent past its context; a model not loaded yet shows the cut in its first answer, said at
// once, and the window saved for `hey -c`.
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { startOllama, type OllamaServer } from "../helpers/ollama-server.ts";

/** A ~46 KB diff: alone far more than 4,096 tokens. */
const DIFF = Array.from(
  { length: 500 },
  (_, i) => `@@ -${i},3 +${i},3 @@\n-  const value${i} = compute(${i});\n+  const value${i} = computeFaster(${i}, cache);\n`,
).join("");

let work: ReturnType<typeof tempDir> | undefined;
let ollama: OllamaServer | undefined;
afterEach(() => void [ollama?.stop(), work?.remove(), (ollama = work = undefined)]);

const CUT = /Ollama cut hey's request to the 4,096 tokens it runs qwen3 with \(hey sent \d+ KB\): it dropped the start/;

const env = (server: OllamaServer, dir: string) => ({ OLLAMA_HOST: new URL(server.baseUrl).host, XDG_STATE_HOME: join(dir, "state") });

/** The lines of the one session file the runs wrote. */
function sessionLines(dir: string): Record<string, unknown>[] {
  const root = join(dir, "state", "hey", "sessions");
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".jsonl"));
  expect(files.length).toBe(1);
  return readFileSync(join(files[0]!.parentPath, files[0]!.name), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test("a model not loaded yet cuts the first request: said at once, in a one-shot run too, the window saved, and hey -c starts within it", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 0, count: "full" });
  work = tempDir("hey-ollama-first-");
  const run = await runHey(["review this"], { cwd: work.path, stdin: DIFF, env: env(ollama, work.path), timeoutMs: 60_000 });
  expect(run.code).toBe(0);
  expect(ollama.log[0]!.halved).toBe(true); // the server read only part of it
  expect(run.stderr).toMatch(CUT);
  expect(run.stderr).toContain("OLLAMA_CONTEXT_LENGTH=32768 ollama serve");
  expect(run.stderr.split("\n").filter((l) => l.startsWith("hey: ")).length).toBe(1); // that line, not the small context's too
  const lines = sessionLines(work.path);
  expect(lines.some((l) => l.type === "model" && l.window === 4096)).toBe(true);
  // the cut count teaches no ratio: 4,096 tokens of ~54 KB is not how this text counts
  for (const l of lines.filter((l) => l.type === "usage" && l.tokens_per_char !== undefined)) expect(Number(l.tokens_per_char)).toBeGreaterThanOrEqual(0.2);
  ollama.stop();
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 0, count: "full" }); // restarted: the model not loaded, nothing to ask
  const next = await runHey(["--output", "json", "-c", "-p", "and the tests?"], { cwd: work.path, env: env(ollama, work.path), timeoutMs: 60_000 });
  expect(next.code).toBe(0);
  expect(ollama.log[0]?.body).toContain("and the tests?");
  expect(ollama.log.map((x) => x.halved || x.dropped > 0)).toEqual(ollama.log.map(() => false));
}, 90_000);

test("in JSON the cut is a notice event of the run", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 0 });
  work = tempDir("hey-ollama-first-");
  const run = await runHey(["--output", "json", "review this"], { cwd: work.path, stdin: DIFF, env: env(ollama, work.path), timeoutMs: 60_000 });
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  const at = events.findIndex((e) => e.type === "notice" && CUT.test(String(e.message)));
  expect(at).toBeGreaterThan(0);
  expect(at).toBeLessThan(events.findIndex((e) => e.type === "result"));
}, 90_000);

test("a model already loaded is asked before the first request: the request is never sent past its context", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 0, loaded: true });
  work = tempDir("hey-ollama-first-");
  const run = await runHey(["review this"], { cwd: work.path, stdin: DIFF, env: env(ollama, work.path), timeoutMs: 60_000 });
  expect(ollama.log.filter((x) => x.halved || x.dropped > 0)).toEqual([]);
  expect(ollama.gets[0]).toBe("/api/ps");
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/4,096/);
}, 90_000);

test("a model not loaded whose Modelfile sets num_ctx: hey starts within it, and nothing is sent past it", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 0, modelfileContext: 4096 });
  work = tempDir("hey-ollama-first-");
  const run = await runHey(["review this"], { cwd: work.path, stdin: DIFF, env: env(ollama, work.path), timeoutMs: 60_000 });
  expect(ollama.shows).toBe(1);
  expect(ollama.log).toEqual([]); // a message that alone is more than the context: said, not sent to be cut
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("more than the model's window of ~4,096 tokens");
}, 90_000);

test("an endpoint that is not Ollama by its configuration is asked nothing before the first request", async () => {
  ollama = startOllama({ model: "qwen3", context: 32_768, reads: 0, fingerprint: false });
  work = tempDir("hey-ollama-first-");
  const run = await runHey(["--base-url", ollama.baseUrl, "-m", "qwen3", "-p", "hi"], { cwd: work.path, env: { XDG_STATE_HOME: join(work.path, "state") } });
  expect(run.code).toBe(0);
  expect(ollama.gets).toEqual([]);
  expect(ollama.shows).toBe(0);
}, 90_000);
