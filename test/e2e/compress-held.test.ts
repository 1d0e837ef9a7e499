// x6 #2, through dist/hey: a `compress` call by the model waits for the prompt cache like dedup. The
// model reads twelve 7 KB files, compresses the first four, and reads on. Before, the request after the
// compress repeated 4.9 % of the one before (everything after the range re-billed uncached: the run cost
// 22 % more than without the compress); now every request extends the one before, the compress is
// pending until the cache is rebuilt, `/usage` says so, and `hey -c` goes on from the same prefix.
import { beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { billed, openaiCache, openaiPrompt, total } from "../../scripts/cache-emulator.ts";
import { runHey } from "../helpers/e2e.ts";
import { startTerm } from "../helpers/tmux.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { textOf, type ChatMessage, type ChatRequest, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(180_000); // the first test may build dist/hey

let prompt = 0;
let step = 0;
/** the handles of the results `req` shows, oldest first */
const handles = (req: ChatRequest) => req.messages.filter((m) => m.role === "tool").map((m) => /\[#([0-9a-z-]+)\]$/.exec(textOf(m))?.[1]);
function decide(req: ChatRequest): Turn {
  if (req.messages.at(-1)?.role === "user") [prompt, step] = [prompt + 1, 0];
  if (prompt > 1) return { text: "Nothing else to read." };
  step++;
  if (step <= 12) return { calls: [["read_file", { path: `lib/f${step}.ts` }]] };
  if (step === 13) {
    const [first, , , fourth] = handles(req);
    return { calls: [["compress", { start_id: first, end_id: fourth, summary: "f1-f4 export constants v1_1..v4_100; nothing to change" }]] };
  }
  if (step <= 17) return { calls: [["read_file", { path: `lib/f${step - 1}.ts` }]] };
  return { text: "All read." };
}
const model = fileModelServer(decide, { promptTokens: (body) => Math.ceil(body.length / 4) });
const project = eachTempDir();
const state = eachTempDir();
beforeEach(() => {
  model.requests.length = 0;
  prompt = 0;
  mkdirSync(join(project.path, "lib"));
  for (let i = 1; i <= 16; i++) {
    const lines = Array.from({ length: 100 }, (_, j) => `export const v${i}_${j + 1} = "value ${i} ${j + 1} lorem ipsum dolor sit amet";`);
    writeFileSync(join(project.path, "lib", `f${i}.ts`), `${lines.join("\n")}\n`);
  }
  mkdirSync(join(state.path, "config", "hey"), { recursive: true });
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nprotocol = "openai"\napi_key = "k"\nmodels = ["m"]\n`;
  writeFileSync(join(state.path, "config", "hey", "config.toml"), `[default]\nmodel = "mock/m"\n[agent]\nbudget_tokens = 200000\n${provider}`);
});

const dirs = () => ({ XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") });
async function hey(args: string[]): Promise<string> {
  const run = await runHey(args, { cwd: project.path, env: dirs(), timeoutMs: 60_000 });
  if (run.code !== 0) throw new Error(run.stderr.slice(-800));
  return run.stdout;
}

const wire = (m: ChatMessage) => JSON.stringify(m);
/** Whether request `now` repeats every message of `before` but its last (whose tail carries the context line). */
const extends_ = (before: ChatRequest, now: ChatRequest) => before.messages.slice(0, -1).every((m, k) => now.messages[k] && wire(now.messages[k]!) === wire(m));

test("the request after a compress extends the one before it; /usage says the range is pending; hey -c goes on from the same prefix", async () => {
  await hey(["--max-turns", "50", "-p", "read every file in lib"]);
  const run = model.requests.slice();
  expect(run).toHaveLength(18);
  const answer = run[13]!.messages.at(-1)!;
  expect(textOf(answer)).toContain("compressed 8 messages");
  expect(textOf(answer)).toContain("until the prompt cache is rebuilt");
  // before: request 14 broke right after the first user message (4.9 % of request 13 repeated)
  for (let k = 1; k < run.length; k++) expect(extends_(run[k - 1]!, run[k]!)).toBe(true);
  expect(run.some((r) => r.messages.some((m) => textOf(m).includes("[summary of earlier work]")))).toBe(false);
  const counts = openaiCache(run.map((r) => openaiPrompt(r as never)));
  console.log(
    `one run with a compress: ${Math.round(billed(total(counts)))} billed-equivalent tokens, request 14 read ${counts[13]!.read} of ${counts[13]!.sent}`,
  );
  expect(counts[13]!.read).toBeGreaterThan(0.9 * counts[13]!.sent);

  expect(await hey(["-c", "-p", "/usage"])).toContain("1 compressed range pending (kept until the prompt cache is rebuilt)");
  await hey(["-c", "-p", "anything left?"]);
  const next = model.requests[run.length]!;
  expect(extends_(run.at(-1)!, next)).toBe(true); // the replay held the compress as the run did
});

test("in the REPL after hey -c, /usage says the compress is pending and leaves the first request going on from the session's last", async () => {
  await hey(["--max-turns", "50", "-p", "read every file in lib"]);
  const count = model.requests.length;
  const t = await startTerm({ args: ["-c"], cwd: project.path, env: dirs() });
  try {
    await t.waitFor(/All read\.\n›\n?$/); // the prompt under the history: an Enter typed before it is drawn is a line break (keys typed ahead of the prompt)
    await t.type("/usage");
    await t.keys("Enter");
    await t.waitFor("1 compressed range pending (kept until the prompt cache is rebuilt)", { joined: true });
    await t.type("anything left?");
    await t.keys("Enter");
    await t.waitFor("Nothing else to read.");
    expect(extends_(model.requests[count - 1]!, model.requests[count]!)).toBe(true);
  } finally {
    await t.close();
  }
});

test("/compact right after hey -c with the compress still pending asks after the session's last request, from the cache, not with the transcript (r6 #6)", async () => {
  await hey(["--max-turns", "50", "-p", "read every file in lib"]);
  const run = model.requests.slice();
  expect(await hey(["-c", "-p", "/usage"])).toContain("1 compressed range pending");
  await hey(["-c", "-p", "/compact"]);
  const ask = model.requests.at(-1)!;
  expect(model.requests).toHaveLength(run.length + 1);
  expect(ask.tools?.length ?? 0).toBeGreaterThan(0); // the last request's tools: the cached ask (the transcript goes without)
  expect(extends_(run.at(-1)!, ask)).toBe(true);
  expect(textOf(ask.messages.at(-1))).toContain("older work is being summarized");
});
