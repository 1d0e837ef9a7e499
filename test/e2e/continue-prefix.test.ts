// x134 findings 2 and 3, through dist/hey: a session carried on in several `hey -c` runs within the
// cache's lifetime sends what the same prompts typed into one session would. Each run's first request
// starts with the last request's bytes: no old error's arguments purged at the 4th run (the replay
// counted the cache from each run's start and rebuilt it with rewrites the run never made), and a
// result cut to fit keeps its size ("477 lines left out" became "478": the cut sizes were forgotten).
import { beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf, textOf, type ChatMessage, type ChatRequest, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(180_000); // the first test may build dist/hey

let plan: (prompt: number) => [string, unknown][][] = () => [];
const summary = (req: ChatRequest) => systemOf(req).startsWith("You compress") || textOf(req.messages.at(-1)).includes("[hey: older work is being summarized");
let prompt = 0;
let step = 0;
let summarizes = true;
/** The scripted model: for the Nth prompt, plan(N)'s calls one round after another, then an answer. */
function decide(req: ChatRequest): Turn {
  if (summary(req) && !summarizes) throw new Error("this endpoint writes no summaries");
  if (summary(req)) return { text: "SUMMARY: the user asked for file reads; they were read; all fine." };
  if (req.messages.at(-1)?.role === "user") [prompt, step] = [prompt + 1, 0]; // a new prompt (after it, tool results come last)
  const rounds = plan(prompt);
  return step < rounds.length ? { calls: rounds[step++]! } : { text: `Done with task ${prompt}.` };
}
// a tokenizer's count: the estimate's ratio is corrected after each response, as with a real provider
const model = fileModelServer(decide, { promptTokens: (body) => Math.ceil(body.length / 4) });
const project = eachTempDir();
const state = eachTempDir();
beforeEach(() => {
  model.requests.length = 0;
  prompt = 0;
  summarizes = true;
  const big = Array.from({ length: 300 }, (_, k) => `line of big file with some text to make it longer number ${k + 1}`);
  writeFileSync(join(project.path, "big.txt"), `${big.join("\n")}\n`);
  const huge = Array.from({ length: 1100 }, (_, k) => `row ${k} ${"abcdefghij".repeat(30)}`);
  writeFileSync(join(project.path, "huge.txt"), `${huge.join("\n")}\n`);
});

function configure(window: number, extra = ""): void {
  mkdirSync(join(state.path, "config", "hey"), { recursive: true });
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nprotocol = "openai"\napi_key = "k"\nmodels = ["m"]\ncontext_window = ${window}\n`;
  writeFileSync(join(state.path, "config", "hey", "config.toml"), `[default]\nmodel = "mock/m"\n${provider}${extra}`);
}

/** `runs` prompts, the first with `hey -p`, each after it with `hey -c -p`; `from`: the first one's number. */
async function carryOn(runs: number, from = 1): Promise<void> {
  for (let n = from; n < from + runs; n++) {
    const run = await runHey([...(n > 1 ? ["-c"] : []), "-p", `task number ${n}: look at the files`], {
      cwd: project.path,
      env: { XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") },
      timeoutMs: 60_000,
    });
    if (run.code !== 0) throw new Error(run.stderr.slice(-800));
  }
}

const wire = (m: ChatMessage) => JSON.stringify(m);
/** Where request `now` first differs from request `before` but its last message (whose tail carries the context line): -1 when it extends it. */
function rewriteAt(before: ChatRequest, now: ChatRequest): number {
  const kept = before.messages.slice(0, -1).map(wire);
  return kept.findIndex((m, k) => now.messages[k] === undefined || wire(now.messages[k]!) !== m);
}

test("five hey -c runs, dedup off: every request extends the one before it, no old error purged at a run's start", async () => {
  configure(200_000, "[compaction]\ndedup = false\n");
  plan = (n) => [[["read_file", { path: "big.txt" }]], [["read_file", { path: `nope${n}.txt` }]]];
  await carryOn(5);
  const chats = model.requests.filter((r) => !summary(r));
  expect(chats).toHaveLength(5 * 3); // no summary: the session stays under the budget
  // before: the 4th and 5th runs' first requests rewrote the 1st and 2nd runs' failed reads to `{}` + [arguments purged]
  const rewrites = chats.slice(1).flatMap((now, i) => (rewriteAt(chats[i]!, now) < 0 ? [] : [i + 1]));
  expect(rewrites).toEqual([]);
  expect(JSON.stringify(chats.at(-1))).not.toContain("[arguments purged]");
});

test("a result cut to fit keeps its size across hey -c: the first request of the next run extends the last one", async () => {
  configure(16_384);
  // a 340 KB read and its cat: over a 13k budget, the older one is cut to its head and tail
  plan = () => [[["read_file", { path: "huge.txt" }]], [["bash", { command: "cat huge.txt" }]], [["bash", { command: "seq 1 9000" }]]];
  await carryOn(2);
  const chats = model.requests.filter((r) => !summary(r));
  const first = chats.findIndex((r) => r.messages.some((m) => textOf(m).startsWith("task number 2")));
  const [last, next] = [chats[first - 1]!, chats[first]!];
  const cuts = (r: ChatRequest) => r.messages.flatMap((m) => /\[… \d+ lines left out to fit the context budget/.exec(textOf(m)) ?? []);
  expect(cuts(last).length).toBeGreaterThan(0); // the budget was reached: a result was cut
  expect(cuts(next)).toEqual(cuts(last)); // before: "477 lines left out" became "478"
  expect(rewriteAt(last, next)).toBe(-1); // before: 30 % of the prefix reused
});

test("a pause past the cache's lifetime between runs: the run after it rebuilds, and the next hey -c still extends its last request", async () => {
  configure(16_384);
  summarizes = false; // the trims stand, and what they cut stays cut: no summary begins the cache anew
  plan = () => [[["read_file", { path: "huge.txt" }]], [["bash", { command: "cat huge.txt" }]], [["bash", { command: "seq 1 9000" }]]];
  await carryOn(1);
  // the first run's requests were made two hours ago: past the mock endpoint's cache lifetime (an hour)
  const dir = join(state.path, "hey", "sessions");
  const path = join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!);
  const old = newId(Date.now() - 2 * 3_600_000).slice(0, 9);
  writeFileSync(path, readFileSync(path, "utf8").replace(/("type":"usage","id":")[0-9a-z]{9}/g, `$1${old}`));
  await carryOn(2, 2);
  const chats = model.requests.filter((r) => !summary(r));
  const first = chats.findIndex((r) => r.messages.some((m) => textOf(m).startsWith("task number 3")));
  // before: the replay began at the pause and forgot what the requests before it had cut
  expect(rewriteAt(chats[first - 1]!, chats[first]!)).toBe(-1);
});

// x4 #2: how long the cache lives is the endpoint's. This mock is an OpenAI-style endpoint (an hour);
// sent Anthropic's breakpoints (cache_control = true: Claude behind a gateway) it is taken for Anthropic's 5 minutes
test.each([
  ["an OpenAI-style endpoint: the duplicate read the last run deferred stays, and the first request extends its last one", "", false],
  ["an endpoint sent Anthropic's cache_control marks: its cache is gone, so the first request prunes what was deferred", "cache_control = true\n", true],
])("hey -c 20 minutes later on %s", async (_, extra, rewrites) => {
  configure(200_000, extra);
  writeFileSync(join(project.path, "a.txt"), `${"a small file read twice\n".repeat(80)}`);
  // the second cat of a.txt makes the first a duplicate, too far back for pruning it to pay for the cache miss: deferred
  plan = (n) => (n === 1 ? [[["bash", { command: "cat a.txt" }]], [["read_file", { path: "big.txt" }]], [["bash", { command: "cat a.txt" }]]] : []);
  await carryOn(1);
  const dir = join(state.path, "hey", "sessions");
  const path = join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!);
  const old = newId(Date.now() - 20 * 60_000).slice(0, 9);
  writeFileSync(path, readFileSync(path, "utf8").replace(/("type":"usage","id":")[0-9a-z]{9}/g, `$1${old}`));
  await carryOn(1, 2);
  const chats = model.requests.filter((r) => !summary(r));
  const first = chats.findIndex((r) => r.messages.some((m) => textOf(m).startsWith("task number 2")));
  expect(JSON.stringify(chats[first - 1])).not.toContain("[pruned: duplicate call"); // the run itself deferred it
  expect(JSON.stringify(chats[first]).includes("[pruned: duplicate call")).toBe(rewrites);
  // before: every endpoint's cache was taken as gone after 5 minutes, and the prefix rewritten
  if (!rewrites) expect(rewriteAt(chats[first - 1]!, chats[first]!)).toBe(-1);
});
