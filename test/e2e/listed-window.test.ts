// A server that names itself in none of its answers (vLLM, a hosted endpoint) often states the
// model's context window in its GET /v1/models (src/model-list.ts WINDOW_FIELDS). Through
// dist/hey against a loopback vLLM that runs the model with a 4,096-token context and refuses a
// longer prompt with its 400 (test/helpers/ollama-server.ts): after the first answer hey asks the
// list once, and builds the later requests within what it states, so none is refused; a configured
// context_window wins (the list is not asked); a context-length error still lowers a window the
// list overstates. A --base-url run is told how to give the window in a table of its own.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { startOllama, type OllamaServer } from "../helpers/ollama-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

/** A ~3 KB source file: six of them and hey's first request are far more than 4,096 tokens. */
const source = (n: number) => Array.from({ length: 60 }, (_, i) => `export const f${n}_${i} = "${"abcdefghij".repeat(3)}";`).join("\n") + "\n";

let work: ReturnType<typeof tempDir> | undefined;
let vllm: OllamaServer | undefined;
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
  vllm?.stop();
  work?.remove();
  vllm = work = undefined;
});

async function session(server: OllamaServer, config = "") {
  work = tempDir("hey-vllm-");
  mkdirSync(join(work.path, "src"));
  for (let n = 1; n <= 8; n++) writeFileSync(join(work.path, "src", `file${n}.ts`), source(n));
  writeFileSync(join(work.path, "hey.toml"), `[provider.vllm]\nbase_url = "${server.baseUrl}"\nmodels = ["qwen3"]\n${config}`);
  const args = ["-m", "vllm/qwen3", "--config", join(work.path, "hey.toml"), "--output", "json", "-p", "read the files in src/ one by one"];
  return runHey(args, { cwd: work.path, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(work.path, "state") } });
}

const listGets = (server: OllamaServer) => server.gets.filter((g) => g === "/v1/models").length;
const windowEvents = (stdout: string) => jsonEvents(stdout).filter((e) => e.type === "compaction" && e.kind === "window");

test("the window the model list states: asked once after the first answer, no request refused, the user told once it is small", async () => {
  vllm = startOllama({ model: "qwen3", context: 4096, reads: 6, as: "vllm" });
  const run = await session(vllm);
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 6 files." });
  expect(vllm.log.reduce((n, x) => n + x.tokens, 0)).toBeGreaterThan(3 * 4096); // the session grows well past the window
  expect(vllm.log.filter((x) => x.refused)).toEqual([]);
  expect(windowEvents(run.stdout)).toEqual([]);
  expect(listGets(vllm)).toBe(1);
  expect(run.stderr).toBe(
    "hey: the model list of [provider.vllm] says qwen3 takes 4,096 tokens, too small for an agent; hey keeps each request within it. Raise it where the server allows (vLLM: --max-model-len), or, if the model takes more, set context_window in [provider.vllm]\n",
  );
}, 90_000);

test("a window the list states that is room enough: nothing said, the run as before", async () => {
  vllm = startOllama({ model: "qwen3", context: 32_768, reads: 3, as: "vllm" });
  const run = await session(vllm);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  expect(listGets(vllm)).toBe(1);
  expect(vllm.log.filter((x) => x.refused)).toEqual([]);
}, 90_000);

test("a configured context_window wins: the list is not asked", async () => {
  vllm = startOllama({ model: "qwen3", context: 4096, reads: 3, as: "vllm" });
  const run = await session(vllm, "context_window = 3000\n");
  expect(run.code).toBe(0);
  expect(listGets(vllm)).toBe(0);
  expect(vllm.log.filter((x) => x.refused)).toEqual([]);
}, 90_000);

test("a list that overstates the window: the context-length error lowers it, once, and the run goes on", async () => {
  vllm = startOllama({ model: "qwen3", context: 4096, reads: 6, as: "vllm", listed: 32_768 });
  const run = await session(vllm);
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 6 files." });
  expect(vllm.log.filter((x) => x.refused).length).toBe(1);
  expect(windowEvents(run.stdout)).toMatchObject([{ window: 4096 }]);
}, 90_000);

test("hey -c after the list overstated the window: the window the error taught holds, no request is refused again", async () => {
  vllm = startOllama({ model: "qwen3", context: 4096, reads: 6, as: "vllm", listed: 32_768 });
  const first = await session(vllm);
  expect(windowEvents(first.stdout)).toMatchObject([{ window: 4096 }]);
  vllm.stop();
  // the same server started again (its port is another): the session's model entry keeps what the error taught
  vllm = startOllama({ model: "qwen3", context: 4096, reads: 3, as: "vllm", listed: 32_768 });
  const dir = work!.path;
  const config = join(dir, "again.toml"); // a new file: hey.toml's base_url changed would wait for the user's approval
  writeFileSync(config, `[provider.vllm]\nbase_url = "${vllm.baseUrl}"\nmodels = ["qwen3"]\n`);
  const args = ["-c", "-m", "vllm/qwen3", "--config", config, "--output", "json", "-p", "read them again"];
  const again = await runHey(args, { cwd: dir, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(dir, "state") } });
  expect(again.stderr).toBe("");
  expect(again.code).toBe(0);
  expect(listGets(vllm)).toBe(1); // the list was asked, and said 32,768 again
  expect(vllm.log.filter((x) => x.refused)).toEqual([]);
  expect(windowEvents(again.stdout)).toEqual([]);
}, 120_000);

test("a --base-url run is told how to give the window in a way that works: its own [provider.NAME] table, then -m NAME/model", async () => {
  vllm = startOllama({ model: "qwen3", context: 8192, reads: 2, as: "vllm" });
  work = tempDir("hey-vllm-");
  mkdirSync(join(work.path, "src"));
  for (let n = 1; n <= 2; n++) writeFileSync(join(work.path, "src", `file${n}.ts`), source(n));
  const env = { XDG_STATE_HOME: join(work.path, "state"), XDG_CONFIG_HOME: join(work.path, "config") };
  const run = await runHey(["--base-url", vllm.baseUrl, "-m", "qwen3", "-p", "read the files in src/ one by one"], { cwd: work.path, env });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("the model list of the --base-url endpoint says qwen3 takes 8,192 tokens");
  expect(run.stderr).toContain(
    "give the endpoint a table in your own config file (~/.config/hey/config.toml): [provider.NAME] with this base_url and context_window = TOKENS, then start hey -m NAME/qwen3 at a terminal once to approve it",
  );
  expect(run.stderr).not.toContain("[provider.cli]");
  // followed as said: the table, approved at a terminal; then the window is told, and no notice comes
  mkdirSync(join(work.path, "config", "hey"), { recursive: true });
  writeFileSync(join(work.path, "config", "hey", "config.toml"), `[provider.box]\nbase_url = "${vllm.baseUrl}"\ncontext_window = 8192\n`);
  term = await startTerm({ args: ["-m", "box/qwen3"], cwd: work.path, cols: 160, env });
  await term.waitFor("Use this change? (y/N)");
  await term.keys("y");
  await term.keys("Enter");
  await term.waitFor((s) => s.trimEnd().split("\n").at(-1)?.trimEnd() === "›");
  const told = await runHey(["-m", "box/qwen3", "-p", "read the files in src/ one by one"], { cwd: work.path, env });
  expect(told.stderr).toBe("");
  expect(told.code).toBe(0);
}, 90_000);
