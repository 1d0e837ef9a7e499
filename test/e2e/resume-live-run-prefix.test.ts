// Through dist/hey: a session written by one live run (no resume in between) whose file is over 1 MB, then `hey -c`. The
// resume loaded 500 messages from the 1 MB boundary before them, where the run's requests held every message from the
// first: the first resumed request shared nothing with the last one after the system prompt, so the provider's cache
// served none of it, once. Now it loads from where the run's history began, and every hey -c after it goes on too.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { textOf, type ChatMessage, type ChatRequest, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(240_000); // the first test may build dist/hey

const BIG = 12; // reads of 25 KB files: 300 KB a round of 12
const SMALL = 50; // rounds of 10 reads of small files
let prompt = 0;
let step = 0;
/** The first prompt: rounds of parallel reads, big files first (the file's first MB), then ~550 small messages; later prompts: an answer. */
function decide(req: ChatRequest): Turn {
  if (req.messages.at(-1)?.role === "user") [prompt, step] = [prompt + 1, 0];
  const round = step++;
  if (prompt > 1 || round >= 5 + SMALL) return { text: `Done with task ${prompt}.` };
  if (round < 5) return { calls: Array.from({ length: BIG }, (_, k) => ["read_file", { path: `big${(round * BIG + k) % 40}.txt` }] as [string, unknown]) };
  return { calls: Array.from({ length: 10 }, (_, k) => ["read_file", { path: `small${(round - 5) * 10 + k}.txt` }] as [string, unknown]) };
}
const model = fileModelServer(decide, { promptTokens: (body) => Math.ceil(body.length / 4) });
const project = eachTempDir();
const state = eachTempDir();

const wire = (m: ChatMessage) => JSON.stringify(m);
/** Where request `now` first differs from request `before` but its last message (whose tail carries the context line): -1 when it extends it. */
function rewriteAt(before: ChatRequest, now: ChatRequest): number {
  const kept = before.messages.slice(0, -1).map(wire);
  return kept.findIndex((m, k) => now.messages[k] === undefined || wire(now.messages[k]!) !== m);
}

async function run(args: string[]): Promise<void> {
  const env = { XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") };
  const r = await runHey([...args, "--max-turns", "100"], { cwd: project.path, env, timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(r.stderr.slice(-800));
}

test("the first hey -c after one live run of a session over 1 MB sends the run's last request again, then its own prompt", async () => {
  prompt = 0;
  for (let k = 0; k < 40; k++)
    writeFileSync(
      join(project.path, `big${k}.txt`),
      `${Array.from({ length: 250 }, (_, i) => `row ${i} of big file ${k} ${"abcdefghij".repeat(9)}`).join("\n")}\n`,
    );
  for (let k = 0; k < SMALL * 10; k++) writeFileSync(join(project.path, `small${k}.txt`), `small file ${k}\n`);
  mkdirSync(join(state.path, "config", "hey"), { recursive: true });
  // a budget that holds the whole run: its requests send every message from the first
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nprotocol = "openai"\napi_key = "k"\nmodels = ["m"]\ncontext_window = 2000000\n`;
  writeFileSync(join(state.path, "config", "hey", "config.toml"), `[default]\nmodel = "mock/m"\n[agent]\nbudget_tokens = 1000000\n${provider}`);

  await run(["-p", "task 1: read the files"]);
  const sessions = join(state.path, "hey", "sessions");
  const file = join(sessions, readdirSync(sessions).find((f) => f.endsWith(".jsonl"))!);
  expect(statSync(file).size).toBeGreaterThan(1024 * 1024);
  await run(["-c", "-p", "task 2: go on"]);
  await run(["-c", "-p", "task 3: go on"]);

  const firstOf = (n: number) => model.requests.findIndex((r) => textOf(r.messages.at(-1)).startsWith(`task ${n}:`));
  const live = model.requests[firstOf(2) - 1]!;
  expect(live.messages.length).toBeGreaterThan(600); // every message of the run, from the first
  // before: the resume started at the 1 MB boundary, a few hundred messages in: it differed at the first answer (0.1 % cached)
  expect(rewriteAt(live, model.requests[firstOf(2)]!)).toBe(-1);
  expect(rewriteAt(model.requests[firstOf(3) - 1]!, model.requests[firstOf(3)]!)).toBe(-1); // and the next hey -c as before
});
