// x6 #4, through dist/hey: a turn of parallel reads over the budget is cut once. Four ~6.6k-token reads in
// one turn at a 20k budget, a short step, then one more read of the same size. Cut to 80 % of the budget
// (and only until it fit), the reads left room for no further read: the request after the next read cut a
// third one and repeated 58 % of the one before (a second rebuild in two requests). Cut down to the
// low-water mark the drop stage uses (60 %), the next read extends the request.
import { beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openaiCache, openaiPrompt } from "../../scripts/cache-emulator.ts";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { textOf, type ChatMessage, type ChatRequest, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(180_000); // the first test may build dist/hey

let step = 0;
const read = (k: number): [string, unknown] => ["read_file", { path: `src/mod${k}.ts` }];
const plan: Turn[] = [
  { calls: [read(1), read(2), read(3), read(4)] },
  { calls: [["bash", { command: "echo step" }]] },
  { calls: [read(5)] },
  { calls: [["bash", { command: "echo step" }]] },
  { text: "All read." },
];
function decide(req: ChatRequest): Turn {
  if (req.messages.at(-1)?.role === "user") step = 0;
  return plan[step++] ?? { text: "All read." };
}
const model = fileModelServer(decide, { promptTokens: (body) => Math.ceil(body.length / 4) });
const project = eachTempDir();
const state = eachTempDir();
beforeEach(() => {
  model.requests.length = 0;
  mkdirSync(join(project.path, "src"));
  for (let k = 1; k <= 5; k++) {
    const lines = Array.from({ length: 280 }, (_, i) => `export function fn${k}_${i}(a: number, b: string): string { return b.repeat(a) + "${i}"; }`);
    writeFileSync(join(project.path, "src", `mod${k}.ts`), `${lines.join("\n")}\n`);
  }
  mkdirSync(join(state.path, "config", "hey"), { recursive: true });
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nprotocol = "openai"\napi_key = "k"\nmodels = ["m"]\n`;
  writeFileSync(join(state.path, "config", "hey", "config.toml"), `[default]\nmodel = "mock/m"\n[agent]\nbudget_tokens = 20000\n${provider}`);
});

const wire = (m: ChatMessage) => JSON.stringify(m);
/** Whether request `now` repeats every message of `before` but its last (whose tail carries the context line). */
const extends_ = (before: ChatRequest, now: ChatRequest) => before.messages.slice(0, -1).every((m, k) => now.messages[k] && wire(now.messages[k]!) === wire(m));

test("parallel reads over the budget are cut once: the request after the next read extends the one before", async () => {
  const run = await runHey(["-p", "read all"], {
    cwd: project.path,
    env: { XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") },
    timeoutMs: 60_000,
  });
  expect(run.code).toBe(0);
  const reqs = model.requests;
  expect(reqs).toHaveLength(5);
  const cutIn = (r: ChatRequest) => r.messages.filter((m) => m.role === "tool" && textOf(m).includes("left out to fit the context budget")).length;
  expect(cutIn(reqs[1]!)).toBe(0); // the newest turn reaches the model whole, over the budget
  expect(cutIn(reqs[2]!)).toBeGreaterThan(0); // the request after it cuts its reads
  expect(cutIn(reqs[3]!)).toBe(cutIn(reqs[2]!)); // before: one more read cut here, after the fifth read
  for (const k of [3, 4]) expect(extends_(reqs[k - 1]!, reqs[k]!)).toBe(true);
  const fifth = reqs[3]!.messages.findLast((m) => m.role === "tool" && textOf(m).includes("fn5_"));
  expect(textOf(fifth)).toContain("fn5_279"); // the newest read reaches the model whole
  expect(textOf(fifth)).not.toContain("left out");
  const counts = openaiCache(reqs.map((r) => openaiPrompt(r as never)));
  console.log(
    `requests 4-5 read from the cache: ${counts
      .slice(3)
      .map((c) => `${c.read}/${c.sent}`)
      .join(", ")}`,
  );
});
