// x163 #3, through dist/hey: the first summary after `hey -c` reads the provider's prompt cache as a
// live run's does. A run ends with its context near the budget; the next `hey -c` prompt tips it over,
// so that run's first request needs a summary before anything of the run was answered. The summary is
// asked after the last request the previous run sent (summary-cached.ts), not as a transcript under a
// system prompt of its own, and the cache emulator (scripts/cache-emulator.ts) counts its prefix read.
import { beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openaiCache, openaiPrompt } from "../../scripts/cache-emulator.ts";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf, textOf, type ChatRequest, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(180_000); // the first test may build dist/hey

const SUMMARY_ASK = "[hey: older work is being summarized";
const transcriptAsk = (req: ChatRequest) => systemOf(req).startsWith("You compress");
const cachedAsk = (req: ChatRequest) => textOf(req.messages.at(-1)).includes(SUMMARY_ASK);
let prompt = 0;
let step = 0;
function decide(req: ChatRequest): Turn {
  if (transcriptAsk(req) || cachedAsk(req)) return { text: "SUMMARY: the user asked for file reads; all were read." };
  if (req.messages.at(-1)?.role === "user") [prompt, step] = [prompt + 1, 0];
  // the first prompt reads ten files, one a step; its answer is long; the second prompt reads nothing
  if (prompt === 1 && step < 10) return { calls: [["read_file", { path: `part${++step}.txt` }]] };
  return { text: prompt === 1 ? `All ten parts read. ${"Notes on the parts. ".repeat(150)}` : "Done." };
}
const model = fileModelServer(decide, { promptTokens: (body) => Math.ceil(body.length / 4) });
const project = eachTempDir();
const state = eachTempDir();
beforeEach(() => {
  model.requests.length = 0;
  prompt = 0;
  for (let k = 1; k <= 10; k++)
    writeFileSync(
      join(project.path, `part${k}.txt`),
      `${Array.from({ length: 40 }, (_, i) => `part ${k} line ${i + 1}: ${"some words of text ".repeat(3)}`).join("\n")}\n`,
    );
  mkdirSync(join(state.path, "config", "hey"), { recursive: true });
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nprotocol = "openai"\napi_key = "k"\nmodels = ["m"]\n`;
  writeFileSync(join(state.path, "config", "hey", "config.toml"), `[default]\nmodel = "mock/m"\n[agent]\nbudget_tokens = 10000\n${provider}`);
});

async function hey(args: string[]): Promise<void> {
  const run = await runHey(args, {
    cwd: project.path,
    env: { XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") },
    timeoutMs: 60_000,
  });
  if (run.code !== 0) throw new Error(run.stderr.slice(-800));
}

test("the first summary after hey -c repeats the previous run's last request and reads its cached prefix", async () => {
  await hey(["-p", "read part1.txt to part10.txt"]);
  const last = model.requests.length - 1; // the first run's last request: the prefix the provider cached
  await hey(["-c", "-p", `now the next task: ${"background for it. ".repeat(200)}`]);
  const summary = model.requests[last + 1]!;
  // before: a transcript under a system prompt of its own ("You compress…"), nothing of it cached
  expect(transcriptAsk(summary)).toBe(false);
  expect(cachedAsk(summary)).toBe(true);
  expect(summary.messages.slice(0, -1)).toEqual(model.requests[last]!.messages.slice(0, -1));
  const counts = openaiCache(model.requests.map((r) => openaiPrompt(r as never)));
  const { read, sent } = counts[last + 1]!;
  console.log(`summary request: ${sent} tokens sent, ${read} read from the cache`);
  expect(read).toBeGreaterThan(0.9 * counts[last]!.sent); // before: 0 of ~4.5k
  // the run goes on from the summary
  expect(model.requests.slice(last + 2).some((r) => r.messages.some((m) => textOf(m).includes("SUMMARY: the user asked")))).toBe(true);
});

test("hey -c -p /compact asks its summary after the previous run's last request, from the cache", async () => {
  await hey(["-p", "read part1.txt to part10.txt"]);
  const last = model.requests.length - 1;
  await hey(["-c", "-p", "/compact"]);
  expect(model.requests.length).toBe(last + 2); // the summary, and nothing else
  const summary = model.requests[last + 1]!;
  // before (x6 #3): a transcript under a system prompt of its own, 0 % of it cached
  expect(transcriptAsk(summary)).toBe(false);
  expect(cachedAsk(summary)).toBe(true);
  expect(summary.messages.slice(0, -1)).toEqual(model.requests[last]!.messages.slice(0, -1));
  const counts = openaiCache(model.requests.map((r) => openaiPrompt(r as never)));
  console.log(`/compact after hey -c: ${counts[last + 1]!.sent} tokens sent, ${counts[last + 1]!.read} read from the cache`);
  expect(counts[last + 1]!.read).toBeGreaterThan(0.9 * counts[last]!.sent);
});
