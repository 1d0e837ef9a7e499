// The first `hey -c` after one live run of a big session (and the next one): dist/hey reads ROUNDS files, one a request,
// against a loopback model server, then is resumed RESUMES times; per resume it prints the first request's size, where
// it first differs from the request before it, and the share of its tokens an OpenAI-style cache serves
// (cache-emulator.ts), with each run's wall time. A budget that holds the whole run makes every request send all of it.
// `npx bun scripts/bench-live-resume.ts [ROUNDS=500] [LINES=100] [BUDGET=2000000] [RESUMES=2]`; HEY_BIN runs another binary.
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../test/helpers/e2e.ts";
import { startModelServer, textOf, type ChatRequest } from "../test/helpers/model-server.ts";
import { openaiCache, openaiPrompt } from "./cache-emulator.ts";

const [ROUNDS, LINES, BUDGET, RESUMES] = [500, 100, 2_000_000, 2].map((d, i) => Number(process.argv[2 + i] ?? d)) as [number, number, number, number];
const summary = (req: ChatRequest) =>
  textOf(req.messages[0]).startsWith("You compress") || textOf(req.messages.at(-1)).includes("[hey: older work is being summarized");

/** dist/hey, or HEY_BIN, in a clean environment: HOME of its own, PATH, `env`. */
async function hey(args: string[], cwd: string, env: Record<string, string>) {
  if (!process.env.HEY_BIN) return runHey(args, { cwd, env, timeoutMs: 900_000 });
  const home = tempDir("hey-bench-home-");
  try {
    const p = Bun.spawn([process.env.HEY_BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1", ...env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([p.stdout.text(), p.stderr.text(), p.exited]);
    return { code, stdout, stderr };
  } finally {
    home.remove();
  }
}

let [prompt, step] = [0, 0];
const server = startModelServer(
  (req) => {
    if (summary(req)) return { text: "SUMMARY: files were read." };
    if (req.messages.at(-1)?.role === "user") [prompt, step] = [prompt + 1, 0];
    if (step < (prompt === 1 ? ROUNDS : 3)) return { calls: [["read_file", { path: `f${(prompt * 1000 + ++step) % ROUNDS}.txt` }]] };
    return { text: `Done with task ${prompt}.` };
  },
  { promptTokens: (body) => Math.ceil(body.length / 4) },
);
const dir = tempDir("hey-bench-live-resume-");
try {
  const project = join(dir.path, "project");
  const state = join(dir.path, "state");
  mkdirSync(project);
  mkdirSync(join(state, "config", "hey"), { recursive: true });
  for (let i = 0; i < ROUNDS; i++)
    writeFileSync(join(project, `f${i}.txt`), `${Array.from({ length: LINES }, (_, k) => `file ${i} line ${k} ${"xyz".repeat(25)}`).join("\n")}\n`);
  const provider = `[provider.mock]\nbase_url = "${server.baseUrl}"\nprotocol = "openai"\napi_key = "k"\nmodels = ["m"]\ncontext_window = ${2 * BUDGET}\n`;
  writeFileSync(join(state, "config", "hey", "config.toml"), `[default]\nmodel = "mock/m"\n[agent]\nbudget_tokens = ${BUDGET}\n${provider}`);
  const env = { XDG_STATE_HOME: state, XDG_CONFIG_HOME: join(state, "config"), XDG_CACHE_HOME: join(state, "cache") };
  const sessions = join(state, "hey", "sessions");
  for (let r = 0; r <= RESUMES; r++) {
    const t = performance.now();
    const run = await hey([...(r > 0 ? ["-c"] : []), "--max-turns", String(ROUNDS + 10), "-p", `task ${r + 1}: read files`], project, env);
    if (run.code !== 0) throw new Error(run.stderr.slice(-800));
    const file = join(sessions, readdirSync(sessions).find((f) => f.endsWith(".jsonl"))!);
    console.log(`run ${r}: ${(performance.now() - t).toFixed(0)} ms, session ${(statSync(file).size / 1e6).toFixed(2)} MB`);
  }
  const chats = server.requests.filter((r) => !summary(r));
  for (let r = 1; r <= RESUMES; r++) {
    const i = chats.findIndex((c) => c.messages.some((m) => textOf(m).startsWith(`task ${r + 1}:`)));
    const [before, first] = [chats[i - 1]!, chats[i]!];
    const at = before.messages.findIndex((m, k) => JSON.stringify(m) !== JSON.stringify(first.messages[k]));
    const c = openaiCache([openaiPrompt(before as never), openaiPrompt(first as never)])[1]!;
    const where = at < 0 || at === before.messages.length - 1 ? "extends it" : `differs at message ${at}`;
    console.log(
      `resume ${r}: first request ${first.messages.length} messages (the one before: ${before.messages.length}), ${where}; cached ${((c.read / c.sent) * 100).toFixed(1)} %`,
    );
  }
} finally {
  server.stop();
  dir.remove();
}
