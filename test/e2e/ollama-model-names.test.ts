// Ollama lists each model with its tag (qwen3:latest), and takes a name without one as its
// :latest (`ollama run llama3.2`): hey doctor and /model take the name as Ollama does. Through
// dist/hey against test/helpers/ollama-server.ts, the zero-config default at OLLAMA_HOST.
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startOllama, type OllamaServer } from "../helpers/ollama-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

let work: ReturnType<typeof tempDir> | undefined;
let ollama: OllamaServer | undefined;
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  void [ollama?.stop(), work?.remove(), (ollama = work = term = undefined)];
});

const env = (server: OllamaServer, dir: string) => ({ OLLAMA_HOST: new URL(server.baseUrl).host, XDG_STATE_HOME: join(dir, "state") });
test("Ollama lists its models with their tag: hey doctor on the zero-config default finds qwen3, and /model ollama/llama3.2 is taken", async () => {
  ollama = startOllama({ model: "qwen3", context: 32_768, reads: 0, models: ["qwen3:latest", "llama3.2:latest"] });
  work = tempDir("hey-ollama-first-");
  const doctor = await runHey(["doctor"], { cwd: work.path, env: env(ollama, work.path), timeoutMs: 60_000 });
  expect(doctor.stdout).toMatch(/✓ model listed +qwen3 is in the endpoint's list \(as qwen3:latest\)/);
  term = await startTerm({ args: [], cwd: work.path, cols: 120, env: env(ollama, work.path) });
  await term.waitFor((s) => s.trimEnd().split("\n").at(-1)?.trimEnd() === "›");
  await term.type("/model ollama/llama3.2");
  await term.keys("Enter");
  await term.waitFor((s) => /^(model: |.*has no model)/m.test(s));
  const screen = await term.screen({ scrollback: true, joined: true });
  expect(screen).not.toContain("has no model");
  expect(screen).toMatch(/^model: ollama\/llama3\.2$/m);
}, 90_000);
